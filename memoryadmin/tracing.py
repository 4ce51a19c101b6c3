"""Optional OpenTelemetry traces, exported over OTLP/HTTP (README, "Traces").

Off unless OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set; the other
standard OTEL_* variables (OTEL_SERVICE_NAME, default "memoryadmin"; OTEL_EXPORTER_OTLP_HEADERS,
OTEL_TRACES_SAMPLER, OTEL_BSP_*, ...) are read by the SDK itself. While off, `span()` hands back
one shared no-op context manager and the SDK is never imported.

    from memoryadmin.tracing import span

    with span("recall.keyword") as current:
        hits = ...
        current.set_attribute("hits", len(hits))

Span attributes never carry personal data: counts, leg and model names, a workspace slug, ids
that are opaque by rule (the request id). Not texts, queries, subject ids or exception messages
(only the exception's type).

Own spans for HTTP and SQL rather than the Django and psycopg instrumentation packages: the
middleware names the span by URL pattern and keeps URLs, query strings and client addresses out
(the package records them), ties the request id to the trace and answers with `traceparent`; a
Django execute wrapper is ten lines and patches nothing. Celery goes through
opentelemetry-instrumentation-celery, which carries `traceparent` in the task's message headers.

Started once per process, after any fork: lazily by the first request (TracingMiddleware), and by
each Celery worker process (worker_process_init).
"""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Callable
from contextlib import contextmanager, nullcontext

from opentelemetry import context as otel_context
from opentelemetry import trace
from opentelemetry.propagate import extract
from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

_NOTHING = nullcontext(trace.INVALID_SPAN)
_tracer: trace.Tracer | None = None
_provider = None
_pid: int | None = None
_lock = threading.Lock()
QUERY_TEXT_LIMIT = 2000  # characters of SQL kept on a query's span (placeholders, never values)


