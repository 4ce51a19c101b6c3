"""The agent API. Views are thin: validate input, call one service or selector, serialize.

Every view derives from WorkspaceAPIView: the workspace and agent come from the API key, and
subjects and memories are only ever looked up inside that workspace (another tenant's id is 404).
"""

from typing import cast

from django.core.exceptions import ValidationError
from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, status
from rest_framework.exceptions import NotFound
from rest_framework.pagination import CursorPagination
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.accounts.models import ApiKey, Subject, Workspace, external_id_error
from apps.accounts.services import portal_link_create, subject_get_or_create
from apps.api import batch
from apps.api import serializers as s
from apps.api.parsers import BatchJSONParser, PayloadTooLarge
from apps.api.throttling import ImportBudget
from apps.audit.services import Actor
from apps.memories import selectors, services
from apps.memories.export import export_document
from apps.memories.imports import ImportItem, ImportOutcome, memories_import
from apps.memories.ingest import ingest_accept
from apps.memories.models import Memory
from apps.memories.recall import recall
from apps.memories.recall.access import Access, Recall, recorder
from apps.privacy.identifiers import refuse_pii_in_identifiers
from memoryadmin.request_types import AppRequest

IDEMPOTENCY_HEADER = OpenApiParameter(
    "Idempotency-Key",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="Retrying with the same key returns the first result instead of writing again. An opaque id: "
    "one holding personal data is refused (422).",
)
OPAQUE_FIELDS = ("session_id", "turn_id")  # request fields that are identifiers, never personal data


def write_result_body(result: services.WriteResult, *, can_read: bool) -> tuple[dict, bool]:
    """MemoryWriteResultSerializer: the memory plus outcome, redacted and replayed; without the
    `read` scope only a receipt, so that a write-only key cannot read what it writes or corrects.
    Also says whether something was created (201)."""
    outcome = result.first_outcome or result.outcome
    replayed = result.outcome == services.Outcome.REPLAYED
    if can_read:
        body = s.MemorySerializer(result.memory).data | {
            "outcome": outcome,
            "redacted": result.redactions,
            "replayed": replayed,
        }
    else:
        body = {
            "id": str(result.memory.id),
            "outcome": outcome,
            "version": result.memory.version,
            "redacted": result.redactions,
        } | ({"replayed": True} if replayed else {})
    return body, outcome in (services.Outcome.CREATED, services.Outcome.SUPERSEDED)


def recall_body(
    *, workspace: Workspace, agent_id: int, subject: Subject, include_trace: bool = False, **options
) -> dict:
    """RecallResponseSerializer of one recall, whose reads go to the access log."""
    result = recall(workspace=workspace, subject=subject, include_trace=include_trace, **options)
    recorder.record(
        [
            Access(
                workspace_id=workspace.pk,
                agent_id=agent_id,
                subject_id=subject.pk,
                memory_id=candidate.memory.id,
                rank=rank,
                score=round(candidate.score, 4),
            )
            for rank, candidate in enumerate(result.memories, start=1)
        ],
        Recall(
            workspace_id=workspace.pk,
            agent_id=agent_id,
            took_ms=result.took_ms,
            results=len(result.memories),
            fallback=result.fallback or "",
        ),
    )
    body = s.recall_response_data(result)  # RecallResponseSerializer's shape
    if not include_trace:
        body.pop("trace", None)
    return body


