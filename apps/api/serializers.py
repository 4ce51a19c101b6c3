"""Input and output shapes of the agent API. Names are globally unique (they become OpenAPI components)."""

import math

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from apps.memories.models import Memory
from apps.memories.services import Outcome

PROFILE_CATEGORIES = [str(c) for c in Memory.PROFILE_CATEGORIES]
EPISODE_CATEGORIES = [str(c) for c in Memory.EPISODE_CATEGORIES]
WRITE_OUTCOMES = [str(o) for o in Outcome if o != Outcome.REPLAYED]  # a replay reports the first write's outcome


def _future(value):
    if value is not None and value <= timezone.now():
        raise serializers.ValidationError("Must be in the future.")
    return value


def _clean_json(value):
    """Metadata must be JSON PostgreSQL can store — no NUL characters, no lone surrogates, only finite
    numbers (1e400 parses as infinity) — and small: at most METADATA_MAX_KEYS keys and list items,
    METADATA_MAX_DEPTH levels and METADATA_MAX_CHARS characters, all counted before anything is redacted."""
    limits = (settings.METADATA_MAX_KEYS, settings.METADATA_MAX_DEPTH, settings.METADATA_MAX_CHARS)
    entries = chars = 0
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth + 1 > limits[1]:
                raise serializers.ValidationError(f"Metadata may nest at most {limits[1]} levels deep.")
            entries += len(item)
            if entries > limits[0]:
                raise serializers.ValidationError(f"Metadata may hold at most {limits[0]} keys and list items.")
            children = [*item.keys(), *item.values()] if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
            continue
        if isinstance(item, str):
            if "\x00" in item:
                raise serializers.ValidationError("Null characters are not allowed.")
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise serializers.ValidationError("Lone surrogate characters are not allowed.") from None
            chars += len(item)
        elif isinstance(item, float) and not math.isfinite(item):
            raise serializers.ValidationError("Numbers must be finite (1e400 is too large for a number).")
        elif isinstance(item, (int, float)) and not isinstance(item, bool):
            chars += len(str(item))
        if chars > limits[2]:
            raise serializers.ValidationError(f"Metadata may hold at most {limits[2]} characters in all.")
    return value


class _WriteFieldsMixin(serializers.Serializer):
    importance = serializers.FloatField(min_value=0, max_value=1, default=0.5)
    expires_at = serializers.DateTimeField(required=False, allow_null=True, default=None, validators=[_future])
    session_id = serializers.CharField(max_length=128, required=False, allow_blank=True, default="")
    turn_id = serializers.CharField(max_length=128, required=False, allow_blank=True, default="")
    metadata = serializers.DictField(required=False, default=dict, validators=[_clean_json])


class FactWriteSerializer(_WriteFieldsMixin):
    key = serializers.CharField(max_length=128, help_text="Normalized to a slug: 'Reply Language' → reply_language.")
    value = serializers.CharField(max_length=settings.MEMORY_MAX_VALUE_CHARS)
    category = serializers.ChoiceField(choices=PROFILE_CATEGORIES)
    confidence = serializers.FloatField(min_value=0, max_value=1, default=1.0)
    pinned = serializers.BooleanField(default=False)


class EpisodeWriteSerializer(_WriteFieldsMixin):
    text = serializers.CharField(max_length=settings.MEMORY_MAX_TEXT_CHARS)
    occurred_at = serializers.DateTimeField(required=False, allow_null=True, default=None)
    category = serializers.ChoiceField(choices=EPISODE_CATEGORIES, default="event")


