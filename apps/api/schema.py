"""OpenAPI: the bearer key scheme, and the error responses every operation can give."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import build_bearer_security_scheme_object

from apps.api.serializers import ApiErrorSerializer

ERRORS = {
    "400": "Invalid input: `error.fields` names each bad field.",
    "401": "Missing, invalid or revoked API key.",
    "403": "The key lacks the scope (`read` or `write`) this method needs.",
    "404": "No such subject or memory in this key's workspace.",
    "422": "Refused: an identifier (external id, session or turn id, Idempotency-Key, X-Request-ID) holds "
    "personal data (`pii_in_identifier`; use an opaque id), or the PII policy refuses the text (`pii_rejected`; "
    "`error.entity_types` names what was found), or a text reads as instructions to the model rather than "
    "information about the person (`injection`: chat-template tokens, role markers, 'ignore previous "
    "instructions', 忽略之前的指令, ...; `error.fields` names the field, `error.kind` the kind).",
    "429": "Too many requests for this key; retry after the `Retry-After` seconds.",
}
WRITE_ERRORS = {
    "409": "The memory is not the current version (correct the current one: `conflict`), or the "
    "Idempotency-Key / turn id was already used by this agent for a different body (`idempotency_key_reused`); "
    "for a portal link: the person's login is an operator's or administrator's, which no link may sign in "
    "(`portal_link_refused`). A write about a person who paused memory in the portal (`memory_paused`; recall "
    "still answers) or that they deleted and asked not to be learned again (`memory_suppressed`): nothing is stored, "
    "do not retry.",
    "413": "The body is larger than API_MAX_BODY_BYTES.",
    "415": "The body is not `application/json`.",
}


class MemoryAutoSchema(AutoSchema):
    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        if not self.path.startswith("/api/v1/"):
            return responses
        errors = ERRORS | (WRITE_ERRORS if self.method in ("POST", "PATCH", "PUT", "DELETE") else {})
        for code, description in errors.items():
            if code not in responses:
                responses[code] = self._get_response_for_code(ApiErrorSerializer, code, direction=direction)
                responses[code]["description"] = description
        return responses


class ApiKeyScheme(OpenApiAuthenticationExtension):
    target_class = "apps.api.authentication.ApiKeyAuthentication"
    name = "ApiKey"

    def get_security_definition(self, auto_schema):
        return build_bearer_security_scheme_object(header_name="Authorization", token_prefix="Bearer")
