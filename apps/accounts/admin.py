from django.contrib import admin

from apps.accounts.models import Agent, ApiKey, Membership, Subject, Workspace


class ReadOnlyAdmin(admin.ModelAdmin):
    """Superusers may look at every table; changes go through services and, later, real pages."""

    def has_view_permission(self, request, obj=None) -> bool:
        return request.user.is_active and request.user.is_superuser

    def has_module_permission(self, request) -> bool:
        return self.has_view_permission(request)

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Workspace)
class WorkspaceAdmin(ReadOnlyAdmin):
    list_display = ["name", "slug", "created_at"]


@admin.register(Membership)
class MembershipAdmin(ReadOnlyAdmin):
    list_display = ["user", "workspace", "role"]
    list_filter = ["role"]


@admin.register(Subject)
class SubjectAdmin(ReadOnlyAdmin):
    list_display = ["external_id", "display_name", "workspace", "timezone", "user"]
    search_fields = ["external_id", "display_name"]


@admin.register(Agent)
class AgentAdmin(ReadOnlyAdmin):
    list_display = ["name", "workspace", "created_at"]


@admin.register(ApiKey)
class ApiKeyAdmin(ReadOnlyAdmin):
    list_display = ["prefix", "agent", "scopes", "created_at", "last_used_at", "revoked_at"]
    exclude = ["hashed_secret"]
