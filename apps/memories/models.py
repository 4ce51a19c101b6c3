"""One table for every memory (profile facts and episodes) plus where each write came from.

Versions: a correction or a superseding write inserts a new row with `version + 1`, pointing at the
previous row through `supersedes`; all versions of one memory share a `lineage`, so the history is
`filter(lineage=...).order_by("version")`. Rows are written only by `apps.memories.services`.
"""

import uuid

from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVectorField
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _
from pgvector.django import VectorField

from apps.accounts.models import Agent, Subject, Workspace


class Source(models.Model):
    """Provenance of one write: which agent, in which conversation turn, by which extractor — or,
    for a correction made by a person (channel `portal`) or an operator (`console`), who made it."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="+")
    subject = models.ForeignKey(Subject, on_delete=models.CASCADE, related_name="sources")
    agent = models.ForeignKey(Agent, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    session_id = models.CharField(max_length=128, blank=True)
    turn_id = models.CharField(max_length=128, blank=True)
    channel = models.CharField(max_length=32, default="api")
    actor_type = models.CharField(max_length=16, blank=True, help_text="agent | end_user | operator | system")
    actor_name = models.CharField(max_length=150, blank=True, help_text="Redacted; who corrected it.")
    excerpt = models.TextField(blank=True, help_text="Redacted excerpt of what was said.")
    extractor = models.CharField(max_length=64, default="direct")
    extractor_version = models.CharField(max_length=200, blank=True)
    received_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("source")
        verbose_name_plural = _("sources")
        indexes = [models.Index(fields=["subject", "turn_id"], name="source_subject_turn")]

    def __str__(self) -> str:
        return f"{self.channel} source {self.id}"


class Memory(models.Model):
    class Kind(models.TextChoices):
        PROFILE = "profile", _("Profile fact")
        EPISODE = "episode", _("Episode")

    class Category(models.TextChoices):
        PREFERENCE = "preference", _("Preference")
        FACT = "fact", _("Fact")
        CONSTRAINT = "constraint", _("Constraint")
        GOAL = "goal", _("Goal")
        EVENT = "event", _("Event")
        SUMMARY = "summary", _("Summary")

    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        SUPERSEDED = "superseded", _("Superseded")
        EXPIRED = "expired", _("Expired")
        ARCHIVED = "archived", _("Archived")
        DELETED = "deleted", _("Deleted")

    class Sensitivity(models.TextChoices):
        NORMAL = "normal", _("Normal")
        SENSITIVE = "sensitive", _("Sensitive")

    PROFILE_CATEGORIES = (Category.PREFERENCE, Category.FACT, Category.CONSTRAINT, Category.GOAL)
    EPISODE_CATEGORIES = (Category.EVENT, Category.SUMMARY)

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="+")
    subject = models.ForeignKey(Subject, on_delete=models.CASCADE, related_name="memories")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    category = models.CharField(max_length=16, choices=Category.choices)
    key = models.CharField(max_length=128, blank=True, help_text="Normalized slug; profile facts only.")
    value = models.TextField(blank=True)
    text = models.TextField(help_text="The redacted sentence shown to models and people.")
    confidence = models.FloatField(default=1.0)
    importance = models.FloatField(default=0.5)
    pinned = models.BooleanField(default=False)
    sensitivity = models.CharField(max_length=16, choices=Sensitivity.choices, default=Sensitivity.NORMAL)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE)
    version = models.PositiveIntegerField(default=1)
    lineage = models.UUIDField(help_text="Shared by every version of one memory.")
    supersedes = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="superseded_by"
    )
    valid_from = models.DateTimeField()
    valid_to = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    session_id = models.CharField(max_length=128, blank=True)
    occurred_at = models.DateTimeField(null=True, blank=True)
    source = models.ForeignKey(Source, null=True, blank=True, on_delete=models.SET_NULL, related_name="memories")
    redactions = models.JSONField(default=dict, blank=True, help_text="Entity type → count; never values.")
    metadata = models.JSONField(default=dict, blank=True)
    search = SearchVectorField(null=True, editable=False, help_text="jieba-segmented text for keyword recall.")
    access_count = models.PositiveIntegerField(default=0)
    last_accessed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("memory")
        verbose_name_plural = _("memories")
        indexes = [
            models.Index(
                fields=["subject", "kind", "-updated_at"], condition=Q(status="active"), name="memory_active_subject"
            ),
            models.Index(fields=["subject", "key"], condition=Q(status="active"), name="memory_active_key"),
            # recall's "recent" leg: the newest active memories of a subject without a sort
            models.Index(
                F("subject"),
                F("occurred_at").desc(nulls_last=True),
                F("updated_at").desc(),
                condition=Q(status="active"),
                name="memory_active_recent",
            ),
            # recall's neighbour lift: the turn before an episode in its session
            models.Index(
                fields=["subject", "session_id", "occurred_at"],
                condition=Q(status="active", kind="episode"),
                name="memory_active_turns",
            ),
            models.Index(fields=["workspace", "status"], name="memory_workspace_status"),
            GinIndex(fields=["search"], condition=Q(status="active"), name="memory_active_search"),
        ]
        constraints = [
            # One current value per (subject, key); constraints accumulate, so they are exempt.
            models.UniqueConstraint(
                fields=["subject", "key"],
                condition=Q(status="active", kind="profile") & ~Q(category="constraint"),
                name="memory_one_active_value_per_key",
            ),
            models.UniqueConstraint(fields=["lineage", "version"], name="memory_unique_version"),
            models.CheckConstraint(condition=Q(confidence__gte=0, confidence__lte=1), name="memory_confidence_0_1"),
            models.CheckConstraint(condition=Q(importance__gte=0, importance__lte=1), name="memory_importance_0_1"),
        ]

    def __str__(self) -> str:
        return self.text[:60]

    @property
    def content_field(self) -> str:
        """The column that says what this memory holds: a profile fact's value, an episode's text
        (a fact's text is derived from its key and value)."""
        return "value" if self.kind == self.Kind.PROFILE else "text"

    @property
    def content(self) -> str:
        """What this memory holds, as shown for correcting: the value of a fact, the text of an episode."""
        return getattr(self, self.content_field)


class EmbeddingIndex(models.Model):
    """A set of vectors made by one model. Recall reads the `active` one; `reembed --model X` builds a
    new one next to it (new writes are embedded for both) and switches when it is complete."""

    class State(models.TextChoices):
        BUILDING = "building", "Building"
        ACTIVE = "active", _("Active")
        RETIRED = "retired", "Retired"

    name = models.CharField(max_length=200, help_text="What EMBEDDINGS_MODEL / reembed --model was set to.")
    model_id = models.CharField(max_length=200, unique=True, help_text="The embedder's id for its vectors.")
    dimension = models.PositiveIntegerField()
    state = models.CharField(max_length=16, choices=State.choices, default=State.BUILDING)
    created_at = models.DateTimeField(auto_now_add=True)
    activated_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("embedding index")
        verbose_name_plural = _("embedding indexes")
        constraints = [
            models.UniqueConstraint(fields=["state"], condition=Q(state="active"), name="one_active_embedding_index")
        ]

    def __str__(self) -> str:
        return f"{self.model_id} ({self.state})"


class MemoryEmbedding(models.Model):
    """The vector of one active memory under one model. Rows exist only while the memory is active:
    superseding, forgetting, expiring or archiving a memory deletes its vectors."""

    memory = models.ForeignKey(Memory, on_delete=models.CASCADE, related_name="embeddings")
    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="+")
    subject = models.ForeignKey(Subject, on_delete=models.CASCADE, related_name="+")
    model_id = models.CharField(max_length=200)
    embedding = VectorField()  # no fixed dimension: models differ; HNSW indexes cast per model

    class Meta:
        verbose_name = _("memory embedding")
        verbose_name_plural = _("memory embeddings")
        constraints = [models.UniqueConstraint(fields=["memory", "model_id"], name="embedding_one_per_model")]
        indexes = [models.Index(fields=["model_id", "subject"], name="embedding_model_subject")]

    def __str__(self) -> str:
        return f"{self.model_id} vector of memory {self.memory_id}"