class MemoryCorrectionSerializer(serializers.Serializer):
    """A correction of `context["memory"]`; its validated data are `memory_correct`'s arguments, with
    the memory's `value` (a profile fact) or `text` (an episode) as `content`."""

    CORRECTED_THROUGH = {  # the field that was sent → why it does not fit this memory
        "text": _("Profile facts are corrected through their value."),
        "value": _("Episodes are corrected through their text."),
    }

    value = serializers.CharField(max_length=settings.MEMORY_MAX_VALUE_CHARS, required=False)
    text = serializers.CharField(max_length=settings.MEMORY_MAX_TEXT_CHARS, required=False)
    confidence = serializers.FloatField(min_value=0, max_value=1, required=False)
    importance = serializers.FloatField(min_value=0, max_value=1, required=False)
    reason = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")

    def validate(self, data):
        if "value" in data and "text" in data:
            raise serializers.ValidationError("Send either value (profile facts) or text (episodes), not both.")
        if not {"value", "text", "confidence", "importance"} & data.keys():
            raise serializers.ValidationError("Send at least one of value, text, confidence, importance.")
        content_field = self.context["memory"].content_field
        if wrong := ({"value", "text"} & data.keys()) - {content_field}:
            raise serializers.ValidationError({name: [self.CORRECTED_THROUGH[name]] for name in wrong})
        arguments = {name: data[name] for name in data if name != content_field}
        if content_field in data:
            arguments["content"] = data[content_field]
        return arguments


class MemoryListQuerySerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=Memory.Kind.choices, required=False)
    category = serializers.ChoiceField(choices=Memory.Category.choices, required=False)
    status = serializers.ChoiceField(choices=Memory.Status.choices, required=False, default=Memory.Status.ACTIVE)
    session_id = serializers.CharField(max_length=128, required=False)
    q = serializers.CharField(max_length=200, required=False, help_text="Words the memory text contains.")


class MemorySourceSerializer(serializers.Serializer):
    agent = serializers.CharField(source="agent.name", allow_null=True, default=None)
    session_id = serializers.CharField()
    turn_id = serializers.CharField()
    channel = serializers.CharField(
        help_text="api, turns, portal (a correction by the person), console (by an operator)"
    )
    actor_type = serializers.CharField(help_text="agent, end_user, operator or system: who this version came from")
    extractor = serializers.CharField()
    extractor_version = serializers.CharField()
    excerpt = serializers.CharField(help_text="What was said, redacted.")
    received_at = serializers.DateTimeField()


class MemorySerializer(serializers.Serializer):
    id = serializers.UUIDField()
    kind = serializers.ChoiceField(choices=Memory.Kind.choices)
    category = serializers.ChoiceField(choices=Memory.Category.choices)
    key = serializers.CharField()
    value = serializers.CharField()
    text = serializers.CharField()
    confidence = serializers.FloatField()
    importance = serializers.FloatField()
    pinned = serializers.BooleanField()
    sensitivity = serializers.CharField()
    status = serializers.ChoiceField(choices=Memory.Status.choices)
    version = serializers.IntegerField()
    supersedes = serializers.UUIDField(source="supersedes_id", allow_null=True)
    valid_from = serializers.DateTimeField()
    valid_to = serializers.DateTimeField(allow_null=True)
    expires_at = serializers.DateTimeField(allow_null=True)
    session_id = serializers.CharField()
    occurred_at = serializers.DateTimeField(allow_null=True)
    source = MemorySourceSerializer(allow_null=True)  # type: ignore[assignment]  # the API's field, not Field.source
    redactions = serializers.DictField(child=serializers.IntegerField(), help_text="Entity type → count removed.")
    metadata = serializers.DictField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class _ReceiptOnlyWithoutRead:
    """An answer that keys without the `read` scope get as a receipt: only `receipt_fields` (a write
    must not let a write-only key read memories). The other fields are optional in the schema."""

    receipt_fields: tuple[str, ...] = ()

    def get_fields(self):
        fields = super().get_fields()  # type: ignore[misc]  # a mixin in front of a Serializer
        for name, field in fields.items():
            if name not in self.receipt_fields:
                field.required = False
        return fields


