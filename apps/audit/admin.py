from django.contrib import admin

from apps.accounts.admin import ReadOnlyAdmin
from apps.audit.models import AccessLog, AuditEvent


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "action", "actor_type", "actor_name", "subject", "memory_id"]
    list_filter = ["action", "actor_type"]
    list_select_related = ["subject"]


@admin.register(AccessLog)
class AccessLogAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "agent", "subject", "memory_id", "rank", "score"]
    list_select_related = ["agent", "subject"]
