"""Keyword search that works for Chinese, English and both in one sentence.

PostgreSQL's parser does not split Chinese into words, so text is segmented with jieba first
(search mode: "乌龙茶" also yields "乌龙") and the space-joined tokens go through the `english`
configuration, which stems English words and leaves Chinese tokens as they are.

Traditional and Simplified Chinese are one script here: a memory is indexed as Simplified (OpenCC,
character for character: "軟體工程師" → 软体 工程师), and a query is looked up both as typed and as
Simplified, so "工程师" finds "在新竹當軟體工程師" and "烏龍茶" finds "乌龙茶" — and a Traditional query
still finds a memory indexed, as typed, before this was so.
"""

import logging
import threading

from apps.memories.extraction.script import as_simplified

CONFIG = "english"
MAX_QUERY_TERMS = 24

# Function words that would match almost every Chinese memory. ("不" stays: 不吃辣 is not 吃辣.)
_ZH_STOPWORDS = frozenset(
    "的 了 着 过 吗 呢 吧 啊 呀 哦 嗯 是 在 和 与 或 也 都 就 还 又 很 太 我 你 他 她 它 我们 你们 他们 她们 "
    "这 那 这个 那个 什么 怎么 一个 有 没有 个 把 被 给 让 对 从 到 为 以 之 于 上 下 吗？ 请 能 会 要 想".split()
)
_lock = threading.Lock()
_jieba = None


def _segmenter():
    global _jieba
    if _jieba is None:
        with _lock:
            if _jieba is None:
                import jieba

                jieba.setLogLevel(logging.WARNING)
                jieba.initialize()
                _jieba = jieba
    return _jieba


def tokens(text: str) -> list[str]:
    """Words of `text` worth matching: jieba tokens without punctuation, spaces and stop words."""
    words = []
    for token in _segmenter().cut_for_search(text):
        token = token.strip().lower()
        if token and any(ch.isalnum() for ch in token) and token not in _ZH_STOPWORDS:
            words.append(token)
    return words


def search_document(text: str) -> str:
    """What goes into the tsvector: the tokens of the text read as Simplified, space-separated."""
    return " ".join(tokens(as_simplified(text)))


def query_terms(text: str) -> list[str]:
    """Distinct tokens of a query as typed and as Simplified, in order, at most MAX_QUERY_TERMS."""
    simplified = as_simplified(text)
    said = tokens(text) + (tokens(simplified) if simplified != text else [])
    return list(dict.fromkeys(said))[:MAX_QUERY_TERMS]