def configured() -> bool:
    """Whether the environment asks for traces: an OTLP endpoint is set, and neither
    OTEL_SDK_DISABLED=true nor OTEL_TRACES_EXPORTER=none says otherwise."""
    if os.environ.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return False
    if os.environ.get("OTEL_TRACES_EXPORTER", "").strip().lower() == "none":
        return False
    return bool(os.environ.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") or os.environ.get("OTEL_EXPORTER_OTLP_ENDPOINT"))


def start() -> bool:
    """Start tracing in this process when configured (once; again in a forked child). Whether on."""
    global _tracer, _provider, _pid
    if _pid == os.getpid():
        return _tracer is not None
    with _lock:
        if _pid != os.getpid():
            _provider = _build_provider() if configured() else None
            _tracer = _provider.get_tracer("memoryadmin") if _provider else None
            _pid = os.getpid()
    return _tracer is not None


def _build_provider():
    from celery import signals
    from django.db import connections
    from django.db.backends.signals import connection_created
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.instrumentation.celery import CeleryInstrumentor
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    resource = Resource.create()  # OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES
    if str(resource.attributes.get("service.name", "")).startswith("unknown_service"):
        resource = resource.merge(Resource({"service.name": "memoryadmin"}))
    provider = TracerProvider(resource=resource)
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    # Not made the global provider: libraries tracing through the API on their own (the MCP SDK)
    # record exception messages, which may quote what a person wrote.
    CeleryInstrumentor().instrument(tracer_provider=provider)
    # Its failure and retry handlers keep the exception's message, which may quote a turn: ours
    # keep the type alone.
    signals.task_failure.disconnect(CeleryInstrumentor._trace_failure)
    signals.task_retry.disconnect(CeleryInstrumentor._trace_retry)
    signals.task_failure.connect(_task_failed, weak=False)
    connection_created.connect(_trace_queries)
    for connection in connections.all(initialized_only=True):
        _trace_queries(connection=connection)
    return provider


def stop() -> None:
    """Export what is left and stop tracing in this process (tests; exit does it by itself)."""
    global _tracer, _provider, _pid
    with _lock:
        if _provider is not None:
            from celery import signals
            from django.db import connections
            from django.db.backends.signals import connection_created
            from opentelemetry.instrumentation.celery import CeleryInstrumentor

            CeleryInstrumentor().uninstrument()
            signals.task_failure.disconnect(_task_failed)
            connection_created.disconnect(_trace_queries)
            for connection in connections.all(initialized_only=True):
                if _query_span in connection.execute_wrappers:
                    connection.execute_wrappers.remove(_query_span)
            _provider.shutdown()
        _tracer, _provider, _pid = None, None, None


def span(name: str, **attributes):
    """A context manager: a child span of the current one (a no-op while tracing is off). It yields
    the span, for attributes known only at the end. An exception is recorded by its type alone."""
    if _tracer is None:
        return _NOTHING
    return _span(name, attributes)


@contextmanager
def _span(name: str, attributes: dict, **options):
    assert _tracer is not None  # span() only comes here once tracing is on
    attributes = {key: value for key, value in attributes.items() if value is not None}
    with _tracer.start_as_current_span(
        name, attributes=attributes, record_exception=False, set_status_on_exception=False, **options
    ) as current:
        try:
            yield current
        except BaseException as error:
            current.set_attribute("error.type", type(error).__name__)
            current.set_status(trace.StatusCode.ERROR, type(error).__name__)
            raise


def traced(name: str):
    """Decorator: the function runs inside span(name)."""

    def decorate(function):
        @functools.wraps(function)
        def run(*args, **kwargs):
            with span(name):
                return function(*args, **kwargs)

        return run

    return decorate


def annotate(**attributes) -> None:
    """Set attributes on the current span (None values are left out)."""
    if _tracer is not None:
        trace.get_current_span().set_attributes({k: v for k, v in attributes.items() if v is not None})


def in_thread(name: str, function: Callable, **attributes) -> Callable:
    """`function`, to be run by another thread (a pool) inside span(name) under the current span."""
    if _tracer is None:
        return function
    parent = otel_context.get_current()

    def run(*args, **kwargs):
        token = otel_context.attach(parent)
        try:
            with span(name, **attributes):
                return function(*args, **kwargs)
        finally:
            otel_context.detach(token)

    return run


def current_trace_id() -> str:
    """The current trace's id, 32 hex digits; "" while tracing is off."""
    if _tracer is None:
        return ""
    context = trace.get_current_span().get_span_context()
    return trace.format_trace_id(context.trace_id) if context.is_valid else ""


def serve(request, get_response):
    """Answer `request` inside an HTTP server span: continued from the caller's `traceparent`
    when it sent one, named after the URL pattern (never the path: it can hold a subject id), and
    answered with a `traceparent` of its own."""
    parent = extract(request.headers)
    attributes = {"http.request.method": request.method}
    with _span(request.method, attributes, context=parent, kind=trace.SpanKind.SERVER) as current:
        response = get_response(request)
        match = request.resolver_match
        route = match.route if match else ""
        if route:
            current.update_name(f"{request.method} /{route}")
        workspace = getattr(getattr(request, "auth", None), "workspace", None)
        current.set_attributes(
            {
                "http.response.status_code": response.status_code,
                "request.id": getattr(request, "id", ""),
                **({"http.route": f"/{route}"} if route else {}),
                **({"workspace": workspace.slug} if workspace is not None else {}),
            }
        )
        if response.status_code >= 500:
            current.set_status(trace.StatusCode.ERROR)
        TraceContextTextMapPropagator().inject(response)
    return response


def _task_failed(*, exception=None, **kwargs) -> None:
    """task_failure, sent while the task's span is the current one."""
    current = trace.get_current_span()
    current.set_attribute("error.type", type(exception).__name__)
    current.set_status(trace.StatusCode.ERROR, type(exception).__name__)


def _trace_queries(*, connection, **kwargs) -> None:
    """connection_created: every query of this connection gets a span."""
    if _query_span not in connection.execute_wrappers:
        connection.execute_wrappers.append(_query_span)


def _query_span(execute, sql, params, many, context):
    if not trace.get_current_span().get_span_context().is_valid:
        # Outside any request or task (the access-log writer, warm-up): no trace of its own per query.
        return execute(sql, params, many, context)
    operation = str(sql).lstrip(" (").split(None, 1)[0].upper() if sql else ""
    attributes = {
        "db.system.name": "postgresql",
        "db.operation.name": operation,
        "db.query.text": str(sql)[:QUERY_TEXT_LIMIT],  # %s placeholders; the values are never kept
    }
    with span(f"db {operation}".strip(), **attributes):
        return execute(sql, params, many, context)
