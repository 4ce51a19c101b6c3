"""A local server speaking the OpenAI embeddings protocol (POST /v1/embeddings), for tests of the
HTTP embedder and of everything built on it. `mode` makes it fail in the ways real servers do."""

import hashlib
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np

DIM = 8


def fake_vector(text: str) -> list[float]:
    """Deterministic, unnormalized: the backend must normalize it."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return [float(b - 127.5) for b in digest[:DIM]]


def unit(vector) -> np.ndarray:
    vector = np.asarray(vector, dtype=np.float32)
    return vector / np.linalg.norm(vector)


class FakeEmbeddingServer:
    """POST /v1/embeddings the way OpenAI, Ollama, TEI and vLLM answer it. `mode` picks a failure."""

    def __init__(self) -> None:
        self.requests: list[dict] = []
        self.mode = "ok"
        self.release = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep the test output clean
                pass

            def do_POST(self):
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length))
                server.requests.append({"path": self.path, "headers": dict(self.headers), "body": body})
                if self.path != "/v1/embeddings":
                    return self._send(404, b'{"error": "not found"}')
                if server.mode == "error":
                    return self._send(500, b'{"error": {"message": "model crashed"}}')
                if server.mode == "hang":
                    server.release.wait(10)
                    return self._send(200, b'{"data": []}')
                if server.mode == "malformed":
                    return self._send(200, b'{"data": [{"index": 0, "embedding": [0.1, ')
                texts = body["input"]
                data = [{"object": "embedding", "index": i, "embedding": fake_vector(t)} for i, t in enumerate(texts)]
                if server.mode == "short":
                    data = data[:-1]
                data.reverse()  # servers may answer out of order: the index decides
                payload = {"object": "list", "data": data, "model": body["model"],
                           "usage": {"prompt_tokens": 1, "total_tokens": 1}}
                self._send(200, json.dumps(payload).encode())

            def _send(self, status: int, payload: bytes):
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                try:
                    self.wfile.write(payload)
                except OSError:  # the client gave up (time-out test)
                    pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()
