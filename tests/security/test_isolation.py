"""Isolation, as a property: no response ever contains a memory, subject, history entry, source or
access-log row of another workspace or of another subject.

A hypothesis state machine (`IsolationMachine`) drives random sequences of requests through the real
URLs, with Django's test `Client` (portal) and DRF's `APIClient` (agent API).

World (made fresh for every example, see "Clean slate" below): two workspaces, "a" and "b", each with
an agent and a read+write API key. Subjects: alice and bob in a; alice (the same external id!) and
carol in b. Portal logins: alice@a, bob@a, carol@b. Each subject starts with one memory (`seed`).

Rules (any agent may aim at any memory id seen so far — its own workspace's or not — or a made-up one,
and at any of the external ids alice/bob/carol, which need not exist in its workspace):

  agent_writes            POST /subjects/x/facts or /episodes for one of its subjects
  agent_reads_memory      GET /memories/id and /memories/id/history
  agent_corrects          PATCH /memories/id (a new version)
  agent_pins              POST /memories/id/pin or /unpin
  agent_deletes           DELETE /memories/id
  agent_reads_subject     GET /subjects/x, /memories (also ?q= and ?status=superseded|deleted), /export
  agent_forgets_subject   DELETE /subjects/x (one time in four; otherwise GET /subjects/x)
  agent_recalls           POST /subjects/x/recall, the query made of phrases and pieces of anyone's
                          markers; then the person (if they have a login) opens a recalled memory in
                          the portal, whose "Who read it" list must count exactly the recalls of it
  portal_lists            /me/, optionally searching (?q= a phrase or a piece of anyone's marker),
                          optionally as the htmx partial
  portal_exports          /me/export.json and /me/export
  portal_opens_memory     /me/memories/id/, its edit form and its delete page, for any id
  portal_changes_memory   pin, unpin, correct or delete any id
  portal_forgets_everything  /me/forget (one time in four the person confirms it)

Bookkeeping: every piece of content carries a unique *marker* `mk-<run>-<w><s>-<nnnn>-z` (run: the
example's tag; w: workspace a/b; s: subject 1 alice, 2 bob, 3 carol, or 0 for workspace-wide).
Memory values, episode texts, metadata, correction reasons and subject display names get markers of
their subject; agent and workspace names get workspace-wide markers; usernames get their subject's.
So the owner of any marker can be read off the marker itself. Every memory id is recorded with its
owner, its lineage and whether it is current, superseded or forgotten.

The invariant, checked on EVERY response inside each rule (`IsolationMachine.check`):

1. the status is the expected one: another workspace's (or a forgotten, or a non-existent) memory id,
   and a subject that does not exist in the agent's workspace, are 404 on the API; another subject's
   memory id is 404 in the portal — never 200, 403 or 500 — and a refused change leaves the row as it was;
2. the decoded body (JSON or HTML) contains no marker of another workspace and — every response is
   scoped to one subject: the subject in the URL, the owner of the memory id, or the signed-in person —
   no marker of another subject; a 404 contains no marker at all;
3. no memory id of another subject (or workspace) appears in the body;
4. no forgotten marker appears anywhere: once a memory is deleted, or its subject forgotten, its
   markers (value, text, metadata, source excerpt, correction reasons, display name) never come back
   (right after a delete, the owner's API and portal exports, which keep tombstones, are checked);
   markers sent in refused requests (404/409) were never stored, so they never appear either;
5. so that the checks are not vacuous: writes and corrections store their marker verbatim, the memory
   lists (API and portal) show every current memory of the subject, recall returns only current
   memories of the subject, and the portal's "Who read it" list counts exactly the recalls of that memory.

Clean slate: every example creates its own workspaces, agents, subjects and users with fresh unique
names (the run tag) and deletes nothing; pytest-django rolls the whole test function back at the end.
That is simpler than cleaning up between examples, and makes the check stronger: the rows of earlier
examples stay in the database, and their markers and memory ids (all of other workspaces, by their run
tag; `ID_OWNER` remembers the ids of every example) must never show up either.

The test is `django_db` without `transaction=True`, so `on_commit` callbacks (embedding new memories)
would never fire; each request runs inside `TestCase.captureOnCommitCallbacks(execute=True)` so that
memories are embedded (Celery is eager in tests) and recall's vector leg sees them, as in production.
"""

