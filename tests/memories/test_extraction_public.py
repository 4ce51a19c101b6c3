"""The default extractor on tests/data/extraction_public.jsonl: ordinary zh/en/mixed statements a
person tells an assistant, the design articles' own examples, and must-not turns (questions,
hypotheticals, other people's words, jokes, transient states, sensitive inferences, injections).
Run through the real service path (tests/extraction_eval.py, where matching is defined): recall
of the expected memories is reported and held at its floor; must-not turns leave no memory.

The set was written before the rules were broadened (issue 15), and committed before them. The
sets of SETS below were written by people who never saw the rules, each committed before the rules
it was used on changed; their floors hold what was reached, and extraction_fresh_test3 — never read
while tuning — says how the rules do on turns nobody tuned for.
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
# Rules version "3" (issue 15, second round): the same 0.995, 0 of 63, 6 unexpected.
# Rules version "4" (issue 15, session 8): the same 0.995, 0 of 63, 11 unexpected.
# Rules version "5" (issue 15, session 9): 1.000 (221 of 221), 0 of 63, 15 unexpected.
# Rules version "6" (issue 15, session 10): 1.000 (221 of 221), 0 of 63, 13 unexpected.
# Rules version "7" (issue 15, session 11): 1.000 (221 of 221), 0 of 63, 15 unexpected.
# Rules version "8" (issue 15, session 12): 1.000 (221 of 221), 0 of 63, 15 unexpected.
RECALL_FLOOR = 0.965


@pytest.fixture(scope="module")
def report(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        result = extraction_eval.run(CASES)
    print(f"\nextraction_public: {result.summary()}")
    for case_id, item, stored in result.missed:
        print(
            f"  missed {case_id}: {item['category']} {item['key']} "
            f"{item.get('value', item.get('value_contains'))!r} — stored {stored}"
        )
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


# The sets written without seeing the rules (each committed before the rules it measured changed;
# see their commits). Each row: file, how it was used, the first (blind) figure of the rules of its
# day, the figure now (rules v19), and the floor held here (the figure now minus a margin).
# extraction_fresh_test3 to _test19 were never looked into while tuning: their figures are
# the honest ones. extraction_adversarial was written by hand against the v5 and v6 rules' own new
# readings (是…的 emphasis, bios, names said first, states and 'X-based', 'base 工资'); fresh_neg1 is
# 200 hard must-not turns written blind: every must-not turn of them stays empty.
#   file                            use                      first (blind)        now      floor
SETS = [
    ("extraction_heldout.jsonl", "tuned on (round 2)", 0.586, 0.966, 0.94),
    ("extraction_fresh_dev.jsonl", "tuned on", 0.320, 0.930, 0.90),
    ("extraction_fresh_test.jsonl", "tuned on (round 2)", 0.442, 0.899, 0.87),
    ("extraction_fresh_dev2.jsonl", "tuned on (round 3)", 0.416, 0.790, 0.76),
    ("extraction_fresh_dev3.jsonl", "tuned on (round 4)", 0.575, 0.868, 0.84),
    ("extraction_fresh_dev4.jsonl", "tuned on (round 5)", 0.467, 0.836, 0.81),
    ("extraction_fresh_test2.jsonl", "never read until its 0.707; read since", 0.503, 0.868, 0.84),
    ("extraction_fresh_dev5.jsonl", "tuned on (round 6)", 0.474, 0.860, 0.83),
    ("extraction_fresh_test3.jsonl", "held out, never read", 0.536, 0.744, 0.71),
    ("extraction_fresh_dev6.jsonl", "tuned on (round 7)", 0.624, 0.891, 0.86),
    ("extraction_fresh_dev7.jsonl", "tuned on (rounds 7, 8)", 0.537, 0.806, 0.78),
    ("extraction_fresh_test4.jsonl", "held out, never read", 0.456, 0.605, 0.57),
    ("extraction_adversarial.jsonl", "hand-written against v5 and v6", 0.800, 0.909, 0.88),
    ("extraction_fresh_dev8.jsonl", "tuned on (rounds 8, 9)", 0.574, 0.783, 0.75),
    ("extraction_fresh_test5.jsonl", "held out, never read", 0.579, 0.725, 0.69),
    ("extraction_fresh_dev9.jsonl", "tuned on (rounds 8, 9)", 0.471, 0.690, 0.65),
    ("extraction_fresh_dev10.jsonl", "tuned on (round 9)", 0.432, 0.695, 0.66),
    ("extraction_fresh_test6.jsonl", "held out, never read", 0.533, 0.646, 0.61),
    ("extraction_fresh_dev11.jsonl", "tuned on (round 10)", 0.461, 0.797, 0.76),
    ("extraction_fresh_dev12.jsonl", "blind for v8 half-way, then tuned on", 0.442, 0.645, 0.62),
    ("extraction_fresh_dev13.jsonl", "blind for v8, tuned on in v9", 0.552, 0.661, 0.63),
    ("extraction_fresh_test7.jsonl", "held out, never read", 0.563, 0.665, 0.63),
    ("extraction_fresh_test8.jsonl", "held out, never read", 0.388, 0.479, 0.44),
    ("extraction_fresh_dev14.jsonl", "blind for v8, then tuned on", 0.364, 0.589, 0.56),
    (
        "extraction_fresh_dev15.jsonl",
        "blind for v8, v9 and v10 (its v9 leaks read and fixed); tuned on in v11",
        0.497,
        0.589,
        0.56,
    ),
    ("extraction_fresh_test9.jsonl", "held out, never read", 0.404, 0.484, 0.45),
    ("extraction_fresh_dev16.jsonl", "blind for v9, then tuned on in v10", 0.353, 0.494, 0.46),
    ("extraction_fresh_test10.jsonl", "held out, never read", 0.515, 0.588, 0.56),
    ("extraction_fresh_dev17.jsonl", "blind for v10, then tuned on in v11", 0.503, 0.671, 0.64),
    ("extraction_fresh_test11.jsonl", "held out, never read", 0.522, 0.609, 0.58),
    ("extraction_fresh_dev18.jsonl", "blind for v11, then tuned on in v12", 0.515, 0.717, 0.69),
    ("extraction_fresh_test12.jsonl", "held out, never read", 0.479, 0.544, 0.51),
    ("extraction_fresh_dev19.jsonl", "blind for v12, then tuned on in v13", 0.394, 0.603, 0.57),
    ("extraction_fresh_dev20.jsonl", "blind for v13 before its sixth pass, then tuned on", 0.495, 0.588, 0.56),
    ("extraction_fresh_dev21.jsonl", "blind for v13, then tuned on in v14", 0.464, 0.674, 0.64),
    ("extraction_fresh_test13.jsonl", "held out, never read", 0.614, 0.668, 0.63),
    ("extraction_fresh_dev22.jsonl", "blind for v14 after two passes (v13 0.564), then tuned on", 0.560, 0.674, 0.64),
    ("extraction_fresh_dev23.jsonl", "blind for v14, then tuned on in v15", 0.689, 0.864, 0.83),
    ("extraction_fresh_test14.jsonl", "held out, never read", 0.611, 0.687, 0.65),
    ("extraction_fresh_dev24.jsonl", "blind for v15 after two passes (v14 0.557), then tuned on", 0.571, 0.702, 0.67),
    ("extraction_fresh_dev25.jsonl", "blind for v15, then tuned on in v16", 0.700, 0.868, 0.84),
    ("extraction_fresh_test15.jsonl", "held out, never read", 0.614, 0.651, 0.62),
    (
        "extraction_fresh_dev26.jsonl",
        "blind for v15 (v16 after two passes about 0.62), then tuned on",
        0.614,
        0.729,
        0.69,
    ),
    (
        "extraction_fresh_dev27.jsonl",
        "blind for v15 (v16 after three passes about 0.58), then tuned on",
        0.569,
        0.639,
        0.61,
    ),
    ("extraction_fresh_test16.jsonl", "held out, never read", 0.523, 0.554, 0.52),
    ("extraction_fresh_dev28.jsonl", "blind for v16, then tuned on in v17", 0.636, 0.780, 0.75),
    ("extraction_fresh_test17.jsonl", "held out, never read", 0.612, 0.633, 0.60),
    (
        "extraction_fresh_dev29.jsonl",
        "blind for v16 (v17 after one pass about 0.67), then tuned on",
        0.661,
        0.873,
        0.84,
    ),
    (
        "extraction_fresh_dev30.jsonl",
        "blind for v16 (v17 after four passes about 0.63), then tuned on",
        0.617,
        0.737,
        0.70,
    ),
    (
        "extraction_fresh_dev31.jsonl",
        "blind for v16 (v17 after six passes about 0.60), then tuned on",
        0.586,
        0.641,
        0.61,
    ),
    ("extraction_fresh_test18.jsonl", "held out, never read", 0.541, 0.557, 0.53),
    ("extraction_fresh_dev32.jsonl", "blind for v17, then tuned on in v18", 0.627, 0.717, 0.68),
    ("extraction_fresh_dev33.jsonl", "blind for v17 (v18 after two passes 0.686), then tuned on", 0.669, 0.742, 0.71),
    ("extraction_fresh_dev34.jsonl", "blind for v17 (0.582), v18 pass 3 (0.590), then tuned on", 0.582, 0.628, 0.59),
    ("extraction_fresh_test19.jsonl", "held out, never read", 0.713, 0.713, 0.68),
    ("extraction_fresh_dev35.jsonl", "blind for v18, then tuned on in v19", 0.521, 0.633, 0.60),
    ("extraction_fresh_test20.jsonl", "held out, never read", 0.714, 0.718, 0.68),
    ("extraction_fresh_dev36.jsonl", "blind for v19, then tuned on in v20", 0.563, 0.696, 0.66),
    ("extraction_fresh_dev37.jsonl", "blind for v19 (v20 after three passes 0.601), then tuned on", 0.595, 0.645, 0.61),
    ("extraction_fresh_test21.jsonl", "held out, never read", 0.713, 0.713, 0.68),
    ("extraction_fresh_dev38.jsonl", "blind for v20, then tuned on in v21", 0.670, 0.738, 0.70),
    (
        "extraction_fresh_dev39.jsonl",
        "blind for v20 (v21 after two passes about 0.403), then tuned on",
        0.394,
        0.439,
        0.40,
    ),
    ("extraction_fresh_dev40.jsonl", "blind for v21, then tuned on in v22", 0.461, 0.507, 0.47),
    ("extraction_fresh_test22.jsonl", "held out, never read", 0.618, 0.618, 0.58),
    ("extraction_fresh_dev41.jsonl", "blind for v21, then tuned on in v22", 0.365, 0.409, 0.37),
]
# fresh_test5 leaves a memory on 2 of its 40 must-not turns under v6, v7 and v8 (4 under v5), fresh_test6
# on 1 of its 41 under v7 and v8 (4 under v6, blind); fresh_test4's one leak of v5 and v6 is gone since
# v7, fresh_test7's one (v7, blind) in v8; fresh_test8 leaves one on 2 of its 42 under v8 (blind),
# fresh_test9 on 1 of its 42 under v9, v10 and v11 (blind), fresh_test10 on 1 of its 42 under v10, v11 and v12 (blind),
# fresh_test11 on 1 of its 40 under v11 (blind) and v12 (0 under v13), fresh_test12 on 3 of its 40 under
# v12 (blind), v13, v14 and v15, fresh_test13 on 5 of its 40 under v13 (blind) and v14 and on 4 under v15,
# fresh_test14 on 4 of its 40 under v14 (blind) and v15 and on 2 under v16 and v17, fresh_test15 on 1 of its 40
# under v15 (blind), v16 and v17, fresh_test16 on 2 of its 40 under v15 (blind) and v16 and on 1 under v17,
# fresh_test17 on 6 of its 40 under v16 (blind) and 5 under v17, fresh_test18 on 4 of its 40 under v17 (blind),
# fresh_dev32 on 2 of its 50 and fresh_dev33 on 3 of its 50 under v17 (blind), 0 and 1 under v18, fresh_dev34 on 2;
# fresh_test14 on 1 under v18; fresh_test19 on 1 of its 40 under v18 (blind) and v19; fresh_test20 on 1 of its 42
# and fresh_dev36 on 1 of its 50 under v19 (blind), fresh_dev37 on 4 of its 53 (blind), both 0 under v20;
# fresh_test21 on 0 of its 40 under v20 (blind) and v21, fresh_dev38 on 1 of its 50 and fresh_dev39 on 3 of its 52
# under v20 (blind), 0 under v21, as fresh_dev33; fresh_test22 on 2 of its 40 under v21 (blind) and v22, fresh_dev40
# on 5 of its 50 and fresh_dev41 on 1 of its 50 under v21 (blind), 1 and 0 under v22 (dev40's last is "no code
# needed" after a question, in the sentence after "this time use an analogy");
# fresh_test13 on 3 under v17,
# fresh_test9 and fresh_test8 on 0 and 1; fresh_dev31 keeps one (read: "As a Muslim pilot…" keeps the job "pilot",
# never the faith, where the set wants nothing);
# fresh_dev16's 3 of v9 and fresh_dev17's 3 of v10 (blind) were read and fixed. Which
# turns is not known, because the sets are not read. Held at that.
MUST_NOT_LEAKS = {
    "extraction_fresh_test5.jsonl": 2,
    "extraction_fresh_test6.jsonl": 1,
    "extraction_fresh_test8.jsonl": 1,
    "extraction_fresh_test10.jsonl": 1,
    "extraction_fresh_test12.jsonl": 2,
    "extraction_fresh_test13.jsonl": 3,
    "extraction_fresh_test14.jsonl": 1,
    "extraction_fresh_test15.jsonl": 1,
    "extraction_fresh_test16.jsonl": 1,
    "extraction_fresh_test17.jsonl": 5,
    "extraction_fresh_dev31.jsonl": 1,
    "extraction_fresh_test18.jsonl": 4,
    "extraction_fresh_dev32.jsonl": 0,
    "extraction_fresh_dev33.jsonl": 0,
    "extraction_fresh_dev34.jsonl": 2,
    "extraction_fresh_test19.jsonl": 1,
    "extraction_fresh_test20.jsonl": 1,
    "extraction_fresh_dev36.jsonl": 0,
    "extraction_fresh_dev37.jsonl": 0,
    "extraction_fresh_test21.jsonl": 0,
    "extraction_fresh_dev38.jsonl": 0,
    "extraction_fresh_dev39.jsonl": 0,
    "extraction_fresh_dev40.jsonl": 1,
    "extraction_fresh_test22.jsonl": 2,
    "extraction_fresh_dev41.jsonl": 0,
}
# fresh_neg1 has only must-not turns (200, written blind; 24 left a memory under v5, 22 under v6 before
# it was read, 0 since): it has no recall to hold, only its emptiness.
MUST_NOT_SETS = [row[0] for row in SETS] + ["extraction_fresh_neg1.jsonl"]


@pytest.fixture(scope="module")
def reports(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        found = {
            name: extraction_eval.run(extraction_eval.load(name), workspace_name=name.split(".")[0].replace("_", "-"))
            for name in MUST_NOT_SETS
        }
    for name, result in found.items():
        print(f"\n{name}: {result.summary()}")
        for case_id, item, stored in result.missed:
            print(
                f"  missed {case_id}: {item['category']} {item['key']} "
                f"{item.get('value', item.get('value_contains'))!r} — stored {stored}"
            )
    return found


@pytest.mark.parametrize("name, use, first, now, floor", SETS, ids=[row[0] for row in SETS])
def test_each_set_written_without_the_rules_keeps_its_recall_floor(reports, name, use, first, now, floor):
    assert reports[name].recall >= floor, f"{name} ({use}): {reports[name].summary()}"


@pytest.mark.parametrize("name", MUST_NOT_SETS)
def test_no_must_not_turn_of_any_set_leaves_a_memory(reports, name):
    assert reports[name].must_not > 0, name
    assert len(reports[name].offending) <= MUST_NOT_LEAKS.get(name, 0), reports[name].offending


def test_the_held_out_set_has_150_turns_in_three_languages_a_quarter_of_them_must_not():
    cases = extraction_eval.load("extraction_fresh_test2.jsonl")
    assert len(cases) == 150 and {case["lang"] for case in cases} == {"zh", "en", "mixed"}
    assert 30 <= sum(case["must_not"] for case in cases) <= 45


@pytest.mark.parametrize(
    "name, turns",
    [
        ("extraction_fresh_test3.jsonl", 120),
        ("extraction_fresh_test4.jsonl", 120),
        ("extraction_fresh_test5.jsonl", 160),
        ("extraction_fresh_test6.jsonl", 160),
        ("extraction_fresh_test7.jsonl", 160),
        ("extraction_fresh_test8.jsonl", 160),
        ("extraction_fresh_test9.jsonl", 160),
        ("extraction_fresh_test10.jsonl", 160),
        ("extraction_fresh_test11.jsonl", 160),
        ("extraction_fresh_test12.jsonl", 160),
        ("extraction_fresh_test13.jsonl", 160),
        ("extraction_fresh_test14.jsonl", 160),
        ("extraction_fresh_test15.jsonl", 160),
        ("extraction_fresh_test16.jsonl", 160),
        ("extraction_fresh_test17.jsonl", 160),
        ("extraction_fresh_test18.jsonl", 160),
        ("extraction_fresh_test19.jsonl", 160),
        ("extraction_fresh_test20.jsonl", 160),
        ("extraction_fresh_test21.jsonl", 160),
        ("extraction_fresh_test22.jsonl", 160),
    ],
)
def test_each_never_read_set_has_its_turns_in_three_languages_a_quarter_of_them_must_not(name, turns):
    cases = extraction_eval.load(name)
    assert len(cases) == turns and {case["lang"] for case in cases} == {"zh", "en", "mixed"}
    assert abs(sum(case["must_not"] for case in cases) - turns // 4) <= 2  # fresh_test8: 42 of 160
