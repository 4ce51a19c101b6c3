"""One error shape for every failure: {"error": {"code", "message", "fields"}}."""

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.serializers import as_serializer_error
from rest_framework.views import exception_handler

from apps.accounts.services import PortalLinkRefused
from apps.memories.services import IdempotencyConflict, InjectionRefused, MemoryConflict, Refused
from apps.privacy import PIIRejected
from apps.privacy.identifiers import PIIInIdentifier


def error_body(code: str, message: str, fields: dict | None = None, **extra) -> dict:
    return {"error": {"code": code, "message": message, "fields": fields or {}, **extra}}


def api_exception_handler(exc: Exception, context: dict) -> Response | None:
    if isinstance(exc, InjectionRefused):
        body = error_body(
            "injection",
            "The text reads as instructions to the model, not information about the person; nothing was stored.",
            exc.message_dict,
            kind=exc.kind,
        )
        return Response(body, status=status.HTTP_422_UNPROCESSABLE_ENTITY)
    if isinstance(exc, PIIInIdentifier):
        body = error_body(
            "pii_in_identifier",
            "Identifiers must be opaque ids; these hold personal data.",
            exc.message_dict,
            entity_types=exc.entity_types,
        )
        return Response(body, status=status.HTTP_422_UNPROCESSABLE_ENTITY)
    if isinstance(exc, PIIRejected):
        body = error_body("pii_rejected", str(exc), entity_types=exc.entity_types)
        return Response(body, status=status.HTTP_422_UNPROCESSABLE_ENTITY)
    if isinstance(exc, PortalLinkRefused):
        return Response(error_body("portal_link_refused", str(exc)), status=status.HTTP_409_CONFLICT)
    if isinstance(exc, Refused):  # the person's controls: memory_paused, memory_suppressed
        return Response(error_body(exc.code, str(exc)), status=status.HTTP_409_CONFLICT)
    if isinstance(exc, IdempotencyConflict):
        return Response(error_body("idempotency_key_reused", str(exc)), status=status.HTTP_409_CONFLICT)
    if isinstance(exc, MemoryConflict):
        return Response(error_body("conflict", str(exc)), status=status.HTTP_409_CONFLICT)
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(detail=as_serializer_error(exc))
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()

    response = exception_handler(exc, context)
    if response is None:
        return None  # a bug: Django's handler500 answers, in the same shape
    if isinstance(exc, exceptions.ValidationError):
        fields = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
        response.data = error_body("invalid", "The request has invalid fields.", fields)
    else:
        assert isinstance(exc, exceptions.APIException)  # DRF answers nothing else (None above)
        response.data = error_body(exc.default_code, str(exc.detail))
    return response
