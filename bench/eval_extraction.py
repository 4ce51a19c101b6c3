"""Extraction quality, one harness for every extractor: the turns of tests/data/extraction_public.jsonl,
the held-out tests/data/extraction_heldout.jsonl, the sets written blind (extraction_fresh_*.jsonl;
fresh-test3 to fresh-test22 were never read while tuning; fresh-test2 was read from session 8 on) and
the hand-written adversarial turns go through the real ingest path in a throw-away database,
and each extractor gets recall of the expected memories, the must-not turns that left a memory,
and the unexpected memories (matching is defined in tests/extraction_eval.py).

    .venv/bin/python bench/eval_extraction.py                 # rules and llm, every set
    .venv/bin/python bench/eval_extraction.py --extractors rules --sets public -v

The LLM extractor talks to LLM_BASE_URL / LLM_MODEL (any OpenAI-compatible endpoint; see the README
for Ollama). Without LLM_BASE_URL it runs against a local fake server that answers "no memories",
which only proves the path — its recall is then 0 by construction, and the row says so.
"""

import argparse
import json

from common import setup_django, throwaway_database

setup_django()

from django.conf import settings  # noqa: E402
from django.test import override_settings  # noqa: E402

from tests import extraction_eval  # noqa: E402
from tests.fake_openai import FakeOpenAIServer  # noqa: E402

SETS = {
    "public": "extraction_public.jsonl",
    "heldout": "extraction_heldout.jsonl",
    "fresh-dev": "extraction_fresh_dev.jsonl",
    "fresh-test": "extraction_fresh_test.jsonl",
    "fresh-dev2": "extraction_fresh_dev2.jsonl",
    "fresh-dev3": "extraction_fresh_dev3.jsonl",
    "fresh-dev4": "extraction_fresh_dev4.jsonl",
    "fresh-test2": "extraction_fresh_test2.jsonl",
    "fresh-dev5": "extraction_fresh_dev5.jsonl",
    "fresh-test3": "extraction_fresh_test3.jsonl",
    "fresh-dev6": "extraction_fresh_dev6.jsonl",
    "fresh-test4": "extraction_fresh_test4.jsonl",
    "fresh-dev7": "extraction_fresh_dev7.jsonl",
    "fresh-dev8": "extraction_fresh_dev8.jsonl",
    "fresh-test5": "extraction_fresh_test5.jsonl",
    "fresh-neg1": "extraction_fresh_neg1.jsonl",
    "fresh-dev9": "extraction_fresh_dev9.jsonl",
    "fresh-dev10": "extraction_fresh_dev10.jsonl",
    "fresh-test6": "extraction_fresh_test6.jsonl",
    "fresh-dev11": "extraction_fresh_dev11.jsonl",
    "fresh-test7": "extraction_fresh_test7.jsonl",
    "fresh-dev12": "extraction_fresh_dev12.jsonl",
    "fresh-dev13": "extraction_fresh_dev13.jsonl",
    "fresh-test8": "extraction_fresh_test8.jsonl",
    "fresh-dev14": "extraction_fresh_dev14.jsonl",
    "fresh-dev15": "extraction_fresh_dev15.jsonl",
    "fresh-dev16": "extraction_fresh_dev16.jsonl",
    "fresh-test9": "extraction_fresh_test9.jsonl",
    "fresh-dev17": "extraction_fresh_dev17.jsonl",
    "fresh-test10": "extraction_fresh_test10.jsonl",
    "fresh-dev18": "extraction_fresh_dev18.jsonl",
    "fresh-test11": "extraction_fresh_test11.jsonl",
    "fresh-dev19": "extraction_fresh_dev19.jsonl",
    "fresh-test12": "extraction_fresh_test12.jsonl",
    "fresh-dev20": "extraction_fresh_dev20.jsonl",
    "fresh-dev21": "extraction_fresh_dev21.jsonl",
    "fresh-test13": "extraction_fresh_test13.jsonl",
    "fresh-dev22": "extraction_fresh_dev22.jsonl",
    "fresh-dev23": "extraction_fresh_dev23.jsonl",
    "fresh-test14": "extraction_fresh_test14.jsonl",
    "fresh-dev24": "extraction_fresh_dev24.jsonl",
    "fresh-dev25": "extraction_fresh_dev25.jsonl",
    "fresh-test15": "extraction_fresh_test15.jsonl",
    "fresh-dev26": "extraction_fresh_dev26.jsonl",
    "fresh-dev27": "extraction_fresh_dev27.jsonl",
    "fresh-test16": "extraction_fresh_test16.jsonl",
    "fresh-dev28": "extraction_fresh_dev28.jsonl",
    "fresh-test17": "extraction_fresh_test17.jsonl",
    "fresh-dev29": "extraction_fresh_dev29.jsonl",
    "fresh-dev30": "extraction_fresh_dev30.jsonl",
    "fresh-dev31": "extraction_fresh_dev31.jsonl",
    "fresh-test18": "extraction_fresh_test18.jsonl",
    "fresh-dev32": "extraction_fresh_dev32.jsonl",
    "fresh-dev33": "extraction_fresh_dev33.jsonl",
    "fresh-dev34": "extraction_fresh_dev34.jsonl",
    "fresh-test19": "extraction_fresh_test19.jsonl",
    "fresh-dev35": "extraction_fresh_dev35.jsonl",
    "fresh-dev36": "extraction_fresh_dev36.jsonl",
    "fresh-test20": "extraction_fresh_test20.jsonl",
    "fresh-dev37": "extraction_fresh_dev37.jsonl",
    "fresh-dev38": "extraction_fresh_dev38.jsonl",
    "fresh-test21": "extraction_fresh_test21.jsonl",
    "fresh-dev39": "extraction_fresh_dev39.jsonl",
    "fresh-dev40": "extraction_fresh_dev40.jsonl",
    "fresh-test22": "extraction_fresh_test22.jsonl",
    "fresh-dev41": "extraction_fresh_dev41.jsonl",
    "adversarial": "extraction_adversarial.jsonl",
}


