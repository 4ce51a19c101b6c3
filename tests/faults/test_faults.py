"""Faults, with real components: the database restarted under a running gunicorn, the embedding
server failing or hanging during recall, and the Celery broker down while agents write."""

import logging
import re
import threading
import time
from datetime import timedelta

import pytest
import requests

from apps.memories import tasks
from apps.memories.embeddings import store
from apps.memories.ingest import outbox_flush
from apps.memories.models import Ingest, Memory, MemoryEmbedding

# --- 1. The database is restarted while requests run ------------------------------------------

FAST = 5.0  # seconds: a request during the outage must be answered within this


def _session(api_key: str | None = None) -> requests.Session:
    session = requests.Session()
    session.trust_env = False  # no proxy from the environment between us and 127.0.0.1
    if api_key:
        session.headers["Authorization"] = f"Bearer {api_key}"
    return session


def _signed_in(url: str) -> requests.Session:
    """A browser session of the demo operator (the console needs a signed-in member)."""
    session = _session()
    form = session.get(f"{url}/accounts/login/", timeout=10)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.text).group(1)
    response = session.post(
        f"{url}/accounts/login/",
        allow_redirects=False,
        timeout=10,
        data={
            "csrfmiddlewaretoken": token,
            "username": "operator",
            "password": "operator-demo-pass",
            "next": "/console/",
        },
    )
    assert response.status_code == 302, response.text[:500]
    return session


def _timed(call) -> tuple[requests.Response, float]:
    started = time.monotonic()
    response = call()
    return response, time.monotonic() - started


class Traffic(threading.Thread):
    """Keeps requests going (an API read and the health check) for as long as it runs."""

    def __init__(self, url: str, api_key: str) -> None:
        super().__init__(daemon=True)
        self.url, self.api = url, _session(api_key)
        self.plain = _session()
        self.results: list[tuple[str, int | str, float]] = []
        self.halt = threading.Event()

    def run(self) -> None:
        calls = [
            ("api", lambda: self.api.get(f"{self.url}/api/v1/subjects/alice/memories", timeout=15)),
            ("healthz", lambda: self.plain.get(f"{self.url}/healthz", timeout=15)),
        ]
        while not self.halt.is_set():
            for name, call in calls:
                started = time.monotonic()
                try:
                    outcome = call().status_code
                except requests.RequestException as error:
                    outcome = type(error).__name__
                self.results.append((name, outcome, time.monotonic() - started))
            time.sleep(0.05)


def test_a_database_restart_answers_503_fast_and_the_same_workers_recover(own_postgres, app_server):
    url = app_server.url
    api, page = _session(app_server.api_key), _signed_in(url)
    probes = {
        "api read": lambda: api.get(f"{url}/api/v1/subjects/alice/memories", timeout=15),
        "api write": lambda: api.post(
            f"{url}/api/v1/subjects/alice/facts",
            timeout=15,
            json={"key": "probe", "value": f"probe {time.time()}", "category": "fact"},
        ),
        "page": lambda: page.get(f"{url}/console/", allow_redirects=False, timeout=15),
        "healthz": lambda: page.get(f"{url}/healthz", timeout=15),
    }
    for name, probe in probes.items():
        response = probe()
        assert response.status_code in (200, 201), (name, response.status_code, response.text[:300])
    workers = app_server.worker_pids()
    assert len(workers) == 2

    traffic = Traffic(url, app_server.api_key)
    traffic.start()
    try:
        time.sleep(0.5)
        own_postgres.stop()

        for _ in range(3):  # several rounds: both workers' connections are dead
            for name, probe in probes.items():
                response, took = _timed(probe)
                assert response.status_code == 503, (
                    name,
                    response.status_code,
                    response.text[:300],
                    app_server.log_tail(),
                )
                assert took < FAST, (name, took)
                assert response.headers.get("Retry-After") == "5", name
                if name.startswith("api"):
                    assert response.json()["error"]["code"] == "unavailable", name
                else:
                    assert response.headers["Content-Type"].startswith("text/plain"), name

        own_postgres.start()
        back, recovered = time.monotonic(), set()
        while time.monotonic() - back < 10 and len(recovered) < len(probes):
            for name, probe in probes.items():
                if name not in recovered and probe().status_code in (200, 201):
                    recovered.add(name)
            time.sleep(0.1)
        assert recovered == set(probes), (recovered, app_server.log_tail())
        recovery = time.monotonic() - back
        for _ in range(10):  # and every worker serves again, not just one of them
            for name, probe in probes.items():
                response = probe()
                assert response.status_code in (200, 201), (name, response.status_code, response.text[:300])
    finally:
        traffic.halt.set()
        traffic.join(30)

    assert app_server.process.poll() is None and app_server.worker_pids() == workers  # no restart
    outcomes = {outcome for _, outcome, _ in traffic.results}
    assert outcomes <= {200, 503}, [r for r in traffic.results if r[1] not in (200, 503)]
    assert 503 in outcomes and traffic.results[-1][1] == 200
    slowest = max(took for _, _, took in traffic.results)
    assert slowest < FAST, sorted(traffic.results, key=lambda r: r[2])[-5:]
    print(
        f"{len(traffic.results)} background requests, {sum(r[1] == 503 for r in traffic.results)} answered 503, "
        f"slowest {slowest:.3f}s; all probes 2xx again {recovery:.2f}s after the restart"
    )


