from django.urls import path

from apps.console import views, webhooks

app_name = "console"

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("workspace", views.workspace_switch, name="workspace"),
    path("subjects/", views.subjects, name="subjects"),
    path("subjects/<int:subject_id>/", views.subject_detail, name="subject"),
    path("subjects/<int:subject_id>/export", views.subject_export, name="subject-export"),
    path("subjects/<int:subject_id>/forget", views.subject_forget, name="subject-forget"),
    path("memories/<str:memory_id>/", views.memory_detail, name="memory"),
    path("memories/<str:memory_id>/correct", views.memory_correct, name="memory-correct"),
    path("memories/<str:memory_id>/delete", views.memory_delete, name="memory-delete"),
    path("audit/", views.audit_log, name="audit"),
    path("audit.csv", views.audit_csv, name="audit-csv"),
    path("agents/", views.agents, name="agents"),
    path("agents/<int:agent_id>/keys", views.key_issue, name="key-issue"),
    path("keys/<int:key_id>/revoke", views.key_revoke, name="key-revoke"),
    path("keys/<int:key_id>/rotate", views.key_rotate, name="key-rotate"),
    path("keys/new", views.new_key, name="new-key"),
    path("settings/retention", views.retention, name="retention"),
    path("settings/me", views.my_settings, name="settings"),
    path("workspaces/", views.workspaces, name="workspaces"),
    path("workspaces/invited", views.invited, name="invited"),
    # webhooks
    path("webhooks/", webhooks.webhooks, name="webhooks"),
    path("webhooks/secret", webhooks.webhook_secret, name="webhook-secret"),
    path("webhooks/<int:endpoint_id>/", webhooks.webhook_detail, name="webhook"),
    path("webhooks/<int:endpoint_id>/enable", webhooks.webhook_switch, {"enabled": True}, name="webhook-enable"),
    path("webhooks/<int:endpoint_id>/disable", webhooks.webhook_switch, {"enabled": False}, name="webhook-disable"),
    path("webhooks/<int:endpoint_id>/rotate-secret", webhooks.webhook_rotate_secret, name="webhook-rotate"),
    path("webhooks/<int:endpoint_id>/test", webhooks.webhook_test, name="webhook-test"),
    path("webhooks/deliveries/<int:delivery_id>/redeliver", webhooks.webhook_redeliver, name="webhook-redeliver"),
]
