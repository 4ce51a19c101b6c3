"""Load the slow pieces (embedding model, jieba dictionary, Presidio) when a web or worker process
starts, so the first recall, write or turn does not pay ~1 s for them."""

import gc
import logging
import threading

logger = logging.getLogger(__name__)


def warm_up() -> None:
    from apps.memories.embeddings import get_embedder
    from apps.memories.search import tokens
    from apps.privacy import redact

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


def warm_up_in_background() -> None:
    threading.Thread(target=warm_up, name="warm-up", daemon=True).start()
