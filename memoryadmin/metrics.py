"""Prometheus metrics: every definition in one place (README, "Metrics").

Counters and histograms are recorded where the event is decided (the recall engine, the write
services and the conflict policy, the redaction gate's refusals, the broker hand-off, the webhook
sender, the 503 path) and cost microseconds: no query on any request path.
Gauges of stored state (memory counts, stale ratio, embedding backlog, ingest queue) are read from
the database when /metrics is scraped, by `DatabaseCollector`, one aggregate query each.

Labels never carry personal data, subject ids or free text: only bounded values (outcomes, legs,
entity types, channels, task names) and, for the scrape-time gauges, the workspace slug.

With PROMETHEUS_MULTIPROC_DIR set (gunicorn workers, Celery worker processes) prometheus_client
keeps each process's values in files there and `exposition()` adds them up; without it, one
process answers for itself.
"""

import os
import time

from prometheus_client import (
    CONTENT_TYPE_PLAIN_0_0_4,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector

disable_created_metrics()  # no *_created series: Prometheus does not need them, dashboards would list them
CONTENT_TYPE = CONTENT_TYPE_PLAIN_0_0_4  # the text format every Prometheus version reads
LATENCY_BUCKETS = (0.005, 0.01, 0.02, 0.03, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0, 2.0, 5.0)
FALLBACKS = ("none", "keyword")

RECALL_SECONDS = Histogram(
    "memoryadmin_recall_duration_seconds",
    "Time of one recall in the engine, by fallback (none | keyword).",
    ["fallback"],
    buckets=LATENCY_BUCKETS,
)
RECALL_LEG_SECONDS = Histogram(
    "memoryadmin_recall_leg_duration_seconds",
    "Time each stage adds to a recall: keyword (one statement for the keyword leg, the recent leg and the "
    "facts a question asks for), embed (waiting for the query vector, computed beside it), vector (the "
    "pgvector search), rank (fetch, score, MMR, pack).",
    ["leg"],
    buckets=LATENCY_BUCKETS,
)
RECALLS = Counter(
    "memoryadmin_recalls",
    "Recalls by fallback; stored: whether the person had an active memory matching the recall's filters "
    "(yes | no | unknown when skipped); result: hit (at least one memory returned) | empty | skipped (small talk).",
    ["fallback", "stored", "result"],
)
WRITES = Counter(
    "memoryadmin_writes", "Memory writes by kind and outcome (the services' Outcome).", ["kind", "outcome"]
)
CONFLICTS = Counter(
    "memoryadmin_conflicts",
    "Profile writes whose value differs from an active one under the same key: superseded (the new value "
    "replaced it), declined (a less confident preference/goal lost), kept (constraints accumulate: both stay active).",
    ["resolution"],
)
REDACTIONS = Counter(
    "memoryadmin_redactions",
    "Personal data agents sent, by entity type; action: redacted (replaced by a placeholder in a memory write "
    "or a posted turn: the `redacted` of its answer) | rejected (a PII_REJECT_ENTITIES type: the text was refused).",
    ["entity_type", "action"],
)
INJECTION_REFUSALS = Counter(
    "memoryadmin_injection_refusals",
    "Writes refused as instructions to the model, by channel (api, mcp, import, correction, direct); "
    "posted turns count once per turn (channel turns).",
    ["channel"],
)
WEBHOOK_ATTEMPTS = Counter(
    "memoryadmin_webhook_attempts",
    "Webhook delivery attempts: delivered | retrying (failed, another attempt scheduled) | failed (given up).",
    ["outcome"],
)
DB_UNAVAILABLE = Counter(
    "memoryadmin_db_unavailable",
    "Requests answered 503 because the database could not be reached (connection lost or refused).",
)
BROKER_ERRORS = Counter(
    "memoryadmin_broker_errors", "Tasks the broker did not take (the sweeps send them later).", ["task"]
)

for _fallback in FALLBACKS:  # series that exist from the start read 0, not "no data", in rate() and alerts
    RECALL_SECONDS.labels(_fallback)
    for _stored, _result in (("yes", "hit"), ("yes", "empty"), ("no", "empty")):
        RECALLS.labels(_fallback, _stored, _result)
# The children a recall records into, looked up once (labels() takes a lock and checks its arguments).
_LEGS = {leg: RECALL_LEG_SECONDS.labels(leg) for leg in ("keyword", "embed", "vector", "rank")}
for _resolution in ("superseded", "declined", "kept"):
    CONFLICTS.labels(_resolution)
for _outcome in ("delivered", "retrying", "failed"):
    WEBHOOK_ATTEMPTS.labels(_outcome)


class Laps:
    """Times the stages of one recall: `lap(leg)` observes the time since the previous lap (or start)."""

    __slots__ = ("last",)

    def __init__(self) -> None:
        self.last = time.perf_counter()

    def lap(self, leg: str) -> None:
        now = time.perf_counter()
        _LEGS[leg].observe(now - self.last)
        self.last = now


def recall_done(*, seconds: float, fallback: str | None, stored: bool, hit: bool) -> None:
    fallback = fallback or "none"
    RECALL_SECONDS.labels(fallback).observe(seconds)
    RECALLS.labels(fallback, "yes" if stored else "no", "hit" if hit else "empty").inc()


def write_done(result) -> None:
    """One services.WriteResult: its outcome, and the personal data its fields lost (its `redacted`)."""
    WRITES.labels(result.memory.kind, result.outcome).inc()
    redacted(result.redactions)


def redacted(counts: dict[str, int]) -> None:
    """What one write or posted turn lost to redaction (entity type → count), as its answer says."""
    for entity_type, n in counts.items():
        REDACTIONS.labels(entity_type, "redacted").inc(n)


def pii_rejected(entity_types) -> None:
    for entity_type in entity_types:
        REDACTIONS.labels(entity_type, "rejected").inc()


# --- scrape time --------------------------------------------------------------------------------


class DatabaseCollector:
    """Gauges of what is stored, read at scrape time: one aggregate query each, over every workspace,
    grouped by workspace slug (all workspaces as "_all" with METRICS_WORKSPACE_LABELS=false)."""

    def describe(self) -> list[GaugeMetricFamily]:
        return self._families()

    def collect(self) -> list[GaugeMetricFamily]:
        from django.db import DatabaseError

        from apps.memories import selectors

        try:
            snapshot = selectors.metrics_snapshot()
        except DatabaseError:
            up = self._families()[-1]
            up.add_metric([], 0)
            return [up]
        return self._families(snapshot)

    @staticmethod
    def _families(snapshot: dict | None = None) -> list[GaugeMetricFamily]:
        memories = GaugeMetricFamily(
            "memoryadmin_memories", "Stored memory rows by status and kind.", labels=["workspace", "status", "kind"]
        )
        stale = GaugeMetricFamily(
            "memoryadmin_memories_stale_ratio",
            "Share of stored memory rows that are expired or archived (as on the console dashboard).",
            labels=["workspace"],
        )
        backlog = GaugeMetricFamily(
            "memoryadmin_embedding_backlog",
            "Active memories without a vector of the active embedding model.",
            labels=["workspace"],
        )
        depth = GaugeMetricFamily(
            "memoryadmin_ingest_queue_depth", "Posted turns not finished, by status.", labels=["workspace", "status"]
        )
        oldest = GaugeMetricFamily(
            "memoryadmin_ingest_oldest_age_seconds",
            "Age of the oldest posted turn not finished (queued or running).",
            labels=["workspace"],
        )
        up = GaugeMetricFamily("memoryadmin_database_up", "1 when this scrape could read the database, else 0.")
        if snapshot is not None:
            from django.conf import settings

            name = (lambda slug: slug) if settings.METRICS_WORKSPACE_LABELS else (lambda slug: "_all")
            totals: dict[str, list[int]] = {}
            for row in _summed(snapshot["memories"], name, ("status", "kind")):
                memories.add_metric([row["workspace"], row["status"], row["kind"]], row["n"])
                total = totals.setdefault(row["workspace"], [0, 0])
                total[0] += row["n"]
                total[1] += row["n"] if row["status"] in ("expired", "archived") else 0
            for workspace, (all_n, stale_n) in totals.items():
                stale.add_metric([workspace], stale_n / all_n if all_n else 0.0)
            for row in _summed(snapshot["backlog"], name, ()):
                backlog.add_metric([row["workspace"]], row["n"])
            now = snapshot["now"]
            ages: dict[str, float] = {}
            for row in _summed(snapshot["ingests"], name, ("status",), oldest="oldest"):
                depth.add_metric([row["workspace"], row["status"]], row["n"])
                age = max(0.0, (now - row["oldest"]).total_seconds())
                ages[row["workspace"]] = max(ages.get(row["workspace"], 0.0), age)
            for workspace, age in ages.items():
                oldest.add_metric([workspace], age)
            up.add_metric([], 1)
        return [memories, stale, backlog, depth, oldest, up]


def _summed(rows: list[dict], name, keys: tuple[str, ...], oldest: str = "") -> list[dict]:
    """Rows keyed by (workspace name, *keys): counts `n` added up, `oldest` the minimum."""
    merged: dict[tuple, dict] = {}
    for row in rows:
        key = (name(row["workspace"]), *(row[k] for k in keys))
        into = merged.setdefault(
            key, {"workspace": key[0], **{k: row[k] for k in keys}, "n": 0, **({oldest: row[oldest]} if oldest else {})}
        )
        into["n"] += row["n"]
        if oldest:
            into[oldest] = min(into[oldest], row[oldest])
    return list(merged.values())


DATABASE = DatabaseCollector()


class _Scrape:
    def __init__(self, *collectors) -> None:
        self.collectors = collectors

    def collect(self):
        for collector in self.collectors:
            yield from collector.collect()


def exposition() -> bytes:
    """The text format of every metric: this process's (or, in multiprocess mode, every process's
    files added up) and the database gauges."""
    if path := os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        MultiProcessCollector(registry, path=path)
    else:
        registry = REGISTRY
    return generate_latest(_Scrape(registry, DATABASE))
