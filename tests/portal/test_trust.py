"""The person's controls beyond pin/correct/delete: pausing memory (agents can recall but not write),
"forget it and don't learn it again" (honored by direct API writes, imports and posted turns), and
undo for a few seconds after a delete (erased for real once the window has passed)."""

import time

import pytest

from apps.audit.models import AuditEvent
from apps.memories.ingest import ingest_accept, ingest_process
from apps.memories.models import ForgetRequest, Memory, MemoryEmbedding, Suppression
from apps.memories.tasks import forget_requests_due_task
from tests.dbscan import columns_containing
from tests.factories import episode, fact

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
FACT = {"key": "editor", "value": "uses Neovim", "category": "preference"}


def pause(client, on: bool = True):
    return client.post("/me/pause", {"paused": "on" if on else "off", "next": "/me/"})


def delete(client, memory, *, suppress: bool = False, **extra):
    return client.post(f"/me/memories/{memory.id}/delete", {"suppress": "on"} if suppress else {}, **extra)


# --- pause ----------------------------------------------------------------------------------------


def test_while_memory_is_paused_every_agent_write_is_refused_with_memory_paused(as_alice, alice, api):
    tea = fact(alice, "drink", "oolong tea")
    assert pause(as_alice).status_code == 302

    refused = {
        "fact": api.post("/api/v1/subjects/alice/facts", FACT, format="json"),
        "episode": api.post("/api/v1/subjects/alice/episodes", {"text": "asked about tea"}, format="json"),
        "turn": api.post(
            "/api/v1/subjects/alice/turns", {"turn_id": "t-9", "user_message": "I use Neovim"}, format="json"
        ),
        "batch": api.post(
            "/api/v1/subjects/alice/memories:batch", {"items": [{"type": "fact", **FACT}]}, format="json"
        ),
        "correction": api.patch(f"/api/v1/memories/{tea.id}", {"value": "green tea"}, format="json"),
    }

    for path, response in refused.items():
        assert (response.status_code, response.json()["error"]["code"]) == (409, "memory_paused"), path
    assert Memory.objects.filter(subject=alice).count() == 1 and not alice.ingests.exists()
    assert AuditEvent.objects.filter(action="memory.write_refused", after__reason="memory_paused").count() == 5


def test_recall_still_answers_while_memory_is_paused(as_alice, alice, api):
    fact(alice, "drink", "oolong tea")
    pause(as_alice)

    response = api.post("/api/v1/subjects/alice/recall", {"query": "what does she drink"}, format="json")

    assert response.status_code == 200 and "oolong tea" in response.json()["memory_block"]


def test_resuming_memory_lets_agents_write_again_and_both_switches_are_audited(as_alice, alice, api):
    pause(as_alice)
    assert "Paused." in as_alice.get("/me/").content.decode()
    pause(as_alice, on=False)

    assert api.post("/api/v1/subjects/alice/facts", FACT, format="json").status_code == 201
    assert list(
        AuditEvent.objects.filter(action__startswith="subject.memory_").values_list("action", "actor_type")
    ) == [("subject.memory_paused", "end_user"), ("subject.memory_resumed", "end_user")]


def test_a_turn_accepted_before_the_pause_learns_nothing_after_it(as_alice, alice, support_bot):
    ingest, _ = ingest_accept(
        workspace=alice.workspace,
        external_id="alice",
        agent=support_bot,
        turn_id="t-1",
        user_message="My editor is Neovim and I live in Chengdu.",
    )
    pause(as_alice)

    done = ingest_process(ingest_id=ingest.id)

    assert done.result["created"] == [] and {s["reason"] for s in done.result["skipped"]} == {"memory_paused"}
    assert not Memory.objects.filter(subject=alice).exists()


def test_bob_pausing_his_memory_does_not_pause_alices(as_bob, alice, api):
    pause(as_bob)

    assert api.post("/api/v1/subjects/alice/facts", FACT, format="json").status_code == 201


# --- don't learn this again ---------------------------------------------------------------------


def test_a_fact_deleted_with_dont_learn_again_is_refused_by_direct_writes_and_imports(as_alice, alice, api):
    editor = fact(alice, "editor", "uses Vim")
    assert delete(as_alice, editor, suppress=True).status_code == 302

    direct = api.post("/api/v1/subjects/alice/facts", FACT, format="json")
    spelled_otherwise = api.post("/api/v1/subjects/alice/facts", {**FACT, "key": "Editor"}, format="json")
    batch = api.post(
        "/api/v1/subjects/alice/memories:batch?atomic=false",
        {"items": [{"type": "fact", **FACT}, {"type": "fact", "key": "city", "value": "Chengdu", "category": "fact"}]},
        format="json",
    )

    assert (direct.status_code, direct.json()["error"]["code"]) == (409, "memory_suppressed")
    assert spelled_otherwise.status_code == 409
    assert [item["status"] for item in batch.json()["items"]] == [409, 201]
    assert batch.json()["items"][0]["error"]["code"] == "memory_suppressed"
    assert not Memory.objects.filter(key="editor", status="active").exists()
    assert AuditEvent.objects.filter(action="memory.write_refused", after__reason="memory_suppressed").count() == 3


