"""Django settings for Verity. Every value comes from the environment (see `.env.example`)."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlparse

from django.core.exceptions import ImproperlyConfigured

from webapp.env import (env_bool, env_choice, env_float, env_identifier, env_int, env_list, env_path, env_rate,
                        env_str, load_env_file)

BASE_DIR = Path(__file__).resolve().parent.parent
# Every process (web, worker, bot, management commands, gunicorn, celery) reads `.env` here, once;
# variables already in the environment win. VERITY_ENV_FILE points elsewhere (an empty value: none).
# Under pytest (which sets PYTEST_VERSION) a developer's `.env` must not change what is tested.
ENV_FILE = os.environ.get("VERITY_ENV_FILE", "" if "PYTEST_VERSION" in os.environ else str(BASE_DIR / ".env"))
if ENV_FILE:
    load_env_file(Path(ENV_FILE))
VAR_DIR = env_path("VERITY_VAR_DIR", BASE_DIR / "var")

# Models come from installed packages; nothing may reach a model hub at run time.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

DEBUG = env_bool("DJANGO_DEBUG", True)
SECRET_KEY = env_str("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off")
    SECRET_KEY = "insecure-development-key-only-for-debug"
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ("127.0.0.1", "localhost", "testserver"))
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")
SITE_URL = env_str("VERITY_SITE_URL", "http://127.0.0.1:8000").rstrip("/")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_q",
    "knowledge.apps.KnowledgeConfig",
    "verification",
    "bot",
    "webapp",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "webapp.middleware.RobustRequestsMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "webapp.urls"
WSGI_APPLICATION = "webapp.wsgi.application"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "webapp" / "templates"],
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


def _database_from_url(url: str) -> dict:
    parsed = urlparse(url)
    if parsed.scheme not in ("postgres", "postgresql"):
        raise ImproperlyConfigured(f"DATABASE_URL must be a postgresql:// URL (pgvector is required); got {parsed.scheme!r}")
    query = parse_qs(parsed.query)
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": unquote(parsed.path.lstrip("/")) or "postgres",
        "USER": unquote(parsed.username or ""),
        "PASSWORD": unquote(parsed.password or ""),
        # ?host=/path/to/socket-dir selects a unix socket, as libpq URLs allow.
        "HOST": query.get("host", [parsed.hostname or ""])[0],
        "PORT": str(parsed.port or ""),
    }


DATABASE_URL = env_str("DATABASE_URL", "")
if DATABASE_URL:
    _db = _database_from_url(DATABASE_URL)
else:
    from webapp.embedded_db import ensure_embedded_database

    _db = ensure_embedded_database(VAR_DIR / "pgdata", env_identifier("VERITY_DB_NAME", "verity"))
_db["CONN_MAX_AGE"] = env_int("DATABASE_CONN_MAX_AGE", 60, minimum=0)
_db["CONN_HEALTH_CHECKS"] = True
DATABASES = {"default": _db}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]
LANGUAGE_CODE = "en-us"
TIME_ZONE = env_str("VERITY_TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
MEDIA_ROOT = VAR_DIR / "media"
LOGIN_URL = "/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/login/"

# The shared cache: API rate limits (and anything else cached) must hold across web workers and
# replicas. PostgreSQL by default (no extra server); Redis when VERITY_CACHE_URL is set.
VERITY_CACHE_URL = env_str("VERITY_CACHE_URL", "")
if VERITY_CACHE_URL and not VERITY_CACHE_URL.startswith(("redis://", "rediss://", "unix://")):
    raise ImproperlyConfigured(f"VERITY_CACHE_URL must be a redis:// URL; got {VERITY_CACHE_URL!r}")
CACHE_TABLE = "verity_cache"
CACHES = {"default": (
    {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": VERITY_CACHE_URL} if VERITY_CACHE_URL
    else {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": CACHE_TABLE}
)}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_THROTTLE_CLASSES": ["rest_framework.throttling.UserRateThrottle"],
    # Requests per user; e.g. 60/min, 1000/hour, 10/s.
    "DEFAULT_THROTTLE_RATES": {"user": env_rate("VERITY_API_RATE", "60/min")},
    "EXCEPTION_HANDLER": "webapp.api.errors.exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Verity API",
    "DESCRIPTION": ("Answers from the company's documents with citations, the documents themselves, and "
                    "feedback on answers. Authenticate with `Authorization: Token <key>` "
                    "(`manage.py create_api_token USER`). Every error is JSON: `{\"error\": \"...\"}`."),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI's files come from an installed package: the docs page works without the internet.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
}

# --- Workers -----------------------------------------------------------------------------
# django-q2 with its ORM broker needs no server; Celery with Redis is the engine for scale;
# "sync" runs jobs inline (used by `ingest --sync` and handy when debugging).
TASK_BACKEND = env_choice("VERITY_TASK_BACKEND", ("django_q", "celery", "sync"), "django_q")
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", "redis://127.0.0.1:6379/0")
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND", "") or None
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = env_int("VERITY_TASK_TIME_LIMIT", 900, minimum=10)
CELERY_TASK_SOFT_TIME_LIMIT = CELERY_TASK_TIME_LIMIT - 5
Q_CLUSTER = {
    "name": "verity",
    "orm": "default",
    "workers": env_int("VERITY_Q_WORKERS", 1, minimum=1),
    "timeout": CELERY_TASK_TIME_LIMIT,
    # A task taken by a worker that died is handed out again after this many seconds.
    "retry": env_int("VERITY_Q_RETRY_S", CELERY_TASK_TIME_LIMIT + 60, minimum=CELERY_TASK_TIME_LIMIT + 5),
    "max_attempts": 3,
    "catch_up": False,
    "poll": 0.5,
    "label": "Jobs",
}

# --- Knowledge ---------------------------------------------------------------------------
VERITY_EMBEDDER = env_choice("VERITY_EMBEDDER", ("local", "cohere"), "local")
VERITY_EMBED_BATCH = env_int("VERITY_EMBED_BATCH", 64, minimum=1)
# auto: the ONNX export of MiniLM when `make setup` made one (fast start), else torch.
VERITY_EMBED_RUNTIME = env_choice("VERITY_EMBED_RUNTIME", ("auto", "torch"), "auto")
VERITY_ONNX_MODEL = env_path("VERITY_ONNX_MODEL", VAR_DIR / "models" / "all-MiniLM-L6-v2.onnx")
VERITY_MAX_UPLOAD_MB = env_int("VERITY_MAX_UPLOAD_MB", 50, minimum=1)
VERITY_CHUNK_MAX_TOKENS = env_int("VERITY_CHUNK_MAX_TOKENS", 256, minimum=32, maximum=512)
VERITY_CHUNK_TARGET_TOKENS = env_int("VERITY_CHUNK_TARGET_TOKENS", 200, minimum=32, maximum=512)
VERITY_DEFAULT_COLLECTION = env_str("VERITY_DEFAULT_COLLECTION", "General")

# --- Answering ---------------------------------------------------------------------------
VERITY_GENERATOR = env_choice("VERITY_GENERATOR", ("extractive", "cohere", "openai"), "extractive")
VERITY_RERANKER = env_choice("VERITY_RERANKER", ("lexical", "cohere", "cross-encoder"), "lexical")
VERITY_CROSS_ENCODER_PATH = env_str("VERITY_CROSS_ENCODER_PATH", "")
VERITY_HNSW_EF_SEARCH = env_int("VERITY_HNSW_EF_SEARCH", 100, minimum=10, maximum=1000)
VERITY_ANSWER_MIN_CONFIDENCE = env_float("VERITY_ANSWER_MIN_CONFIDENCE", 0.55, minimum=0, maximum=1)
# A reviewer's verification holds this long; then the answer is no longer reused and goes back to the queue.
VERITY_VERIFIED_TTL_DAYS = env_int("VERITY_VERIFIED_TTL_DAYS", 90, minimum=1)
VERITY_HYDE = env_bool("VERITY_HYDE", False)
VERITY_MULTI_QUERY = env_bool("VERITY_MULTI_QUERY", False)
VERITY_ALLOWED_LINK_DOMAINS = env_list("VERITY_ALLOWED_LINK_DOMAINS")
VERITY_VERIFY_ROUNDS = env_int("VERITY_VERIFY_ROUNDS", 2, minimum=0, maximum=5)
# An LLM second opinion on each claim (soft verdicts only); used only when a generative provider is set.
VERITY_CLAIM_JUDGE = env_bool("VERITY_CLAIM_JUDGE", True)
VERITY_CLAIM_JUDGE_WORKERS = env_int("VERITY_CLAIM_JUDGE_WORKERS", 4, minimum=1, maximum=32)

PROVIDERS = {
    "openai": {
        "api_key": env_str("OPENAI_API_KEY", ""),
        "base_url": env_str("OPENAI_BASE_URL", "") or None,
        "cheap_model": env_str("OPENAI_CHEAP_MODEL", "gpt-4o-mini"),
        "strong_model": env_str("OPENAI_STRONG_MODEL", "gpt-4o"),
        "timeout_s": env_float("OPENAI_TIMEOUT_S", 30, minimum=1),
        "max_retries": env_int("OPENAI_MAX_RETRIES", 2, minimum=0),
    },
    "cohere": {
        "api_key": env_str("COHERE_API_KEY", ""),
        "base_url": env_str("COHERE_BASE_URL", "") or None,
        "cheap_model": env_str("COHERE_CHEAP_MODEL", "command-r"),
        "strong_model": env_str("COHERE_STRONG_MODEL", "command-r-plus"),
        "rerank_model": env_str("COHERE_RERANK_MODEL", "rerank-v3.5"),
        "embed_model": env_str("COHERE_EMBED_MODEL", "embed-english-light-v3.0"),
        "timeout_s": env_float("COHERE_TIMEOUT_S", 30, minimum=1),
        "max_retries": env_int("COHERE_MAX_RETRIES", 2, minimum=0),
    },
}
for _name in ("openai", "cohere"):
    if _name in (VERITY_GENERATOR, VERITY_RERANKER, VERITY_EMBEDDER) and not PROVIDERS[_name]["api_key"]:
        raise ImproperlyConfigured(f"{_name.upper()}_API_KEY must be set when {_name} is configured as a provider")

# --- Slack -------------------------------------------------------------------------------
SLACK_BOT_TOKEN = env_str("SLACK_BOT_TOKEN", "")
SLACK_APP_TOKEN = env_str("SLACK_APP_TOKEN", "")
SLACK_SIGNING_SECRET = env_str("SLACK_SIGNING_SECRET", "")
SLACK_API_URL = env_str("SLACK_API_URL", "https://slack.com/api/")
SLACK_REVIEWERS_CHANNEL = env_str("SLACK_REVIEWERS_CHANNEL", "")
SLACK_USER_RATE_PER_MINUTE = env_int("SLACK_USER_RATE_PER_MINUTE", 10, minimum=1)
# Questions are written here before Slack gets its ack, and replayed (every N seconds) until recorded.
VERITY_SLACK_JOURNAL_DIR = env_path("VERITY_SLACK_JOURNAL_DIR", VAR_DIR / "slack-journal")
VERITY_SLACK_JOURNAL_REPLAY_S = env_float("VERITY_SLACK_JOURNAL_REPLAY_S", 10, minimum=0.2)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env_str("VERITY_LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        "pgserver": {"level": "WARNING"},
        "httpx": {"level": "WARNING"},
        "sentence_transformers": {"level": "WARNING"},
        "presidio-analyzer": {"level": "WARNING"},
        # Bolt logs the whole body of a request whose signature fails, at INFO: bodies hold what people typed.
        "slack_bolt": {"level": "WARNING"},
    },
}
