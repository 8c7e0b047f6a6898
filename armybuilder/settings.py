"""Settings for the army-list builder: one module, in sections, everything that varies read from the environment.

Two profiles, chosen by ARMYBUILDER_ENV:
- ``local`` (the default, ``make run``): DEBUG on, SQLite next to manage.py, the
  local-memory cache, jobs run in-process (no broker needed).
- ``production`` (``make serve``, docs/deploy.md): DEBUG off whatever DEBUG says;
  refuses to start without SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL and REDIS_URL;
  Redis for the cache, sessions' fast path, throttles and the Celery broker;
  HTTPS everywhere (HSTS, secure cookies, SSL redirect) unless told otherwise.
Every variable is listed, with its default, in docs/deploy.md ("Settings").
"""
import os
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env(name: str, default: str = "") -> str:
    return os.environ.get(name, default).strip()


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or not value.strip():
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    value = env(name)
    try:
        return int(value) if value else default
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}") from None


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in env(name, default).split(",") if item.strip()]


# ================================================================ profile

ARMYBUILDER_ENV = env("ARMYBUILDER_ENV", "local").lower()
if ARMYBUILDER_ENV not in {"local", "production"}:
    raise ImproperlyConfigured(f"ARMYBUILDER_ENV is 'local' or 'production', not {ARMYBUILDER_ENV!r}")
PRODUCTION = ARMYBUILDER_ENV == "production"

if PRODUCTION:
    _missing = [name for name in ("SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "REDIS_URL") if not env(name)]
    if _missing:
        raise ImproperlyConfigured(
            "ARMYBUILDER_ENV=production needs these environment variables: " + ", ".join(_missing)
            + " (see docs/deploy.md, 'Settings')")

# A forgotten DEBUG=1 in production must not serve debug pages.
DEBUG = False if PRODUCTION else env_bool("DEBUG", True)
SECRET_KEY = env("SECRET_KEY") or ("dev-only-insecure-key-change-me" if DEBUG else "")
if not SECRET_KEY:
    raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")

# ================================================================ applications

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",  # runserver serves static files the way production does
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "template_partials",
    "csp",
    "handbooks",
    "armybuilder.lists",
    "armybuilder.web",
    "armybuilder.api",
    "armybuilder.pdf",
    "armybuilder.jobs",
    "armybuilder.services",
    "armybuilder.services.events",
    "armybuilder.commands",
]

MIDDLEWARE = [
    "armybuilder.observability.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "armybuilder.urls"

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

WSGI_APPLICATION = "armybuilder.wsgi.application"

# ================================================================ database

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=env_int("CONN_MAX_AGE", 60 if PRODUCTION else 0),
        conn_health_checks=PRODUCTION,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL with normal syncing: a commit no longer waits ~20 ms for the disk; still safe against crashes.
    DATABASES["default"].setdefault("OPTIONS", {})["init_command"] = (
        "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;")
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A database that does not answer is reported (503) within seconds, not after the OS's TCP timeout.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("connect_timeout", env_int("DATABASE_CONNECT_TIMEOUT", 5))

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# ================================================================ cache, sessions (Redis)

REDIS_URL = env("REDIS_URL")
if REDIS_URL:
    # Django's own Redis backend: handbook snapshots, rendered PDFs and throttle counters, shared by all processes.
    CACHES = {"default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": env("CACHE_KEY_PREFIX", "armybuilder"),
        "TIMEOUT": 60 * 60,
        "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 5},
    }}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Sessions read from the cache, written through to the database: a Redis restart logs nobody out.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

# ================================================================ jobs (Celery)

# Jobs go to a worker when there is a broker; without one (make run) they run in-process.
CELERY_BROKER_URL = env("CELERY_BROKER_URL") or (REDIS_URL if PRODUCTION else "")
JOBS_IN_PROCESS = not CELERY_BROKER_URL
CELERY_TASK_ACKS_LATE = True  # a job's message is only done when the job is
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1  # slow jobs: a worker takes one at a time
CELERY_TASK_IGNORE_RESULT = True  # results live in the Job row
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_TRANSPORT_OPTIONS = {
    # How long a taken, unfinished message waits before Redis hands it out again (a worker died).
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 60 * 60),
}
CELERY_TASK_TIME_LIMIT = env_int("JOBS_TIME_LIMIT_SECONDS", 15 * 60)
CELERY_WORKER_HIJACK_ROOT_LOGGER = False  # the worker logs through LOGGING below, as JSON
CELERY_WORKER_MAX_MEMORY_PER_CHILD = env_int("CELERY_MAX_MEMORY_PER_CHILD_KB", 512 * 1024)
JOBS_HEARTBEAT_SECONDS = env_int("JOBS_HEARTBEAT_SECONDS", 5)
JOBS_RETRY_DELAY_SECONDS = env_int("JOBS_RETRY_DELAY_SECONDS", 10)
JOBS_RESEND_AFTER_SECONDS = env_int("JOBS_RESEND_AFTER_SECONDS", 10 * 60)

