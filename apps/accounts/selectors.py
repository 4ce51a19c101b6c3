from apps.accounts.models import Membership, RetentionPolicy, Workspace


def retention_for(*, workspace: Workspace) -> RetentionPolicy:
    """The workspace's retention policy, or the defaults (unsaved) when none was set."""
    return RetentionPolicy.objects.filter(workspace=workspace).first() or RetentionPolicy(workspace=workspace)


def user_is_privileged(user) -> bool:
    """Operators (a Membership of any workspace), staff and superusers: logins that an agent's key
    must never be able to sign in (portal links refuse them)."""
    return bool(user.is_staff or user.is_superuser or Membership.objects.filter(user=user).exists())