class EmptyAnswerServer(FakeOpenAIServer):
    """A chat completions endpoint whose model never proposes anything."""

    path = "/v1/chat/completions"

    def answer(self, body: dict) -> tuple[int, dict]:
        content = json.dumps({"memories": [], "skipped": []})
        return 200, {
            "id": "fake",
            "object": "chat.completion",
            "model": body["model"],
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        }


def run(extractor: str, name: str, verbose: bool) -> dict:
    cases = extraction_eval.load(SETS[name])
    overrides, server, label = {"INGEST_EXTRACTOR": extractor}, None, extractor
    if extractor == "llm":
        if settings.LLM_BASE_URL:
            label = f"llm ({settings.LLM_MODEL} at {settings.LLM_BASE_URL})"
        else:
            server = EmptyAnswerServer()
            overrides.update(LLM_BASE_URL=server.url, LLM_MODEL="fake-empty", LLM_API_KEY="")
            label = "llm (FAKE server answering no memories: no real endpoint configured)"
    try:
        with override_settings(**overrides):
            report = extraction_eval.run(cases, workspace_name=f"eval-{extractor}")
    finally:
        if server:
            server.close()
    if verbose:
        for case_id, item, stored in report.missed:
            print(
                f"  missed {case_id}: {item['category']} {item['key']} "
                f"{item.get('value', item.get('value_contains'))!r} — stored {stored}"
            )
        for case_id, memories in report.offending.items():
            print(f"  MUST-NOT {case_id}: {memories}")
        for case_id, category, key, value in report.unexpected:  # not held, but read: is each one true?
            print(f"  unexpected {case_id}: {category} {key} {value!r}")
    return {
        "extractor": label,
        "set": name,
        "recall": round(report.recall, 3),
        "matched": report.matched,
        "expected": report.expected,
        "must_not_with_memories": len(report.offending),
        "must_not": report.must_not,
        "unexpected": len(report.unexpected),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--extractors", default="rules,llm")
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    rows = []
    with throwaway_database():
        for extractor in args.extractors.split(","):
            for name in args.sets.split(","):
                rows.append(run(extractor, name, args.verbose))
    print(f"{'extractor':<70} {'set':<8} {'recall':>14} {'must-not with memories':>24} {'unexpected':>10}")
    for row in rows:
        print(
            f"{row['extractor']:<70} {row['set']:<8} {row['recall']:>6.3f} ({row['matched']:>3}/{row['expected']:<3}) "
            f"{row['must_not_with_memories']:>14}/{row['must_not']:<9} {row['unexpected']:>10}"
        )


if __name__ == "__main__":
    main()
