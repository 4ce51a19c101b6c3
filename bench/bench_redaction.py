"""Benchmark the redaction gate: per-text latency of `apps.privacy.redact`.

    .venv/bin/python bench/bench_redaction.py [--texts 1000] [--seed 20231115]

Generates mixed Chinese/English texts of 20-300 characters from a fixed seed (about a fifth
carry personal data), builds and warms the engines (timed separately), then times one
`redact()` call per text and prints p50/p95/p99/max against the target p95 <= 10 ms; then the
same for texts of exactly 300 characters whose personal data comes from the generated corpus
(`make_pii_corpus.py`: international phones, cards, IDs, e-mails, evasions).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from common import percentile, report, setup_django
from tqdm import tqdm

TARGET_P95_MS = 10.0

CHINESE = [
    "今天和团队讨论了新的部署方案，",
    "用户喜欢简洁的回答，不要太长。",
    "下周三下午开会，记得提前准备材料。",
    "他更喜欢用中文交流，",
    "我2023年买了3台服务器，",
    "订单号 20231115 已发货，",
    "会议室在三楼东侧，",
    "这个版本修复了登录页面的问题。",
    "请把报告发给产品经理，",
    "周末去杭州看了西湖，天气很好。",
    "她对花生过敏，",
    "预算大约是12万元，",
]
ENGLISH = [
    "We deployed v2.3.1 on port 8080. ",
    "The user prefers short answers. ",
    "Remember to back up the database before the migration. ",
    "I have 2 cats and 13 fish. ",
    "Meeting moved to Thursday at 3pm. ",
    "The latency dropped from 120ms to 45ms after the cache change. ",
    "Please review the pull request #4821. ",
    "Ship the k8s manifests next week. ",
]


def _id_number(rng: random.Random) -> str:
    weights = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
    area, year = rng.randint(110000, 659999), rng.randint(1950, 2005)
    body = f"{area}{year}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}{rng.randint(0, 999):03d}"
    return body + "10X98765432"[sum(int(d) * w for d, w in zip(body, weights, strict=True)) % 11]


def _luhn_card(rng: random.Random, prefix: str, length: int) -> str:
    body = prefix + "".join(rng.choice("0123456789") for _ in range(length - len(prefix) - 1))
    for check in "0123456789":
        digits = body + check
        total = sum(
            (d * 2 - 9 if d * 2 > 9 else d * 2) if i % 2 else d for i, d in enumerate(int(c) for c in reversed(digits))
        )
        if total % 10 == 0:
            return digits
    raise AssertionError("unreachable")


def _pii(rng: random.Random) -> str:
    kind = rng.randrange(7)
    if kind == 0:
        return f"我的手机是1{rng.choice('3456789')}{rng.randint(0, 999999999):09d}，"
    if kind == 1:
        return f"邮箱 user{rng.randint(1, 9999)}@{rng.choice(['qq.com', '163.com', 'example.com'])} "
    if kind == 2:
        return f"身份证 {_id_number(rng)}，"
    if kind == 3:
        return f"卡号 {_luhn_card(rng, '622202', 19)}，"
    if kind == 4:
        return f"call ({rng.choice(['212', '415', '646', '303'])}) 555-01{rng.randint(0, 99):02d} "
    if kind == 5:
        return f"+86 1{rng.choice('3456789')}{rng.randint(0, 9)}-{rng.randint(0, 9999):04d}-{rng.randint(0, 9999):04d} "
    return f"IP 10.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)} "


def make_texts(count: int, seed: int) -> list[str]:
    """Deterministic mixed zh/en texts, 20-300 characters; about 20% contain personal data."""
    rng = random.Random(seed)
    texts = []
    for _ in range(count):
        length = rng.randint(20, 300)
        parts: list[str] = []
        with_pii = rng.random() < 0.2
        while sum(map(len, parts)) < length:
            parts.append(rng.choice(CHINESE if rng.random() < 0.6 else ENGLISH))
        if with_pii:
            parts.insert(rng.randrange(len(parts) + 1), _pii(rng))
        text = "".join(parts)
        texts.append(text[:300])
    return texts


def make_corpus_texts(count: int, seed: int) -> list[str]:
    """300-character mixed texts; a fifth carry a sentence of the generated PII corpus
    (`make_pii_corpus.build`: every region's phone formats, cards, IDs, e-mails and evasions)."""
    from make_pii_corpus import build

    rng = random.Random(seed)
    leaks, _ = build(seed)
    texts = []
    for _ in range(count):
        parts: list[str] = []
        while sum(map(len, parts)) < 320:
            parts.append(rng.choice(CHINESE if rng.random() < 0.6 else ENGLISH))
        if rng.random() < 0.2:
            parts.insert(rng.randrange(len(parts)), rng.choice(leaks)["text"])
        texts.append("".join(parts)[:300])
    return texts


def time_redact(texts: list[str]) -> tuple[list[float], int]:
    from apps.privacy import redact

    timings_ms: list[float] = []
    with_findings = 0
    for text in tqdm(texts, desc="redact", unit="text"):
        t0 = time.perf_counter()
        result = redact(text)
        timings_ms.append((time.perf_counter() - t0) * 1000)
        with_findings += bool(result.findings)
    return timings_ms, with_findings


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--texts", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=20231115)
    args = parser.parse_args()

    setup_django()
    from apps.privacy import get_engines, redact

    texts = make_texts(args.texts, args.seed)
    lengths = [len(t) for t in texts]

    started = time.perf_counter()
    get_engines()
    built = time.perf_counter()
    for text in texts[:20]:  # first calls compile the regexes and load phonenumbers metadata
        redact(text)
    warmed = time.perf_counter()

    timings_ms, with_findings = time_redact(texts)
    corpus_texts = make_corpus_texts(args.texts, args.seed)
    corpus_ms, corpus_findings = time_redact(corpus_texts)

    print()
    print(
        f"texts:        {len(texts)} ({min(lengths)}-{max(lengths)} chars, mean {statistics.mean(lengths):.0f}); "
        f"{with_findings} with findings"
    )
    print(
        f"warm-up:      engines built in {(built - started) * 1000:.0f} ms, "
        f"first 20 calls {(warmed - built) * 1000:.0f} ms"
    )
    report("redact per text", timings_ms, f"p95 <= {TARGET_P95_MS:.0f} ms", percentile(timings_ms, 95) <= TARGET_P95_MS)
    print(f"300-char texts with the generated PII corpus: {len(corpus_texts)}; {corpus_findings} with findings")
    report(
        "redact per 300-char text",
        corpus_ms,
        f"p95 <= {TARGET_P95_MS:.0f} ms",
        percentile(corpus_ms, 95) <= TARGET_P95_MS,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
