"""`Memory` (sync) and `AsyncMemory` (async) on httpx: one definition of every operation, two ways
to send it. Retries 429 and 503 (and connection failures of requests that are safe to repeat) with
exponential backoff, honouring `Retry-After`; writes carry an Idempotency-Key by default, the same
on every retry, so a write is never stored twice."""

from __future__ import annotations

import asyncio
import email.utils
import itertools
import random
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import httpx

from memoryadmin_client.models import IngestStatus, MemoryItem, RecallResult, TurnAccepted, WriteResult, parse

RETRY_STATUSES = (429, 503)
USER_AGENT = "memoryadmin-client/0.1"


class MemoryAdminError(Exception):
    """An answer of the API that is not a success: `status`, `code` (e.g. invalid, permission_denied,
    not_found, throttled, pii_in_identifier, injection, conflict), `message`, `fields` (field →
    messages), and `retry_after` (seconds) for a 429."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        fields: dict | None = None,
        retry_after: float | None = None,
        body: dict | None = None,
    ) -> None:
        super().__init__(f"{status} {code}: {message}" + (f" {fields}" if fields else ""))
        self.status, self.code, self.message, self.fields = status, code, message, fields or {}
        self.retry_after, self.body = retry_after, body or {}

    @classmethod
    def of(cls, response: httpx.Response) -> MemoryAdminError:
        try:
            body = response.json()
            error = body["error"]
        except (ValueError, KeyError, TypeError):
            body, error = {}, {"code": "http_error", "message": response.text[:500] or response.reason_phrase}
        return cls(
            response.status_code,
            error.get("code", "http_error"),
            error.get("message", ""),
            error.get("fields"),
            retry_after_seconds(response),
            body,
        )


def retry_after_seconds(response: httpx.Response) -> float | None:
    """`Retry-After` as seconds: a number, or an HTTP date."""
    value = response.headers.get("Retry-After")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        try:
            return max(0.0, email.utils.parsedate_to_datetime(value).timestamp() - time.time())
        except (TypeError, ValueError):
            return None


@dataclass
class Request:
    """One API call: what to send, whether it may be repeated after a lost connection, how to read the answer."""

    method: str
    path: str
    json: dict[str, Any] | None = None
    params: dict[str, Any] | None = None
    headers: dict[str, str] = field(default_factory=dict)
    repeatable: bool = True
    answer: Callable[[Any], Any] = lambda body: body


@dataclass
class RetryPolicy:
    max_retries: int = 3
    backoff: float = 0.5  # first wait without Retry-After; doubles each time, with jitter
    max_wait: float = 60.0  # a Retry-After longer than this is not waited for: the error is raised

    def wait(self, attempt: int, response: httpx.Response | None) -> float | None:
        """Seconds to wait before the next attempt, or None to give up."""
        if attempt >= self.max_retries:
            return None
        told = retry_after_seconds(response) if response is not None else None
        wait = told if told is not None else self.backoff * 2**attempt * (1 + random.random() / 4)
        return wait if wait <= self.max_wait else None


def _drop_none(values: dict[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in values.items() if value is not None}


def _subject(subject: str) -> str:
    return quote(subject, safe="")


def _write(path: str, body: dict[str, Any], idempotency_key: str | None) -> Request:
    key = idempotency_key or uuid.uuid4().hex
    return Request(
        "POST",
        path,
        json=_drop_none(body),
        headers={"Idempotency-Key": key},
        answer=lambda data: parse(WriteResult, data),
    )


class _Operations:
    """The API, once. `_call` sends a Request: the sync client answers, the async one returns an awaitable."""

    def _call(self, request: Request):  # pragma: no cover - implemented by both clients
        raise NotImplementedError

    def recall(
        self,
        subject: str,
        query: str,
        *,
        top_k: int | None = None,
        token_budget: int | None = None,
        mode: str | None = None,
        kinds: list[str] | None = None,
        categories: list[str] | None = None,
        session_id: str | None = None,
        min_score: float | None = None,
    ) -> RecallResult:
        """Ranked memories about `subject` for `query`, and a memory_block within the token budget."""
        body = dict(
            query=query,
            top_k=top_k,
            token_budget=token_budget,
            mode=mode,
            kinds=kinds,
            categories=categories,
            session_id=session_id,
            min_score=min_score,
        )
        return self._call(
            Request(
                "POST",
                f"/api/v1/subjects/{_subject(subject)}/recall",
                json=_drop_none(body),
                answer=lambda data: parse(RecallResult, data),
            )
        )

    def remember_fact(
        self,
        subject: str,
        key: str,
        value: str,
        *,
        category: str = "fact",
        confidence: float | None = None,
        importance: float | None = None,
        pinned: bool | None = None,
        session_id: str | None = None,
        turn_id: str | None = None,
        expires_at: str | None = None,
        metadata: dict | None = None,
        idempotency_key: str | None = None,
    ) -> WriteResult:
        """Write a profile fact (category preference | fact | constraint | goal)."""
        body = dict(
            key=key,
            value=value,
            category=category,
            confidence=confidence,
            importance=importance,
            pinned=pinned,
            session_id=session_id,
            turn_id=turn_id,
            expires_at=expires_at,
            metadata=metadata,
        )
        return self._call(_write(f"/api/v1/subjects/{_subject(subject)}/facts", body, idempotency_key))

    def record_episode(
        self,
        subject: str,
        text: str,
        *,
        category: str | None = None,
        occurred_at: str | None = None,
        session_id: str | None = None,
        turn_id: str | None = None,
        importance: float | None = None,
        expires_at: str | None = None,
        metadata: dict | None = None,
        idempotency_key: str | None = None,
    ) -> WriteResult:
        """Record something that happened (category event | summary)."""
        body = dict(
            text=text,
            category=category,
            occurred_at=occurred_at,
            session_id=session_id,
            turn_id=turn_id,
            importance=importance,
            expires_at=expires_at,
            metadata=metadata,
        )
        return self._call(_write(f"/api/v1/subjects/{_subject(subject)}/episodes", body, idempotency_key))

    def post_turn(
        self,
        subject: str,
        user_message: str,
        *,
        turn_id: str | None = None,
        assistant_message: str | None = None,
        session_id: str | None = None,
        occurred_at: str | None = None,
    ) -> TurnAccepted:
        """Hand a conversation turn over for extraction. `turn_id` makes it idempotent (one is made up if not given)."""
        body = dict(
            user_message=user_message,
            turn_id=turn_id or uuid.uuid4().hex,
            assistant_message=assistant_message,
            session_id=session_id,
            occurred_at=occurred_at,
        )
        return self._call(
            Request(
                "POST",
                f"/api/v1/subjects/{_subject(subject)}/turns",
                json=_drop_none(body),
                answer=lambda data: parse(TurnAccepted, data),
            )
        )

    def ingest(self, ingest_id: str) -> IngestStatus:
        """What a posted turn became."""
        return self._call(
            Request("GET", f"/api/v1/ingests/{_subject(ingest_id)}", answer=lambda data: parse(IngestStatus, data))
        )

    def correct(
        self,
        memory_id: str,
        *,
        value: str | None = None,
        text: str | None = None,
        confidence: float | None = None,
        importance: float | None = None,
        reason: str | None = None,
    ) -> WriteResult:
        """Correct a memory (value for a fact, text for an episode); the answer is the new version."""
        body = dict(value=value, text=text, confidence=confidence, importance=importance, reason=reason)
        # Not repeated after a lost connection: if the first attempt arrived, a second is a 409 conflict.
        return self._call(
            Request(
                "PATCH",
                f"/api/v1/memories/{_subject(memory_id)}",
                json=_drop_none(body),
                repeatable=False,
                answer=lambda data: parse(WriteResult, data),
            )
        )

    def forget(self, memory_id: str) -> None:
        """Forget a memory and every version of it."""
        return self._call(
            Request("DELETE", f"/api/v1/memories/{_subject(memory_id)}", repeatable=False, answer=lambda data: None)
        )

    def forget_subject(self, subject: str) -> None:
        """Forget everything about a person."""
        return self._call(
            Request("DELETE", f"/api/v1/subjects/{_subject(subject)}", repeatable=False, answer=lambda data: None)
        )

    def list_memories(
        self,
        subject: str,
        *,
        kind: str | None = None,
        category: str | None = None,
        status: str | None = None,
        session_id: str | None = None,
        q: str | None = None,
        limit: int = 50,
    ) -> list[MemoryItem]:
        """The newest `limit` (at most 200) memories of the person, active ones unless `status` says otherwise."""
        params = dict(kind=kind, category=category, status=status, session_id=session_id, q=q, limit=limit)
        return self._call(
            Request(
                "GET",
                f"/api/v1/subjects/{_subject(subject)}/memories",
                params=_drop_none(params),
                answer=lambda data: [parse(MemoryItem, item) for item in data["results"]],
            )
        )


class _Client:
    def __init__(self, api_key: str, base_url: str, *, timeout: float, max_retries: int, http_client) -> None:
        if not api_key:
            raise ValueError("api_key is required (an agent key, mk_...).")
        self.base_url = base_url.rstrip("/")
        self.headers = {"Authorization": f"Bearer {api_key}", "User-Agent": USER_AGENT}
        self.retry = RetryPolicy(max_retries=max_retries)
        self.timeout = timeout
        self.http = http_client

    def _build(self, request: Request) -> httpx.Request:
        return self.http.build_request(
            request.method,
            self.base_url + request.path,
            json=request.json,
            params=request.params,
            headers=self.headers | request.headers,
            timeout=self.timeout,
        )

    def _wait(self, request: Request, attempt: int, response: httpx.Response | None = None) -> float | None:
        """Seconds before the next attempt after a 429/503 (`response`) or a lost connection (None);
        None when this answer or error is final."""
        if response is None:
            return self.retry.wait(attempt, None) if request.repeatable else None
        return self.retry.wait(attempt, response) if response.status_code in RETRY_STATUSES else None

    @staticmethod
    def _answer(request: Request, response: httpx.Response):
        if response.is_error:
            raise MemoryAdminError.of(response)
        return request.answer(response.json() if response.content else None)


class Memory(_Client, _Operations):
    """The memoryadmin API for one agent key: `Memory(api_key, base_url).recall("alice", "what to cook?")`."""

    def __init__(
        self,
        api_key: str,
        base_url: str = "http://127.0.0.1:8000",
        *,
        timeout: float = 30.0,
        max_retries: int = 3,
        http_client: httpx.Client | None = None,
    ) -> None:
        super().__init__(
            api_key, base_url, timeout=timeout, max_retries=max_retries, http_client=http_client or httpx.Client()
        )

    def _call(self, request: Request):
        for attempt in itertools.count():
            try:
                response = self.http.send(self._build(request))
            except httpx.TransportError:
                if (wait := self._wait(request, attempt)) is None:
                    raise
            else:
                if (wait := self._wait(request, attempt, response)) is None:
                    return self._answer(request, response)
            time.sleep(wait)

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class AsyncMemory(_Client, _Operations):
    """The same operations, awaited: `await AsyncMemory(api_key, base_url).recall("alice", "...")`."""

    def __init__(
        self,
        api_key: str,
        base_url: str = "http://127.0.0.1:8000",
        *,
        timeout: float = 30.0,
        max_retries: int = 3,
        http_client: httpx.AsyncClient | None = None,
    ) -> None:
        super().__init__(
            api_key, base_url, timeout=timeout, max_retries=max_retries, http_client=http_client or httpx.AsyncClient()
        )

    async def _call(self, request: Request):
        for attempt in itertools.count():
            try:
                response = await self.http.send(self._build(request))
            except httpx.TransportError:
                if (wait := self._wait(request, attempt)) is None:
                    raise
            else:
                if (wait := self._wait(request, attempt, response)) is None:
                    return self._answer(request, response)
            await asyncio.sleep(wait)

    async def aclose(self) -> None:
        await self.http.aclose()

    async def __aenter__(self) -> AsyncMemory:
        return self

    async def __aexit__(self, *exc) -> None:
        await self.aclose()
