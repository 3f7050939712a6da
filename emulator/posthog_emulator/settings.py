"""Django settings for the emulator.

Configuration comes from environment variables, which :mod:`posthog_emulator.cli` sets before
``django.setup()``:

``POSTHOG_EMULATOR_DB``
    Path of the SQLite database file. Default: a per-process file in the temp directory (a file,
    not ``:memory:``, because every server thread opens its own connection and each in-memory
    connection would see a different, empty database).
``POSTHOG_EMULATOR_PROFILE``
    ``spec`` (default) or ``posthog``; see :mod:`posthog_emulator.profiles`.
``POSTHOG_EMULATOR_ALLOWED_HOSTS``
    Comma-separated host names answered besides the loopback names (``serve --allowed-host``).
``POSTHOG_EMULATOR_REQUEST_LOG_MAX``
    How many requests the request log keeps (default 100000; oldest dropped first).

Mirrors ``posthog/settings/web.py`` where it matters (docs/posthog_facts.md §0.2-§0.4): ``APPEND_SLASH = False``,
limit/offset pagination with a page size of 100 and no maximum, DRF's default parsers, and
``exceptions_hog.exception_handler`` as the exception handler.
"""

import os
import tempfile

DEBUG = False
SECRET_KEY = "posthog-emulator-not-a-secret"  # nothing is signed: no sessions, no cookies
# Loopback names only (DNS rebinding; see guard.py); ``serve --allowed-host`` adds names.
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]"] + [
    name for name in os.environ.get("POSTHOG_EMULATOR_ALLOWED_HOSTS", "").split(",") if name
]
USE_TZ = True
TIME_ZONE = "UTC"
USE_I18N = False
APPEND_SLASH = False
ROOT_URLCONF = "posthog_emulator.urls"
WSGI_APPLICATION = None
DATA_UPLOAD_MAX_MEMORY_SIZE = 20 * 1024 * 1024  # PostHog: 20 MB (docs/posthog_facts.md §0.2)
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"

INSTALLED_APPS = ["rest_framework", "drf_spectacular", "posthog_emulator"]

MIDDLEWARE = ["posthog_emulator.middleware.EmulatorMiddleware"]

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": os.environ.get("POSTHOG_EMULATOR_DB")
        or os.path.join(tempfile.gettempdir(), f"posthog-emulator-{os.getpid()}.sqlite3"),
        # Keep a thread's connection across the requests of one keep-alive connection; the
        # threaded server closes it when the client disconnects.
        "CONN_MAX_AGE": None,
        # Durability: Django runs in autocommit mode, so every write is committed before the view
        # returns, i.e. before the answer is sent. In WAL mode COMMIT writes the WAL frames into
        # the OS (write(2)) and synchronous=NORMAL only skips the fsync: an acknowledged write
        # survives the process being killed (tests/test_server_reliability.py SIGKILLs a burst),
        # though not a power loss, which would need synchronous=FULL.
        # Several server threads share the database (see middleware.py): a transaction that
        # writes takes SQLite's write lock when it begins (BEGIN IMMEDIATE) and waits for it up to
        # `timeout` seconds, instead of failing with "database is locked" when it upgrades a read.
        "OPTIONS": {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
        },
    }
}

EMULATOR_PROFILE = os.environ.get("POSTHOG_EMULATOR_PROFILE", "spec")
EMULATOR_REQUEST_LOG_MAX = int(os.environ.get("POSTHOG_EMULATOR_REQUEST_LOG_MAX", "100000"))

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["posthog_emulator.auth.PersonalAPIKeyAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # No django.contrib.auth: an unauthenticated request has user None instead of AnonymousUser.
    "UNAUTHENTICATED_USER": None,
    "UNAUTHENTICATED_TOKEN": None,
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": [
        "posthog_emulator.limits.JSONParser",  # DRF's, with deep nesting a 400 (limits.py)
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "EXCEPTION_HANDLER": "posthog_emulator.limits.exception_handler",  # exceptions_hog's, see limits.py
    "DEFAULT_PAGINATION_CLASS": "posthog_emulator.limits.LimitOffsetPagination",  # DRF's, clamped
    "PAGE_SIZE": 100,
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
}

# The OpenAPI document at /_emulator/openapi.json (see posthog_emulator.openapi).
SPECTACULAR_SETTINGS = {
    "TITLE": "posthog-emulator",
    "DESCRIPTION": "The /api/ endpoints the PostHog emulator serves (for testing the emulator itself).",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": "/api/",
    "PREPROCESSING_HOOKS": ["posthog_emulator.openapi.only_api"],
    "COMPONENT_SPLIT_REQUEST": True,
    "DISABLE_ERRORS_AND_WARNINGS": True,
}

EXCEPTIONS_HOG = {
    # PostHog reports unexpected errors to Sentry here; the emulator logs the traceback.
    "EXCEPTION_REPORTING": "posthog_emulator.errors.report_exception",
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "loggers": {
        "posthog_emulator": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
        "django.request": {"handlers": ["stderr"], "level": "ERROR", "propagate": False},
    },
}
