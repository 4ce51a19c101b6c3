"""Under gunicorn and Celery every process records into PROMETHEUS_MULTIPROC_DIR, and any web
process's scrape adds them all up."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# A process that imports the metrics, counts, then forks as gunicorn and Celery's prefork pool do;
# the child counts too.
RECORD = """
import os
from memoryadmin import metrics
metrics.BROKER_ERRORS.labels("apps.test.task").inc()
metrics.RECALL_SECONDS.labels("keyword").observe(0.25)
child = os.fork()
if child == 0:
    metrics.BROKER_ERRORS.labels("apps.test.task").inc()
    os._exit(0)
os.waitpid(child, 0)
"""


@pytest.mark.django_db
def test_values_recorded_by_other_processes_and_their_forks_are_added_up_in_the_scrape(tmp_path, monkeypatch, scrape):
    for _ in range(2):
        subprocess.run(
            [sys.executable, "-c", RECORD],
            cwd=ROOT,
            check=True,
            timeout=60,
            env={"PATH": "/usr/bin:/bin", "PROMETHEUS_MULTIPROC_DIR": str(tmp_path)},
        )
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))

    metrics = scrape()

    assert metrics.value("memoryadmin_broker_errors_total", task="apps.test.task") == 4  # 2 processes + 2 forks
    assert metrics.value("memoryadmin_recall_duration_seconds_count", fallback="keyword") == 2
    assert metrics.value("memoryadmin_recall_duration_seconds_bucket", fallback="keyword", le="0.3") == 2
    assert metrics.value("memoryadmin_database_up") == 1  # the database gauges come from the scraping process
    assert len(list(tmp_path.glob("counter_*.db"))) == 4