import itertools
import re
import time
import uuid
from collections import defaultdict

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, TestCase, override_settings
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, precondition, rule, run_state_machine_as_test

from apps.accounts.models import Agent, Subject, Workspace
from apps.memories.models import Memory
from tests.conftest import client_with_key

SUBJECT_DIGIT = {("a", "alice"): "1", ("a", "bob"): "2", ("b", "alice"): "1", ("b", "carol"): "3"}
SUBJECTS = list(SUBJECT_DIGIT)
PORTAL_USERS = [("a", "alice"), ("a", "bob"), ("b", "carol")]
EXTERNAL_IDS = ["alice", "bob", "carol"]
PHRASES = [
    "喜欢喝乌龙茶",
    "下周三去杭州出差",
    "住在西湖边，每天骑车上班",
    "prefers replies in 中文",
    "养了一只叫团团的猫",
    "在学弹吉他",
    "周末常去爬山",
    "不吃香菜",
    "asked about the refund of an order",
]
CATEGORIES = ["preference", "fact", "constraint", "goal"]
# (subject, kind, phrase, category, pinned) of one write.
WRITES = st.tuples(
    st.sampled_from(SUBJECTS),
    st.sampled_from(["fact", "episode"]),
    st.sampled_from(PHRASES),
    st.sampled_from(CATEGORIES),
    st.booleans(),
)
GHOST_ID = "00000000-0000-4000-8000-000000000000"  # never exists
WORKSPACES = st.sampled_from("ab")

MARKER_RE = re.compile(r"mk-([a-p]{8})-([ab])([0-3])-(\d{4})-z")
UUID_RE = re.compile(
    r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?<![0-9a-f])[0-9a-f]{32}(?![0-9a-f])"
)

# memory id (hex) -> (run tag, workspace letter, subject digit), over all examples of the test.
ID_OWNER: dict[str, tuple[str, str, str]] = {}
# "METHOD /path" -> [requests, seconds]; printed at the end (pytest -s).
STATS: dict[str, list] = defaultdict(lambda: [0, 0.0])

ACTIVE, SUPERSEDED, DELETED, UNKNOWN = "active", "superseded", "deleted", "unknown"


def _tag() -> str:
    """Eight letters a–p from uuid4 (os.urandom): unique per example, unaffected by hypothesis' seeding."""
    return uuid.uuid4().hex[:8].translate(str.maketrans("0123456789", "ghijklmnop"))


def _hex(memory_id: str) -> str:
    return memory_id.replace("-", "").lower()


def _row(memory_id: str) -> list:
    return list(Memory.objects.filter(pk=memory_id).values_list("status", "pinned", "value", "text", "version"))


