from apps.accounts.models import RetentionPolicy, Workspace


def retention_for(*, workspace: Workspace) -> RetentionPolicy:
    """The workspace's retention policy, or the defaults (unsaved) when none was set."""
    return RetentionPolicy.objects.filter(workspace=workspace).first() or RetentionPolicy(workspace=workspace)
