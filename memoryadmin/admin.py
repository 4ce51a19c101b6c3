"""The admin site: Django's, except that a session started by a portal link never opens it."""

from django.contrib.admin import AdminSite
from django.contrib.admin.apps import AdminConfig

from apps.accounts.sessions import is_portal_only


class MemoryAdminSite(AdminSite):
    def has_permission(self, request) -> bool:
        # Refused sessions are sent to the admin sign-in page, which says they are not authorized.
        return super().has_permission(request) and not is_portal_only(request)


class MemoryAdminConfig(AdminConfig):
    default_site = "memoryadmin.admin.MemoryAdminSite"
