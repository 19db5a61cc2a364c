"""The REST framework's and drf-spectacular's settings (settings.py names them)."""

from typing import Any

import environ


def rest_framework(env: environ.Env, *, debug: bool) -> dict[str, Any]:
    """REST_FRAMEWORK, with the throttle rates the environment `env` sets."""
    return {
        "DEFAULT_AUTHENTICATION_CLASSES": [
            "learning_platform.api.authentication.SessionTokenAuthentication",
            "learning_platform.api.authentication.CsrfSessionAuthentication",
        ],
        "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
        "DEFAULT_PAGINATION_CLASS": "learning_platform.api.pagination.PageNumberPagination",
        "PAGE_SIZE": 20,
        "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"]
        + (["rest_framework.renderers.BrowsableAPIRenderer"] if debug else []),
        "DEFAULT_PARSER_CLASSES": ["learning_platform.api.parsers.BoundedJSONParser"],
        "DEFAULT_CONTENT_NEGOTIATION_CLASS": "learning_platform.api.negotiation.ContentNegotiation",
        "EXCEPTION_HANDLER": "learning_platform.api.errors.exception_handler",
        "DEFAULT_SCHEMA_CLASS": "learning_platform.api.schema.AutoSchema",
        "DEFAULT_THROTTLE_RATES": {
            "submissions": env.str("THROTTLE_SUBMISSIONS", default="10/min"),
            "comments": env.str("THROTTLE_COMMENTS", default="6/min"),
            "comment_edits": env.str("THROTTLE_COMMENT_EDITS", default="12/min"),
            "reports_anon": env.str("THROTTLE_REPORTS_ANON", default="3/hour"),
            "reports_user": env.str("THROTTLE_REPORTS_USER", default="20/hour"),
            "sync": env.str("THROTTLE_SYNC", default="60/min"),
            "check_answers": env.str("THROTTLE_CHECK_ANSWERS", default="60/min"),
            "admin_markdown_preview": "240/min",  # the admin's live preview, per editor
        },
        "TEST_REQUEST_DEFAULT_FORMAT": "json",
        # REMOTE_ADDR is already the client's (learning_platform/proxies.py, NUM_PROXIES).
        "NUM_PROXIES": 0,
    }


SPECTACULAR_SETTINGS: dict[str, Any] = {
    "TITLE": "learning-platform API",
    "DESCRIPTION": (
        "Backend API of a gamified learning platform: quests and lessons, XP and levels, "
        "progress sync across devices, achievements, graded exercises and community. "
        "Authentication goes through allauth's headless API under `/_allauth/` "
        "(browser: session cookie + CSRF; app: `X-Session-Token`). Every error answers "
        "`{type, title, status, detail, errors}`."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    # Swagger UI and Redoc from drf-spectacular-sidecar's static files: docs work offline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # No call to swagger.io's online validator either.
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "IssueReportKindEnum": "community.models.IssueReport.Kind",
        "IssueReportStatusEnum": "community.models.IssueReport.Status",
        "SubmissionStatusEnum": "exercises.models.SubmissionStatus",
        "LeagueMoveEnum": "leagues.results.MOVES",
    },
}
