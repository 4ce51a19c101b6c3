"""The audit trail (append-only) and the access log of recalls."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from apps.accounts.models import Agent, Subject, Workspace


class AuditEvent(models.Model):
    """One change to memories: who did what, with the before/after (already redacted) content.

    Rows are only ever inserted, except that forgetting a memory erases the content of its events
    (`before`/`after` become empty) while action, actor and time stay.
    """

    class ActorType(models.TextChoices):
        AGENT = "agent", _("Agent")
        END_USER = "end_user", _("End user")
        OPERATOR = "operator", _("Operator")
        SYSTEM = "system", _("System")

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="+")
    actor_type = models.CharField(max_length=16, choices=ActorType.choices)
    actor_id = models.CharField(max_length=64, blank=True)
    actor_name = models.CharField(max_length=150, blank=True)
    action = models.CharField(max_length=64)
    subject = models.ForeignKey(Subject, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    memory = models.ForeignKey(
        "memories.Memory", null=True, blank=True, on_delete=models.SET_NULL, related_name="audit_events"
    )
    before = models.JSONField(default=dict, blank=True)
    after = models.JSONField(default=dict, blank=True)
    reason = models.TextField(blank=True)
    request_id = models.CharField(max_length=64, blank=True)
    channel = models.CharField(max_length=16, blank=True)  # api, mcp, turns, portal, console, system
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("audit event")
        verbose_name_plural = _("audit events")
        indexes = [
            models.Index(fields=["workspace", "-created_at"], name="audit_workspace_time"),
            models.Index(fields=["memory", "created_at"], name="audit_memory_time"),
        ]

    def __str__(self) -> str:
        return f"{self.action} by {self.actor_type}:{self.actor_name or self.actor_id}"


class AccessLog(models.Model):
    """Which agent's recall returned which memory, at what rank and score."""

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="+")
    agent = models.ForeignKey(Agent, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    subject = models.ForeignKey(Subject, on_delete=models.CASCADE, related_name="+")
    memory = models.ForeignKey("memories.Memory", on_delete=models.CASCADE, related_name="access_logs")
    rank = models.PositiveSmallIntegerField()
    score = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("access log entry")
        verbose_name_plural = _("access log entries")
        indexes = [
            models.Index(fields=["memory", "-created_at"], name="access_memory_time"),
            models.Index(fields=["workspace", "-created_at"], name="access_workspace_time"),
        ]

    def __str__(self) -> str:
        return f"memory {self.memory_id} read at rank {self.rank}"


class RecallStat(models.Model):
    """One recall request: who asked, how long it took, how much came back (for the dashboard)."""

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="+")
    agent = models.ForeignKey(Agent, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    took_ms = models.FloatField()
    results = models.PositiveSmallIntegerField()
    fallback = models.CharField(max_length=16, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("recall statistic")
        verbose_name_plural = _("recall statistics")
        indexes = [models.Index(fields=["workspace", "-created_at"], name="recallstat_workspace_time")]

    def __str__(self) -> str:
        return f"recall of {self.results} in {self.took_ms:.0f} ms"
