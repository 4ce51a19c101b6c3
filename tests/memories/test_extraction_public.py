"""The default extractor on tests/data/extraction_public.jsonl: ordinary zh/en/mixed statements a
person tells an assistant, the design articles' own examples, and must-not turns (questions,
hypotheticals, other people's words, jokes, transient states, sensitive inferences, injections).
Run through the real service path (tests/extraction_eval.py, where matching is defined): recall
of the expected memories is reported and held at its floor; must-not turns leave no memory.

The set was written before the rules were broadened (issue 15), and committed before them.
"""

import pytest

from tests import extraction_eval

pytestmark = pytest.mark.django_db

CASES = extraction_eval.load()
# Rules version "1" (before issue 15), measured on 2026-11-30: recall 0.235 (52 of 221 expected
# memories), 0 of 63 must-not turns left a memory, 11 unexpected memories on positive turns
# (mostly values with their verb: "叫王峰", "都用中文回答").
# Rules version "2" (issue 15): recall 0.995 (220 of 221), 0 of 63 must-not turns, 2 unexpected —
# optimistic, the rules were tuned on this set (the held-out set says more). Floor: minus 0.03.
RECALL_FLOOR = 0.965


@pytest.fixture(scope="module")
def report(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        result = extraction_eval.run(CASES)
    print(f"\nextraction_public: {result.summary()}")
    for case_id, item, stored in result.missed:
        print(f"  missed {case_id}: {item['category']} {item['key']} "
              f"{item.get('value', item.get('value_contains'))!r} — stored {stored}")
    for case_id, *memory in result.unexpected:
        print(f"  unexpected {case_id}: {memory}")
    return result


def test_the_set_holds_the_design_examples_and_at_least_120_new_turns_with_40_must_not():
    new = [case for case in CASES if case["source"] == "new"]
    assert len(new) >= 120 and sum(case["must_not"] for case in new) >= 40
    assert {case["source"] for case in CASES} == {"issue", "architecture", "new"}
    assert {case["lang"] for case in CASES} == {"zh", "en", "mixed"}
    assert len({case["id"] for case in CASES}) == len(CASES)


def test_must_not_turns_leave_no_memory(report):
    assert report.must_not >= 40
    assert report.offending == {}, report.offending


def test_recall_of_the_expected_memories_is_at_least_the_floor(report):
    assert report.recall >= RECALL_FLOOR, report.summary()


HELDOUT = extraction_eval.load("extraction_heldout.jsonl")
# Written after the rules of issue 15 were tuned and never used to tune them (see its commit).
# First run, rules version "2": recall 0.586 (17 of 29), 0 of 10 must-not turns left a memory. The
# misses are the honest picture: "我姓林，叫林晓雨" (name after a surname clause), "我和老婆养了两只猫",
# "a 3-year-old son", "I've lived in Vancouver", "I'm a Mac person", "我说粤语", a second tool after
# "，CI 用的是", and two category disagreements (a "never send me" request read as a dislike, a coding
# language request read as an answer preference). Floor: that figure minus 0.03.
HELDOUT_RECALL_FLOOR = 0.55


@pytest.fixture(scope="module")
def heldout_report(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        result = extraction_eval.run(HELDOUT, workspace_name="extraction-heldout")
    print(f"\nextraction_heldout: {result.summary()}")
    for case_id, item, stored in result.missed:
        print(f"  missed {case_id}: {item['category']} {item['key']} "
              f"{item.get('value', item.get('value_contains'))!r} — stored {stored}")
    for case_id, memories in result.offending.items():
        print(f"  must-not {case_id}: {memories}")
    return result


def test_the_heldout_set_has_30_turns_and_its_recall_is_at_least_its_floor(heldout_report):
    assert len(HELDOUT) == 30
    assert heldout_report.recall >= HELDOUT_RECALL_FLOOR, heldout_report.summary()


def test_heldout_must_not_turns_leave_no_memory(heldout_report):
    assert heldout_report.offending == {}, heldout_report.offending
