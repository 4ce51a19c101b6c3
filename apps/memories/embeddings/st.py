"""`st:<model name or path>` — any sentence-transformers model, in process. Optional: neither
`sentence-transformers` nor torch is a dependency of memoryadmin; install them to use this.

Weights are read from a local path or the Hugging Face cache only, unless
EMBEDDINGS_ST_ALLOW_DOWNLOAD is true: a memory service should not fetch hundreds of MB from a hub
on its first request.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np

from apps.memories.embeddings.base import EmbeddingConfigurationError, EmbeddingError, clean_texts, normalized
from apps.memories.embeddings.local import import_module


class SentenceTransformerEmbedder:
    """Uses the model's own "query" / "passage" (or "document") prompts when its config defines
    them (e5, bge, nomic, ... packaged for sentence-transformers >= 3 do)."""

    def __init__(self, name: str, *, allow_download: bool = False, device: str = "cpu") -> None:
        if not name:
            raise EmbeddingConfigurationError("EMBEDDINGS_MODEL 'st:<model>' needs a model name or path after 'st:'.")
        try:
            module = import_module("sentence_transformers")
        except ImportError as exc:
            raise EmbeddingConfigurationError(
                f"EMBEDDINGS_MODEL 'st:{name}' needs the optional package `sentence-transformers` "
                f"(and torch), which is not installed: {exc}"
            ) from exc
        try:
            self._model = module.SentenceTransformer(name, device=device, local_files_only=not allow_download)
        except Exception as exc:
            raise EmbeddingError(f"sentence-transformers could not load {name!r}: {exc}") from exc
        self.model_id = f"st:{name}"
        self.dimension = int(self._model.get_sentence_embedding_dimension())
        prompts = getattr(self._model, "prompts", None) or {}
        self._query_prompt = "query" if "query" in prompts else None
        self._passage_prompt = next((p for p in ("passage", "document") if p in prompts), None)
        self._lock = threading.Lock()

    def _encode(self, texts: list[str], prompt_name: str | None) -> np.ndarray:
        if not texts:
            return np.empty((0, self.dimension), dtype=np.float32)
        try:
            with self._lock:
                vectors = self._model.encode(
                    texts,
                    prompt_name=prompt_name,
                    batch_size=64,
                    convert_to_numpy=True,
                    normalize_embeddings=True,
                    show_progress_bar=False,
                )
        except Exception as exc:
            raise EmbeddingError(f"sentence-transformers failed to embed: {exc}") from exc
        return normalized(vectors, dimension=self.dimension, source=self.model_id)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._encode(clean_texts(texts), self._passage_prompt)

    def embed_query(self, text: str) -> np.ndarray:
        return self._encode(clean_texts([text]), self._query_prompt)[0]

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._encode(clean_texts(texts), self._query_prompt)

    def __repr__(self) -> str:
        return f"<SentenceTransformerEmbedder {self.model_id}>"