class IdempotencyRecord(models.Model):
    """The first result of a write sent with a turn id or an Idempotency-Key, so a retry returns it.

    A key belongs to one agent and one endpoint (another agent's, or another endpoint's, same key is
    a different write); `request_digest` tells a retry (same body: the first result) from a reused
    key (another body: refused). Forgetting the memory deletes its records."""

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="+")
    subject = models.ForeignKey(Subject, on_delete=models.CASCADE, related_name="+")
    agent = models.ForeignKey(Agent, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    endpoint = models.CharField(max_length=16, blank=True, help_text="fact | episode")
    key = models.CharField(max_length=64, help_text="SHA-256 of the idempotency key.")
    request_digest = models.CharField(max_length=64, blank=True, help_text="HMAC-SHA256 of the request's fields.")
    memory = models.ForeignKey(Memory, on_delete=models.CASCADE, related_name="+")
    outcome = models.CharField(max_length=16)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("idempotency record")
        verbose_name_plural = _("idempotency records")
        constraints = [
            models.UniqueConstraint(
                fields=["subject", "agent", "endpoint", "key"], nulls_distinct=False, name="idempotency_unique_key"
            )
        ]

    def __str__(self) -> str:
        return f"{self.endpoint or 'write'} {self.outcome} for memory {self.memory_id}"


class Ingest(models.Model):
    """One conversation turn an agent posted for extraction, redacted before it was stored.

    The row is also the outbox: `enqueued_at` is when the broker last took the task; empty when it
    refused (down), so the outbox sweep hands the turn over later, as it does turns the broker took
    long ago that no worker finished (INGEST_REQUEUE_AFTER).
    """

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="+")
    subject = models.ForeignKey(Subject, on_delete=models.CASCADE, related_name="ingests")
    agent = models.ForeignKey(Agent, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    session_id = models.CharField(max_length=128, blank=True)
    turn_id = models.CharField(max_length=128)
    user_message = models.TextField(help_text="Redacted.")
    assistant_message = models.TextField(blank=True, help_text="Redacted.")
    occurred_at = models.DateTimeField()
    redactions = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    result = models.JSONField(default=dict, blank=True, help_text="created, updated, skipped")
    injections = models.PositiveSmallIntegerField(default=0, help_text="1 when the turn tried to instruct the model.")
    error = models.TextField(blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    enqueued_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("posted turn")
        verbose_name_plural = _("posted turns")
        constraints = [models.UniqueConstraint(fields=["subject", "turn_id"], name="ingest_one_per_turn")]
        indexes = [
            models.Index(
                fields=["enqueued_at"], condition=Q(status__in=["queued", "running"]), name="ingest_unfinished"
            ),
            models.Index(fields=["workspace", "-created_at"], name="ingest_workspace_time"),
        ]

    def __str__(self) -> str:
        return f"ingest {self.id} ({self.status})"


class Suppression(models.Model):
    """ "Forget and don't learn this again": a person's rule, made when they deleted a memory. A fact
    whose normalized `key` matches, or an episode whose redacted text contains `phrase`, is refused
    by every write path (direct API writes, imports, turns) until the person removes the rule."""

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="+")
    subject = models.ForeignKey(Subject, on_delete=models.CASCADE, related_name="suppressions")
    key = models.CharField(max_length=128, blank=True, help_text="Normalized key of a profile fact (redacted).")
    phrase = models.TextField(blank=True, help_text="Redacted, normalized text of an episode.")
    category = models.CharField(max_length=16, blank=True, help_text="Category of the memory it came from.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["subject", "key"], name="suppression_subject_key")]

    def __str__(self) -> str:
        return f"don't learn {self.key or 'an episode'} for {self.subject_id}"


class ForgetRequest(models.Model):
    """A delete the person can still undo: the memory's versions are hidden (status deleted, content
    kept) until `due_at`, when `forget_requests_finish` erases them for real. Undo puts every version
    back exactly as it was (`statuses`) and drops the suppression made with the delete."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="+")
    subject = models.ForeignKey(Subject, on_delete=models.CASCADE, related_name="forget_requests")
    lineage = models.UUIDField()
    memory = models.ForeignKey(Memory, on_delete=models.CASCADE, related_name="+", help_text="The version deleted.")
    statuses = models.JSONField(default=dict, help_text="Memory id → its status before the delete.")
    suppression = models.ForeignKey(Suppression, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    requested = models.ForeignKey(
        "audit.AuditEvent",
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The memory.forget_requested event: who asked (the final erase's actor).",
    )
    due_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["due_at"], name="forget_request_due")]
        constraints = [models.UniqueConstraint(fields=["lineage"], name="forget_request_one_per_lineage")]

    def __str__(self) -> str:
        return f"forget request {self.id} for memory {self.memory_id}"
