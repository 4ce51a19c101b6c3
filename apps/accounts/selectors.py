from django.contrib.auth import get_user_model
from django.db.models import Prefetch

from apps.accounts.models import Membership, RetentionPolicy, Workspace


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
