"""The API's answers as dataclasses. Their fields are those of the OpenAPI components at /api/schema/
(a test compares them); unknown fields from a newer server are ignored, missing ones are None (a
write-only key gets a receipt: id, outcome, version, redacted)."""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass, field
from typing import Any


def _from(cls, data: dict[str, Any] | None):
    """Build `cls` from a JSON object, building nested dataclasses (and lists of them) too."""
    if data is None:
        return None
    hints = typing.get_type_hints(cls)
    values = {}
    for f in dataclasses.fields(cls):
        if f.name not in data:
            continue
        value, hint = data[f.name], hints[f.name]
        inner = _dataclass_in(hint)
        if inner is not None and value is not None:
            value = (
                [_from(inner, v) for v in value]
                if typing.get_origin(_strip_none(hint)) is list
                else _from(inner, value)
            )
        values[f.name] = value
    return cls(**values)


def _strip_none(hint):
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        return args[0] if len(args) == 1 else hint
    return hint


def _dataclass_in(hint):
    hint = _strip_none(hint)
    if typing.get_origin(hint) is list:
        hint = typing.get_args(hint)[0]
    return hint if dataclasses.is_dataclass(hint) else None


@dataclass
class MemorySource:
    agent: str | None = None
    session_id: str | None = None
    turn_id: str | None = None
    channel: str | None = None
    actor_type: str | None = None
    extractor: str | None = None
    extractor_version: str | None = None
    excerpt: str | None = None
    received_at: str | None = None


@dataclass
class MemoryItem:
    """One memory version (profile fact or episode)."""

    id: str
    kind: str | None = None
    category: str | None = None
    key: str | None = None
    value: str | None = None
    text: str | None = None
    confidence: float | None = None
    importance: float | None = None
    pinned: bool | None = None
    sensitivity: str | None = None
    status: str | None = None
    version: int | None = None
    supersedes: str | None = None
    valid_from: str | None = None
    valid_to: str | None = None
    expires_at: str | None = None
    session_id: str | None = None
    occurred_at: str | None = None
    source: MemorySource | None = None
    redactions: dict[str, int] | None = None
    metadata: dict[str, Any] | None = None
    created_at: str | None = None
    updated_at: str | None = None


@dataclass
class WriteResult(MemoryItem):
    """The memory a write made or found, and what happened: created | superseded | unchanged |
    kept_existing | corrected; `redacted` counts the personal data removed, by type."""

    outcome: str | None = None
    redacted: dict[str, int] = field(default_factory=dict)
    replayed: bool = False


@dataclass
class RecallComponents:
    similarity: float
    keyword: float
    recency: float
    importance: float
    pinned: bool


@dataclass
class RecalledMemory:
    id: str
    kind: str
    category: str
    key: str
    value: str
    text: str
    score: float
    components: RecallComponents | None = None
    occurred_at: str | None = None
    updated_at: str | None = None
    source: MemorySource | None = None


@dataclass
class RecallResult:
    """Ranked memories and `memory_block`, ready to put in a prompt as reference data."""

    memories: list[RecalledMemory]
    memory_block: str
    used_tokens: int
    fallback: str | None = None
    skipped: str | None = None
    took_ms: float = 0.0
    trace: dict[str, Any] | None = None


@dataclass
class TurnAccepted:
    ingest_id: str
    status: str
    replayed: bool


@dataclass
class IngestMemory:
    id: str
    kind: str
    category: str
    key: str
    text: str


@dataclass
class IngestSkip:
    text: str
    reason: str


@dataclass
class IngestStatus:
    """What a posted turn became: memories created and updated, statements skipped and why."""

    id: str
    status: str
    subject: str
    turn_id: str
    created: list[IngestMemory] = field(default_factory=list)
    updated: list[IngestMemory] = field(default_factory=list)
    skipped: list[IngestSkip] = field(default_factory=list)
    error: str = ""
    redactions: dict[str, int] = field(default_factory=dict)
    created_at: str | None = None
    finished_at: str | None = None


def parse(cls, data):
    return _from(cls, data)
