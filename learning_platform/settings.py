"""Settings for learning-platform, read from the environment.

One module serves every environment. The defaults give the zero-setup embedded
mode (SQLite file, in-process tasks, local-memory cache, console e-mail); production
sets DEBUG=false plus the variables documented in `.env.example`.
"""

import os
import sys
import tempfile
from datetime import timedelta
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

from learning_platform import broker, settings_api, settings_media, settings_schedule
from learning_platform.logging_config import logging_config

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
env_file = env.str("ENV_FILE", default="")
if env_file:
    environ.Env.read_env(env_file)

DEBUG = env.bool("DEBUG", default=False)
# Under pytest unless said otherwise: fast hashing, in-process tasks, a file test database.
TESTING = env.bool("TESTING", default="pytest" in sys.modules)

_INSECURE_DEV_KEY = "django-insecure-embedded-default-do-not-use-in-production"
SECRET_KEY = env.str("SECRET_KEY", default="")
if not SECRET_KEY:
    if not (DEBUG or TESTING):
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = _INSECURE_DEV_KEY

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]", "testserver"])
# A separately hosted SPA: in development the Vite dev server (`npm run dev` in web/).
_VITE_DEV_ORIGINS = ["http://localhost:5173", "http://127.0.0.1:5173"]
CORS_ALLOWED_ORIGINS = env.list("CORS_ALLOWED_ORIGINS", default=_VITE_DEV_ORIGINS if DEBUG else [])
CORS_ALLOW_CREDENTIALS = True
CORS_ALLOW_HEADERS = (
    "accept",
    "authorization",
    "content-type",
    "if-none-match",
    "user-agent",
    "x-csrftoken",
    "x-requested-with",
    "x-session-token",
    # allauth headless: the key of a pending e-mail verification or password reset.
    "x-email-verification-key",
    "x-password-reset-key",
    "x-request-id",
)
# Location: where a 202's submission is polled.
CORS_EXPOSE_HEADERS = ["ETag", "Location", "Retry-After", "X-Request-ID"]
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=_VITE_DEV_ORIGINS if DEBUG else [])
# API and allauth paths answer a CSRF failure in the API's JSON error shape, others in HTML.
CSRF_FAILURE_VIEW = "learning_platform.api.errors.csrf_failure"

SITE_NAME = env.str("SITE_NAME", default="Learning Platform")
# Where the web app lives; used to build links in e-mails (verification, reset, lessons).
# By default this server, which serves the app at `/` (make run's address).
FRONTEND_URL: str = env.str("FRONTEND_URL", default="http://127.0.0.1:8000").rstrip("/")
# Where this API is reachable from the outside; used for one-click unsubscribe links.
PUBLIC_API_URL = env.str("PUBLIC_API_URL", default="http://127.0.0.1:8000").rstrip("/")
# The web app's build (`make web`: Vite's output); served at `/` with its client routes.
WEB_DIST_DIR = Path(env.str("WEB_DIST_DIR", default=str(BASE_DIR / "web" / "dist")))

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.sitemaps",
    # Before staticfiles, whose runserver it extends: the embedded default's periodic jobs.
    "learning_platform.devserver",
    "django.contrib.staticfiles",
    "simple_history",
    "corsheaders",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "allauth",
    "allauth.account",
    "allauth.headless",
    "allauth.usersessions",
    "learning_platform",
    "accounts",
    "lessons",
    "progress",
    "leagues",
    "achievements",
    "reviews",
    "exercises",
    "community",
    "notifications",
    "insights",
    "pages",
    "curriculum",
    # The LTI 1.3 tool: django-lti's platforms, deployments and keys, and ours (lti/lti13.py).
    "lti_tool",
    "lti",
    "xapi",
]

MIDDLEWARE = [
    # Outermost: the request id, the request's metrics and its log line cover everything.
    "learning_platform.observe.RequestObservingMiddleware",
    # First: every later reader of REMOTE_ADDR sees the client, not the balancer.
    "learning_platform.proxies.TrustedProxiesMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "learning_platform.web_app.WebAppWhiteNoiseMiddleware",
    # Signed-out HTML and JSON compressed (learning_platform/compression.py: why only those).
    "learning_platform.compression.PublicGZipMiddleware",
    "corsheaders.middleware.CorsMiddleware",
    # API answers private unless a view says they are the same for everyone (api/private.py).
    "learning_platform.api.private.PrivateAnswersMiddleware",
    "learning_platform.api.errors.JsonNotFoundUnderDebugMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "learning_platform.activity.SessionActivityMiddleware",
    # Admin saves record who made them (django-simple-history).
    "simple_history.middleware.HistoryRequestMiddleware",
]