class IsolationMachine(RuleBasedStateMachine):
    def __init__(self):
        """Two fresh workspaces with agents, keys, subjects and portal logins, all named by a new run tag."""
        super().__init__()
        self.tag = _tag()
        self.counter = itertools.count(1)
        self.keys = itertools.count(1)
        self.gone: set[str] = set()  # markers forgotten, or refused and never stored
        self.content: dict[tuple, set[str]] = defaultdict(set)  # subject -> its forgettable markers
        self.ids: list[str] = []  # every memory id of this example, in creation order
        self.mem: dict[str, dict] = {}  # id -> {"owner", "lineage"}
        self.lineages: dict[str, dict] = {}  # lineage -> {"owner", "kind", "current", "marker", "markers", "reads"}
        self.api = {}
        for w in "ab":
            workspace = Workspace.objects.create(name=self.marker((w, None)), slug=f"iso-{self.tag}-{w}")
            agent = Agent.objects.create(workspace=workspace, name=self.marker((w, None)))
            self.api[w] = client_with_key(agent, ["read", "write"])
            self.api[w].who = f"agent@{w}"
            for owner in SUBJECTS:
                if owner[0] == w:
                    display_name = self.marker(owner)
                    self.content[owner].add(display_name)
                    Subject.objects.create(workspace=workspace, external_id=owner[1], display_name=display_name)
        self.portal = {}
        for w, external_id in PORTAL_USERS:
            user = get_user_model().objects.create_user(self.marker((w, external_id)))  # no password: fast
            Subject.objects.filter(workspace__slug=f"iso-{self.tag}-{w}", external_id=external_id).update(user=user)
            client = Client()
            client.force_login(user)
            client.who = f"{external_id}@{w} (portal)"
            self.portal[(w, external_id)] = client

    def marker(self, owner: tuple) -> str:
        w, external_id = owner
        digit = SUBJECT_DIGIT[owner] if external_id else "0"
        return f"mk-{self.tag}-{w}{digit}-{next(self.counter):04d}-z"

    # --- bookkeeping -------------------------------------------------------------------------------

    def status_of(self, memory_id: str) -> str:
        if memory_id not in self.mem:
            return UNKNOWN
        current = self.lineages[self.mem[memory_id]["lineage"]]["current"]
        return DELETED if current is None else ACTIVE if current == memory_id else SUPERSEDED

    def owner_of(self, memory_id: str) -> tuple | None:
        return self.mem[memory_id]["owner"] if memory_id in self.mem else None

    def lineage_of(self, memory_id: str) -> dict:
        return self.lineages[self.mem[memory_id]["lineage"]]

    def pick(self, data) -> str:
        return data.draw(st.sampled_from(self.ids + [GHOST_ID]), label="memory id")

    def for_agent(self, w: str, memory_id: str) -> tuple[tuple | None, str, bool]:
        """(owner, status, whether agent w can see it at all)."""
        owner, status = self.owner_of(memory_id), self.status_of(memory_id)
        return owner, status, owner is not None and owner[0] == w and status != DELETED

    def add_version(self, memory_id: str, owner: tuple, lineage: str, markers: set[str], marker: str) -> None:
        ID_OWNER[_hex(memory_id)] = (self.tag, owner[0], SUBJECT_DIGIT[owner])
        self.ids.append(memory_id)
        self.mem[memory_id] = {"owner": owner, "lineage": lineage}
        line = self.lineages[lineage]
        line["current"], line["marker"] = memory_id, marker
        line["markers"] |= markers
        self.content[owner] |= markers

    def forget_lineage(self, lineage: str) -> None:
        line = self.lineages[lineage]
        line["current"] = None
        self.gone |= line["markers"]
        self.look_after_forgetting(line["owner"])

    def forget_subject(self, owner: tuple) -> None:
        for line in self.lineages.values():
            if line["owner"] == owner:
                line["current"] = None
        self.gone |= self.content[owner]
        self.look_after_forgetting(owner)

    def look_after_forgetting(self, owner: tuple) -> None:
        """Right after a delete or forget, the owner's own exports (which keep tombstones) must be free of
        the forgotten content; later rules keep checking every other response."""
        self.call(self.api[owner[0]], "get", f"/api/v1/subjects/{owner[1]}/export", viewer=owner, expect={200})
        if owner in self.portal:
            self.call(self.portal[owner], "get", "/me/export.json", viewer=owner, expect={200})

    def live_lineages(self, owner: tuple) -> list[dict]:
        return [line for line in self.lineages.values() if line["owner"] == owner and line["current"]]

    def all_markers(self) -> list[str]:
        return [marker for markers in self.content.values() for marker in sorted(markers)]

    # --- the invariant -----------------------------------------------------------------------------

    def call(self, client, method: str, path: str, data=None, *, viewer, expect, **extra):
        """Send one request and check the invariant on its response. `viewer`: the subject the response
        is scoped to (None: nobody's data may be shown); `expect`: the allowed status codes."""
        started = time.monotonic()
        with TestCase.captureOnCommitCallbacks(execute=True):
            if hasattr(client, "credentials"):  # the agent API
                response = getattr(client, method)(path, data, format="json", **extra)
            else:
                response = getattr(client, method)(path, data, **extra)
        self.check(response, f"{client.who} {method.upper()} {path} {data or ''}", viewer, expect)
        kind = re.sub(r"[0-9a-f-]{36}", "<id>", f"{method.upper()} {path}")
        STATS[kind][0] += 1
        STATS[kind][1] += time.monotonic() - started
        return response

    def check(self, response, request: str, viewer, expect) -> None:
        body = response.content.decode()

        def leak(what: str, token: str) -> str:
            at = body.find(token)
            return (
                f"LEAK ({what}): {request} -> {response.status_code}, viewer {viewer}; found {token!r} in "
                f"…{body[max(0, at - 300) : at + 200]!r}…"
            )

        assert response.status_code in expect, (
            f"{request} -> {response.status_code}, expected {sorted(expect)}: {body[:600]!r}"
        )
        if response.status_code == 404:
            viewer = None
        digit = SUBJECT_DIGIT[viewer] if viewer else None
        for found in MARKER_RE.finditer(body):
            marker, tag, w, s = found.group(0), found.group(1), found.group(2), found.group(3)
            assert marker not in self.gone, leak("a forgotten or never-stored marker", marker)
            assert viewer is not None, leak("a marker in a 404 response", marker)
            assert tag == self.tag and w == viewer[0], leak("a marker of another workspace", marker)
            assert s in ("0", digit), leak("a marker of another subject", marker)
        for found in UUID_RE.findall(body):
            owner = ID_OWNER.get(_hex(found))
            if owner is not None:
                assert viewer is not None and owner == (self.tag, viewer[0], digit), leak(
                    "a memory id of another subject or workspace", found
                )

    def check_reads(self, person: tuple, memory_id: str) -> None:
        """The portal details of `memory_id`: "Who read it" counts exactly the recalls of its lineage
        (one line per agent: "Support Bot: once, on …" / "…: 3 times, last on …")."""
        page = self.call(
            self.portal[person], "get", f"/me/memories/{memory_id}/", viewer=person, expect={200}
        ).content.decode()
        lines = (
            page.split('<ul class="reads">', 1)[1].split("</ul>", 1)[0].split("<li>")[1:]
            if '<ul class="reads">' in page
            else []
        )
        reads = sum(int(m.group(1)) if (m := re.search(r": (\d+) times", line)) else 1 for line in lines)
        expected = self.lineage_of(memory_id)["reads"]
        assert reads == expected, f"{person} sees {reads} reads of {memory_id}, expected {expected}"

    # --- writes --------------------------------------------------------------------------------------

    @initialize(writes=st.lists(WRITES, max_size=3))
    def seed(self, writes):
        """A memory for each subject, then a few more: the other rules always have something to leak."""
        for owner in SUBJECTS:
            self.write(owner, "fact", PHRASES[0], "preference", False)
        for write in writes:
            self.write(*write)

    # One argument on purpose: hypothesis orders rules by their number of arguments and favours the
    # first ones, and writing is what gives every other rule something to work with.
    @rule(write=WRITES)
    def agent_writes(self, write):
        self.write(*write)

    def write(self, owner, kind, phrase, category, pinned):
        w, external_id = owner
        value, meta = self.marker(owner), self.marker(owner)
        if kind == "fact":
            body = {
                "key": f"note {next(self.keys)}",
                "value": f"{value} {phrase}",
                "category": category,
                "pinned": pinned,
                "metadata": {"tag": meta},
            }
        else:
            body = {"text": f"{phrase}，{value}", "metadata": {"tag": meta}, "session_id": f"s-{next(self.keys) % 3}"}
        response = self.call(
            self.api[w], "post", f"/api/v1/subjects/{external_id}/{kind}s", body, viewer=owner, expect={201}
        )
        written = response.json()
        assert value in written["value" if kind == "fact" else "text"], written  # stored verbatim
        memory_id = written["id"]
        self.lineages[memory_id] = {
            "owner": owner,
            "kind": kind,
            "current": None,
            "marker": value,
            "markers": set(),
            "reads": 0,
        }
        self.add_version(memory_id, owner, memory_id, {value, meta}, value)

    # --- the agent API, by memory id ---------------------------------------------------------------

    @precondition(lambda self: self.ids)
    @rule(w=WORKSPACES, data=st.data(), history=st.booleans())
    def agent_reads_memory(self, w, data, history):
        memory_id = self.pick(data)
        owner, _, visible = self.for_agent(w, memory_id)
        self.call(
            self.api[w],
            "get",
            f"/api/v1/memories/{memory_id}{'/history' if history else ''}",
            viewer=owner,
            expect={200} if visible else {404},
        )

    @precondition(lambda self: self.ids)
    @rule(w=WORKSPACES, data=st.data(), phrase=st.sampled_from(PHRASES))
    def agent_corrects(self, w, data, phrase):
        memory_id = self.pick(data)
        owner, status, visible = self.for_agent(w, memory_id)
        stamp = owner if visible else (w, None)  # refused: the markers must never show up anywhere
        new, reason = self.marker(stamp), self.marker(stamp)
        field = "text" if memory_id in self.mem and self.lineage_of(memory_id)["kind"] == "episode" else "value"
        before = _row(memory_id)
        response = self.call(
            self.api[w],
            "patch",
            f"/api/v1/memories/{memory_id}",
            {field: f"{phrase} {new}", "reason": f"corrected: {reason}"},
            viewer=owner,
            expect={404} if not visible else {200} if status == ACTIVE else {409},
        )
        if response.status_code == 200:
            corrected = response.json()
            assert new in corrected[field], corrected
            self.add_version(corrected["id"], owner, self.mem[memory_id]["lineage"], {new, reason}, new)
        else:
            self.gone |= {new, reason}
            assert _row(memory_id) == before, f"a refused correction changed {memory_id}"

    @precondition(lambda self: self.ids)
    @rule(w=WORKSPACES, data=st.data(), action=st.sampled_from(["pin", "unpin"]))
    def agent_pins(self, w, data, action):
        memory_id = self.pick(data)
        owner, status, visible = self.for_agent(w, memory_id)
        before = _row(memory_id)
        response = self.call(
            self.api[w],
            "post",
            f"/api/v1/memories/{memory_id}/{action}",
            viewer=owner,
            expect={404} if not visible else {200} if status == ACTIVE else {409},
        )
        if response.status_code != 200:
            assert _row(memory_id) == before, f"a refused {action} changed {memory_id}"

    @precondition(lambda self: self.ids)
    @rule(w=WORKSPACES, data=st.data())
    def agent_deletes(self, w, data):
        memory_id = self.pick(data)
        owner, _, visible = self.for_agent(w, memory_id)
        before = _row(memory_id)
        response = self.call(
            self.api[w], "delete", f"/api/v1/memories/{memory_id}", viewer=owner, expect={204} if visible else {404}
        )
        if response.status_code == 204:
            self.forget_lineage(self.mem[memory_id]["lineage"])
        else:
            assert _row(memory_id) == before, f"a refused delete changed {memory_id}"

    # --- the agent API, by subject -----------------------------------------------------------------

    @rule(
        w=WORKSPACES,
        external_id=st.sampled_from(EXTERNAL_IDS),
        data=st.data(),
        endpoint=st.sampled_from(["memories", "memories?q", "memories?status", "export", "subject"]),
    )
    def agent_reads_subject(self, w, external_id, data, endpoint):
        owner = (w, external_id)
        exists = owner in SUBJECT_DIGIT
        expect = {200} if exists else {404}
        path = f"/api/v1/subjects/{external_id}"
        if endpoint == "subject":
            self.call(self.api[w], "get", path, viewer=owner, expect=expect)
        elif endpoint == "export":
            self.call(self.api[w], "get", f"{path}/export", viewer=owner, expect=expect)
        elif endpoint == "memories?status":  # superseded versions and tombstones: no forgotten content
            status = data.draw(st.sampled_from(["superseded", "deleted"]), label="status")
            self.call(self.api[w], "get", f"{path}/memories", {"status": status}, viewer=owner, expect=expect)
        elif endpoint == "memories?q":
            query = data.draw(st.sampled_from(self.all_markers()), label="search for")[:-1]  # no whole marker
            self.call(self.api[w], "get", f"{path}/memories", {"q": query}, viewer=owner, expect=expect)
        else:
            response = self.call(self.api[w], "get", f"{path}/memories", viewer=owner, expect=expect)
            if exists:
                listed = response.content.decode()
                for line in self.live_lineages(owner):
                    assert line["marker"] in listed, f"{line['marker']} of {owner} missing from its memory list"

    @rule(w=WORKSPACES, external_id=st.sampled_from(EXTERNAL_IDS), really=st.integers(0, 3))
    def agent_forgets_subject(self, w, external_id, really):
        owner = (w, external_id)
        exists = owner in SUBJECT_DIGIT
        path = f"/api/v1/subjects/{external_id}"
        if really:
            self.call(self.api[w], "get", path, viewer=owner, expect={200} if exists else {404})
            return
        self.call(self.api[w], "delete", path, viewer=owner, expect={204} if exists else {404})
        if exists:
            self.forget_subject(owner)

    @rule(
        w=WORKSPACES,
        external_id=st.sampled_from(EXTERNAL_IDS),
        data=st.data(),
        phrases=st.lists(st.sampled_from(PHRASES), min_size=1, max_size=2),
        pieces=st.integers(0, 3),
    )
    def agent_recalls(self, w, external_id, data, phrases, pieces):
        owner = (w, external_id)
        words = list(phrases)
        for _ in range(pieces):
            words.append(data.draw(st.sampled_from(self.all_markers()), label="marker piece in query")[:-1])
        response = self.call(
            self.api[w],
            "post",
            f"/api/v1/subjects/{external_id}/recall",
            {"query": " ".join(words), "top_k": 8},
            viewer=owner,
            expect={200} if owner in SUBJECT_DIGIT else {404},
        )
        if response.status_code != 200:
            return
        recalled = [memory["id"] for memory in response.json()["memories"]]
        for memory_id in recalled:
            assert self.owner_of(memory_id) == owner, f"recall for {owner} returned {memory_id}"
            assert self.status_of(memory_id) == ACTIVE, f"recall returned {memory_id}, {self.status_of(memory_id)}"
            self.lineage_of(memory_id)["reads"] += 1
        if recalled and owner in self.portal:
            self.check_reads(owner, recalled[0])

    # --- the portal ----------------------------------------------------------------------------------

    @rule(
        person=st.sampled_from(PORTAL_USERS),
        data=st.data(),
        htmx=st.booleans(),
        search=st.sampled_from(["none", "marker", "phrase"]),
    )
    def portal_lists(self, person, data, htmx, search):
        extra = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "memory-list"} if htmx else {}
        params = {}
        if search == "marker":
            params["q"] = data.draw(st.sampled_from(self.all_markers()), label="search for")[:-1]
        elif search == "phrase":
            params["q"] = data.draw(st.sampled_from(PHRASES), label="search for")[:3]
        response = self.call(self.portal[person], "get", "/me/", params, viewer=person, expect={200}, **extra)
        if not params:
            page = response.content.decode()
            for line in self.live_lineages(person):
                assert line["marker"] in page, f"{line['marker']} of {person} missing from /me/"

    @rule(person=st.sampled_from(PORTAL_USERS), path=st.sampled_from(["/me/export.json", "/me/export"]))
    def portal_exports(self, person, path):
        self.call(self.portal[person], "get", path, viewer=person, expect={200})

    @precondition(lambda self: self.ids)
    @rule(person=st.sampled_from(PORTAL_USERS), data=st.data(), page=st.sampled_from(["", "edit", "delete"]))
    def portal_opens_memory(self, person, data, page):
        memory_id = self.pick(data)
        owned = self.owner_of(memory_id) == person and self.status_of(memory_id) != DELETED
        if owned and page == "":
            self.check_reads(person, memory_id)
        else:
            self.call(
                self.portal[person],
                "get",
                f"/me/memories/{memory_id}/{page}",
                viewer=person,
                expect={200} if owned else {404},
            )

    @precondition(lambda self: self.ids)
    @rule(
        person=st.sampled_from(PORTAL_USERS),
        data=st.data(),
        phrase=st.sampled_from(PHRASES),
        action=st.sampled_from(["pin", "unpin", "correct", "delete"]),
    )
    def portal_changes_memory(self, person, data, phrase, action):
        memory_id = self.pick(data)
        status = self.status_of(memory_id)
        owned = self.owner_of(memory_id) == person and status != DELETED
        if owned and status == SUPERSEDED and action in ("pin", "unpin"):
            return  # pinning an old version of one's own memory is no isolation question
        before = _row(memory_id)
        client, path = self.portal[person], f"/me/memories/{memory_id}/{action}"
        if action in ("pin", "unpin"):
            self.call(client, "post", path, viewer=person, expect={302} if owned else {404})
        elif action == "delete":
            if self.call(client, "post", path, viewer=person, expect={302} if owned else {404}).status_code == 302:
                self.forget_lineage(self.mem[memory_id]["lineage"])
        else:
            stamp = person if owned else (person[0], None)
            new, reason = self.marker(stamp), self.marker(stamp)
            response = self.call(
                client,
                "post",
                path,
                {"value": f"{phrase} {new}", "reason": reason},
                viewer=person,
                expect={404} if not owned else {302} if status == ACTIVE else {400},
            )
            if response.status_code == 302:
                new_id = UUID_RE.findall(response["Location"])[0]
                self.add_version(new_id, person, self.mem[memory_id]["lineage"], {new, reason}, new)
            else:
                self.gone |= {new, reason}
        if not owned:
            assert _row(memory_id) == before, f"{person} changed {memory_id} of someone else"

    @rule(person=st.sampled_from(PORTAL_USERS), really=st.integers(0, 3))
    def portal_forgets_everything(self, person, really):
        """The "forget everything" page; one time in four the person confirms it."""
        if really:
            self.call(self.portal[person], "get", "/me/forget", viewer=person, expect={200})
            return
        self.call(
            self.portal[person],
            "post",
            "/me/forget",
            {"confirmation": "forget everything"},
            viewer=person,
            expect={302},
        )
        self.forget_subject(person)


@pytest.mark.django_db
@override_settings(FORGET_UNDO_SECONDS=0)  # a portal delete is erased at once (undo: tests/portal/test_trust.py)
def test_no_response_leaks_another_workspace_or_subject():
    ID_OWNER.clear()
    STATS.clear()
    started = time.monotonic()
    run_state_machine_as_test(
        IsolationMachine,
        settings=settings(
            max_examples=30,
            stateful_step_count=25,
            deadline=None,
            database=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
        ),
    )
    for kind, (count, seconds) in sorted(STATS.items(), key=lambda item: -item[1][1]):
        print(f"{count:5d} {seconds:6.1f}s  {kind}")
    print(
        f"{sum(count for count, _ in STATS.values())} requests, {len(ID_OWNER)} memory ids, "
        f"{time.monotonic() - started:.1f}s"
    )
