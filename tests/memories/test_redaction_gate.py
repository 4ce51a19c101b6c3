"""No write path stores unredacted text: every text and JSON column is scanned with SQL."""

import pytest

from apps.memories.services import (
    Provenance,
    episode_record,
    fact_upsert,
    memory_correct,
    memory_forget,
    subject_forget,
)
from tests.dbscan import columns_containing

pytestmark = pytest.mark.django_db(transaction=True)

MOBILE, EMAIL, RESIDENT_ID, BANK_CARD = "13812345678", "zhang.san@qq.com", "11010519491231002X", "6222020200112233446"
PII_SENTENCE = f"我的手机是{MOBILE}，邮箱 {EMAIL}，身份证 {RESIDENT_ID}，卡号 {BANK_CARD}"


def assert_nowhere_in_database(*needles):
    for needle in needles:
        assert columns_containing(needle) == [], f"{needle!r} was stored"


def test_a_profile_value_full_of_pii_leaves_none_of_it_in_any_table(alice, bot):
    result = fact_upsert(subject=alice, key="contact", value=PII_SENTENCE, category="fact", actor=bot)

    assert_nowhere_in_database(MOBILE, EMAIL, RESIDENT_ID, BANK_CARD)
    assert set(result.redactions) == {"CN_MOBILE", "EMAIL_ADDRESS", "CN_RESIDENT_ID", "CN_BANK_CARD"}
    assert "我的手机是<CN_MOBILE>" in result.memory.value


def test_every_text_field_of_every_write_is_redacted(alice, bot, support_bot):
    provenance = Provenance(agent=support_bot, turn_id="t1", excerpt=f"user said: {PII_SENTENCE}")
    fact = fact_upsert(
        subject=alice,
        key=f"contact {EMAIL}",
        value=PII_SENTENCE,
        category="preference",
        actor=bot,
        metadata={"raw": PII_SENTENCE, "nested": [{"phone": f"+86 {MOBILE}"}]},
        provenance=provenance,
    ).memory
    episode_record(
        subject=alice,
        text=f"Sent the invoice to {EMAIL}",
        metadata={"card": BANK_CARD},
        actor=bot,
        provenance=provenance,
    )
    memory_correct(memory=fact, content=f"{PII_SENTENCE}!", reason=f"user gave {MOBILE}", actor=bot)

    assert_nowhere_in_database(MOBILE, EMAIL, RESIDENT_ID, BANK_CARD)


def test_forgetting_a_memory_erases_its_content_from_every_table(alice, bot, support_bot):
    first = fact_upsert(
        subject=alice,
        key="allergy",
        value="allergic to hazelnuts",
        category="constraint",
        actor=bot,
        provenance=Provenance(agent=support_bot, excerpt="I'm allergic to hazelnuts"),
    ).memory
    second = memory_correct(
        memory=first, content="allergic to hazelnuts and kiwis", reason="kiwis too", actor=bot
    ).memory
    kept = fact_upsert(subject=alice, key="tea", value="oolong tea", category="preference", actor=bot).memory

    tombstone = memory_forget(memory=second, actor=bot, reason="user asked")

    assert_nowhere_in_database("hazelnut", "kiwis")
    assert (tombstone.id, tombstone.key, tombstone.status) == (second.id, "", "deleted")
    assert columns_containing("oolong tea") != [], "other memories are untouched"
    kept.refresh_from_db()
    assert kept.status == "active"


def test_forgetting_a_subject_erases_everything_about_them_and_nobody_else(alice, bob, bot, support_bot):
    fact_upsert(subject=alice, key="pet", value="a cat called Mochi", category="fact", actor=bot)
    episode_record(
        subject=alice,
        text="Booked a trip to Lisbon",
        actor=bot,
        provenance=Provenance(agent=support_bot, excerpt="book me Lisbon please"),
    )
    fact_upsert(subject=bob, key="pet", value="a dog called Rex", category="fact", actor=bot)

    erased = subject_forget(subject=alice, actor=bot)

    assert erased == 2
    assert_nowhere_in_database("Mochi", "Lisbon")
    assert columns_containing("Rex") != []
    assert set(alice.memories.values_list("status", flat=True)) == {"deleted"}


def test_forgetting_a_memory_erases_its_key_session_and_turn_ids_from_every_table(alice, bot, support_bot):
    first = fact_upsert(
        subject=alice,
        key="allergy_zq81",
        value="hazelnuts",
        category="constraint",
        actor=bot,
        session_id="sess-zq81",
        idempotency_key="idem-zq81",
        provenance=Provenance(agent=support_bot, session_id="sess-zq81", turn_id="turn-zq81", excerpt="hazelnuts"),
    ).memory
    memory_correct(memory=first, content="hazelnuts and kiwis", actor=bot)

    memory_forget(memory=first, actor=bot)

    assert_nowhere_in_database("allergy_zq81", "allergy zq81", "sess-zq81", "turn-zq81")


def test_forgetting_a_subject_erases_keys_session_and_turn_ids_and_redaction_types(alice, bot, support_bot):
    fact_upsert(
        subject=alice,
        key="contact_zq81",
        value=PII_SENTENCE,
        category="fact",
        actor=bot,
        session_id="sess-zq81",
        provenance=Provenance(agent=support_bot, session_id="sess-zq81", turn_id="turn-zq81"),
    )
    episode_record(
        subject=alice,
        text="Booked a trip",
        session_id="sess-zq82",
        actor=bot,
        provenance=Provenance(agent=support_bot, session_id="sess-zq82", turn_id="turn-zq82"),
    )

    subject_forget(subject=alice, actor=bot)

    assert_nowhere_in_database(
        "contact_zq81",
        "contact zq81",
        "sess-zq81",
        "sess-zq82",
        "turn-zq81",
        "turn-zq82",
        "CN_RESIDENT_ID",
        "CN_BANK_CARD",
    )
