"""A local OpenTelemetry collector speaking OTLP/HTTP (POST /v1/traces, a protobuf
ExportTraceServiceRequest, optionally gzip-compressed), for the tracing tests. It keeps every
request body as received and the spans decoded from them."""

import gzip
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)


@dataclass
class ExportedSpan:
    name: str
    kind: int  # opentelemetry.proto.trace.v1.Span.SpanKind
    trace_id: str
    span_id: str
    parent_id: str  # "" for a root span
    attributes: dict
    service: str


def _value(any_value):
    kind = any_value.WhichOneof("value")
    if kind == "array_value":
        return [_value(v) for v in any_value.array_value.values]
    return getattr(any_value, kind) if kind else None


class FakeCollector:
    def __init__(self) -> None:
        self.bodies: list[bytes] = []
        self.headers: list[dict] = []
        self.spans: list[ExportedSpan] = []
        collector = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                if self.headers.get("Content-Encoding") == "gzip":
                    body = gzip.decompress(body)
                if self.path != "/v1/traces" or self.headers.get("Content-Type") != "application/x-protobuf":
                    self.send_response(404)
                    self.end_headers()
                    return
                request = ExportTraceServiceRequest.FromString(body)
                collector.received(body, dict(self.headers), request)
                answer = ExportTraceServiceResponse().SerializeToString()
                self.send_response(200)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def received(self, body: bytes, headers: dict, request: ExportTraceServiceRequest) -> None:
        self.bodies.append(body)
        self.headers.append(headers)
        for resource_spans in request.resource_spans:
            resource = {a.key: _value(a.value) for a in resource_spans.resource.attributes}
            for scope_spans in resource_spans.scope_spans:
                for span in scope_spans.spans:
                    self.spans.append(
                        ExportedSpan(
                            name=span.name,
                            kind=span.kind,
                            trace_id=span.trace_id.hex(),
                            span_id=span.span_id.hex(),
                            parent_id=span.parent_span_id.hex(),
                            service=resource.get("service.name", ""),
                            attributes={a.key: _value(a.value) for a in span.attributes},
                        )
                    )

    def payload(self) -> bytes:
        return b"".join(self.bodies)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
