"""Writes for webhook endpoints, each audited: create, edit, switch off and on, rotate the secret,
send a test, redeliver. The secret is returned once (create, rotate) and never stored."""

import urllib.parse

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.accounts.models import Workspace
from apps.audit.models import AuditEvent
from apps.audit.services import Actor, audit_record
from apps.privacy import redact
from apps.privacy.identifiers import identifier_refusal
from apps.webhooks.delivery import SYSTEM, endpoint_facts
from apps.webhooks.events import webhook_emit
from apps.webhooks.models import TEST_EVENT, EventType, WebhookDelivery, WebhookEndpoint
from apps.webhooks.signing import endpoint_secret, new_salt
from memoryadmin.http import public_address_error

URL_MAX_CHARS = 500


def url_errors(url: str) -> list[str]:
    """Why `url` cannot receive webhooks ([] when it can). Names are resolved and checked again
    on every send; here literal addresses and localhost are refused, so the mistake shows at once."""
    if len(url) > URL_MAX_CHARS:
        return [_("Ensure this URL has at most %(limit)d characters.") % {"limit": URL_MAX_CHARS}]
    parts = urllib.parse.urlsplit(url)
    if parts.scheme and parts.netloc and parts.scheme not in ("http", "https"):
        return [_("Webhook URLs start with http:// or https://.")]
    try:
        URLValidator(schemes=["http", "https"])(url)
    except ValidationError:
        return [_("Enter a valid URL.")]
    # Stored and shown as it is, never redacted: personal data in it is refused (an IP address as
    # the host is not personal data here, it is the receiver's).
    if refusal := identifier_refusal(url.split(parts.netloc, 1)[1] + " " + (parts.username or "")):
        return refusal
    if not settings.WEBHOOK_ALLOW_PRIVATE_TARGETS and (error := public_address_error(parts.hostname or "")):
        return [
            _("%(error)s: webhooks go only to public addresses (WEBHOOK_ALLOW_PRIVATE_TARGETS allows others).")
            % {"error": error}
        ]
    return []


def _validated(*, url: str, events: list[str], description: str) -> tuple[str, list[str], str]:
    errors: dict[str, list[str]] = {}
    url = url.strip()
    if found := url_errors(url):
        errors["url"] = found
    unknown = sorted(set(events) - set(EventType.values))
    if not events or unknown:
        errors["events"] = [_("Choose at least one of: %(choices)s.") % {"choices": ", ".join(EventType.values)}]
    if len(description) > 200:
        errors["description"] = [_("Ensure this field has no more than 200 characters.")]
    if errors:
        raise ValidationError(errors)
    ordered = [event for event in EventType.values if event in events]
    return url, ordered, redact(description).text


@transaction.atomic
def endpoint_create(
    *,
    workspace: Workspace,
    url: str,
    events: list[str],
    description: str = "",
    include_content: bool = False,
    actor: Actor = SYSTEM,
) -> tuple[WebhookEndpoint, str]:
    """A new enabled endpoint and its signing secret (shown once)."""
    url, events, description = _validated(url=url, events=events, description=description)
    endpoint = WebhookEndpoint.objects.create(
        workspace=workspace,
        url=url,
        events=events,
        description=description,
        include_content=include_content,
        secret_salt=new_salt(),
    )
    audit_record(
        workspace=workspace, actor=actor, action=AuditEvent.Action.WEBHOOK_CREATED, after=endpoint_facts(endpoint)
    )
    return endpoint, endpoint_secret(endpoint.secret_salt)


@transaction.atomic
def endpoint_update(
    *,
    endpoint: WebhookEndpoint,
    url: str,
    events: list[str],
    description: str = "",
    include_content: bool = False,
    actor: Actor,
) -> WebhookEndpoint:
    url, events, description = _validated(url=url, events=events, description=description)
    before = endpoint_facts(endpoint)
    endpoint.url, endpoint.events, endpoint.description, endpoint.include_content = (
        url,
        events,
        description,
        include_content,
    )
    endpoint.save(update_fields=["url", "events", "description", "include_content", "updated_at"])
    audit_record(
        workspace=endpoint.workspace,
        actor=actor,
        action=AuditEvent.Action.WEBHOOK_UPDATED,
        before=before,
        after=endpoint_facts(endpoint),
    )
    return endpoint


