"""The contract every embedding backend meets, and the helpers they share."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np
from django.core.exceptions import ImproperlyConfigured


class EmbeddingError(Exception):
    """Any failure to produce embeddings: HTTP error, time-out, malformed response, a model that
    cannot load. Callers catch this one type and degrade (e.g. recall falls back to keywords)."""


class EmbeddingConfigurationError(EmbeddingError, ImproperlyConfigured):
    """The configured model cannot be used here (unknown model string, package not installed,
    missing URL). Both an EmbeddingError and Django's ImproperlyConfigured, so either catch works."""


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalized float32 vectors.

    `model_id` is stored next to every vector: vectors with different model ids live in different
    spaces and must never be compared. Queries and passages may be embedded differently (E5 puts
    "query: " / "passage: " in front), so a query is always embedded with `embed_query` and stored
    memories with `embed_passages`.
    """

    model_id: str

    @property
    def dimension(self) -> int:
        """Length of every vector (a remote model may learn it from its first answer)."""
        ...

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        """(len(texts), dimension) float32, each row of unit norm."""
        ...

    def embed_query(self, text: str) -> np.ndarray:
        """(dimension,) float32 of unit norm."""
        ...

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        """(len(texts), dimension): the queries of concurrent recalls in one call, each row what
        `embed_query` gives for its text."""
        ...


def clean_texts(texts: Sequence[str]) -> list[str]:
    """Check the inputs are strings and make them safe to hand to a C engine: a NUL would cut the
    text short there, and a lone surrogate (from a bad JSON escape) cannot be encoded to UTF-8."""
    if isinstance(texts, str):
        raise TypeError("embed_passages() takes a sequence of strings, not one string")
    cleaned = []
    for text in texts:
        if not isinstance(text, str):
            raise TypeError(f"can only embed str, not {type(text).__name__}")
        if "\x00" in text:
            text = text.replace("\x00", " ")
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            text = text.encode("utf-8", "replace").decode("utf-8")
        cleaned.append(text)
    return cleaned


def normalized(matrix: np.ndarray, *, dimension: int | None = None, source: str = "embedder") -> np.ndarray:
    """Return `matrix` as a C-contiguous float32 (n, d) array with unit-norm rows.

    Raises EmbeddingError for a wrong shape, a non-finite value or an all-zero row: such a vector
    would poison every similarity computed against it.
    """
    array = np.asarray(matrix, dtype=np.float32)
    if array.ndim != 2:
        raise EmbeddingError(f"{source} returned an array of shape {array.shape}, expected (n, d)")
    if dimension is not None and array.shape[1] != dimension:
        raise EmbeddingError(f"{source} returned {array.shape[1]}-d vectors, expected {dimension}-d")
    if not np.isfinite(array).all():
        raise EmbeddingError(f"{source} returned a non-finite value")
    norms = np.linalg.norm(array, axis=1, keepdims=True)
    if array.shape[0] and (norms <= 1e-12).any():
        raise EmbeddingError(f"{source} returned an all-zero vector")
    return np.ascontiguousarray(array / norms, dtype=np.float32)