# A roster with more units than this renders in a worker (about 0.1 s a unit card) when there is one.
ROSTER_SYNC_MAX_UNITS = env_int("ROSTER_SYNC_MAX_UNITS", 10)

# ================================================================ housekeeping (Celery beat)

HOUSEKEEPING_ANONYMOUS_LIST_DAYS = env_int("HOUSEKEEPING_ANONYMOUS_LIST_DAYS", 30)
HOUSEKEEPING_JOB_DAYS = env_int("HOUSEKEEPING_JOB_DAYS", 7)
CELERY_BEAT_SCHEDULE = {
    "housekeeping": {"task": "housekeeping.run", "schedule": env_int("HOUSEKEEPING_INTERVAL_SECONDS", 60 * 60)},
    "recover-stale-jobs": {"task": "jobs.recover_stale", "schedule": 60},
}

# ================================================================ passwords, language

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

LOGIN_URL = "web:login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# ================================================================ static files (whitenoise)

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env("STATIC_ROOT")) if env("STATIC_ROOT") else BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Production: compressed files with hashed names (cache them forever); local: the files as they are.
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage" if PRODUCTION
                    else "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# Source maps are only ever fetched by developer tools; compressing them (12 MB of them) doubled collectstatic's time.
WHITENOISE_SKIP_COMPRESS_EXTENSIONS = ("jpg", "jpeg", "png", "gif", "webp", "zip", "gz", "tgz", "bz2", "tbz", "xz",
                                       "br", "swf", "flv", "woff", "woff2", "3gp", "3gpp", "asf", "avi", "m4v", "mov",
                                       "mp4", "mpeg", "mpg", "webm", "wmv", "map")

# ================================================================ security (HTTPS, proxy, CSRF, CSP)

# An army list is a few kilobytes; anything far larger is a mistake or an attack.
DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024

CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")  # e.g. https://lists.example.org
# Behind a TLS-terminating proxy: the header it sets, "NAME=value", e.g. X-Forwarded-Proto=https.
_proxy_header = env("SECURE_PROXY_SSL_HEADER")
if _proxy_header:
    _name, _, _value = _proxy_header.partition("=")
    if not _value:
        raise ImproperlyConfigured("SECURE_PROXY_SSL_HEADER is NAME=value, e.g. X-Forwarded-Proto=https")
    SECURE_PROXY_SSL_HEADER = ("HTTP_" + _name.strip().upper().replace("-", "_"), _value.strip())
USE_X_FORWARDED_HOST = env_bool("USE_X_FORWARDED_HOST", False)

SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", True)
    CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", True)
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 365 * 24 * 60 * 60)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    # Load balancers ask over plain HTTP: the probes answer there instead of redirecting.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]

# Scripts, styles, images and requests only from this site; no inline script anywhere (htmx included).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

# ================================================================ e-mail

# Local: printed on the console. Production: an SMTP server from the environment.
# Local: printed on the console unless EMAIL_HOST names a server. Password-reset links work for three hours.
EMAIL_BACKEND = env("EMAIL_BACKEND", "django.core.mail.backends.smtp.EmailBackend"
                    if PRODUCTION or os.environ.get("EMAIL_HOST") else "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = env("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 587 if PRODUCTION else 25)
EMAIL_HOST_USER = env("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", PRODUCTION)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10)
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", "Army Builder <noreply@localhost>")
SERVER_EMAIL = env("SERVER_EMAIL", DEFAULT_FROM_EMAIL)
PASSWORD_RESET_TIMEOUT = 60 * 60 * 3

# ================================================================ logging (JSON lines)

LOG_LEVEL = env("LOG_LEVEL", "INFO").upper()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "armybuilder.observability.RequestIdFilter"}},
    "formatters": {
        # One JSON object a line, with the request id; exceptions carry their traceback in exc_info.
        "json": {"()": "pythonjsonlogger.json.JsonFormatter",
                 "format": "%(asctime)s %(levelname)s %(name)s %(message)s %(request_id)s %(process)d",
                 "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"}},
        "plain": {"format": "%(levelname)s %(name)s [%(request_id)s] %(message)s"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["request_id"],
                    "formatter": env("LOG_FORMAT", "json" if PRODUCTION else "plain")},
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        # One line per request comes from armybuilder.request; Django's own would say it twice.
        "django.server": {"level": "WARNING"},
        "django.request": {"level": "ERROR"},  # 4xx are in the request log already; 5xx with the traceback
        "celery": {"level": LOG_LEVEL},
        "weasyprint": {"level": "WARNING"},  # it logs every step of every render at INFO
        "fontTools": {"level": "WARNING"},
    },
}