class WorkspaceAPIView(APIView):
    @property
    def checks_external_id(self) -> bool:
        return True

    def initial(self, request, *args, **kwargs) -> None:
        """After authentication: a subject id in the path must be printable (400: no control or bidi
        characters) and identifiers in the path and headers opaque (422 otherwise)."""
        super().initial(request, *args, **kwargs)
        external_id = kwargs.get("external_id", "") if self.checks_external_id else ""
        if external_id and (error := external_id_error(external_id)):
            raise ValidationError({"external_id": [error]})
        refuse_pii_in_identifiers(
            **{"external_id": external_id, "Idempotency-Key": request.headers.get("Idempotency-Key", "")}
        )

    @property
    def key(self) -> ApiKey:
        """The request's API key: every view here requires one (ApiKeyAuthentication sets it)."""
        return cast(ApiKey, self.request.auth)

    @property
    def workspace(self) -> Workspace:
        return self.key.workspace

    @property
    def actor(self) -> Actor:
        return Actor.agent(self.key.agent, request_id=cast(AppRequest, self.request._request).id)

    def subject_or_404(self, external_id: str) -> Subject:
        subject = selectors.subject_get(workspace=self.workspace, external_id=external_id)
        if subject is None:
            raise NotFound("No subject with this id.")
        return subject

    def subject_for_write(self, external_id: str) -> Subject:
        return subject_get_or_create(workspace=self.workspace, external_id=external_id)

    def memory_or_404(self, memory_id: str) -> Memory:
        memory = selectors.memory_get(workspace=self.workspace, memory_id=memory_id)
        if memory is None:
            raise NotFound("No memory with this id.")
        return memory

    def validated(self, serializer_class, data=None) -> dict:
        serializer = serializer_class(data=self.request.data if data is None else data)
        serializer.is_valid(raise_exception=True)
        refuse_pii_in_identifiers(**{name: serializer.validated_data.get(name) or "" for name in OPAQUE_FIELDS})
        return serializer.validated_data

    def provenance(self, data: dict, excerpt: str) -> services.Provenance:
        return services.Provenance(
            agent=self.key.agent, session_id=data["session_id"], turn_id=data["turn_id"], excerpt=excerpt
        )

    def idempotency_key(self, data: dict, scope: str) -> str:
        if header := self.request.headers.get("Idempotency-Key", ""):
            return f"header:{header}"
        return f"turn:{data['turn_id']}:{scope}" if data["turn_id"] else ""

    @property
    def can_read(self) -> bool:
        return "read" in self.key.scopes

    def write_response(self, result: services.WriteResult) -> Response:
        body, created = write_result_body(result, can_read=self.can_read)
        return Response(body, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)

    def pin_response(self, memory: Memory) -> Response:
        """MemoryPinResultSerializer: the memory, or without the `read` scope id, version and pinned."""
        if self.can_read:
            return Response(s.MemorySerializer(memory).data)
        return Response({"id": str(memory.id), "version": memory.version, "pinned": memory.pinned})


class FactCreateView(WorkspaceAPIView):
    @extend_schema(
        operation_id="facts_write",
        request=s.FactWriteSerializer,
        parameters=[IDEMPOTENCY_HEADER],
        responses={201: s.MemoryWriteResultSerializer, 200: s.MemoryWriteResultSerializer},
        summary="Write a profile fact",
        description="201 when a memory or a new version was created; 200 when the value was already current "
        "(unchanged) or a less confident preference/goal left the current one in place (kept_existing).",
    )
    def post(self, request, external_id: str) -> Response:
        data = self.validated(s.FactWriteSerializer)
        result = services.fact_upsert(
            subject=self.subject_for_write(external_id),
            key=data["key"],
            value=data["value"],
            category=data["category"],
            confidence=data["confidence"],
            importance=data["importance"],
            pinned=data["pinned"],
            expires_at=data["expires_at"],
            session_id=data["session_id"],
            metadata=data["metadata"],
            actor=self.actor,
            provenance=self.provenance(data, data["value"]),
            idempotency_key=self.idempotency_key(data, f"fact:{data['key']}"),
        )
        return self.write_response(result)


class EpisodeCreateView(WorkspaceAPIView):
    @extend_schema(
        operation_id="episodes_write",
        request=s.EpisodeWriteSerializer,
        parameters=[IDEMPOTENCY_HEADER],
        responses={201: s.MemoryWriteResultSerializer},
        summary="Record an episode",
    )
    def post(self, request, external_id: str) -> Response:
        data = self.validated(s.EpisodeWriteSerializer)
        result = services.episode_record(
            subject=self.subject_for_write(external_id),
            text=data["text"],
            category=data["category"],
            occurred_at=data["occurred_at"],
            session_id=data["session_id"],
            importance=data["importance"],
            expires_at=data["expires_at"],
            metadata=data["metadata"],
            actor=self.actor,
            provenance=self.provenance(data, data["text"]),
            idempotency_key=self.idempotency_key(data, "episode"),
        )
        return self.write_response(result)


