"""What protects each text column of our apps from personal data. A test walks every model and
fails on a CharField, TextField, JSONField, ArrayField or search column that is not listed here,
so a new one has to be classified (and gated) before it can be stored.

- "redacted": free text; the service that writes it passes it through `redact()` / `redact_data()`
  first (or builds it only from text that did).
- "identifier": an opaque handle used to find rows again; personal data in it is refused
  (`apps.privacy.identifiers`), never redacted.
- "system": written by our code from a fixed vocabulary, validated numbers, a digest or our own
  configuration; never text someone typed.
"""

REDACTED, IDENTIFIER, SYSTEM = "redacted", "identifier", "system"
POLICIES = (REDACTED, IDENTIFIER, SYSTEM)

FIELD_POLICY = {
    # accounts
    "accounts.Workspace.name": REDACTED,
    "accounts.Workspace.slug": IDENTIFIER,
    "accounts.Membership.role": SYSTEM,
    "accounts.Subject.external_id": IDENTIFIER,
    "accounts.Subject.display_name": REDACTED,
    "accounts.Subject.timezone": SYSTEM,  # a validated IANA zone name
    "accounts.Membership.timezone": SYSTEM,  # a validated IANA zone name (the operator's, for the console)
    "accounts.Agent.name": IDENTIFIER,  # unique per workspace; how create_agent finds it again
    "accounts.Agent.description": REDACTED,
    "accounts.ApiKey.prefix": SYSTEM,
    "accounts.ApiKey.hashed_secret": SYSTEM,
    "accounts.ApiKey.scopes": SYSTEM,
    "accounts.PortalLink.token_hash": SYSTEM,
    "accounts.RetentionPolicy.ttl_days": SYSTEM,  # category → days, from the validated form
    "accounts.RetentionPolicy.allowed_sensitive": SYSTEM,
    # audit
    "audit.AuditEvent.actor_type": SYSTEM,
    "audit.AuditEvent.actor_id": SYSTEM,  # a primary key
    "audit.AuditEvent.actor_name": REDACTED,  # agent names, usernames (which may be e-mail addresses)
    "audit.AuditEvent.action": SYSTEM,
    "audit.AuditEvent.before": REDACTED,  # snapshots of rows that were redacted when written
    "audit.AuditEvent.after": REDACTED,
    "audit.AuditEvent.reason": REDACTED,
    "audit.AuditEvent.request_id": IDENTIFIER,  # X-Request-ID (RequestIdMiddleware) or a uuid
    "audit.AuditEvent.channel": SYSTEM,  # api, mcp, turns, portal, console, system
    "audit.RecallStat.fallback": SYSTEM,
    # memories
    "memories.Source.session_id": IDENTIFIER,
    "memories.Source.turn_id": IDENTIFIER,
    "memories.Source.channel": SYSTEM,
    "memories.Source.actor_type": SYSTEM,
    "memories.Source.actor_name": REDACTED,  # a username (maybe an e-mail address), redacted like audit's
    "memories.Source.excerpt": REDACTED,
    "memories.Source.extractor": SYSTEM,
    "memories.Source.extractor_version": SYSTEM,  # our extractor's version / the configured LLM model
    "memories.Memory.kind": SYSTEM,
    "memories.Memory.category": SYSTEM,
    "memories.Memory.key": REDACTED,
    "memories.Memory.value": REDACTED,
    "memories.Memory.text": REDACTED,
    "memories.Memory.sensitivity": SYSTEM,
    "memories.Memory.status": SYSTEM,
    "memories.Memory.session_id": IDENTIFIER,
    "memories.Memory.redactions": SYSTEM,  # entity type → count
    "memories.Memory.metadata": REDACTED,
    "memories.Memory.search": REDACTED,  # made from the redacted text
    "memories.EmbeddingIndex.name": SYSTEM,
    "memories.EmbeddingIndex.model_id": SYSTEM,
    "memories.EmbeddingIndex.state": SYSTEM,
    "memories.MemoryEmbedding.model_id": SYSTEM,
    "memories.IdempotencyRecord.key": SYSTEM,  # SHA-256 of the key
    "memories.IdempotencyRecord.endpoint": SYSTEM,
    "memories.IdempotencyRecord.request_digest": SYSTEM,  # HMAC-SHA256 of the request
    "memories.IdempotencyRecord.outcome": SYSTEM,
    "memories.Ingest.session_id": IDENTIFIER,
    "memories.Ingest.turn_id": IDENTIFIER,
    "memories.Ingest.user_message": REDACTED,
    "memories.Ingest.assistant_message": REDACTED,
    "memories.Ingest.redactions": SYSTEM,
    "memories.Ingest.status": SYSTEM,
    "memories.Ingest.result": REDACTED,  # what the extractor made and skipped
    "memories.Ingest.error": REDACTED,  # an extractor's error message may quote the turn
    "memories.Suppression.key": REDACTED,  # a memory's key, already redacted and normalized
    "memories.Suppression.phrase": REDACTED,  # an episode's redacted text
    "memories.Suppression.category": SYSTEM,
    "memories.ForgetRequest.statuses": SYSTEM,  # memory ids → statuses
    # webhooks
    "webhooks.WebhookEndpoint.url": IDENTIFIER,  # typed by an admin; personal data in it is refused
    "webhooks.WebhookEndpoint.description": REDACTED,
    "webhooks.WebhookEndpoint.events": SYSTEM,
    "webhooks.WebhookEndpoint.disabled_reason": SYSTEM,  # one of our two sentences
    "webhooks.WebhookEndpoint.secret_salt": SYSTEM,  # random; the secret is derived, never stored
    "webhooks.WebhookEvent.type": SYSTEM,
    "webhooks.WebhookEvent.data": SYSTEM,  # ids, kinds, statuses, counts; key and content come from the audit event
    "webhooks.WebhookDelivery.state": SYSTEM,
    "webhooks.WebhookAttempt.error": REDACTED,  # our message, with what the receiver answered redacted
}