# ================================================================ error reporting (optional Sentry)

SENTRY_DSN = env("SENTRY_DSN")
if SENTRY_DSN:
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration

    sentry_sdk.init(dsn=SENTRY_DSN, integrations=[DjangoIntegration(), CeleryIntegration()],
                    environment=env("SENTRY_ENVIRONMENT", ARMYBUILDER_ENV),
                    traces_sample_rate=float(env("SENTRY_TRACES_SAMPLE_RATE", "0") or 0),
                    send_default_pii=False)

# ================================================================ API (DRF, OpenAPI)

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # Token first, so an anonymous request answers 401 with WWW-Authenticate: Token (not 403).
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    # JSON in, JSON out; every error as {"detail": ..., "problems": [...]} (armybuilder/api/exceptions.py).
    "DEFAULT_PARSER_CLASSES": ["armybuilder.api.parsers.StrictJSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "EXCEPTION_HANDLER": "armybuilder.api.exceptions.api_exception_handler",
    # Counted in the default cache (Redis in production), so the limits hold across every process.
    # Each can be changed from the environment: THROTTLE_RATE_CHECK_ANON=120/minute and so on.
    "DEFAULT_THROTTLE_RATES": {scope: env(f"THROTTLE_RATE_{scope.upper()}", rate) for scope, rate in {
        "check_anon": "60/minute",
        "check_user": "600/minute",
        "lists_import": "60/minute",
        "pdf": "30/minute",
        "jobs": "30/minute",
    }.items()},
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Army Builder API",
    "DESCRIPTION": "Game data, army lists, checks and exports for WWII wargames.",
    "VERSION": "1.0.0",
    "SCHEMA_PATH_PREFIX": "/api/v1",
    "COMPONENT_SPLIT_REQUEST": True,
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI and Redoc from this site (drf-spectacular-sidecar), pinned with the package.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {"HistoryKindEnum": "armybuilder.api.history.HISTORY_KINDS",
                            "RemovalKindEnum": "armybuilder.api.history.REMOVAL_KINDS",
                            "MatchupSideEnum": "armybuilder.api.matchups.SIDE"},
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "armybuilder.api.openapi.forbid_unknown_request_fields",
    ],
}

# ================================================================ game data

# Where handbook data files ship with the project.
HANDBOOK_DATA_DIR = BASE_DIR / "handbooks" / "data"

# ================================================================ hardening (body size, rate limits, log-ins, tokens)
from datetime import timedelta  # noqa: E402

# Any request body above this is refused by its Content-Length before it is read (armybuilder/bodylimit.py).
MAX_REQUEST_BYTES = int(os.environ.get("MAX_REQUEST_BYTES", str(2 * 1024 * 1024)))
MIDDLEWARE.insert(MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1,
                  "armybuilder.bodylimit.RequestBodyLimitMiddleware")

# Web pages that write many rows (armybuilder/ratelimit.py, counted in the default cache).
RATE_LIMITS = {
    "web_import_anon": "10/minute",
    "web_import_user": "60/minute",
    "web_copy_anon": "20/minute",
    "signup": "20/hour",
}

# Log-in throttling (django-axes): after AXES_FAILURE_LIMIT wrong passwords for one username from one
# address, that pair is locked out for AXES_COOLOFF_TIME and the log-in page says so (429). Attempts are
# kept in the database, so every worker sees them; AXES_HANDLER=axes.handlers.cache.AxesCacheHandler moves
# them to a shared cache (Redis) instead.
INSTALLED_APPS.append("axes")
MIDDLEWARE.append("axes.middleware.AxesMiddleware")
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]
AXES_HANDLER = os.environ.get("AXES_HANDLER", "axes.handlers.database.AxesDatabaseHandler")
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("AXES_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "armybuilder.web.accounts.locked_out"
AXES_USERNAME_CALLABLE = "armybuilder.web.accounts.axes_username"
AXES_VERBOSE = False

# API tokens are stored hashed (armybuilder/api/models.py); rest_framework.authtoken stays installed only so
# that the migration which hashes the old plain-text tokens can read (and then empty) its table.
REST_FRAMEWORK["DEFAULT_AUTHENTICATION_CLASSES"] = [
    "armybuilder.api.authentication.HashedTokenAuthentication" if name.endswith(".TokenAuthentication") else name
    for name in REST_FRAMEWORK["DEFAULT_AUTHENTICATION_CLASSES"]]

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # IMMEDIATE: a transaction takes SQLite's write lock when it begins and waits for it (up to the timeout),
    # instead of failing with "database is locked" when two requests that read then write meet.
    DATABASES["default"]["OPTIONS"].update({"transaction_mode": "IMMEDIATE", "timeout": 20})