@transaction.atomic
def endpoint_set_enabled(*, endpoint: WebhookEndpoint, enabled: bool, actor: Actor) -> WebhookEndpoint:
    """Switch off (pending deliveries stop) or on again (with a clean failure count)."""
    before = endpoint_facts(endpoint)
    endpoint.enabled, endpoint.consecutive_failures = enabled, 0
    endpoint.disabled_reason = "" if enabled else "Switched off in the console."  # who: in the audit log
    endpoint.save(update_fields=["enabled", "consecutive_failures", "disabled_reason", "updated_at"])
    if not enabled:
        WebhookDelivery.objects.filter(endpoint=endpoint, state=WebhookDelivery.State.PENDING).update(
            state=WebhookDelivery.State.FAILED, next_attempt_at=None
        )
    audit_record(
        workspace=endpoint.workspace,
        actor=actor,
        action=AuditEvent.Action.WEBHOOK_ENABLED if enabled else AuditEvent.Action.WEBHOOK_DISABLED,
        before=before,
        after=endpoint_facts(endpoint),
    )
    return endpoint


@transaction.atomic
def endpoint_rotate_secret(*, endpoint: WebhookEndpoint, actor: Actor) -> str:
    """A new secret, in force at once (shown once); the old one no longer signs anything."""
    endpoint.secret_salt = new_salt()
    endpoint.save(update_fields=["secret_salt", "updated_at"])
    audit_record(
        workspace=endpoint.workspace,
        actor=actor,
        action=AuditEvent.Action.WEBHOOK_SECRET_ROTATED,
        after=endpoint_facts(endpoint),
    )
    return endpoint_secret(endpoint.secret_salt)


@transaction.atomic
def webhook_send_test(*, endpoint: WebhookEndpoint, actor: Actor) -> int:
    """A `webhook.test` event for this endpoint only; the caller sends it (the id of its delivery)."""
    [delivery_id] = webhook_emit(
        workspace_id=endpoint.workspace_id,
        type=TEST_EVENT,
        endpoints=[endpoint],
        publish_on_commit=False,
        data={"message": "A test event from memoryadmin. It carries no memory.", "endpoint": endpoint.pk},
    )
    audit_record(
        workspace=endpoint.workspace,
        actor=actor,
        action=AuditEvent.Action.WEBHOOK_TEST_SENT,
        after=endpoint_facts(endpoint),
    )
    return delivery_id


class RedeliveryRefused(Exception):
    pass


@transaction.atomic
def delivery_redeliver(*, delivery: WebhookDelivery, actor: Actor) -> WebhookDelivery:
    """Make a delivery due now, whatever its state; the caller sends it."""
    delivery = (
        WebhookDelivery.objects.select_for_update(of=("self",))
        .select_related("endpoint__workspace", "event")
        .get(pk=delivery.pk)
    )
    if not delivery.endpoint.enabled and delivery.event.type != TEST_EVENT:
        raise RedeliveryRefused(_("The endpoint is switched off: switch it on before redelivering."))
    delivery.state, delivery.next_attempt_at, delivery.manual = WebhookDelivery.State.PENDING, timezone.now(), True
    delivery.save(update_fields=["state", "next_attempt_at", "manual", "updated_at"])
    audit_record(
        workspace=delivery.endpoint.workspace,
        actor=actor,
        action=AuditEvent.Action.WEBHOOK_REDELIVERED,
        after={
            **endpoint_facts(delivery.endpoint),
            "delivery": delivery.pk,
            "event": str(delivery.event_id),
            "type": delivery.event.type,
        },
    )
    return delivery