class BatchImportView(WorkspaceAPIView):
    parser_classes = [BatchJSONParser]

    @extend_schema(
        operation_id="memories_batch",
        request=s.BatchImportRequestSerializer,
        parameters=[s.BatchImportQuerySerializer],
        responses={201: s.BatchImportResultSerializer, 200: s.BatchImportResultSerializer},
        summary="Import up to 500 facts and episodes",
        description="Each item is validated like a single write and written through the same services (redacted, "
        "audited; `client_id` makes it idempotent). All or nothing by default: one refused item answers 400 (or the "
        "422/409 of the refusal) with `error.items` and `error.fields.items` by index, and nothing is written. "
        "With `?atomic=false` the valid items are written and the answer (200) has a status per item. 201 when "
        "an atomic batch wrote at least one memory or version, 200 when every item was already there. One "
        "request against the write throttle; its items against the key's import budget (429 when over, nothing "
        "written). 413 above 500 items or API_BATCH_MAX_BODY_BYTES.",
    )
    def post(self, request, external_id: str) -> Response:
        data = self.validated(s.BatchImportRequestSerializer)
        atomic = self.validated(s.BatchImportQuerySerializer, request.query_params.dict())["atomic"]
        raw_items = data["items"]
        if len(raw_items) > s.BATCH_MAX_ITEMS:
            raise PayloadTooLarge(
                f"A batch holds at most {s.BATCH_MAX_ITEMS} items; this one has {len(raw_items)}. Split it."
            )
        ImportBudget().charge(request, items=len(raw_items))
        checked = [batch.item_from(raw, external_id=external_id) for raw in raw_items]
        refused = [
            batch.item_result(index, ImportOutcome(ImportItem(external_id, "", {}, _client_id(raw)), error=item))
            for index, (raw, item) in enumerate(zip(raw_items, checked, strict=True))
            if isinstance(item, Exception)
        ]
        if refused and atomic:
            code, body = batch.rejection(refused, len(raw_items))
            return Response(body, status=code)
        valid = [(index, item) for index, item in enumerate(checked) if not isinstance(item, Exception)]
        outcomes = memories_import(
            workspace=self.workspace,
            items=[item for _, item in valid],
            actor=self.actor,
            agent=self.key.agent,
            atomic=atomic,
        )
        if atomic and any(outcome.error for outcome in outcomes):  # rolled back
            failed = [
                batch.item_result(index, outcome)
                for (index, _), outcome in zip(valid, outcomes, strict=True)
                if outcome.error
            ]
            code, body = batch.rejection(failed, len(raw_items))
            return Response(body, status=code)
        results = sorted(
            refused + [batch.item_result(index, outcome) for (index, _), outcome in zip(valid, outcomes, strict=True)],
            key=lambda result: result["index"],
        )
        failed = [result for result in results if "error" in result]
        written = sum(result["status"] == status.HTTP_201_CREATED for result in results)
        body = {"atomic": atomic, "written": written, "failed": len(failed), "items": results}
        code = status.HTTP_200_OK if not atomic or not written else status.HTTP_201_CREATED
        return Response(s.BatchImportResultSerializer(body).data, status=code)


def _client_id(raw) -> str:
    client_id = raw.get("client_id") if isinstance(raw, dict) else ""
    return client_id if isinstance(client_id, str) else ""


class NewestFirstCursor(CursorPagination):
    ordering = ("-created_at", "-id")
    page_size = 50
    page_size_query_param = "limit"
    max_page_size = 200


class SubjectMemoryListView(WorkspaceAPIView, generics.ListAPIView):
    serializer_class = s.MemorySerializer
    pagination_class = NewestFirstCursor

    @extend_schema(operation_id="memories_list", parameters=[s.MemoryListQuerySerializer], summary="List memories")
    def get(self, request, external_id: str) -> Response:
        return super().get(request, external_id)

    def get_queryset(self):
        filters = self.validated(s.MemoryListQuerySerializer, self.request.query_params)
        return selectors.memory_list(
            workspace=self.workspace,
            subject=self.subject_or_404(self.kwargs["external_id"]),
            statuses=(filters["status"],),
            kind=filters.get("kind"),
            category=filters.get("category"),
            session_id=filters.get("session_id"),
            text_contains=filters.get("q"),
        )


class SubjectView(WorkspaceAPIView):
    @property
    def checks_external_id(self) -> bool:
        # Forgetting stays possible for a subject whose id was stored before ids were checked.
        return self.request.method != "DELETE"

    @extend_schema(operation_id="subject_get", responses=s.SubjectSerializer, summary="A subject")
    def get(self, request, external_id: str) -> Response:
        return Response(s.SubjectSerializer(self.subject_or_404(external_id)).data)

    @extend_schema(operation_id="subject_forget", responses={204: None}, summary="Forget everything about a subject")
    def delete(self, request, external_id: str) -> Response:
        services.subject_forget(subject=self.subject_or_404(external_id), actor=self.actor)
        return Response(status=status.HTTP_204_NO_CONTENT)


class SubjectExportView(WorkspaceAPIView):
    @extend_schema(operation_id="subject_export", responses=s.SubjectExportSerializer, summary="Export a subject")
    def get(self, request, external_id: str) -> Response:
        return Response(export_document(workspace=self.workspace, subject=self.subject_or_404(external_id)))


