"""Load the slow pieces (embedding model, jieba dictionary, Presidio) when a web process starts,
in the background, so the first recall or write does not pay ~1 s for them."""

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


def warm_up_in_background() -> None:
    threading.Thread(target=warm_up, name="warm-up", daemon=True).start()