class MemoryWriteResultSerializer(_ReceiptOnlyWithoutRead, MemorySerializer):
    """The written memory plus outcome, redacted and replayed. A key without the `read` scope gets only
    id, outcome, version and redacted (and replayed when true)."""

    receipt_fields = ("id", "outcome", "version", "redacted")

    outcome = serializers.ChoiceField(
        choices=WRITE_OUTCOMES,
        help_text="created | superseded (a new version replaced the current one) | unchanged (same value again) "
        "| kept_existing (less confident than the current value) | corrected.",
    )
    redacted = serializers.DictField(
        child=serializers.IntegerField(), help_text="Personal data removed from this request: entity type → count."
    )
    replayed = serializers.BooleanField(help_text="True when this is the stored result of an earlier identical write.")


class MemoryPinResultSerializer(_ReceiptOnlyWithoutRead, MemorySerializer):
    """The memory after pinning or unpinning. A key without the `read` scope gets only id, version and pinned."""

    receipt_fields = ("id", "version", "pinned")


class MemoryChangeSerializer(serializers.Serializer):
    action = serializers.CharField()
    actor_type = serializers.CharField()
    actor_name = serializers.CharField()
    reason = serializers.CharField()
    at = serializers.DateTimeField(source="created_at")


class MemoryVersionSerializer(MemorySerializer):
    change = MemoryChangeSerializer(allow_null=True, help_text="Who made this version and when.")


class SubjectSerializer(serializers.Serializer):
    external_id = serializers.CharField()
    display_name = serializers.CharField()
    timezone = serializers.CharField()
    created_at = serializers.DateTimeField()


class ExportedMemorySerializer(serializers.Serializer):
    lineage = serializers.UUIDField()
    status = serializers.CharField(help_text="Status of the newest version.")
    versions = MemoryVersionSerializer(many=True)


class SubjectExportSerializer(serializers.Serializer):
    subject = SubjectSerializer()
    exported_at = serializers.DateTimeField()
    memories = ExportedMemorySerializer(many=True)


class RecallRequestSerializer(serializers.Serializer):
    query = serializers.CharField(max_length=4000, help_text="The user's message or what the agent is about to answer.")
    top_k = serializers.IntegerField(min_value=1, max_value=50, default=8)
    token_budget = serializers.IntegerField(min_value=50, max_value=16000, default=800)
    kinds = serializers.ListField(
        child=serializers.ChoiceField(choices=Memory.Kind.choices), required=False, max_length=2
    )
    categories = serializers.ListField(
        child=serializers.ChoiceField(choices=Memory.Category.choices), required=False, max_length=6
    )
    session_id = serializers.CharField(max_length=128, required=False)
    min_score = serializers.FloatField(min_value=0, max_value=2, required=False)
    mode = serializers.ChoiceField(
        choices=["always", "auto"],
        default="always",
        help_text="auto: greetings, thanks and other small talk return nothing at once.",
    )
    include_trace = serializers.BooleanField(default=False)


class RecallComponentsSerializer(serializers.Serializer):
    similarity = serializers.FloatField(help_text="Calibrated semantic similarity, 0..1.")
    keyword = serializers.FloatField(help_text="Full-text match, 0..1 (relative to the best match).")
    recency = serializers.FloatField(help_text="0.5 ** (age_days / half-life of the category).")
    importance = serializers.FloatField()
    pinned = serializers.BooleanField()


class RecalledMemorySerializer(serializers.Serializer):
    id = serializers.UUIDField(source="memory.id")
    kind = serializers.CharField(source="memory.kind")
    category = serializers.CharField(source="memory.category")
    key = serializers.CharField(source="memory.key")
    value = serializers.CharField(source="memory.value")
    text = serializers.CharField(source="memory.text")
    score = serializers.FloatField()
    components = RecallComponentsSerializer()
    occurred_at = serializers.DateTimeField(source="memory.occurred_at", allow_null=True)
    updated_at = serializers.DateTimeField(source="memory.updated_at")
    source = MemorySourceSerializer(source="memory.source", allow_null=True)  # type: ignore[assignment]  # the API's field, not Field.source


