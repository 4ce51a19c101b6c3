import pytest
from django.test import Client
from prometheus_client.parser import text_string_to_metric_families

TOKEN = "scrape-token-0123456789abcdef"


class Scrape:
    """One scrape of /metrics: `value(name, **labels)` of a sample (0.0 when absent)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.samples = {
            (sample.name, frozenset(sample.labels.items())): sample.value
            for family in text_string_to_metric_families(text)
            for sample in family.samples
        }

    def value(self, name: str, **labels: str) -> float:
        return self.samples.get((name, frozenset(labels.items())), 0.0)

    def names(self) -> set[str]:
        return {name for name, _labels in self.samples}


@pytest.fixture
def scrape(settings, db):
    """Scrape /metrics with the metrics token, as Prometheus does."""
    settings.METRICS_TOKEN = TOKEN
    settings.METRICS_ALLOWED_IPS = []

    def scrape() -> Scrape:
        response = Client().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
        assert response.status_code == 200, response.content
        assert response["Content-Type"].startswith("text/plain; version=0.0.4")
        return Scrape(response.content.decode())

    return scrape
