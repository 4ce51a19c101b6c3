"""A LangGraph `BaseStore` over memoryadmin (`pip install "memoryadmin-client[langgraph]"`).

The namespace is one subject: `("alice",)`. `put(ns, key, value)` writes a profile fact with that key
(`value["value"]` as its value and `value["category"]`, default fact; a value without a "value" text is
kept as JSON); `get` finds the active fact of a key; `search` with a query is a recall (scored), without
one the newest memories, `filter` matching the item values; `delete` forgets the fact. Keys are
normalized by the server (`Reply Language` → `reply_language`). The API has no list of subjects, so
`list_namespaces` answers the namespaces this store has used. `abatch` runs `batch` in a worker thread.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
)

from memoryadmin_client.client import Memory, MemoryAdminError
from memoryadmin_client.models import MemoryItem

JSON_MARK = {"langgraph_value": "json"}


def _subject(namespace: tuple[str, ...]) -> str:
    if len(namespace) != 1 or not namespace[0]:
        raise InvalidNamespaceError(f"A memoryadmin namespace is one subject id, e.g. ('alice',); got {namespace!r}.")
    return namespace[0]


def _normalized(key: str) -> str:
    return re.sub(r"[\s\-]+", "_", key.strip().lower())


def _when(value: str | None) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00")) if value else datetime.now(UTC)


def _value(memory: MemoryItem) -> dict[str, Any]:
    if (memory.metadata or {}).get("langgraph_value") == "json":
        try:
            return json.loads(memory.value)
        except (TypeError, ValueError):
            pass
    return {
        "value": memory.value if memory.kind == "profile" else memory.text,
        "category": memory.category,
        "kind": memory.kind,
        "text": memory.text,
        "id": memory.id,
    }


def _key(memory: MemoryItem) -> str:
    return memory.key or memory.id  # episodes have no key


class MemoryAdminStore(BaseStore):
    def __init__(self, memory: Memory) -> None:
        self.memory = memory
        self.namespaces: list[tuple[str, ...]] = []

    def _used(self, namespace: tuple[str, ...]) -> str:
        subject = _subject(namespace)
        if tuple(namespace) not in self.namespaces:
            self.namespaces.append(tuple(namespace))
        return subject

    def _memories(self, subject: str, **filters) -> list[MemoryItem]:
        try:
            return self.memory.list_memories(subject, limit=200, **filters)
        except MemoryAdminError as error:
            if error.status == 404:
                return []  # a subject nothing was written about yet
            raise

    def _find(self, subject: str, key: str) -> MemoryItem | None:
        wanted = {key, _normalized(key)}
        return next((m for m in self._memories(subject) if _key(m) in wanted), None)

    def _item(self, cls, namespace, memory: MemoryItem, **extra):
        return cls(
            namespace=tuple(namespace),
            key=_key(memory),
            value=_value(memory),
            created_at=_when(memory.created_at),
            updated_at=_when(memory.updated_at),
            **extra,
        )

    def _get(self, op: GetOp) -> Item | None:
        memory = self._find(self._used(op.namespace), op.key)
        return self._item(Item, op.namespace, memory) if memory else None

    def _put(self, op: PutOp) -> None:
        subject = self._used(op.namespace)
        if op.value is None:
            if (memory := self._find(subject, op.key)) is not None:
                self.memory.forget(memory.id)
            return None
        value = dict(op.value)
        if isinstance(value.get("value"), str) and set(value) <= {"value", "category"}:
            self.memory.remember_fact(subject, op.key, value["value"], category=value.get("category", "fact"))
        else:
            self.memory.remember_fact(
                subject,
                op.key,
                json.dumps(value, ensure_ascii=False, sort_keys=True),
                category="fact",
                metadata=JSON_MARK,
            )
        return None

    def _search(self, op: SearchOp) -> list[SearchItem]:
        subject = self._used(op.namespace_prefix)

        def matches(item):
            return all(item.value.get(name) == wanted for name, wanted in (op.filter or {}).items())

        if op.query:
            try:
                recalled = self.memory.recall(subject, op.query, top_k=min(50, op.limit + op.offset))
            except MemoryAdminError as error:
                if error.status == 404:
                    return []
                raise
            by_id = {m.id: m for m in self._memories(subject)}
            items = [
                self._item(SearchItem, op.namespace_prefix, by_id[hit.id], score=hit.score)
                for hit in recalled.memories
                if hit.id in by_id
            ]
        else:
            items = [self._item(SearchItem, op.namespace_prefix, m) for m in self._memories(subject)]
        return [item for item in items if matches(item)][op.offset : op.offset + op.limit]

    def _list_namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        def fits(namespace: tuple[str, ...]) -> bool:
            for condition in op.match_conditions or ():
                path = tuple(condition.path)
                part = namespace[: len(path)] if condition.match_type == "prefix" else namespace[-len(path) :]
                if len(path) > len(namespace) or any(p != "*" and p != n for p, n in zip(path, part, strict=False)):
                    return False
            return True

        found = [ns[: op.max_depth] if op.max_depth else ns for ns in self.namespaces if fits(ns)]
        return list(dict.fromkeys(found))[op.offset : op.offset + op.limit]

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        handlers = {GetOp: self._get, PutOp: self._put, SearchOp: self._search, ListNamespacesOp: self._list_namespaces}
        return [handlers[type(op)](op) for op in ops]

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        return await asyncio.to_thread(self.batch, list(ops))
