"""How well the redaction gate holds, on data it was not written with.

    .venv/bin/python bench/eval_redaction.py [--seed 2027] [--show 5]

1. A fresh corpus from `bench/make_pii_corpus.py` with a seed other than the committed one (12),
   so the figures are not on the cases the recognizers were developed against: leaked values per
   kind and per source family, and the share of clean sentences altered.
2. Public dialogue nobody here wrote (../shared/eval: LoCoMo dev turns, MemoryBank zh/en queries and
   answers), which holds no real personal data: the share of sentences the gate alters, with
   examples of what it changed, to read by eye.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from common import setup_django
from tqdm import tqdm

ROOT = Path(__file__).resolve().parent.parent
EVAL = ROOT.parent / "shared" / "eval"


def public_sentences() -> dict[str, list[str]]:
    """Every utterance of the public dialogue sets, by set; {} where a set is not there."""
    sets: dict[str, list[str]] = {}
    locomo = EVAL / "locomo_dev.json"
    if locomo.exists():
        texts = []
        for sample in json.loads(locomo.read_text(encoding="utf-8")):
            conversation = sample["conversation"]
            for key, turns in conversation.items():
                if key.startswith("session_") and isinstance(turns, list):
                    texts.extend(turn["text"] for turn in turns)
        sets["LoCoMo dev (en)"] = texts
    for lang in ("cn", "en"):
        bank = EVAL / "memorybank" / f"memory_bank_{lang}.json"
        if bank.exists():
            texts = []
            for person in json.loads(bank.read_text(encoding="utf-8")).values():
                for day in person.get("history", {}).values():
                    for exchange in day:
                        texts.extend(t for t in (exchange.get("query"), exchange.get("response")) if t)
            sets[f"MemoryBank {lang}"] = texts
    return sets


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=2027)
    parser.add_argument("--show", type=int, default=5, help="examples to print per kind")
    args = parser.parse_args()
    setup_django()
    sys.path.insert(0, str(ROOT))
    from make_pii_corpus import build

    from apps.privacy import get_engines, redact
    from tests.privacy.leaks import leaked

    get_engines()
    leaks, clean = build(args.seed)
    total, missed, examples = Counter(), Counter(), {}
    for row in tqdm(leaks, desc=f"leak corpus (seed {args.seed})", unit="value", file=sys.stderr):
        total[row["kind"]] += 1
        out = redact(row["text"]).text
        if leaked(row["kind"], row["value"], out):
            missed[row["kind"]] += 1
            examples.setdefault(row["kind"], []).append((row["source"], row["text"], out))
    print(f"\nLeaked values on a fresh corpus (seed {args.seed}, {len(leaks):,} values):")
    for kind in sorted(total):
        print(f"  {kind:12} {missed[kind]:5} of {total[kind]:5}  ({missed[kind] / total[kind]:.2%})")
        for source, text, out in examples.get(kind, [])[: args.show]:
            print(f"      {source}: {text!r} -> {out!r}")
    altered = [(row["text"], out) for row in clean for out in [redact(row["text"]).text] if out != row["text"]]
    print(f"Clean sentences altered: {len(altered)} of {len(clean):,} ({len(altered) / len(clean):.2%})")
    for text, out in altered[: args.show]:
        print(f"      {text!r} -> {out!r}")

    sets = public_sentences()
    if not sets:
        print(f"\n(no public dialogue sets under {EVAL})")
    for name, texts in sets.items():
        changed = [
            (t, out)
            for t in tqdm(texts, desc=name, unit="turn", file=sys.stderr)
            for out in [redact(t).text]
            if out != t
        ]
        print(f"\n{name}: {len(changed)} of {len(texts):,} utterances altered ({len(changed) / len(texts):.2%})")
        for text, out in changed[: args.show]:
            print(f"      {text[:160]!r}\n   -> {out[:160]!r}")


if __name__ == "__main__":
    main()
