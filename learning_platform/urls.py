from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from learning_platform import health
from learning_platform.api.index import ApiIndexView

api_v1 = [
    path("", ApiIndexView.as_view(), name="api-index"),
    path("", include("accounts.urls")),
    path("", include("lessons.urls")),
    path("", include("progress.urls")),
    path("", include("achievements.urls")),
    path("", include("exercises.urls")),
    path("", include("community.urls")),
]

urlpatterns = [
    path("admin/", admin.site.urls),
    path("_allauth/", include("allauth.headless.urls")),
    path("api/v1/", include(api_v1)),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
]

handler400 = "learning_platform.api.errors.handler400"
handler403 = "learning_platform.api.errors.handler403"
handler404 = "learning_platform.api.errors.handler404"
handler500 = "learning_platform.api.errors.handler500"