# --- 2. The embedding server fails or hangs during recall --------------------------------------

MEMORIES = [
    ("drink", "loves oolong tea", "preference"),
    ("city", "lives in Hangzhou", "fact"),
    ("pet", "has a cat called Mochi", "fact"),
]


@pytest.fixture
def remote_index(remote):
    """Recall reads an index of the `openai:` backend at the fake server; three facts of Alice's
    are written (and embedded) through the API."""
    store.index_activate(index=store.index_ensure(name="openai:fake-embed"))
    return remote


@pytest.fixture
def written(api, remote_index):
    for key, value, category in MEMORIES:
        response = api.post(
            "/api/v1/subjects/alice/facts", {"key": key, "value": value, "category": category}, format="json"
        )
        assert response.status_code == 201, response.content
    assert MemoryEmbedding.objects.filter(model_id="openai:fake-embed").count() == len(MEMORIES)


def _recall(api, query: str) -> tuple[dict, float]:
    started = time.monotonic()
    response = api.post("/api/v1/subjects/alice/recall", {"query": query, "include_trace": True}, format="json")
    took = time.monotonic() - started
    assert response.status_code == 200, response.content
    return response.json(), took


@pytest.mark.django_db(transaction=True)
def test_an_embedder_that_raises_makes_recall_answer_from_keywords(api, remote_index, written):
    body, _ = _recall(api, "oolong tea")
    assert body["fallback"] is None and body["trace"]["legs"]["vector"] == len(MEMORIES)  # the healthy path

    remote_index.mode = "error"
    asked = len(remote_index.requests)
    body, _ = _recall(api, "oolong tea, please")  # a new query: a repeated one has its vector cached

    assert len(remote_index.requests) == asked + 1  # the embedder was asked, and answered HTTP 500
    assert body["fallback"] == "keyword"
    assert body["trace"]["model"] == "openai:fake-embed" and body["trace"]["legs"]["vector"] == 0
    top = body["memories"][0]
    assert top["key"] == "drink" and top["components"]["keyword"] > 0 and top["components"]["similarity"] == 0


@pytest.mark.django_db(transaction=True)
def test_a_hanging_embedder_costs_recall_only_its_time_out(api, settings, remote_index, written):
    settings.RECALL_EMBED_TIMEOUT = 0.3
    remote_index.mode = "hang"

    # More recalls than the embedding pool has threads: each hung call holds one for
    # EMBEDDINGS_TIMEOUT (2 s), and later ones must not wait behind them.
    for _ in range(6):
        body, took = _recall(api, "oolong tea")
        assert took < 1.5, took
        assert body["fallback"] == "keyword"
        assert body["memories"][0]["key"] == "drink" and body["memories"][0]["components"]["keyword"] > 0


@pytest.mark.django_db(transaction=True)
def test_a_fresh_database_whose_embedding_server_is_down_still_answers_recall_from_keywords(api, settings, remote):
    """No index exists yet and the server cannot say its dimension: the write keeps the memory
    (unembedded) and recall answers from keywords, with no 500."""
    settings.EMBEDDINGS_MODEL = "openai:fake-embed"
    remote.mode = "error"
    response = api.post(
        "/api/v1/subjects/alice/facts",
        {"key": "drink", "value": "loves oolong tea", "category": "preference"},
        format="json",
    )
    assert response.status_code == 201, response.content

    body, _ = _recall(api, "oolong tea")

    assert body["fallback"] == "keyword"
    assert body["memories"][0]["key"] == "drink"


# --- 3. The broker is down while agents write ---------------------------------------------------

TURN = {
    "session_id": "s-1",
    "turn_id": "t-broker-down",
    "user_message": "我不吃辣，以后报告都用中文。",
    "assistant_message": "好的。",
}


def _warm_up(api) -> None:
    """A first write while all is well loads the embedder, the redaction gate and the segmenter,
    so the timings measure the outage only."""
    response = api.post(
        "/api/v1/subjects/alice/facts", {"key": "warm", "value": "up", "category": "fact"}, format="json"
    )
    assert response.status_code == 201, response.content


def _failed_publishes(caplog) -> list[str]:
    """Publishes the broker refused (tasks.enqueue logs one warning line for each)."""
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "apps.memories.tasks" and r.getMessage().startswith("Broker unavailable")
    ]