class RecallResponseSerializer(serializers.Serializer):
    memories = RecalledMemorySerializer(many=True)
    memory_block = serializers.CharField(help_text="Ready to paste into a prompt; frames the memories as data.")
    used_tokens = serializers.IntegerField()
    fallback = serializers.ChoiceField(
        choices=["keyword"],
        allow_null=True,
        help_text="keyword: the embedder or vector search failed, or the server was too busy to embed "
        "the query in time (overload); the keyword and recent legs answered.",
    )
    skipped = serializers.ChoiceField(choices=["small_talk"], allow_null=True)
    took_ms = serializers.FloatField()
    trace = serializers.DictField(required=False)


class PortalLinkSerializer(serializers.Serializer):
    url = serializers.URLField(help_text="Single use; give it to the person.")
    expires_at = serializers.DateTimeField()


class TurnWriteSerializer(serializers.Serializer):
    session_id = serializers.CharField(max_length=128, required=False, allow_blank=True, default="")
    turn_id = serializers.CharField(max_length=128, help_text="Your id of the turn; sending it again is a no-op.")
    user_message = serializers.CharField(max_length=settings.MEMORY_MAX_TEXT_CHARS * 2)
    assistant_message = serializers.CharField(
        max_length=settings.MEMORY_MAX_TEXT_CHARS * 2, required=False, allow_blank=True, default=""
    )
    occurred_at = serializers.DateTimeField(required=False, allow_null=True, default=None)


class IngestAcceptedSerializer(serializers.Serializer):
    ingest_id = serializers.UUIDField(source="id")
    status = serializers.CharField()
    replayed = serializers.BooleanField(help_text="True when this turn_id was already accepted.")


class IngestMemorySerializer(serializers.Serializer):
    id = serializers.UUIDField()
    kind = serializers.CharField()
    category = serializers.CharField()
    key = serializers.CharField()
    text = serializers.CharField()


class IngestSkipSerializer(serializers.Serializer):
    text = serializers.CharField()
    reason = serializers.CharField(
        help_text="e.g. question, hypothetical, injection, transient, low_confidence, sensitive:health, duplicate"
    )


class IngestStatusSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=["queued", "running", "done", "failed"])
    subject = serializers.CharField(source="subject.external_id")
    turn_id = serializers.CharField()
    created = IngestMemorySerializer(many=True, source="result.created", default=list)
    updated = IngestMemorySerializer(many=True, source="result.updated", default=list)
    skipped = IngestSkipSerializer(many=True, source="result.skipped", default=list)
    error = serializers.CharField(allow_blank=True)
    redactions = serializers.DictField(child=serializers.IntegerField())
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class ApiErrorBodySerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    fields = serializers.DictField(  # type: ignore[assignment]  # the error body's field, not Serializer.fields
        help_text="Field name → list of messages (validation errors)."
    )
    entity_types = serializers.ListField(child=serializers.CharField(), required=False)
    kind = serializers.CharField(
        required=False, help_text="injection: markup, override, role, exfiltration, memory_poison or command."
    )
    items = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        help_text="A refused batch: the result of each refused item (index, status, error).",
    )


class ApiErrorSerializer(serializers.Serializer):
    error = ApiErrorBodySerializer()


# --- batch import -------------------------------------------------------------------------------

BATCH_MAX_ITEMS = 500


class _BatchItemMixin(serializers.Serializer):
    client_id = serializers.CharField(
        max_length=128,
        required=False,
        allow_blank=True,
        default="",
        help_text="Your id of this item: sending it again (same body) returns the same memory and writes nothing.",
    )


class BatchFactItemSerializer(_BatchItemMixin, FactWriteSerializer):
    type = serializers.ChoiceField(choices=["fact"])


class BatchEpisodeItemSerializer(_BatchItemMixin, EpisodeWriteSerializer):
    type = serializers.ChoiceField(choices=["episode"])


