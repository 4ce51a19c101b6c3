"""The one registry of audit actions: every action the code records is an `AuditEvent.Action`,
named after its code, with a label people can read in English and in Chinese."""

import ast
from pathlib import Path

from django.utils import translation

from apps.audit.models import AuditEvent

APPS = Path(__file__).resolve().parents[2] / "apps"
# webhook event types (apps/webhooks/models.py) share some names with audit actions but are not audit actions
REGISTRIES = {APPS / "audit" / "models.py", APPS / "webhooks" / "models.py"}


def test_every_action_has_a_label_that_is_not_its_code():
    with translation.override("en"):
        unlabelled = [action.value for action in AuditEvent.Action if str(action.label).strip() in ("", action.value)]

    assert unlabelled == []


def test_every_action_label_is_translated_into_chinese():
    with translation.override("en"):
        english = {action.value: str(action.label) for action in AuditEvent.Action}
    with translation.override("zh-hans"):
        untranslated = [action.value for action in AuditEvent.Action if str(action.label) == english[action.value]]

    assert untranslated == []


def test_an_action_is_named_after_its_code_in_capitals():
    assert [action.name for action in AuditEvent.Action] == [
        action.value.upper().replace(".", "_") for action in AuditEvent.Action
    ]


def test_the_code_names_audit_actions_only_through_the_registry():
    codes = set(AuditEvent.Action.values)
    literals = [
        f"{path.relative_to(APPS)}:{node.lineno} {node.value}"
        for path in sorted(APPS.rglob("*.py"))
        if path not in REGISTRIES and "migrations" not in path.parts
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Constant) and node.value in codes
    ]

    assert literals == []


def test_the_writes_that_make_a_version_are_created_superseded_and_corrected():
    assert sorted(AuditEvent.VERSION_CREATING_ACTIONS) == ["memory.corrected", "memory.created", "memory.superseded"]
