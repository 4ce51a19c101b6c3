"""Writes for workspaces, subjects, agents and API keys."""

import hashlib
import hmac
import secrets
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from apps.accounts.models import (
    Agent,
    ApiKey,
    Membership,
    PortalLink,
    RetentionPolicy,
    Subject,
    Workspace,
    external_id_error,
    validate_timezone,
)
from apps.accounts.selectors import apikey_by_prefix, user_is_privileged
from apps.audit.models import AuditEvent
from apps.audit.services import Actor, audit_record
from apps.privacy import PIIRejected, redact
from apps.privacy.identifiers import refuse_pii_in_identifiers

KEY_PREFIX = "mk"
LAST_USED_RESOLUTION = timedelta(minutes=1)
PORTAL_LINK_LIFETIME = timedelta(minutes=15)


class PortalLinkError(Exception):
    """A portal link that cannot sign anyone in; `reason` is "invalid", "used", "expired" or "refused"
    (its subject's login is an operator's or admin's)."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


class PortalLinkRefused(Exception):
    """The subject's login is an operator's, staff or superuser: an agent's key must never open it."""

    def __init__(self) -> None:
        super().__init__(
            "This person's login belongs to an operator or administrator, so a portal link cannot "
            "sign it in; they sign in with their password instead."
        )


def hash_api_key(raw_key: str) -> str:
    # Keys are 190+ bits of randomness, so a fast hash is enough (no password stretching needed).
    return hashlib.sha256(raw_key.encode()).hexdigest()


@transaction.atomic
def workspace_create(*, name: str, slug: str, actor: Actor | None = None) -> Workspace:
    """A new tenant. A taken or malformed slug is a ValidationError naming `slug`."""
    refuse_pii_in_identifiers(slug=slug)
    if Workspace.objects.filter(slug=slug).exists():
        raise ValidationError({"slug": f"The slug {slug!r} is taken by another workspace; choose another."})
    workspace = Workspace(name=redact(name).text, slug=slug)
    workspace.full_clean()
    workspace.save()
    audit_record(
        workspace=workspace,
        actor=actor or Actor.system(),
        action=AuditEvent.Action.WORKSPACE_CREATED,
        after={"name": workspace.name, "slug": slug},
    )
    return workspace


def _role(role: str) -> str:
    if role not in Membership.Role.values:
        raise ValidationError({"role": f"The role must be one of: {', '.join(Membership.Role.values)}."})
    return role


def _login_name(user) -> str:
    """A username as the audit trail may keep it (a username may be an e-mail address)."""
    try:
        return redact(user.get_username()).text
    except PIIRejected:
        return ""


@transaction.atomic
def operator_add(
    *, workspace: Workspace, user, role: str = Membership.Role.OPERATOR, actor: Actor | None = None
) -> Membership:
    """Make `user` an operator (or admin) of `workspace`; for someone who already is, change the role."""
    role, actor = _role(role), actor or Actor.system()
    membership = Membership.objects.select_for_update().filter(workspace=workspace, user=user).first()
    if membership is None:
        membership = Membership.objects.create(workspace=workspace, user=user, role=role)
        audit_record(
            workspace=workspace,
            actor=actor,
            action=AuditEvent.Action.OPERATOR_ADDED,
            after={"user": _login_name(user), "role": role},
        )
    elif membership.role != role:
        before = {"user": _login_name(user), "role": membership.role}
        membership.role = role
        membership.save(update_fields=["role"])
        audit_record(
            workspace=workspace,
            actor=actor,
            action=AuditEvent.Action.OPERATOR_ROLE_CHANGED,
            before=before,
            after={"user": _login_name(user), "role": role},
        )
    return membership


