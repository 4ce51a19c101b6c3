"""/metrics answers only a scraper holding the token or calling from an allowed address."""

import ipaddress

import pytest
from django.test import Client

from tests.metrics.conftest import TOKEN
from tests.test_settings import settings_of

pytestmark = pytest.mark.django_db


def test_metrics_are_refused_when_neither_a_token_nor_addresses_are_configured(settings):
    settings.METRICS_TOKEN, settings.METRICS_ALLOWED_IPS = "", []

    response = Client().get("/metrics", HTTP_AUTHORIZATION="Bearer anything-at-all-0123456")

    assert response.status_code == 403
    assert "METRICS_TOKEN" in response.content.decode()
    assert "memoryadmin_" not in response.content.decode()


def test_metrics_are_refused_without_the_token_and_with_a_wrong_one(settings):
    settings.METRICS_TOKEN, settings.METRICS_ALLOWED_IPS = TOKEN, []

    for headers in (
        {},
        {"HTTP_AUTHORIZATION": "Bearer wrong-token-0123456789abcdef"},
        {"HTTP_AUTHORIZATION": TOKEN},
        {"HTTP_AUTHORIZATION": f"Basic {TOKEN}"},
    ):
        response = Client().get("/metrics", **headers)
        assert response.status_code == 401, headers
        assert response["WWW-Authenticate"].startswith("Bearer")
        assert "memoryadmin_" not in response.content.decode()


def test_the_right_token_reads_the_metrics(settings):
    settings.METRICS_TOKEN, settings.METRICS_ALLOWED_IPS = TOKEN, []

    response = Client().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")

    assert response.status_code == 200
    assert "memoryadmin_recalls_total" in response.content.decode()


def test_an_allowed_address_reads_the_metrics_without_a_token_and_others_are_refused(settings):
    settings.METRICS_TOKEN, settings.METRICS_ALLOWED_IPS = "", [ipaddress.ip_network("10.1.0.0/16")]

    assert Client(REMOTE_ADDR="10.1.2.3").get("/metrics").status_code == 200
    assert Client(REMOTE_ADDR="::ffff:10.1.2.3").get("/metrics").status_code == 200
    assert Client(REMOTE_ADDR="10.2.0.1").get("/metrics").status_code == 403
    # X-Forwarded-For is written by the client: it never admits anyone
    assert Client(REMOTE_ADDR="10.2.0.1").get("/metrics", HTTP_X_FORWARDED_FOR="10.1.2.3").status_code == 403


def test_a_direct_scrape_over_plain_http_is_not_redirected_to_https(settings):
    settings.METRICS_TOKEN, settings.METRICS_ALLOWED_IPS, settings.SECURE_SSL_REDIRECT = TOKEN, [], True

    assert Client().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}").status_code == 200
    assert Client().get("/healthz").status_code == 301  # everything else still goes to HTTPS


def test_a_short_token_or_a_bad_address_stops_start_up_naming_it():
    short = settings_of("migrate", DEBUG="true", METRICS_TOKEN="short")["error"]
    bad = settings_of("migrate", DEBUG="true", METRICS_ALLOWED_IPS="10.0.0.5,10.0.0.0/33")["error"]

    assert "ImproperlyConfigured" in short and "METRICS_TOKEN must be at least 16" in short
    assert "ImproperlyConfigured" in bad and "METRICS_ALLOWED_IPS" in bad


def test_a_multiprocess_directory_that_does_not_exist_stops_start_up(tmp_path):
    error = settings_of("migrate", DEBUG="true", PROMETHEUS_MULTIPROC_DIR=str(tmp_path / "missing"))["error"]

    assert "ImproperlyConfigured" in error and "PROMETHEUS_MULTIPROC_DIR" in error and "not a directory" in error
