import functools

from django.contrib.auth import get_user_model
from django.db.models import Prefetch

from apps.accounts.models import Agent, ApiKey, Membership, RetentionPolicy, Workspace
from memoryadmin.db import columns, fetch_row, instance


def retention_for(*, workspace: Workspace) -> RetentionPolicy:
    """The workspace's retention policy, or the defaults (unsaved) when none was set."""
    return RetentionPolicy.objects.filter(workspace=workspace).first() or RetentionPolicy(workspace=workspace)


def user_is_privileged(user) -> bool:
    """Operators (a Membership of any workspace), staff and superusers: logins that an agent's key
    must never be able to sign in (portal links refuse them)."""
    return bool(user.is_staff or user.is_superuser or Membership.objects.filter(user=user).exists())


def workspace_by_slug(*, slug: str) -> Workspace | None:
    return Workspace.objects.filter(slug=slug).first()


def user_by_username(*, username: str):
    return get_user_model().objects.filter(username=username).first()


def workspaces_with_operators() -> list[Workspace]:
    """Every workspace, by name, with its memberships and their users (for superusers only)."""
    return list(
        Workspace.objects.order_by("name").prefetch_related(
            Prefetch("memberships", queryset=Membership.objects.select_related("user").order_by("user__username"))
        )
    )


@functools.cache
def _apikey_sql() -> str:
    return (
        f"SELECT {columns(ApiKey, 'k')}, {columns(Agent, 'a')}, {columns(Workspace, 'w')}"
        f" FROM {ApiKey._meta.db_table} k JOIN {Agent._meta.db_table} a ON a.id = k.agent_id"
        f" JOIN {Workspace._meta.db_table} w ON w.id = k.workspace_id"
        " WHERE k.prefix = %s AND k.revoked_at IS NULL"
    )


def apikey_by_prefix(*, prefix: str) -> ApiKey | None:
    """The unrevoked key with this prefix (unique), with its agent and workspace as `select_related`
    attaches them. Read on every API request, so one hand-written statement: the ORM's building and
    compiling of it cost ~0.6 ms of CPU, more than PostgreSQL spends answering it."""
    row = fetch_row(_apikey_sql(), [prefix])
    if row is None:
        return None
    key = instance(ApiKey, row)
    agent = instance(Agent, row, len(ApiKey._meta.concrete_fields))
    workspace = instance(Workspace, row, len(ApiKey._meta.concrete_fields) + len(Agent._meta.concrete_fields))
    ApiKey._meta.get_field("agent").set_cached_value(key, agent)
    ApiKey._meta.get_field("workspace").set_cached_value(key, workspace)
    return key