@transaction.atomic
def operator_create(
    *,
    workspace: Workspace,
    username: str,
    email: str,
    role: str = Membership.Role.OPERATOR,
    password: str | None = None,
    actor: Actor | None = None,
) -> Membership:
    """A new login that operates `workspace`. Without a password the login cannot sign in until its
    owner chooses one (the console's invite link). A taken username, a bad e-mail address or a weak
    password is a ValidationError; then nothing is written."""
    User = get_user_model()
    _role(role)
    errors: dict[str, list[str]] = {}
    if User.objects.filter(username=username).exists():
        errors["username"] = [f"User {username!r} already exists; add them without creating a login."]
    user = User(username=username, email=User.objects.normalize_email(email), is_active=True)
    try:
        user.full_clean(exclude=["password"])
    except ValidationError as error:
        for name, messages in error.message_dict.items():
            errors.setdefault(name, []).extend(messages)
    if not email:
        errors.setdefault("email", []).append("An e-mail address is needed for a new login.")
    if password is not None:
        try:
            validate_password(password, user)
        except ValidationError as error:
            errors["password"] = error.messages
    if errors:
        raise ValidationError(errors)
    if password is None:
        user.set_unusable_password()
    else:
        user.set_password(password)
    user.save()
    membership = Membership.objects.create(workspace=workspace, user=user, role=role)
    audit_record(
        workspace=workspace,
        actor=actor or Actor.system(),
        action=AuditEvent.Action.OPERATOR_ADDED,
        after={"user": _login_name(user), "role": role, "login_created": True},
    )
    return membership


def subject_get_or_create(
    *, workspace: Workspace, external_id: str, display_name: str = "", timezone_name: str = "UTC"
) -> Subject:
    """Agents address subjects by external id; a write to an unknown one creates it.

    The external id is the agent's own opaque handle for the person and is stored as given;
    one that holds personal data is refused (PIIInIdentifier).
    """
    if error := external_id_error(external_id):
        raise ValidationError({"external_id": error})
    refuse_pii_in_identifiers(external_id=external_id)
    validate_timezone(timezone_name)
    subject, _ = Subject.objects.select_related("workspace").get_or_create(  # writes audit the workspace
        workspace=workspace,
        external_id=external_id,
        defaults={"display_name": redact(display_name).text, "timezone": timezone_name},
    )
    return subject


def _key_facts(key: ApiKey) -> dict:
    return {"agent": key.agent.name, "prefix": key.prefix, "scopes": key.scopes}  # never the key itself


@transaction.atomic
def agent_create(*, workspace: Workspace, name: str, description: str = "", actor: Actor | None = None) -> Agent:
    """The name is how the agent is found again (unique in the workspace): no personal data in it."""
    refuse_pii_in_identifiers(name=name)
    agent = Agent(workspace=workspace, name=name, description=redact(description).text)
    agent.full_clean()
    agent.save()
    audit_record(
        workspace=workspace,
        actor=actor or Actor.system(),
        action=AuditEvent.Action.AGENT_CREATED,
        after={"agent": name},
    )
    return agent


def _issue(agent: Agent, scopes: list[str]) -> tuple[ApiKey, str]:
    unknown = set(scopes) - set(ApiKey.Scope.values)
    if not scopes or unknown:
        raise ValidationError({"scopes": f"Scopes must be a non-empty subset of {ApiKey.Scope.values}."})
    prefix = secrets.token_hex(4)
    raw_key = f"{KEY_PREFIX}_{prefix}_{secrets.token_urlsafe(24)}"
    key = ApiKey.objects.create(
        workspace_id=agent.workspace_id,
        agent=agent,
        prefix=prefix,
        hashed_secret=hash_api_key(raw_key),
        scopes=sorted(set(scopes)),
    )
    return key, raw_key


def _revoke(key: ApiKey) -> None:
    if key.revoked_at is None:
        key.revoked_at = timezone.now()
        key.save(update_fields=["revoked_at"])


@transaction.atomic
def apikey_issue(*, agent: Agent, scopes: list[str], actor: Actor | None = None) -> tuple[ApiKey, str]:
    """Create a key; the raw key is returned once and never stored."""
    key, raw_key = _issue(agent, scopes)
    audit_record(
        workspace=agent.workspace,
        actor=actor or Actor.system(),
        action=AuditEvent.Action.APIKEY_ISSUED,
        after=_key_facts(key),
    )
    return key, raw_key


