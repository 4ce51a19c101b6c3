"""The client's typed models have exactly the fields of the live OpenAPI schema's components."""

import dataclasses

import httpx
import pytest
import yaml

from memoryadmin_client import models

PAIRS = [
    (models.MemoryItem, "Memory"),
    (models.MemorySource, "MemorySource"),
    (models.WriteResult, "MemoryWriteResult"),
    (models.RecallResult, "RecallResponse"),
    (models.RecalledMemory, "RecalledMemory"),
    (models.RecallComponents, "RecallComponents"),
    (models.TurnAccepted, "IngestAccepted"),
    (models.IngestStatus, "IngestStatus"),
    (models.IngestMemory, "IngestMemory"),
    (models.IngestSkip, "IngestSkip"),
]


@pytest.fixture
def components(server) -> dict:
    answer = httpx.get(f"{server}/api/schema/", timeout=30)
    assert answer.status_code == 200
    schema = yaml.safe_load(answer.text)  # the schema as served (YAML)
    return schema["components"]["schemas"]


@pytest.mark.parametrize(("model", "component"), PAIRS, ids=[component for _, component in PAIRS])
def test_the_model_has_the_fields_of_its_schema_component(components, model, component):
    assert {field.name for field in dataclasses.fields(model)} == set(components[component]["properties"])
