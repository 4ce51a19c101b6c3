"""Factories of the suite: memories written through the services (redaction, policy, audit), dated
as a test needs them, and logins for the portal and the console (password "<username>-pass")."""

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone

from apps.accounts.models import Membership, Subject
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


def portal_user(subject):
    """The person's login, named after their external id and linked to them (what a portal link makes)."""
    user = get_user_model().objects.create_user(subject.external_id, password=f"{subject.external_id}-pass")
    Subject.objects.filter(pk=subject.pk).update(user=user)
    return user


def console_user(workspace, username, role=Membership.Role.OPERATOR):
    """An operator's login with `role` in `workspace`."""
    user = get_user_model().objects.create_user(username, password=f"{username}-pass")
    Membership.objects.create(workspace=workspace, user=user, role=role)
    return user


def field_values(instance) -> dict:
    """Every column's value of a model instance, to compare two reads of one row."""
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}
