"""A request answered 503 because the database is gone is counted (the middleware's 503 path)."""

from django.db import OperationalError
from django.test import RequestFactory
from prometheus_client import REGISTRY

from memoryadmin.middleware import database_unavailable

COUNTER = "memoryadmin_db_unavailable_total"


def test_a_request_answered_503_for_a_lost_database_is_counted_and_a_query_error_is_not():
    before = REGISTRY.get_sample_value(COUNTER)
    request = RequestFactory().get("/api/v1/subjects/alice/memories")

    lost = database_unavailable(request, OperationalError("could not connect to server: Connection refused"))
    timed_out = database_unavailable(request, OperationalError("canceling statement due to statement timeout"))

    assert lost.status_code == 503 and timed_out is None
    assert REGISTRY.get_sample_value(COUNTER) == before + 1