@transaction.atomic
def apikey_revoke(*, key: ApiKey, actor: Actor | None = None) -> ApiKey:
    _revoke(key)
    audit_record(
        workspace=key.workspace,
        actor=actor or Actor.system(),
        action=AuditEvent.Action.APIKEY_REVOKED,
        before=_key_facts(key),
    )
    return key


@transaction.atomic
def apikey_rotate(*, key: ApiKey, actor: Actor) -> tuple[ApiKey, str]:
    """Revoke `key` and issue its replacement with the same scopes (the raw key, once). A revoked key
    is refused: rotating it would bring a key someone decided to stop back to life."""
    key = ApiKey.objects.select_for_update().select_related("agent", "workspace").get(pk=key.pk)
    if key.revoked_at is not None:
        raise ValidationError({"key": f"Key {key.prefix}… is revoked and cannot be rotated; issue a new key instead."})
    _revoke(key)
    new_key, raw_key = _issue(key.agent, key.scopes)
    audit_record(
        workspace=key.workspace,
        actor=actor,
        action=AuditEvent.Action.APIKEY_ROTATED,
        before=_key_facts(key),
        after=_key_facts(new_key),
    )
    return new_key, raw_key


@transaction.atomic
def retention_update(
    *,
    workspace: Workspace,
    actor: Actor,
    ttl_days: dict[str, int | None],
    subject_capacity: int,
    archive_unread_after_days: int,
    access_log_retention_days: int,
) -> RetentionPolicy:
    policy, _ = RetentionPolicy.objects.select_for_update().get_or_create(workspace=workspace)
    before = retention_facts(policy)
    policy.ttl_days = {category: days for category, days in ttl_days.items() if days}
    policy.subject_capacity = subject_capacity
    policy.archive_unread_after_days = archive_unread_after_days
    policy.access_log_retention_days = access_log_retention_days
    policy.full_clean()
    policy.save()
    audit_record(
        workspace=workspace,
        actor=actor,
        action=AuditEvent.Action.RETENTION_UPDATED,
        before=before,
        after=retention_facts(policy),
    )
    return policy


def retention_facts(policy: RetentionPolicy) -> dict:
    return {
        "ttl_days": policy.ttl_days,
        "subject_capacity": policy.subject_capacity,
        "archive_unread_after_days": policy.archive_unread_after_days,
        "access_log_retention_days": policy.access_log_retention_days,
    }


def apikey_authenticate(*, raw_key: str) -> ApiKey | None:
    """The active key matching `raw_key`, or None. Marks it used."""
    parts = raw_key.split("_", 2)
    if len(parts) != 3 or parts[0] != KEY_PREFIX:
        return None
    key = apikey_by_prefix(prefix=parts[1])
    if key is None or not hmac.compare_digest(key.hashed_secret, hash_api_key(raw_key)):
        return None
    now = timezone.now()
    if key.last_used_at is None or now - key.last_used_at > LAST_USED_RESOLUTION:
        # "Last used" to the minute is enough, and it spares a write on almost every request.
        ApiKey.objects.filter(pk=key.pk).update(last_used_at=now)
    return key


def portal_link_create(*, subject: Subject, agent: Agent | None = None) -> tuple[PortalLink, str]:
    """A single-use token (valid PORTAL_LINK_LIFETIME) that signs the person in as `subject`.

    Refused (PortalLinkRefused, audited) when the subject's login is privileged: whoever holds an
    agent key could otherwise sign in as an operator. A new link revokes the older unused ones."""
    actor = Actor.agent(agent) if agent else Actor.system()
    if subject.user_id is not None and user_is_privileged(subject.user):
        audit_record(
            workspace=subject.workspace,
            actor=actor,
            action=AuditEvent.Action.PORTALLINK_REFUSED,
            subject=subject,
            after={"reason": "privileged_login"},
        )  # committed: the refusal is the point
        raise PortalLinkRefused()
    return _portal_link_issue(subject, agent, actor)


