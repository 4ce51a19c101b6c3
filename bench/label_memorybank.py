"""Label the gold turns of MemoryBank-SiliconFriend's probing questions, once, deterministically.

    .venv/bin/python bench/label_memorybank.py   # rewrites tests/data/memorybank_gold.jsonl

MemoryBank ships dialogues and probing questions but no evidence. A *turn* is one user message with
the assistant's reply (`<date>#<index>` in the person's history). For each question:

1. A date in the question ("On May 2nd", "5月2日", "4月27号") restricts the candidates to that day.
2. A question about a whole day (or "our first conversation") ("what topics did we talk about on April 29th",
   "5月4日我心情如何", the weather or mood that day) has every turn of that day as gold.
3. Otherwise the turns are scored by the IDF-weighted content words they share with the question
   (question framing — recommend, remember, mention, 曾经, 推荐, 记得, … — removed; crude English
   stemming; jieba for Chinese); gold = the best turn and every other turn scoring at least 0.6 of
   it (at most 3).

Limits: no human read every label. Lexical labels favour lexical retrieval (the keyword leg and
BM25 get an easier task than the vector leg), a question answered in a turn that shares no word
with it gets a wrong label, and the English and Chinese sets are labelled independently (their
dialogues are translations, not identical). Treat the figures as a relative measure between legs
and fusions, not as absolute quality.
"""

import json
import math
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from apps.memories.search import tokens  # noqa: E402  (jieba only; no Django needed)

DATA = ROOT.parent / "shared" / "eval" / "memorybank"
OUT = ROOT / "tests" / "data" / "memorybank_gold.jsonl"
LANGS = {"en": "en", "zh": "cn"}
MONTHS = {
    m: i
    for i, m in enumerate(
        "january february march april may june july august september october november december".split(), 1
    )
}

EN_FRAMING = frozenset(
    "a an the i me my you your we our us it its is are was were be been do did does what which who whose why how "
    "when where that this these those there then some any many few lot of to in on at for with about from by and or "
    "but not no so as if can could would should will once before ago recently recommend recommended remember "
    "mention mentioned share shared tell told say said give gave given advice suggest suggestions right name "
    "called specific day days first still talk talked discuss discussed topic topics encounter encountered "
    "consult consulted have has had am like".split()
)
ZH_FRAMING = frozenset(
    "曾经 推荐 推荐过 给 过 你 我 我们 记得 还 提到 提到过 分享 分享过 告诉 告诉过 哪些 什么 名字 是 的 吗 对 "
    "这天 当时 那天 一次 一些 一个 一部 一本 一档 有 了 呢 吧 为什么 如何 怎么 怎样 哪个 哪 谁 之前 最近 "
    "聊 聊天 聊过 谈 谈论 话题 内容 具体 问 问题 喜欢".split()
)
# Questions about a whole day: every turn of that day answers them.
WHOLE_DAY = re.compile(
    r"topics?|talk(ed)? (a lot|about)|mood|feeling|weather|happy|upset|话题|聊了|谈论|心情|天气|开心|难过|不开心",
    re.IGNORECASE,
)


def stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "s"):
        if word.isascii() and len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def words(text: str, framing: frozenset) -> set[str]:
    return {stem(w) for w in tokens(text) if w not in framing and stem(w) not in framing}


def question_date(question: str, year: str) -> str | None:
    if m := re.search(r"(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]", question):
        return f"{year}-{int(m[1]):02d}-{int(m[2]):02d}"
    if m := re.search(r"\b(" + "|".join(MONTHS) + r")\s+(\d{1,2})(st|nd|rd|th)?\b", question, re.IGNORECASE):
        return f"{year}-{MONTHS[m[1].lower()]:02d}-{int(m[2]):02d}"
    return None


def turns_of(person: dict) -> list[tuple[str, str]]:
    """(turn id, text) of a person's history, in order."""
    return [
        (f"{day}#{i}", f"{t.get('query', '')} {t.get('response', '')}")
        for day in sorted(person["history"])
        for i, t in enumerate(person["history"][day])
    ]


def label(question: str, turns: list[tuple[str, str]], framing: frozenset) -> tuple[list[str], str]:
    year = turns[0][0][:4]
    day = question_date(question, year)
    if re.search(r"first conversation|第一次", question):
        day = turns[0][0][:10]
        return [tid for tid, _ in turns if tid.startswith(day)], "whole day (first)"
    candidates = [(tid, text) for tid, text in turns if day is None or tid.startswith(day)] or turns
    if day and WHOLE_DAY.search(question):
        return [tid for tid, _ in candidates], "whole day"
    bags = {tid: words(text, framing) for tid, text in turns}
    wanted = words(question, framing)
    df = {w: sum(w in bag for bag in bags.values()) for w in wanted}
    n = len(turns)
    idf = {w: math.log(1 + (n - df[w] + 0.5) / (df[w] + 0.5)) for w in wanted if df[w]}
    scored = sorted(
        ((sum(idf.get(w, 0.0) for w in wanted & bags[tid]), tid) for tid, _ in candidates),
        key=lambda row: (-row[0], turns.index(next(t for t in turns if t[0] == row[1]))),
    )
    best = scored[0][0] if scored else 0.0
    if best <= 0:
        return [], "no overlap"
    return [tid for s, tid in scored if s >= 0.6 * best][:3], "lexical" + (" + date" if day else "")


def main() -> None:
    rows = []
    for lang, suffix in LANGS.items():
        history = {
            name.strip(): person
            for name, person in json.loads((DATA / f"memory_bank_{suffix}.json").read_text(encoding="utf-8")).items()
        }
        framing = EN_FRAMING if lang == "en" else ZH_FRAMING
        for line in (DATA / f"probing_questions_{suffix}.jsonl").read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            for name, questions in json.loads(line).items():
                turns = turns_of(history[name])
                for number, question in enumerate(questions):
                    gold, how = label(question.strip('"'), turns, framing)
                    if gold:
                        rows.append(
                            {
                                "lang": lang,
                                "person": name,
                                "question": number,
                                "text": question,
                                "gold": gold,
                                "how": how,
                            }
                        )
    OUT.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    print(f"{len(rows)} labelled questions → {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