BATCH_ITEM_SERIALIZERS: dict[str, type[serializers.Serializer]] = {
    "fact": BatchFactItemSerializer,
    "episode": BatchEpisodeItemSerializer,
}


@extend_schema_field(
    PolymorphicProxySerializer(
        component_name="BatchItem",
        serializers=BATCH_ITEM_SERIALIZERS,  # type: ignore[arg-type]  # a dict of classes: documented, but dict is invariant
        resource_type_field_name="type",
        many=True,
    )
)
class BatchItemsField(serializers.ListField):
    """Each item is validated on its own (apps.api.batch), so that every bad one is named by index."""

    child = serializers.JSONField()


class BatchImportRequestSerializer(serializers.Serializer):
    items = BatchItemsField(allow_empty=False, help_text=f"1 to {BATCH_MAX_ITEMS} facts and episodes.")


class BatchImportQuerySerializer(serializers.Serializer):
    atomic = serializers.BooleanField(default=True, help_text="false: write the valid items and report each one.")


class BatchItemResultSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    status = serializers.IntegerField(help_text="201 written, 200 already current or replayed, 4xx refused.")
    client_id = serializers.CharField()
    id = serializers.UUIDField(required=False)
    outcome = serializers.ChoiceField(choices=WRITE_OUTCOMES, required=False)
    version = serializers.IntegerField(required=False)
    redacted = serializers.DictField(child=serializers.IntegerField(), required=False)
    replayed = serializers.BooleanField(required=False)
    error = ApiErrorBodySerializer(required=False)


class BatchImportResultSerializer(serializers.Serializer):
    atomic = serializers.BooleanField()
    written = serializers.IntegerField(help_text="Items that created a memory or a new version.")
    failed = serializers.IntegerField()
    items = BatchItemResultSerializer(many=True)


def recall_response_data(result) -> dict:
    """`RecallResponseSerializer(result).data`, written out for the hot path: building the nested DRF
    serializers (a deep copy of their fields each time) and walking them cost ~2 ms of a recall's
    CPU. The serializer stays the schema; tests/api/test_recall.py holds the two equal."""
    return {
        "memories": [_recalled(candidate) for candidate in result.memories],
        "memory_block": str(result.memory_block),
        "used_tokens": int(result.used_tokens),
        "fallback": result.fallback,
        "skipped": result.skipped,
        "took_ms": float(result.took_ms),
        "trace": {str(name): value for name, value in result.trace.items()},
    }


def _recalled(candidate) -> dict:
    memory, components, source = candidate.memory, candidate.components, candidate.memory.source
    return {
        "id": str(memory.id),
        "kind": _text(memory.kind),
        "category": _text(memory.category),
        "key": _text(memory.key),
        "value": _text(memory.value),
        "text": _text(memory.text),
        "score": float(candidate.score),
        "components": {
            "similarity": float(components["similarity"]),
            "keyword": float(components["keyword"]),
            "recency": float(components["recency"]),
            "importance": float(components["importance"]),
            "pinned": bool(components["pinned"]),
        },
        "occurred_at": _datetime(memory.occurred_at),
        "updated_at": _datetime(memory.updated_at),
        "source": None
        if source is None
        else {
            "agent": None if source.agent is None else _text(source.agent.name),
            "session_id": _text(source.session_id),
            "turn_id": _text(source.turn_id),
            "channel": _text(source.channel),
            "actor_type": _text(source.actor_type),
            "extractor": _text(source.extractor),
            "extractor_version": _text(source.extractor_version),
            "excerpt": _text(source.excerpt),
            "received_at": _datetime(source.received_at),
        },
    }


def _text(value) -> str | None:
    return None if value is None else str(value)


def _datetime(value) -> str | None:
    """As DateTimeField writes it: in the current time zone, ISO 8601, UTC as Z."""
    if not value:
        return None
    text = timezone.localtime(value).isoformat() if timezone.is_aware(value) else value.isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text
