from django.contrib import admin

from apps.accounts.admin import ReadOnlyAdmin
from apps.memories.models import Memory, Source


@admin.register(Memory)
class MemoryAdmin(ReadOnlyAdmin):
    list_display = ["text", "subject", "kind", "category", "status", "version", "pinned", "updated_at"]
    list_filter = ["kind", "category", "status", "pinned"]
    list_select_related = ["subject"]
    search_fields = ["key", "text"]


@admin.register(Source)
class SourceAdmin(ReadOnlyAdmin):
    list_display = ["received_at", "subject", "agent", "session_id", "turn_id", "extractor"]
    list_select_related = ["subject", "agent"]
