"""Tenancy and identities: who owns memories (Workspace), who they are about (Subject), who writes
and reads them (Agent + ApiKey) and who administers them (Membership)."""

import functools
import unicodedata
import zoneinfo

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _


@functools.cache
def _time_zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())  # scans the tz database: ~50 ms, so once


def validate_timezone(value: str) -> None:
    if value not in _time_zones():
        raise ValidationError(f"{value!r} is not a known IANA time zone (e.g. Asia/Shanghai).")


def external_id_error(external_id: str) -> str:
    """Why `external_id` cannot name a subject, or "" when it can."""
    if not external_id.strip():
        return "The subject id must not be empty."
    if len(external_id) > 200:
        return "The subject id must be at most 200 characters."
    if any(unicodedata.category(char) in _UNPRINTABLE for char in external_id):
        return (
            "The subject id must not contain control characters or invisible format characters "
            "(such as bidirectional overrides or zero-width spaces)."
        )
    return ""


# Control (Cc: C0, DEL, C1), format (Cf: the bidi controls U+202A–U+202E, U+2066–U+2069, U+200E/F,
# zero-width and soft-hyphen characters, BOM), lone surrogates (Cs) and line/paragraph separators:
# an id shown to people must read as what it is ("alice\u202egnp.exe" shows as "aliceexe.png").
_UNPRINTABLE = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


class Workspace(models.Model):
    """The tenant. Every other row carries its workspace and every query filters by it."""

    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=50, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("workspace")
        verbose_name_plural = _("workspaces")

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    class Role(models.TextChoices):
        OPERATOR = "operator", _("Operator")
        ADMIN = "admin", _("Admin")

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.OPERATOR)
    # The operator's own time zone: the console shows every time in it, and names it.
    timezone = models.CharField(max_length=64, default="UTC", validators=[validate_timezone])
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("operator membership")
        verbose_name_plural = _("operator memberships")
        constraints = [models.UniqueConstraint(fields=["workspace", "user"], name="membership_unique_user")]

    def __str__(self) -> str:
        return f"{self.user} ({self.role}) in {self.workspace}"


class Subject(models.Model):
    """The person memories are about. Agents address a subject by its `external_id`."""

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="subjects")
    external_id = models.CharField(max_length=200)
    display_name = models.CharField(max_length=200, blank=True)
    timezone = models.CharField(max_length=64, default="UTC", validators=[validate_timezone])
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="subject"
    )
    # Set when the person paused memory in the portal: agents' writes and turns are refused
    # (API 409 memory_paused) until they resume it; recall still answers from what is kept.
    memory_paused_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("subject")
        verbose_name_plural = _("subjects")
        constraints = [models.UniqueConstraint(fields=["workspace", "external_id"], name="subject_unique_external_id")]

    def __str__(self) -> str:
        return self.display_name or self.external_id


class Agent(models.Model):
    """An AI agent (or any API client) that writes and recalls memories with its own keys."""

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="agents")
    name = models.CharField(max_length=100)
    description = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("agent")
        verbose_name_plural = _("agents")
        constraints = [models.UniqueConstraint(fields=["workspace", "name"], name="agent_unique_name")]

    def __str__(self) -> str:
        return self.name


class ApiKey(models.Model):
    """An agent's key. Only a SHA-256 of the secret is stored; `prefix` finds the row."""

    class Scope(models.TextChoices):
        READ = "read", "Read"
        WRITE = "write", "Write"

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="api_keys")
    agent = models.ForeignKey(Agent, on_delete=models.CASCADE, related_name="api_keys")
    prefix = models.CharField(max_length=16, unique=True)
    hashed_secret = models.CharField(max_length=64)
    scopes = ArrayField(models.CharField(max_length=8, choices=Scope.choices), default=list)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("API key")
        verbose_name_plural = _("API keys")

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.agent})"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None


class PortalLink(models.Model):
    """A single-use sign-in link an agent hands to a person. Only a SHA-256 of the token is stored."""

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="+")
    subject = models.ForeignKey(Subject, on_delete=models.CASCADE, related_name="portal_links")
    token_hash = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(Agent, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("portal link")
        verbose_name_plural = _("portal links")

    def __str__(self) -> str:
        return f"portal link for {self.subject_id} (expires {self.expires_at:%Y-%m-%d %H:%M})"


class RetentionPolicy(models.Model):
    """How long memories are kept, per workspace. Read by the write path (default expiry) and the
    lifecycle jobs; changed by workspace admins in the console."""

    workspace = models.OneToOneField(Workspace, on_delete=models.CASCADE, related_name="retention")
    # Days until a new memory of each category expires; null = never.
    ttl_days = models.JSONField(default=dict, blank=True, help_text='e.g. {"event": 365, "preference": null}')
    subject_capacity = models.PositiveIntegerField(
        default=2000, help_text="Most episodes kept per subject; the least valuable beyond it are archived."
    )
    archive_unread_after_days = models.PositiveIntegerField(
        default=180, help_text="Low-importance memories not recalled for this long are archived."
    )
    access_log_retention_days = models.PositiveIntegerField(default=90)
    allowed_sensitive = models.JSONField(
        default=list,
        blank=True,
        help_text="Sensitive inference categories (health, emotion, …) extraction may store; none by default.",
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("retention policy")
        verbose_name_plural = _("retention policies")

    def __str__(self) -> str:
        return f"retention of workspace {self.workspace_id}"
