"""The OpenAPI schema is valid, its docs are served from our static files, and the live API keeps
to it: schemathesis sends generated requests to a live server and checks every answer."""

import os

import pytest
import schemathesis
from django.core.management import call_command
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from apps.accounts.models import Agent, Workspace
from apps.accounts.services import apikey_issue
from apps.audit.services import Actor
from apps.memories.services import fact_upsert

# `make test` sends 25 generated requests per operation; `make test-full` many more.
EXAMPLES_PER_OPERATION = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "25"))


def test_the_schema_validates_without_warnings(db, tmp_path):
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yaml"))
    assert "/api/v1/subjects/{external_id}/facts" in (tmp_path / "schema.yaml").read_text()


def test_the_docs_page_is_served_from_our_static_files(client, db):
    page = client.get("/api/docs/").content.decode()

    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in page
    assert "cdn" not in page.lower()
    assert client.get("/api/schema/").status_code == 200


@pytest.fixture
def live_api(live_server, transactional_db):
    """A live server, a key of its workspace, and one real memory to aim generated ids at."""
    workspace = Workspace.objects.create(name="Fuzz", slug="fuzz")
    agent = Agent.objects.create(workspace=workspace, name="Fuzz Bot")
    _, raw_key = apikey_issue(agent=agent, scopes=["read", "write"])
    from apps.accounts.models import Subject

    subject = Subject.objects.create(workspace=workspace, external_id="alice")
    memory = fact_upsert(subject=subject, key="tone", value="formal", category="preference", actor=Actor.system())
    return {"url": live_server.url, "key": raw_key, "memory_id": str(memory.memory.id)}


@pytest.fixture
def api_schema(live_api):
    return schemathesis.openapi.from_url(f"{live_api['url']}/api/schema/?format=json")


schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
@settings(
    max_examples=EXAMPLES_PER_OPERATION,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.filter_too_much],
)
def test_the_live_api_never_errors_and_keeps_to_its_schema(case, live_api):
    # Aim about half the generated ids at real rows so the write and read paths run, not only 404s.
    for name, real in (("external_id", "alice"), ("memory_id", live_api["memory_id"])):
        if name in (case.path_parameters or {}) and len(str(case.path_parameters[name])) % 2:
            case.path_parameters[name] = real
    case.call_and_validate(
        base_url=live_api["url"],
        headers={"Authorization": f"Bearer {live_api['key']}"},
        checks=[
            not_a_server_error,
            status_code_conformance,
            content_type_conformance,
            response_headers_conformance,
            response_schema_conformance,
        ],
    )
