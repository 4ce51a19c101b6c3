"""Typed sync and async client for memoryadmin: `Memory(api_key, base_url).recall(subject, query)`."""

from memoryadmin_client.client import AsyncMemory, Memory, MemoryAdminError, RetryPolicy
from memoryadmin_client.models import (
    IngestStatus,
    MemoryItem,
    MemorySource,
    RecalledMemory,
    RecallResult,
    TurnAccepted,
    WriteResult,
)

__all__ = [
    "AsyncMemory",
    "IngestStatus",
    "Memory",
    "MemoryAdminError",
    "MemoryItem",
    "MemorySource",
    "RecallResult",
    "RecalledMemory",
    "RetryPolicy",
    "TurnAccepted",
    "WriteResult",
]
