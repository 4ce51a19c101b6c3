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

    class Action(models.TextChoices):
        """Every action the code records, with what it means in the reader's language (the console
        shows the label, the CSV and the API the code). A member's name is its code in capitals."""

        MEMORY_CREATED = "memory.created", _("Memory written")
        MEMORY_SUPERSEDED = "memory.superseded", _("Memory replaced by a newer value")
        MEMORY_CORRECTED = "memory.corrected", _("Memory corrected")
        MEMORY_REAFFIRMED = "memory.reaffirmed", _("Memory said again (unchanged)")
        MEMORY_WRITE_DECLINED = "memory.write_declined", _("Write declined: the current value was kept")
        MEMORY_INJECTION_REFUSED = "memory.injection_refused", _("Write refused: it read as instructions")
        MEMORY_PINNED = "memory.pinned", _("Memory pinned")
        MEMORY_UNPINNED = "memory.unpinned", _("Memory unpinned")
        MEMORY_FORGOTTEN = "memory.forgotten", _("Memory forgotten")
        MEMORY_FORGET_REQUESTED = "memory.forget_requested", _("Memory deleted (can still be undone)")
        MEMORY_FORGET_UNDONE = "memory.forget_undone", _("Delete undone")
        MEMORY_WRITE_REFUSED = "memory.write_refused", _("Write refused: the person paused or blocked it")
        MEMORY_EXPIRED = "memory.expired", _("Memory expired")
        MEMORY_ARCHIVED = "memory.archived", _("Memory archived")
        MEMORY_CONSOLIDATED = "memory.consolidated", _("Memories merged into a summary")
        MEMORY_COMPACTED = "memory.compacted", _("Old episodes compacted")
        SUBJECT_FORGOTTEN = "subject.forgotten", _("Everything about a subject forgotten")
        SUBJECT_EXPORTED = "subject.exported", _("Subject exported by an operator")
        SUBJECT_MEMORY_PAUSED = "subject.memory_paused", _("Memory paused by the person")
        SUBJECT_MEMORY_RESUMED = "subject.memory_resumed", _("Memory resumed by the person")
        SUPPRESSION_CREATED = "suppression.created", _("“Don't learn this again” rule added")
        SUPPRESSION_REMOVED = "suppression.removed", _("“Don't learn this again” rule removed")
        INGEST_ACCEPTED = "ingest.accepted", _("Conversation turn received")
        PORTALLINK_CREATED = "portallink.created", _("Portal link created")
        PORTALLINK_USED = "portallink.used", _("Portal link used")
        PORTALLINK_REFUSED = "portallink.refused", _("Portal link refused")
        AGENT_CREATED = "agent.created", _("Agent created")
        APIKEY_ISSUED = "apikey.issued", _("API key issued")
        APIKEY_ROTATED = "apikey.rotated", _("API key rotated")
        APIKEY_REVOKED = "apikey.revoked", _("API key revoked")
        WORKSPACE_CREATED = "workspace.created", _("Workspace created")
        OPERATOR_ADDED = "operator.added", _("Operator added")
        OPERATOR_ROLE_CHANGED = "operator.role_changed", _("Operator role changed")
        OPERATOR_TIMEZONE_CHANGED = "operator.timezone_changed", _("Operator time zone changed")
        RETENTION_UPDATED = "retention.updated", _("Retention settings changed")
        ACCESSLOG_PRUNED = "accesslog.pruned", _("Old access log entries removed")
        WEBHOOK_CREATED = "webhook.created", _("Webhook created")
        WEBHOOK_UPDATED = "webhook.updated", _("Webhook changed")
        WEBHOOK_ENABLED = "webhook.enabled", _("Webhook switched on")
        WEBHOOK_DISABLED = "webhook.disabled", _("Webhook switched off")
        WEBHOOK_AUTO_DISABLED = "webhook.auto_disabled", _("Webhook switched off after failures")
        WEBHOOK_SECRET_ROTATED = "webhook.secret_rotated", _("Webhook secret rotated")
        WEBHOOK_TEST_SENT = "webhook.test_sent", _("Webhook test sent")
        WEBHOOK_REDELIVERED = "webhook.redelivered", _("Webhook delivery sent again")

    # The actions whose memory is the version they made: the dashboard counts them as writes, a
    # version's history takes who made it from them.
    VERSION_CREATING_ACTIONS = frozenset({Action.MEMORY_CREATED, Action.MEMORY_SUPERSEDED, Action.MEMORY_CORRECTED})

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="+")
    actor_type = models.CharField(max_length=16, choices=ActorType.choices)
    actor_id = models.CharField(max_length=64, blank=True)
    actor_name = models.CharField(max_length=150, blank=True)
    action = models.CharField(max_length=64, choices=Action.choices)
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