def test_a_fact_deleted_with_dont_learn_again_is_skipped_by_turn_extraction(as_alice, alice, support_bot):
    delete(as_alice, fact(alice, "editor", "uses Vim"), suppress=True)
    ingest, _ = ingest_accept(
        workspace=alice.workspace,
        external_id="alice",
        agent=support_bot,
        turn_id="t-2",
        user_message="My editor is Neovim and I live in Chengdu.",
    )

    done = ingest_process(ingest_id=ingest.id)

    assert [m["key"] for m in done.result["created"]] == ["city"]
    assert "memory_suppressed" in {s["reason"] for s in done.result["skipped"]}
    assert not Memory.objects.filter(key="editor", status="active").exists()


def test_an_episode_deleted_with_dont_learn_again_is_refused_by_its_phrase(as_alice, alice, api):
    delete(as_alice, episode(alice, "Asked for a refund of order 8812"), suppress=True)

    again = api.post("/api/v1/subjects/alice/episodes", {"text": "asked for a REFUND of order 8812"}, format="json")
    inside = api.post(
        "/api/v1/subjects/alice/episodes", {"text": "Asked for a refund of order 8812 again, by phone"}, format="json"
    )
    other = api.post("/api/v1/subjects/alice/episodes", {"text": "Asked about delivery times"}, format="json")

    assert (again.status_code, inside.status_code, other.status_code) == (409, 409, 201)


def test_a_dont_learn_again_rule_keeps_no_personal_data_and_still_refuses_the_same_episode(as_alice, alice, api):
    delete(as_alice, episode(alice, "Courier will call 13912345678 about the refund"), suppress=True)

    rule = Suppression.objects.get(subject=alice)
    again = api.post(
        "/api/v1/subjects/alice/episodes", {"text": "courier will call 13912345678 about the refund"}, format="json"
    )

    assert "<cn_mobile>" in rule.phrase.casefold() and rule.workspace_id == alice.workspace_id  # normalized, redacted
    assert columns_containing("13912345678") == []
    assert again.status_code == 409


def test_the_rules_are_listed_and_can_be_removed_so_it_can_be_learned_again(as_alice, alice, api):
    delete(as_alice, fact(alice, "editor", "uses Vim"), suppress=True)
    page = as_alice.get("/me/controls").content.decode()
    assert "Anything about “Editor”" in page
    rule = Suppression.objects.get(subject=alice)

    removed = as_alice.post(f"/me/suppressions/{rule.id}/remove")

    assert removed.status_code == 302 and not Suppression.objects.exists()
    assert api.post("/api/v1/subjects/alice/facts", FACT, format="json").status_code == 201
    assert AuditEvent.objects.get(action="memory.forget_requested").after["suppression"] == rule.id
    assert AuditEvent.objects.get(action="suppression.removed").after == {
        "suppression": rule.id,
        "category": "preference",
    }


def test_bob_cannot_remove_alices_rules(as_bob, alice, bob):
    rule = Suppression.objects.create(workspace=alice.workspace, subject=alice, key="editor")

    assert as_bob.post(f"/me/suppressions/{rule.id}/remove").status_code == 404
    assert Suppression.objects.filter(pk=rule.pk).exists()


def test_a_plain_delete_makes_no_rule(as_alice, alice, api):
    delete(as_alice, fact(alice, "editor", "uses Vim"))

    assert not Suppression.objects.exists()
    assert api.post("/api/v1/subjects/alice/facts", FACT, format="json").status_code == 201


# --- undo -----------------------------------------------------------------------------------------


def rows_of(memory) -> list[dict]:
    return list(Memory.objects.filter(lineage=memory.lineage).order_by("version").values())


def test_undo_inside_the_window_restores_every_version_exactly(as_alice, alice, api):
    first = fact(alice, "drink", "oolong tea")
    current = api.patch(f"/api/v1/memories/{first.id}", {"value": "green tea"}, format="json").json()
    current = Memory.objects.get(pk=current["id"])
    before, vectors = rows_of(current), MemoryEmbedding.objects.filter(memory=current).count()

    response = delete(as_alice, current, suppress=True, **HTMX)
    assert (
        "green tea"
        not in api.post("/api/v1/subjects/alice/recall", {"query": "tea"}, format="json").json()["memory_block"]
    )
    assert f'id="memory-{current.id}"' not in response.content.decode()
    pending = ForgetRequest.objects.get()

    undone = as_alice.post(f"/me/undo/{pending.id}", **HTMX)

    assert "Restored ‘Drink: green tea’." in undone.content.decode()
    assert undone["HX-Trigger-After-Settle"] == f'{{"portal:focus": {{"target": "#memory-{current.id}"}}}}'
    assert rows_of(current) == before  # every column of every version, updated_at included
    assert MemoryEmbedding.objects.filter(memory=current).count() == vectors
    assert not ForgetRequest.objects.exists() and not Suppression.objects.exists()
    assert (
        "green tea" in api.post("/api/v1/subjects/alice/recall", {"query": "tea"}, format="json").json()["memory_block"]
    )
    assert "memory.forget_undone" in AuditEvent.objects.values_list("action", flat=True)


