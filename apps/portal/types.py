"""The request of a portal page (behind `portal_view`): the signed-in person and their subject."""

from django.contrib.auth.models import User

from apps.accounts.models import Subject
from memoryadmin.request_types import AppRequest


class PortalRequest(AppRequest):
    user: User
    subject: Subject  # portal_view: the signed-in user's own subject (403 when they have none)
