"""A real HTTP receiver for webhook tests: a threaded http.server on 127.0.0.1 that records every
request (path, headers, body) and answers with the status codes it is told, in order."""

import json
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes

    @property
    def json(self) -> dict:
        return json.loads(self.body)


class Receiver:
    def __init__(self) -> None:
        self.requests: list[Received] = []
        self.answers: list[int] = []  # status codes to answer with, first to last; then 200
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                with receiver._lock:
                    receiver.requests.append(Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                    status = receiver.answers.pop(0) if receiver.answers else 200
                self.send_response(status)
                self.send_header("Content-Type", "text/plain")
                self.end_headers()
                self.wfile.write(b"ok" if status < 300 else b"receiver says no")

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_port}/hooks/memoryadmin"

    def of_type(self, event_type: str) -> list[Received]:
        return [r for r in self.requests if r.headers.get("memoryadmin-event") == event_type]

    def wait_for(self, count: int, timeout: float = 20) -> list[Received]:
        deadline = time.monotonic() + timeout
        while len(self.requests) < count and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(self.requests) >= count, f"received {len(self.requests)} of {count} requests"
        return self.requests

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