class MemoryDetailView(WorkspaceAPIView):
    @extend_schema(operation_id="memory_get", responses=s.MemorySerializer, summary="A memory")
    def get(self, request, memory_id: str) -> Response:
        return Response(s.MemorySerializer(self.memory_or_404(memory_id)).data)

    @extend_schema(
        operation_id="memory_correct",
        request=s.MemoryCorrectionSerializer,
        responses=s.MemoryWriteResultSerializer,
        summary="Correct a memory (makes a new version)",
        description="Returns the new version. 409 when the id is not the current version.",
    )
    def patch(self, request, memory_id: str) -> Response:
        memory = self.memory_or_404(memory_id)
        serializer = s.MemoryCorrectionSerializer(data=request.data, context={"memory": memory})
        serializer.is_valid(raise_exception=True)
        result = services.memory_correct(memory=memory, actor=self.actor, **serializer.validated_data)
        return self.write_response(result)

    @extend_schema(operation_id="memory_forget", responses={204: None}, summary="Forget a memory and its history")
    def delete(self, request, memory_id: str) -> Response:
        services.memory_forget(memory=self.memory_or_404(memory_id), actor=self.actor)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PinView(WorkspaceAPIView):
    @extend_schema(
        operation_id="memory_pin", request=None, responses=s.MemoryPinResultSerializer, summary="Pin a memory"
    )
    def post(self, request, memory_id: str) -> Response:
        return self.pin_response(services.memory_pin(memory=self.memory_or_404(memory_id), actor=self.actor))


class UnpinView(WorkspaceAPIView):
    @extend_schema(
        operation_id="memory_unpin", request=None, responses=s.MemoryPinResultSerializer, summary="Unpin a memory"
    )
    def post(self, request, memory_id: str) -> Response:
        return self.pin_response(services.memory_unpin(memory=self.memory_or_404(memory_id), actor=self.actor))


class MemoryHistoryView(WorkspaceAPIView):
    @extend_schema(
        operation_id="memory_history",
        responses=s.MemoryVersionSerializer(many=True),
        summary="Every version of a memory, oldest first",
    )
    def get(self, request, memory_id: str) -> Response:
        versions = selectors.memory_history_with_changes(workspace=self.workspace, memory=self.memory_or_404(memory_id))
        return Response(s.MemoryVersionSerializer(versions, many=True).data)


class RecallView(WorkspaceAPIView):
    required_scope = "read"  # a POST (the query can be long), but it only reads

    @extend_schema(
        operation_id="recall",
        request=s.RecallRequestSerializer,
        responses=s.RecallResponseSerializer,
        parameters=[
            OpenApiParameter(
                "X-Memory-Fallback",
                str,
                OpenApiParameter.HEADER,
                response=[200],
                enum=["keyword"],
                description="Present when the answer came from keywords only.",
            )
        ],
        summary="Recall what matters for a query",
        description="Ranked, diverse memories of the subject within a token budget, plus a ready-to-inject "
        "memory_block. Never returns other subjects', superseded, expired or forgotten memories. An answer "
        "from keywords only (`fallback`: the embedder or vector search failed) also carries the header "
        "`X-Memory-Fallback: keyword`.",
    )
    def post(self, request, external_id: str) -> Response:
        data = self.validated(s.RecallRequestSerializer)
        body = recall_body(
            workspace=self.workspace, agent_id=self.key.agent_id, subject=self.subject_or_404(external_id), **data
        )
        # Proxies and dashboards see a degraded answer without parsing the body.
        return Response(body, headers={"X-Memory-Fallback": body["fallback"]} if body["fallback"] else None)


class PortalLinkView(WorkspaceAPIView):
    @extend_schema(
        operation_id="portal_link",
        request=None,
        responses={201: s.PortalLinkSerializer},
        summary="A sign-in link for the person",
        description="A single-use URL, valid for 15 minutes, that signs the person into the portal where they "
        "can see, correct and erase what is kept about them.",
    )
    def post(self, request, external_id: str) -> Response:
        link, token = portal_link_create(subject=self.subject_or_404(external_id), agent=self.key.agent)
        url = request.build_absolute_uri(reverse("portal:link", args=[token]))
        return Response({"url": url, "expires_at": link.expires_at}, status=status.HTTP_201_CREATED)


class TurnCreateView(WorkspaceAPIView):
    @extend_schema(
        operation_id="turns_write",
        request=s.TurnWriteSerializer,
        responses={202: s.IngestAcceptedSerializer},
        summary="Post a conversation turn for extraction",
        description="Redacted at once, then processed in the background: rule (or LLM) extraction, filters, "
        "normalization, dedup, and the same services as direct writes. Poll GET /ingests/{id}.",
    )
    def post(self, request, external_id: str) -> Response:
        data = self.validated(s.TurnWriteSerializer)
        ingest, created = ingest_accept(workspace=self.workspace, external_id=external_id, agent=self.key.agent, **data)
        body = s.IngestAcceptedSerializer({"id": ingest.id, "status": ingest.status, "replayed": not created}).data
        return Response(body, status=status.HTTP_202_ACCEPTED)


class IngestDetailView(WorkspaceAPIView):
    @extend_schema(operation_id="ingest_get", responses=s.IngestStatusSerializer, summary="What a turn became")
    def get(self, request, ingest_id: str) -> Response:
        ingest = selectors.ingest_get(workspace=self.workspace, ingest_id=ingest_id)
        if ingest is None:
            raise NotFound("No ingest with this id.")
        return Response(s.IngestStatusSerializer(ingest).data)
