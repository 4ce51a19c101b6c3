"""Load the slow pieces (URLconf and views, embedding model, jieba dictionary, Presidio) when a web
or worker process starts, so the first recall, write or turn does not pay ~2 s for them.

It runs before the process serves anything, not in a thread beside it: request threads importing
modules while a warm-up thread imports the same ones can meet in Python's import locks, whose
deadlock breaker then hands one of them a half-initialised module (`ImportError: cannot import
name …` answered as a 500 by a gunicorn worker that had just replaced a killed one)."""

import gc
import logging

logger = logging.getLogger(__name__)


def warm_up() -> None:
    from django.urls import get_resolver

    from apps.memories.embeddings import get_embedder
    from apps.memories.search import tokens
    from apps.privacy import redact

    get_resolver().check()  # imports every view module (and what they import) to check the URLconf
    try:
        get_embedder().embed_query("warm up 预热")
        tokens("预热 warm up")
        redact("warm up 预热 13800000000")
    except Exception:  # a broken embedder is reported by recall itself (fallback), not here
        logger.warning("Warm-up failed", exc_info=True)
    # Everything loaded so far lives as long as the process: take it out of the garbage collector's
    # sight, or every full collection walks the models and dictionaries again (50-100 ms pauses
    # measured in the middle of requests).
    gc.freeze()
