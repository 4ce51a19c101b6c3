"""Factories of the suite: memories written through the services (redaction, policy, audit), dated
as a test needs them."""

from datetime import timedelta

from django.utils import timezone

from apps.audit.services import Actor
from apps.memories.models import Memory
from apps.memories.services import episode_record, fact_upsert


def age(memory: Memory, days: float) -> Memory:
    """Make a memory `days` old (tests set the clock on rows directly)."""
    moment = timezone.now() - timedelta(days=days)
    Memory.objects.filter(pk=memory.pk).update(
        updated_at=moment,
        valid_from=moment,
        created_at=moment,
        occurred_at=moment if memory.kind == "episode" else None,
    )
    memory.refresh_from_db()
    return memory


def fact(subject, key, value, category="preference", days=0.0, **extra) -> Memory:
    memory = fact_upsert(subject=subject, key=key, value=value, category=category, actor=Actor.system(), **extra).memory
    return age(memory, days)


def episode(subject, text, days=0.0, **extra) -> Memory:
    return age(episode_record(subject=subject, text=text, actor=Actor.system(), **extra).memory, days)
