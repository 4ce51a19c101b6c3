import json

from django.conf import settings
from rest_framework import status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import JSONParser


class PayloadTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "payload_too_large"


def _reject_constant(name: str):
    raise ValueError(f"{name} is not valid JSON")


class LimitedJSONParser(JSONParser):
    """JSON bodies up to API_MAX_BODY_BYTES; larger ones get 413 before they are read."""

    limit_setting = "API_MAX_BODY_BYTES"

    def parse(self, stream, media_type=None, parser_context=None):
        limit = getattr(settings, self.limit_setting)
        too_large = PayloadTooLarge(f"The request body is larger than {limit} bytes.")
        request = (parser_context or {}).get("request")
        declared = request.META.get("CONTENT_LENGTH") if request is not None else None
        if declared and declared.isdigit() and int(declared) > limit:
            raise too_large
        body = stream.read(limit + 1)
        if len(body) > limit:
            raise too_large
        try:
            return json.loads(body.decode("utf-8"), parse_constant=_reject_constant)
        except (ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError
            raise ParseError(f"The body is not valid JSON: {exc}") from None


class BatchJSONParser(LimitedJSONParser):
    """The batch endpoint's bodies, up to API_BATCH_MAX_BODY_BYTES."""

    limit_setting = "API_BATCH_MAX_BODY_BYTES"