ROOT_URLCONF = "learning_platform.urls"
WSGI_APPLICATION = "learning_platform.wsgi.application"
ASGI_APPLICATION = "learning_platform.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database -----------------------------------------------------------------------------
DATABASES = {
    "default": env.db_url("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"]["CONN_MAX_AGE"] = env.int("DB_CONN_MAX_AGE", default=60)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    DATABASES["default"].setdefault("OPTIONS", {})["server_side_binding"] = env.bool(
        "DB_SERVER_SIDE_BINDING", default=True
    )
    # Behind pgbouncer in transaction pooling a cursor's transaction may not own its server
    # connection between fetches, so QuerySet.iterator() must not use a server-side cursor.
    DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = env.bool(
        "DB_DISABLE_SERVER_SIDE_CURSORS", default=False
    )
elif DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL and a busy timeout let the dev server and an in-process task write side by side.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "transaction_mode": "IMMEDIATE", "init_command": "PRAGMA journal_mode=WAL;"}
    )
    # A file, not memory, so a real Celery worker in the integration tests can share it.
    # One file per test process, so parallel runs never share (or delete) each other's.
    DATABASES["default"]["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"lp_test_db_{os.getpid()}.sqlite3")
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: cache and Celery broker --------------------------------------------------------
REDIS_URL = env.str("REDIS_URL", default="")
# The cache and the broker default to REDIS_URL; either can live elsewhere (or, in the
# fault-and-soak bench, behind a proxy that can cut it). The broker may be RabbitMQ (amqp://).
CACHE_URL = env.str("CACHE_URL", default=REDIS_URL)
BROKER_URL = env.str("BROKER_URL", default=REDIS_URL)
CACHE_KEY_PREFIX = env.str("CACHE_KEY_PREFIX", default="lp")
if TESTING and os.environ.get("PYTEST_XDIST_WORKER"):
    # xdist workers inherit the test run's prefix; their id keeps their keys apart.
    CACHE_KEY_PREFIX += "-" + os.environ["PYTEST_XDIST_WORKER"]
if CACHE_URL:
    # Redis down is a cache miss (learning_platform/cache.py): requests go to the database.
    CACHES = {
        "default": {
            "BACKEND": "learning_platform.cache.RedisCache",
            "LOCATION": CACHE_URL,
            "KEY_PREFIX": CACHE_KEY_PREFIX,
            "OPTIONS": {
                "SOCKET_TIMEOUT": env.float("CACHE_SOCKET_TIMEOUT", default=0.5),
                "RETRY_AFTER": env.float("CACHE_RETRY_AFTER", default=5),
                # allauth's rate limits (failed sign-ins, sign-ups, resets) hold while Redis is
                # down: kept per process meanwhile (learning_platform/cache.py).
                "FALLBACK_KEY_PREFIXES": ["allauth:rl:"],
            },
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --- Auth ---------------------------------------------------------------------------------
AUTH_USER_MODEL = "accounts.User"
# Both load the signed-in user through the cache (accounts/backends.py).
AUTHENTICATION_BACKENDS = [
    "accounts.backends.CachedModelBackend",
    "accounts.backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Argon2 (Django's recommendation) for new and changed passwords; a PBKDF2 hash still signs
# in and is rehashed with Argon2 then. Under tests, MD5: a strong hash per sign-up would make
# the suite slow.
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]
if TESTING:
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Proxies in front of the app (1 behind one load balancer). One setting for the whole app:
# TrustedProxiesMiddleware puts the address that proxy saw into REMOTE_ADDR, which DRF's
# throttles, allauth's rate limits and the logs all read; an X-Forwarded-For entry the client
# wrote itself is ignored. allauth's own count stays 0 so the header is not read twice.
NUM_PROXIES = env.int("NUM_PROXIES", default=0)
ALLAUTH_TRUSTED_PROXY_COUNT = 0

ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*"]
ACCOUNT_USER_MODEL_USERNAME_FIELD = None
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_EMAIL_VERIFICATION = env.str("ACCOUNT_EMAIL_VERIFICATION", default="optional")
ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED = False
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
# The account's address is told when its password changes, and when another address (which
# must be confirmed first) becomes the account's own. Not ACCOUNT_CHANGE_EMAIL: it would make
# an unconfirmed new address the account's at once when the current one is unconfirmed too.
ACCOUNT_EMAIL_NOTIFICATIONS = True
# Days an account asked to be deleted waits for its owner to change their mind (signing in).
ACCOUNT_DELETION_GRACE_DAYS = env.int("ACCOUNT_DELETION_GRACE_DAYS", default=7)
ACCOUNT_ADAPTER = "accounts.adapters.AccountAdapter"
ACCOUNT_SIGNUP_FORM_CLASS = "accounts.signup.SignupForm"
# Reset keys carry the address they were sent to: completing one proves it (issue 25).
ACCOUNT_PASSWORD_RESET_TOKEN_GENERATOR = "accounts.reset_keys.AddressBoundTokenGenerator"  # noqa: S105
ACCOUNT_USER_DISPLAY = "accounts.models.user_display"
ACCOUNT_RATE_LIMITS = {} if TESTING else {"login_failed": "10/m/ip,5/5m/key"}
HEADLESS_ONLY = True
HEADLESS_CLIENTS = ("app", "browser")
HEADLESS_FRONTEND_URLS = {
    "account_confirm_email": f"{FRONTEND_URL}/account/verify-email/{{key}}",
    "account_reset_password": f"{FRONTEND_URL}/account/password/reset",
    "account_reset_password_from_key": f"{FRONTEND_URL}/account/password/reset/key/{{key}}",
    "account_signup": f"{FRONTEND_URL}/account/signup",
}
HEADLESS_SERVE_SPECIFICATION = True
# allauth's own page loads Redoc from a CDN; this one loads the copy the project serves.
HEADLESS_SPECIFICATION_TEMPLATE_NAME = "learning_platform/allauth_openapi.html"
HEADLESS_TOKEN_STRATEGY = "accounts.session_tokens.SessionTokenStrategy"  # noqa: S105
# allauth would write on every signed-in request; learning_platform.activity records each
# session's activity at most once per SESSION_ACTIVITY_INTERVAL seconds instead.
USERSESSIONS_TRACK_ACTIVITY = False
SESSION_ACTIVITY_INTERVAL = env.int("SESSION_ACTIVITY_INTERVAL", default=300)
# Sessions are read from the cache (Redis in production) and written through to the database.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

# --- REST framework and schema (settings_api.py) ------------------------------------------
REST_FRAMEWORK = settings_api.rest_framework(env, debug=DEBUG)
SPECTACULAR_SETTINGS = settings_api.SPECTACULAR_SETTINGS

# --- Celery -------------------------------------------------------------------------------
CELERY_BROKER_URL = BROKER_URL or "memory://"
# Queue of tasks not routed elsewhere (a test worker sets its own, so tasks it enqueues stay with it).
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_TASK_DEFAULT_QUEUE", default="celery")
# Embedded mode (no broker): tasks run in-process. Tests run them in-process too, except the
# integration tests, which start a real worker on the broker (see conftest `live_worker`).
CELERY_TASK_ALWAYS_EAGER = not BROKER_URL or TESTING
# Under tests a task's exception fails the test that ran it (a swallowed one hid bugs). The
# embedded mode keeps answering: a side task failing there is logged, never the request's error.
CELERY_TASK_EAGER_PROPAGATES = TESTING
CELERY_TASK_IGNORE_RESULT = True
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_TASK_SOFT_TIME_LIMIT", default=60)
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", default=90)
# Redis or RabbitMQ (learning_platform/broker.py): Redis's visibility timeout (above the hard
# time limit, well under an hour) and socket timeouts; RabbitMQ's quorum queues, publisher
# confirms and heartbeat. RABBITMQ_CONSUMER_TIMEOUT says what the broker's consumer_timeout is.
CELERY_BROKER_TRANSPORT_OPTIONS, _broker_settings = broker.celery_settings(
    BROKER_URL,
    visibility_timeout=env.int("CELERY_VISIBILITY_TIMEOUT", default=180),
    heartbeat=env.int("BROKER_HEARTBEAT", default=30),
)
vars().update(_broker_settings)
RABBITMQ_CONSUMER_TIMEOUT = env.int("RABBITMQ_CONSUMER_TIMEOUT", default=1800)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# The longest wait between a task's automatic retries. A retry waits in the broker, so this plus
# the task's time limit must stay under Redis's visibility timeout, or the retry runs twice
# (learning_platform/checks.py refuses to start otherwise); the periodic sweeps take over work
# whose retries ran out.
CELERY_RETRY_BACKOFF_MAX = env.int("CELERY_RETRY_BACKOFF_MAX", default=60)
# After a failed publish, seconds a process keeps tasks in the database for the sweep.
BROKER_RETRY_AFTER = env.float("BROKER_RETRY_AFTER", default=5)
# The outbox (learning_platform/outbox.py): a task published but not done this many seconds
# later (its message lost with Redis, its worker gone) is published again by the sweep; longer
# than a queued task waits and runs. A failing task is published at most OUTBOX_MAX_ATTEMPTS
# times, then kept for an operator (the admin lists it).
OUTBOX_REDELIVER_AFTER = env.int("OUTBOX_REDELIVER_AFTER", default=300)
OUTBOX_MAX_ATTEMPTS = env.int("OUTBOX_MAX_ATTEMPTS", default=12)
# Celery's Django fixup closes database connections around every task; keep them (closed every
# 1000 tasks) and let close_old_connections (celery.py) honour CONN_MAX_AGE, as for requests.
CELERY_DB_REUSE_MAX = 1000
# Times that decide a learner's day come from the database's clock (learning_platform/clock.py).
CLOCK_FROM_DATABASE = env.bool("CLOCK_FROM_DATABASE", default=not TESTING)
CELERY_TIMEZONE = "UTC"
# Without a broker nobody runs beat: the development server (runserver, as `make run` starts
# it) then runs this schedule itself, in one thread per process (learning_platform/scheduler.py).
EMBEDDED_SCHEDULER = env.bool("EMBEDDED_SCHEDULER", default=not BROKER_URL and not TESTING)


CELERY_BEAT_SCHEDULE = settings_schedule.BEAT_SCHEDULE  # the periodic jobs

# Learning records (xapi/): statements go to this LRS; none are kept while it is unset.
XAPI_LRS_URL = env.str("XAPI_LRS_URL", default="")
XAPI_LRS_USERNAME = env.str("XAPI_LRS_USERNAME", default="")
XAPI_LRS_PASSWORD = env.str("XAPI_LRS_PASSWORD", default="")
# Web Push (notifications/push.py): the VAPID private key (`manage.py generate_vapid_key`); the
# public key is derived from it. Unset: no pushes, and the app offers none.
WEBPUSH_VAPID_PRIVATE_KEY = env.str("WEBPUSH_VAPID_PRIVATE_KEY", default="")
WEBPUSH_VAPID_SUBJECT = env.str("WEBPUSH_VAPID_SUBJECT", default="")

# --- E-mail -------------------------------------------------------------------------------
EMAIL_CONFIG = env.email_url("EMAIL_URL", default="consolemail://")
vars().update(EMAIL_CONFIG)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Learning Platform <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# --- I18n, static -------------------------------------------------------------------------
LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# Uploaded files (lesson images): the file system, or an S3-compatible bucket (settings_media.py).
MEDIA_STORAGE = env.str("MEDIA_STORAGE", default="filesystem")
MEDIA_ROOT = Path(env.str("MEDIA_ROOT", default=str(BASE_DIR / "media")))
MEDIA_URL = env.str("MEDIA_URL", default="/media/")
STORAGES = {
    "default": settings_media.default_storage(env, kind=MEDIA_STORAGE),
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not (DEBUG or TESTING)
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# Request bodies without their files; an upload's file is bounded by LESSON_IMAGE_MAX_BYTES.
DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024
# Lesson images (lessons/images.py): the largest upload, and the most pixels decoded (a small
# file can claim a huge image); stored no wider than LESSON_IMAGE_MAX_WIDTH.
LESSON_IMAGE_MAX_BYTES = env.int("LESSON_IMAGE_MAX_BYTES", default=10 * 1024 * 1024)
LESSON_IMAGE_MAX_PIXELS = env.int("LESSON_IMAGE_MAX_PIXELS", default=40_000_000)
LESSON_IMAGE_MAX_WIDTH = env.int("LESSON_IMAGE_MAX_WIDTH", default=1600)

# --- Security (production when DEBUG is off) ----------------------------------------------
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=not DEBUG and not TESTING)
# Load balancers and container health checks probe over plain HTTP.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$", r"^metrics$"]
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=not DEBUG and not TESTING)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0 if DEBUG or TESTING else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_HSTS_SECONDS > 0
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=SECURE_HSTS_SECONDS > 0)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SILENCED_SYSTEM_CHECKS = env.list("SILENCED_SYSTEM_CHECKS", default=[])

# --- Domain settings ----------------------------------------------------------------------
# Keep /me/progress bodies in the cache (versioned, see progress/summary_cache.py). Needs a
# cache shared by every process (Redis), or a single process (the tests).
PROGRESS_SUMMARY_CACHE = env.bool("PROGRESS_SUMMARY_CACHE", default=bool(CACHE_URL) or TESTING)
# Leaderboards from Redis sorted sets (progress/boards.py); without them (no Redis, the
# embedded default) or while Redis is down they are answered from SQL over the XP-per-day rollup.
# On in tests too when Redis is there: their keys carry the run's CACHE_KEY_PREFIX.
LEADERBOARD_REDIS_URL = env.str("LEADERBOARD_REDIS_URL", default=REDIS_URL)
LEADERBOARD_REDIS = env.bool("LEADERBOARD_REDIS", default=bool(REDIS_URL))
LEADERBOARD_KEY_PREFIX = env.str(
    "LEADERBOARD_KEY_PREFIX", default=CACHE_KEY_PREFIX + ":leaderboard"
)
# Keep public page bodies (lesson, quest outline, achievements, first comment page) in the
# cache, versioned (learning_platform/versioned.py). Needs a cache all processes share
# (Redis), or a single process (the tests).
PAGE_CACHE = env.bool("PAGE_CACHE", default=bool(CACHE_URL) or TESTING)
DEMO_QUEST_SLUG = env.str("DEMO_QUEST_SLUG", default="transformers")
# How long the admin's analytics pages reuse their figures (seconds); "Recompute now" skips it.
ANALYTICS_CACHE_SECONDS = env.int("ANALYTICS_CACHE_SECONDS", default=300)
# How long a submission may sit queued before the periodic sweep re-enqueues it.
SUBMISSION_REQUEUE_AFTER = timedelta(seconds=env.int("SUBMISSION_REQUEUE_AFTER", default=120))
# At a backlog, one grading task grades up to this many waiting submissions (1: one each).
# A batch's claims, transaction and cache bumps are paid once for all of it; its grades are
# written together at its end (50 grades: about 25 ms); a worker killed mid-batch leaves the
# rest to the sweep (docs/operations.md).
GRADING_BATCH_SIZE = env.int("GRADING_BATCH_SIZE", default=50)
# Replies within this window reach a learner as one e-mail (a digest), not one per reply.
COMMUNITY_DIGEST_WINDOW_SECONDS = env.int("COMMUNITY_DIGEST_WINDOW_SECONDS", default=300)

# --- Operators: metrics, logs; Sentry and OpenTelemetry off unless set (docs/operations.md) --
# /metrics answers only `Authorization: Bearer <METRICS_TOKEN>` (unset: 404); workers, a port.
METRICS_TOKEN = env.str("METRICS_TOKEN", default="")
WORKER_METRICS_PORT = env.int("WORKER_METRICS_PORT", default=0)
WORKER_METRICS_ADDR = env.str("WORKER_METRICS_ADDR", default="127.0.0.1")
# json: one JSON object per line; text: for people at a terminal. Another value fails dictConfig.
LOG_FORMAT = env.str("LOG_FORMAT", default="text" if DEBUG or TESTING else "json")
SENTRY_DSN = env.str("SENTRY_DSN", default="")
SENTRY_TRACES_SAMPLE_RATE = env.float("SENTRY_TRACES_SAMPLE_RATE", default=0.0)
OTEL_EXPORTER_OTLP_ENDPOINT = env.str("OTEL_EXPORTER_OTLP_ENDPOINT", default="")
LOGGING = logging_config(log_format=LOG_FORMAT, level=env.str("LOG_LEVEL", default="INFO"))
