"""A local server speaking the OpenAI HTTP protocol, for tests of the clients of endpoints we do
not run (embeddings, chat completions). Subclasses answer one path; `mode` makes them fail the
ways real servers do, and "hang" holds the answer until the test releases it."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class FakeOpenAIServer:
    path = ""  # e.g. "/v1/embeddings"

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
                if self.path != server.path:
                    status, payload = 404, {"error": {"message": "not found"}}
                else:
                    status, payload = server.answer(body)
                data = payload if isinstance(payload, bytes) else json.dumps(payload, ensure_ascii=False).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:  # the client gave up (time-out tests)
                    pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    def answer(self, body: dict) -> tuple[int, dict | bytes]:
        raise NotImplementedError

    @property
    def last(self) -> dict:
        return self.requests[-1]

    @property
    def inputs(self) -> list[str]:
        """Every text the server was asked to embed, in the order the requests arrived (the
        `input` of each body: a list of strings, or one string)."""
        texts = []
        for request in self.requests:
            sent = request["body"].get("input", [])
            texts += [sent] if isinstance(sent, str) else sent
        return texts

    def close(self) -> None:
        self.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()
