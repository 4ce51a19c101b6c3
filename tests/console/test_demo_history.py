"""The demo tells a story over time: versions, audit events and recalls spread over the past 30
days (not all stamped with the moment `seed_demo` ran), so histories and the 30-day chart mean something."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from apps.accounts.models import Workspace
from apps.audit import selectors as audit_selectors
from apps.audit.models import AuditEvent
from apps.memories.models import Memory

pytestmark = pytest.mark.django_db


def test_the_demo_history_is_spread_over_the_past_month():
    before = timezone.now()
    call_command("seed_demo")
    demo = Workspace.objects.get(slug="demo")

    days = {event.created_at.date() for event in AuditEvent.objects.filter(workspace=demo)}
    assert len(days) >= 20
    assert all(
        before - timedelta(days=31) < event.created_at <= timezone.now()
        for event in AuditEvent.objects.filter(workspace=demo)
    )
    writes = [n for _day, n in audit_selectors.writes_per_day(workspace=demo)]
    recalls = [n for _day, n in audit_selectors.recalls_per_day(workspace=demo)]
    assert sum(1 for n in writes if n) >= 10 and sum(1 for n in recalls if n) >= 10
    assert audit_selectors.recall_latency(workspace=demo)["count"] >= 1  # the last 24 h tile has something

    city = list(Memory.objects.filter(subject__external_id="alice", key="city").order_by("version"))
    assert len(city) == 3 and city[0].valid_from < city[1].valid_from - timedelta(days=5)
    assert city[1].valid_to == city[2].valid_from and city[1].created_at < city[2].created_at
    fixed = AuditEvent.objects.get(actor_type="operator", action="memory.corrected")
    assert fixed.subject.external_id == "bob" and fixed.reason.startswith("support ticket")
