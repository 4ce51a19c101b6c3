"""A local server speaking the OpenAI embeddings protocol (POST /v1/embeddings), for tests of the
HTTP embedder and of everything built on it. `mode` makes it fail in the ways real servers do."""

import hashlib

import numpy as np

from tests.fake_openai import FakeOpenAIServer

DIM = 8


def fake_vector(text: str) -> list[float]:
    """Deterministic, unnormalized: the backend must normalize it."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return [float(b - 127.5) for b in digest[:DIM]]


def unit(vector) -> np.ndarray:
    vector = np.asarray(vector, dtype=np.float32)
    return vector / np.linalg.norm(vector)


class FakeEmbeddingServer(FakeOpenAIServer):
    """POST /v1/embeddings the way OpenAI, Ollama, TEI and vLLM answer it. `mode` picks a failure."""

    path = "/v1/embeddings"

    def answer(self, body: dict) -> tuple[int, dict | bytes]:
        if self.mode == "error":
            return 500, {"error": {"message": "model crashed"}}
        if self.mode == "hang":
            self.release.wait(10)
            return 200, {"data": []}
        if self.mode == "malformed":
            return 200, b'{"data": [{"index": 0, "embedding": [0.1, '
        data = [{"object": "embedding", "index": i, "embedding": fake_vector(t)} for i, t in enumerate(body["input"])]
        if self.mode == "short":
            data = data[:-1]
        data.reverse()  # servers may answer out of order: the index decides
        return 200, {
            "object": "list",
            "data": data,
            "model": body["model"],
            "usage": {"prompt_tokens": 1, "total_tokens": 1},
        }