@pytest.mark.django_db(transaction=True)
def test_writes_during_a_broker_outage_are_kept_and_embedded_when_it_returns(api, broker, caplog):
    index = store.active_index()
    _warm_up(api)
    broker.down()
    caplog.set_level(logging.WARNING)

    ids = []
    for key, value, category in MEMORIES:
        started = time.monotonic()
        response = api.post(
            "/api/v1/subjects/alice/facts", {"key": key, "value": value, "category": category}, format="json"
        )
        assert response.status_code == 201, response.content
        assert time.monotonic() - started < 5  # the failed publish does not hold the request
        ids.append(response.json()["id"])

    # The publishes really failed and were swallowed, one per write.
    assert len(_failed_publishes(caplog)) == len(MEMORIES), [r.getMessage() for r in caplog.records]
    # Nothing is lost: stored, without vectors, and found by keywords.
    assert Memory.objects.filter(pk__in=ids, status=Memory.Status.ACTIVE).count() == len(MEMORIES)
    assert not MemoryEmbedding.objects.filter(memory_id__in=ids).exists()
    body, _ = _recall(api, "oolong tea")
    top = body["memories"][0]
    assert top["key"] == "drink" and top["components"]["keyword"] > 0 and top["components"]["similarity"] == 0

    broker.back()
    assert tasks.embed_missing_task.delay().get() == len(MEMORIES)  # the beat job, through Celery
    assert MemoryEmbedding.objects.filter(memory_id__in=ids, model_id=index.model_id).count() == len(MEMORIES)
    body, _ = _recall(api, "what does she like to drink")
    assert body["trace"]["legs"]["vector"] == len(MEMORIES) + 1  # and the warm-up fact
    drink = next(m for m in body["memories"] if m["key"] == "drink")
    assert drink["components"]["similarity"] > 0


@pytest.mark.django_db(transaction=True)
def test_a_turn_posted_during_a_broker_outage_is_processed_when_it_returns(api, broker, caplog):
    index = store.active_index()
    _warm_up(api)
    broker.down()
    caplog.set_level(logging.WARNING)

    started = time.monotonic()
    response = api.post("/api/v1/subjects/alice/turns", TURN, format="json")
    assert response.status_code == 202, response.content
    assert time.monotonic() - started < 5
    ingest = Ingest.objects.get(turn_id=TURN["turn_id"])
    assert (ingest.status, ingest.enqueued_at) == ("queued", None)  # in the outbox

    broker.back()
    caplog.clear()
    flushed = outbox_flush()  # the beat job
    ingest.refresh_from_db()
    assert (flushed, ingest.status) == (1, "done"), [r.getMessage() for r in caplog.records]
    assert ingest.enqueued_at is not None and ingest.result["created"], ingest.result
    assert _vectorless(index) == 0  # the turn's memories were embedded as they were written


def _vectorless(index) -> int:
    return Memory.objects.filter(status=Memory.Status.ACTIVE).exclude(embeddings__model_id=index.model_id).count()


@pytest.mark.django_db(transaction=True)
def test_a_turn_the_broker_took_but_lost_is_sent_again_by_the_outbox(api, monkeypatch, settings):
    monkeypatch.setattr(tasks.ingest_turn_task, "delay", lambda *args: None)  # taken, then lost (a broker restart)
    response = api.post("/api/v1/subjects/alice/turns", TURN, format="json")
    ingest = Ingest.objects.get(pk=response.json()["ingest_id"])
    assert (ingest.status, ingest.enqueued_at is not None) == ("queued", True)
    monkeypatch.undo()

    assert outbox_flush() == 0  # taken a moment ago: a worker may still be on it
    Ingest.objects.filter(pk=ingest.pk).update(
        enqueued_at=ingest.enqueued_at - timedelta(seconds=settings.INGEST_REQUEUE_AFTER + 1)
    )
    assert outbox_flush() == 1
    ingest.refresh_from_db()
    assert ingest.status == "done" and ingest.result["created"]


def test_a_turn_whose_worker_died_each_time_is_given_up_as_failed(api, monkeypatch):
    from apps.memories import ingest as ingests

    monkeypatch.setattr(tasks.ingest_turn_task, "delay", lambda *args: None)  # taken by workers that all died on it
    response = api.post("/api/v1/subjects/alice/turns", TURN, format="json")
    monkeypatch.undo()
    ingest_id = response.json()["ingest_id"]
    Ingest.objects.filter(pk=ingest_id).update(status="running", attempts=ingests.MAX_ATTEMPTS)

    tasks.ingest_turn_task.delay(ingest_id)  # the outbox sends it once more

    body = api.get(f"/api/v1/ingests/{ingest_id}").json()
    assert body["status"] == "failed" and "gave up after 10 attempts" in body["error"]
    assert not Memory.objects.exists()


def test_a_turn_whose_worker_died_fewer_times_is_still_done(api, monkeypatch):
    from apps.memories import ingest as ingests

    monkeypatch.setattr(tasks.ingest_turn_task, "delay", lambda *args: None)
    response = api.post("/api/v1/subjects/alice/turns", TURN, format="json")
    monkeypatch.undo()
    ingest_id = response.json()["ingest_id"]
    Ingest.objects.filter(pk=ingest_id).update(status="running", attempts=ingests.MAX_ATTEMPTS - 1)

    tasks.ingest_turn_task.delay(ingest_id)

    assert api.get(f"/api/v1/ingests/{ingest_id}").json()["status"] == "done"
