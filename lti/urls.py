from django.urls import path

from lti import views

app_name = "lti"

urlpatterns = [
    path("jwks.json", views.jwks, name="jwks"),
    path("login/", views.oidc_login, name="login"),
    path("login/<uuid:registration_uuid>/", views.oidc_login, name="login-registration"),
    path("launch/", views.launch, name="launch"),
    path("continue/<str:token>/", views.continue_launch, name="continue"),
    path("deep-link/", views.deep_link_pick, name="deep-link"),
]