@transaction.atomic
def _portal_link_issue(subject: Subject, agent: Agent | None, actor: Actor) -> tuple[PortalLink, str]:
    token = secrets.token_urlsafe(32)
    now = timezone.now()
    # Revoked by expiring now: the link page then says it cannot be used any more.
    replaced = PortalLink.objects.filter(subject=subject, used_at=None, expires_at__gt=now).update(expires_at=now)
    link = PortalLink.objects.create(
        workspace_id=subject.workspace_id,
        subject=subject,
        token_hash=hash_api_key(token),
        created_by=agent,
        expires_at=now + PORTAL_LINK_LIFETIME,
    )
    audit_record(
        workspace=subject.workspace,
        actor=actor,
        action=AuditEvent.Action.PORTALLINK_CREATED,
        subject=subject,
        after={"expires_at": link.expires_at.isoformat(), "revoked_older": replaced},
    )
    return link, token


def portal_link_peek(*, token: str) -> PortalLink:
    """The link behind `token` if it can still be used; raises PortalLinkError saying why not."""
    link = PortalLink.objects.select_related("subject").filter(token_hash=hash_api_key(token)).first()
    if link is None:
        raise PortalLinkError("invalid")
    if link.used_at is not None:
        raise PortalLinkError("used")
    if link.expires_at <= timezone.now():
        raise PortalLinkError("expired")
    return link


def portal_link_redeem(*, token: str):
    """Use the link once: returns the subject's login user, creating one if the subject has none.

    A link whose subject's login became privileged after it was made is used up without signing in
    (PortalLinkError "refused", audited)."""
    user = _portal_link_use(token)
    if user is None:
        raise PortalLinkError("refused")
    return user


@transaction.atomic
def _portal_link_use(token: str):
    link = portal_link_peek(token=token)
    link = PortalLink.objects.select_for_update(of=("self", "subject")).select_related("subject__user").get(pk=link.pk)
    if link.used_at is not None:  # lost a race with another click
        raise PortalLinkError("used")
    link.used_at = timezone.now()
    link.save(update_fields=["used_at"])
    subject = link.subject
    if subject.user is not None and user_is_privileged(subject.user):
        audit_record(
            workspace=subject.workspace,
            actor=Actor.system("portal link"),
            action=AuditEvent.Action.PORTALLINK_REFUSED,
            subject=subject,
            after={"reason": "privileged_login"},
        )
        return None
    if subject.user is None:
        User = get_user_model()
        user = User(username=f"subject-{subject.workspace_id}-{subject.pk}")
        user.set_unusable_password()
        user.save()
        subject.user = user
        subject.save(update_fields=["user", "updated_at"])
    audit_record(
        workspace=subject.workspace,
        actor=Actor(type="end_user", id=str(subject.user_id), name=subject.user.get_username(), channel="portal"),
        action=AuditEvent.Action.PORTALLINK_USED,
        subject=subject,
    )
    return subject.user


@transaction.atomic
def operator_timezone_set(*, membership: Membership, timezone_name: str, actor: Actor) -> Membership:
    """The zone the console shows this operator's times in (an IANA name such as Asia/Shanghai)."""
    validate_timezone(timezone_name)
    membership = Membership.objects.select_for_update().select_related("user", "workspace").get(pk=membership.pk)
    if membership.timezone != timezone_name:
        before = {"user": _login_name(membership.user), "timezone": membership.timezone}
        membership.timezone = timezone_name
        membership.save(update_fields=["timezone"])
        audit_record(
            workspace=membership.workspace,
            actor=actor,
            action=AuditEvent.Action.OPERATOR_TIMEZONE_CHANGED,
            before=before,
            after={"user": _login_name(membership.user), "timezone": timezone_name},
        )
    return membership
