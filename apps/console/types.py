"""The requests of console pages: `ConsoleRequest` behind `operator_view` (a workspace is chosen),
`SuperuserRequest` behind `superuser_view` (the superuser may operate no workspace at all)."""

from django.contrib.auth.models import User

from apps.accounts.models import Membership, Workspace
from memoryadmin.request_types import AppRequest


class SuperuserRequest(AppRequest):
    user: User
    memberships: list[Membership]  # the user's, by workspace name: the switcher in console/base.html
    workspace: Workspace | None
    membership: Membership | None


class ConsoleRequest(SuperuserRequest):
    workspace: Workspace  # operator_view: the chosen workspace (403 when the user operates none)
    membership: Membership
