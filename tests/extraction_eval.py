"""Extraction quality on tests/data/extraction_public.jsonl, through the real service path: every
case's turn (after its `history` turns) is posted for a fresh person with `ingest_accept` and
processed by `ingest_process` — redaction, the configured extractor (`INGEST_EXTRACTOR`), the
filters (confidence, transient, sensitive, injection), date and unit normalization, key merging
and the services' conflict policy — and the memories it left are compared with the expected ones.

A stored memory MATCHES an expected one when
* kind and category are equal;
* the key is equal after the project's key normalization (`canonical_key`, then the services'
  `normalize_key`: "编程语言" and "main language" both → programming_language). The keys
  "preference", "goal", "constraint" and "habit" are families: a topic slug nobody would guess
  ("preference 恐怖片", "goal aws solutions", "habit 爬山" — one key per topic, so two habits do not
  supersede each other), so any key of that category matches and the value says the topic; "tool"
  is one too: a tool with no key of its own is stored as "tool <name>" ("tool jira", "tool notion"),
  so that a second tool does not replace the first;
* the value: with "value", the stored value equals it once both are normalized (NFKC, case-folded,
  whitespace removed, trailing punctuation dropped) — so "叫王峰" does not match "王峰"; with
  "value_contains" (a string or a list), every piece is in the normalized stored value + text.
  Relative dates are compared after the pipeline resolved them ("2026-12" for 下个月).
* `sensitive` is not compared: the set runs in a workspace that allows no sensitive category, so
  a sensitive memory is expected nowhere (those turns are must-not cases).
A case's "asked" is the assistant's question before its message, posted as the assistant's reply in a
turn a minute earlier, as an agent posts a conversation. Only ACTIVE memories written by the case's last
turn count; a "superseded" item must match a memory of that person whose status is superseded (a later
statement replaced it).

recall = matched expected items / all expected items (superseded items included);
a must-not case fails if its turn leaves any memory; "unexpected" lists memories of positive cases
that match no expected item (reported, not held: the set says what must be kept, not all that may be).
Used by tests/memories/test_extraction_public.py and bench/eval_extraction.py.
"""

import json
import re
import unicodedata
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from django.db import transaction

from apps.accounts.models import Workspace
from apps.accounts.services import subject_get_or_create
from apps.memories.extraction.normalize import canonical_key
from apps.memories.ingest import ingest_accept, ingest_process
from apps.memories.models import Memory
from apps.memories.services import normalize_key

DATA = Path(__file__).parent / "data"
FAMILIES = ("preference", "goal", "constraint", "habit", "tool")


def load(name: str = "extraction_public.jsonl") -> list[dict]:
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def _norm(text: str) -> str:
    text = "".join(unicodedata.normalize("NFKC", text or "").casefold().split())
    return re.sub(r"[.。!！,，;；:：~～]+$", "", text)


def matches(expected: dict, memory: Memory) -> bool:
    if (memory.kind, memory.category) != (expected["kind"], expected["category"]):
        return False
    key = expected["key"]
    if memory.kind == Memory.Kind.PROFILE and key not in FAMILIES and normalize_key(canonical_key(key)) != memory.key:
        return False
    if "value" in expected:
        return _norm(memory.value if memory.kind == Memory.Kind.PROFILE else memory.text) == _norm(expected["value"])
    pieces = expected["value_contains"]
    haystack = _norm(f"{memory.value} {memory.text}")
    return all(_norm(piece) in haystack for piece in ([pieces] if isinstance(pieces, str) else pieces))


@dataclass
class Report:
    expected: int = 0
    matched: int = 0
    missed: list = field(default_factory=list)  # (case id, expected item, what was stored)
    must_not: int = 0
    offending: dict = field(default_factory=dict)  # case id → stored memories
    unexpected: list = field(default_factory=list)  # (case id, key, value)

    @property
    def recall(self) -> float:
        return self.matched / self.expected if self.expected else 1.0

    def summary(self) -> str:
        return (
            f"recall {self.recall:.3f} ({self.matched}/{self.expected} expected memories); "
            f"must-not turns with memories: {len(self.offending)}/{self.must_not}; "
            f"unexpected memories on positive turns: {len(self.unexpected)}"
        )


def _shown(memory: Memory) -> tuple:
    return memory.category, memory.key, memory.value or memory.text


def _post(
    workspace: Workspace,
    external_id: str,
    turn_id: str,
    case: dict,
    user_message: str,
    assistant_message: str = "",
    earlier: timedelta = timedelta(0),
) -> None:
    ingest, _ = ingest_accept(
        workspace=workspace,
        external_id=external_id,
        agent=None,
        turn_id=turn_id,
        user_message=user_message,
        assistant_message=assistant_message,
        occurred_at=datetime.fromisoformat(case["now"]) - earlier,
    )
    ingest_process(ingest_id=ingest.id)


def run(cases: list[dict], *, workspace_name: str = "extraction-eval", progress=lambda rows: rows) -> Report:
    """Every case for its own new person in one new workspace, rolled back afterwards."""
    report = Report()
    with transaction.atomic():
        workspace = Workspace.objects.create(name=workspace_name, slug=f"{workspace_name}-{datetime.now():%H%M%S%f}")
        for case in progress(cases):
            subject = subject_get_or_create(workspace=workspace, external_id=case["id"], timezone_name=case["timezone"])
            for number, earlier in enumerate(case.get("history", [])):
                _post(workspace, case["id"], f"{case['id']}-h{number}", case, earlier)
            if case.get(
                "asked"
            ):  # the assistant's question, as its reply in the turn before ("hi" → "What should I call you?")
                _post(workspace, case["id"], f"{case['id']}-asked", case, "hi", case["asked"], timedelta(minutes=1))
            _post(workspace, case["id"], case["id"], case, case["user_message"], case.get("assistant_message", ""))
            stored = list(
                Memory.objects.filter(subject=subject, source__turn_id=case["id"], status=Memory.Status.ACTIVE)
            )
            if case["must_not"]:
                report.must_not += 1
                if stored:
                    report.offending[case["id"]] = [_shown(m) for m in stored]
                continue
            superseded = list(Memory.objects.filter(subject=subject, status=Memory.Status.SUPERSEDED))
            for items, pool in ((case["expected"], stored), (case.get("superseded", []), superseded)):
                for item in items:
                    report.expected += 1
                    if any(matches(item, m) for m in pool):
                        report.matched += 1
                    else:
                        report.missed.append((case["id"], item, [_shown(m) for m in pool]))
            report.unexpected += [
                (case["id"], *_shown(m)) for m in stored if not any(matches(item, m) for item in case["expected"])
            ]
        transaction.set_rollback(True)
    return report
