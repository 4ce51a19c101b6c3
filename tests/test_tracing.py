"""OpenTelemetry traces (memoryadmin.tracing), exported over OTLP/HTTP to a local collector that
speaks the real protocol: one trace per request with the recall legs, redaction, embedding and
database queries inside it, Celery tasks continuing the trace of the request that enqueued them,
and no personal data anywhere in what leaves the process. Off (and not even imported) by default."""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from apps.accounts.models import Subject, Workspace
from memoryadmin import tracing
from memoryadmin.celery import app as celery_app
from tests.fake_otlp import FakeCollector
from tests.memories.test_ingest import wait_until_done

pytestmark = pytest.mark.django_db(transaction=True)

SERVER, PRODUCER, CONSUMER = 2, 4, 5  # opentelemetry.proto.trace.v1.Span.SpanKind
SUBJECT = "k7q2-subject"  # an opaque external id, which must not be exported all the same
NAME, EMAIL = "Zhang Weiming", "zhang.weiming@example.com"
QUERY = "what is Zhang Weiming's favourite tea?"
RECALL = f"/api/v1/subjects/{SUBJECT}/recall"


@pytest.fixture
def collector():
    collector = FakeCollector()
    yield collector
    collector.close()


@pytest.fixture
def tracing_on(collector, monkeypatch):
    """Tracing pointed at the collector, as an operator turns it on: one environment variable."""
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", collector.url)
    monkeypatch.delenv("OTEL_SERVICE_NAME", raising=False)
    yield collector
    tracing.stop()


@pytest.fixture
def remembered(tracing_on, api):
    for body in (
        {"key": "tea", "value": f"{NAME} prefers oolong tea; write to {EMAIL}", "category": "preference"},
        {"key": "city", "value": "lives in Hangzhou", "category": "fact"},
    ):
        assert api.post(f"/api/v1/subjects/{SUBJECT}/facts", body, format="json").status_code == 201


def traceparent(response) -> tuple[str, str]:
    version, trace_id, span_id, flags = response["traceparent"].split("-")
    assert version == "00" and int(flags, 16) & 1  # sampled
    return trace_id, span_id


def exported(collector) -> list:
    tracing.stop()  # exports what is still queued
    return collector.spans


def descends_from(span, ancestor, by_id: dict) -> bool:
    while span.parent_id:
        if span.parent_id == ancestor.span_id:
            return True
        span = by_id[span.parent_id]
    return False


def test_a_recall_is_one_trace_with_its_legs_redaction_and_queries(api, remembered, collector):
    response = api.post(RECALL, {"query": QUERY, "top_k": 3}, format="json")
    assert response.status_code == 200

    trace_id, server_span_id = traceparent(response)
    assert response["X-Request-ID"] == trace_id  # the client sent none: the request id IS the trace id
    spans = [span for span in exported(collector) if span.trace_id == trace_id]
    by_id = {span.span_id: span for span in spans}
    server = by_id[server_span_id]
    assert (server.kind, server.parent_id) == (SERVER, "")
    assert server.name == "POST /api/v1/subjects/<str:external_id>/recall"
    assert server.attributes["http.response.status_code"] == 200
    assert server.attributes["request.id"] == trace_id and server.attributes["workspace"] == "acme"
    assert server.service == "memoryadmin"
    names = {span.name for span in spans}
    assert {
        "recall",
        "recall.keyword",
        "recall.vector",
        "embedding.query",
        "recall.rank",
        "recall.block",
        "privacy.redact",
    } <= names
    queries = [span for span in spans if span.attributes.get("db.system.name") == "postgresql"]
    assert queries and all(span.attributes["db.operation.name"] for span in queries)
    assert all(descends_from(span, server, by_id) for span in spans if span is not server)
    recall = next(span for span in spans if span.name == "recall")
    assert recall.attributes["workspace"] == "acme" and recall.attributes["kept"] >= 1
    assert "fallback" not in recall.attributes
    leg = next(span for span in spans if span.name == "recall.keyword")
    assert by_id[leg.parent_id] is recall
    assert any(descends_from(span, leg, by_id) for span in queries)  # the leg's own query


def test_no_personal_data_leaves_in_any_span(api, remembered, collector):
    api.post(RECALL, {"query": QUERY}, format="json")

    spans = exported(collector)
    assert len({span.trace_id for span in spans}) >= 3  # two writes and a recall
    payload = collector.payload()
    for secret in (NAME, EMAIL, QUERY, SUBJECT, "oolong", "Hangzhou"):
        assert secret.encode() not in payload, secret
    assert all(b"Bearer" not in body for body in collector.bodies)


def test_a_callers_trace_is_continued_and_its_request_id_kept_on_the_span(tracing_on, api, collector):
    caller_trace, caller_span = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
    response = api.get(
        f"/api/v1/subjects/{SUBJECT}/memories",
        HTTP_TRACEPARENT=f"00-{caller_trace}-{caller_span}-01",
        HTTP_X_REQUEST_ID="job-42.retry-1",
    )

    trace_id, span_id = traceparent(response)
    assert trace_id == caller_trace and response["X-Request-ID"] == "job-42.retry-1"
    server = next(span for span in exported(collector) if span.span_id == span_id)
    assert (server.trace_id, server.parent_id) == (caller_trace, caller_span)
    assert server.attributes["request.id"] == "job-42.retry-1"