def test_without_javascript_delete_and_undo_return_to_the_list_with_a_message(as_alice, alice):
    tea = fact(alice, "drink", "oolong tea")

    deleted = delete(as_alice, tea)
    page = as_alice.get("/me/").content.decode()
    undone = as_alice.post(f"/me/undo/{ForgetRequest.objects.get().id}")

    assert deleted["Location"] == "/me/#undo" and "Deleted. You can undo this for 10 seconds." in page
    assert "Deleted ‘Drink: oolong tea’" in page and ">Undo<" in page  # the undo banner, while it can be undone
    assert undone["Location"] == f"/me/#memory-{tea.id}"
    assert "Restored ‘Drink: oolong tea’." in as_alice.get("/me/").content.decode()


def test_after_the_window_the_sweep_erases_it_and_undo_is_too_late(as_alice, alice):
    tea = fact(alice, "drink", "oolong tea 乌龙")
    delete(as_alice, tea)
    pending = ForgetRequest.objects.get()
    ForgetRequest.objects.filter(pk=pending.pk).update(due_at=pending.due_at.replace(year=2000))

    assert forget_requests_due_task() == 1  # the beat sweep

    assert columns_containing("乌龙") == [] and not ForgetRequest.objects.exists()
    too_late = as_alice.post(f"/me/undo/{pending.id}", follow=True)
    assert "Too late" in too_late.content.decode() and Memory.objects.get(pk=tea.pk).status == "deleted"
    assert AuditEvent.objects.get(action="memory.forgotten").actor_type == "end_user"


def test_undo_after_the_window_but_before_the_sweep_erases_at_once(as_alice, alice):
    tea = fact(alice, "drink", "oolong tea 乌龙")
    delete(as_alice, tea)
    pending = ForgetRequest.objects.get()
    ForgetRequest.objects.filter(pk=pending.pk).update(due_at=pending.due_at.replace(year=2000))

    as_alice.post(f"/me/undo/{pending.id}", follow=True)

    assert columns_containing("乌龙") == []


def test_bob_cannot_undo_alices_delete(as_bob, alice):
    from apps.audit.services import Actor
    from apps.memories.services import memory_forget_request

    pending = memory_forget_request(memory=fact(alice, "drink", "oolong tea"), actor=Actor.system())

    as_bob.post(f"/me/undo/{pending.id}")

    assert Memory.objects.get(pk=pending.memory_id).status == "deleted" and ForgetRequest.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_erases_the_memory_once_the_window_has_passed(as_alice, alice, settings, real_worker):
    settings.FORGET_UNDO_SECONDS = 1
    tea = fact(alice, "drink", "oolong tea 乌龙")
    delete(as_alice, tea)
    assert columns_containing("乌龙") != []  # still there, hidden, during the window

    deadline = time.monotonic() + 20
    while ForgetRequest.objects.exists() and time.monotonic() < deadline:
        time.sleep(0.2)

    assert not ForgetRequest.objects.exists(), "the countdown task did not run"
    assert columns_containing("乌龙") == []
    assert Memory.objects.get(pk=tea.pk).text == ""


def test_undo_says_so_when_a_new_value_was_learned_during_the_window(as_alice, alice, api):
    tea = fact(alice, "drink", "oolong tea")
    delete(as_alice, tea)
    assert (
        api.post(
            "/api/v1/subjects/alice/facts",
            {"key": "drink", "value": "black coffee", "category": "preference"},
            format="json",
        ).status_code
        == 201
    )

    response = as_alice.post(f"/me/undo/{ForgetRequest.objects.get().id}", follow=True)

    assert "A new value was learned in the meantime" in response.content.decode()
    assert list(Memory.objects.filter(key="drink", status="active").values_list("value", flat=True)) == ["black coffee"]


def test_during_the_undo_window_the_api_shows_nothing_of_the_deleted_memory(as_alice, alice, api):
    tea = fact(alice, "drink", "oolong tea")
    delete(as_alice, tea)

    assert api.get(f"/api/v1/memories/{tea.id}").status_code == 404
    for status in ("active", "deleted"):
        listed = api.get("/api/v1/subjects/alice/memories", {"status": status}).json()["results"]
        assert "oolong" not in str(listed), status
