"""The committed Grafana dashboard and Prometheus alert rules only use metrics (and labels) that
memoryadmin exports, so renaming a metric cannot leave them silently empty."""

import json
import re
from pathlib import Path

import yaml
from prometheus_client.metrics import MetricWrapperBase

from memoryadmin import metrics

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
SELECTOR = re.compile(r"(memoryadmin_\w+)(\{[^}]*\})?")
SUFFIXES = {"counter": ("_total",), "histogram": ("_bucket", "_count", "_sum"), "gauge": ("",)}


def exported() -> dict[str, set[str]]:
    """Sample name → the label names it may be selected by."""
    families = [
        (m._name, m._type, set(m._labelnames)) for m in vars(metrics).values() if isinstance(m, MetricWrapperBase)
    ]
    families += [(f.name, f.type, set(f._labelnames)) for f in metrics.DATABASE.describe()]
    names = {}
    for name, kind, labels in families:
        for suffix in SUFFIXES[kind]:
            names[name + suffix] = labels | ({"le"} if suffix == "_bucket" else set())
    return names


def expressions() -> list[tuple[str, str]]:
    """(where, PromQL) of every alert and every dashboard query."""
    rules = yaml.safe_load((DEPLOY / "prometheus" / "alerts.yml").read_text())
    found = [(rule["alert"], rule["expr"]) for group in rules["groups"] for rule in group["rules"]]
    dashboard = json.loads((DEPLOY / "grafana" / "memoryadmin.json").read_text())
    found += [(panel["title"], target["expr"]) for panel in dashboard["panels"] for target in panel.get("targets", [])]
    found += [
        (variable["name"], variable["definition"])
        for variable in dashboard["templating"]["list"]
        if variable["type"] == "query"
    ]
    return found


def test_every_metric_and_label_in_the_dashboard_and_the_alerts_is_exported():
    names = exported()
    checked = 0
    for where, expr in expressions():
        selectors = SELECTOR.findall(expr)
        assert selectors, f"{where}: no memoryadmin metric in {expr!r}"
        for name, matchers in selectors:
            assert name in names, f"{where}: {name} is not exported (known: {sorted(names)})"
            used = set(re.findall(r"(\w+)\s*(?:=~|!~|!=|=)", matchers))
            assert used <= names[name], f"{where}: {name} has no label {used - names[name]}"
            checked += 1
    assert checked > 25


def test_the_alerts_cover_the_thresholds_operators_were_promised():
    rules = {
        rule["alert"]: rule["expr"]
        for group in yaml.safe_load((DEPLOY / "prometheus" / "alerts.yml").read_text())["groups"]
        for rule in group["rules"]
    }

    assert "histogram_quantile(0.99" in rules["MemoryadminRecallSlow"] and "> 0.2" in rules["MemoryadminRecallSlow"]
    assert "> 0.05" in rules["MemoryadminStaleRatioHigh"]
    assert 'resolution="kept"' in rules["MemoryadminConflictsKept"] and "> 0" in rules["MemoryadminConflictsKept"]
    assert 'stored="yes"' in rules["MemoryadminRecallHitRateLow"] and "< 0.95" in rules["MemoryadminRecallHitRateLow"]
    assert "memoryadmin_ingest_oldest_age_seconds" in rules["MemoryadminIngestQueueStuck"]
    assert "memoryadmin_webhook_attempts_total" in rules["MemoryadminWebhookDeliveriesFailed"]