def test_portal_and_console_pages_get_a_server_span_named_by_their_url_pattern(tracing_on, client, collector):
    portal = client.get("/me/", {"q": NAME})
    console = client.get("/console/")

    spans = {span.span_id: span for span in exported(collector)}
    assert spans[traceparent(portal)[1]].name == "GET /me/"
    assert spans[traceparent(console)[1]].name == "GET /console/"
    assert spans[traceparent(console)[1]].attributes["http.response.status_code"] == console.status_code
    assert NAME.encode() not in collector.payload()  # the query string is never kept


def test_a_posted_turn_is_traced_through_the_worker_in_the_requests_trace(tracing_on, api, real_worker, collector):
    turn = {
        "session_id": "s-1",
        "turn_id": "t-1",
        "user_message": f"我不吃辣。My e-mail is {EMAIL}.",
        "assistant_message": "好的。",
    }
    response = api.post(f"/api/v1/subjects/{SUBJECT}/turns", turn, format="json")
    assert response.status_code == 202
    assert wait_until_done(api, response.json()["ingest_id"])["status"] == "done"
    time.sleep(0.5)  # the embed task the ingest enqueued

    trace_id, _ = traceparent(response)
    spans = [span for span in exported(collector) if span.trace_id == trace_id]
    by_name = {span.name: span for span in spans}
    published = by_name["apply_async/apps.memories.tasks.ingest_turn_task"]
    ran = by_name["run/apps.memories.tasks.ingest_turn_task"]
    assert (published.kind, ran.kind, ran.parent_id) == (PRODUCER, CONSUMER, published.span_id)
    assert {"privacy.redact", "run/apps.memories.tasks.embed_memories_task", "embedding.passages"} <= set(by_name)
    assert EMAIL.encode() not in collector.payload()


def test_queries_outside_a_request_or_task_start_no_trace_of_their_own(tracing_on, collector):
    """The access-log writer thread and warm-up query too; a trace per query would be noise."""
    assert tracing.start()
    Workspace.objects.count()
    with tracing.span("job"):
        Workspace.objects.exists()

    spans = exported(collector)
    assert sorted(span.name for span in spans) == ["db SELECT", "job"]
    assert len({span.trace_id for span in spans}) == 1


@celery_app.task(name="tests.tracing.explode")
def explode() -> None:
    raise ValueError(f"could not file the turn of {EMAIL}")


def test_a_failed_task_is_marked_by_its_exception_type_without_the_message(tracing_on, collector):
    assert tracing.start()
    assert explode.apply(throw=False).failed()

    ran = next(span for span in exported(collector) if span.name == "run/tests.tracing.explode")
    assert ran.attributes["error.type"] == "ValueError"
    assert EMAIL.encode() not in collector.payload() and b"could not file" not in collector.payload()


def test_turned_off_by_the_standard_switch_nothing_is_exported(tracing_on, monkeypatch, acme, api, collector):
    monkeypatch.setenv("OTEL_SDK_DISABLED", "true")
    Subject.objects.create(workspace=acme, external_id=SUBJECT)
    response = api.post(RECALL, {"query": QUERY}, format="json")

    assert response.status_code == 200 and "traceparent" not in response
    assert len(response["X-Request-ID"]) == 32
    assert exported(collector) == [] and collector.bodies == []


def test_without_an_endpoint_responses_carry_no_traceparent_and_the_sdk_is_never_loaded():
    """In a fresh process, as a production one without the variable: a request through every
    middleware, then a look at what was imported."""
    script = """
import json, sys
import django
django.setup()
from django.test import Client
from memoryadmin.tracing import span
with span("recall") as current:
    current.set_attribute("kept", 1)
response = Client().get("/no-such-page/")
# redis-py imports the OTel *metrics* SDK when it is installed; the tracer and exporter are ours
ours = ("opentelemetry.sdk.trace", "opentelemetry.exporter")
print(json.dumps({"status": response.status_code, "headers": dict(response.headers),
                  "sdk": sorted(name for name in sys.modules if name.startswith(ours))}))
"""
    env = {key: value for key, value in os.environ.items() if not key.startswith("OTEL_")}
    env |= {
        "DJANGO_SETTINGS_MODULE": "memoryadmin.settings",
        "DATABASE_URL": "postgres://nobody@127.0.0.1:9/none",
        "ALLOWED_HOSTS": "testserver",
    }
    completed = subprocess.run(
        [sys.executable, "-c", script],
        env=env,
        cwd=Path(__file__).resolve().parents[1],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert completed.returncode == 0, completed.stderr
    seen = json.loads(completed.stdout.strip().splitlines()[-1])

    assert seen["status"] == 404 and "X-Request-ID" in seen["headers"]
    assert "traceparent" not in seen["headers"]
    assert seen["sdk"] == []
