"""The text an embedding model wants in front of a query or a passage, by model name.

An OpenAI-compatible server (Ollama, TEI, vLLM) embeds exactly the text it is sent: the task prompt
a model was trained with must come from the client. EMBEDDINGS_QUERY_PREFIX / _PASSAGE_PREFIX say
what `openai:` embedders put there: "auto" (the default) — the model's own from KNOWN when the name
is one of them, else nothing; "none" — nothing; any other text — that text.

Prompts as each model's card / sentence-transformers config gives them:
* EmbeddingGemma: query "task: search result | query: ", document "title: none | text: ".
* Qwen3-Embedding: query "Instruct: <task>\\nQuery:" with the card's default task (no space after
  "Query:"), documents bare.
* bge-m3 (dense): no instruction on either side.
* e5 (multilingual-e5-*, e5-*-v2): "query: " / "passage: " (the -instruct ones take an instruction
  instead, so they are not matched).
* nomic-embed-text: "search_query: " / "search_document: ".
"""

from __future__ import annotations

import re

AUTO = "auto"
NONE = "none"

# family → (query prefix, passage prefix)
KNOWN: dict[str, tuple[str, str]] = {
    "embeddinggemma": ("task: search result | query: ", "title: none | text: "),
    "qwen3-embedding": (
        "Instruct: Given a web search query, retrieve relevant passages that answer the query\nQuery:",
        "",
    ),
    "bge-m3": ("", ""),
    "e5": ("query: ", "passage: "),
    "nomic-embed-text": ("search_query: ", "search_document: "),
}

_E5 = re.compile(r"(?:^|-)e5-(?:small|base|large)(?:-v2)?(?:-|$)")


def family(model: str) -> str | None:
    """The KNOWN family of a model name as Ollama, TEI or vLLM spell it ('embeddinggemma:300m',
    'google/embeddinggemma-300m', 'BAAI/bge-m3', 'qwen3-embedding:0.6b', 'Qwen/Qwen3-Embedding-0.6B',
    'intfloat/multilingual-e5-large', 'nomic-embed-text:v1.5'), or None."""
    name = model.strip().lower().rsplit("/", 1)[-1].split(":", 1)[0]  # no organisation, no Ollama tag
    for known in KNOWN.keys() - {"e5"}:  # e5 is a suffix family, matched below
        if name == known or name.startswith(known + "-"):
            return known
    if _E5.search(name) and "instruct" not in name:
        return "e5"
    return None


def resolve(model: str, *, query_prefix: str, passage_prefix: str) -> tuple[str, str]:
    """The (query, passage) prefixes to apply for `model`, given the two settings."""
    own = KNOWN.get(family(model) or "", ("", ""))
    return _pick(query_prefix, own[0]), _pick(passage_prefix, own[1])


def _pick(setting: str, own: str) -> str:
    word = setting.strip().lower()
    if word == AUTO:
        return own
    if word == NONE:
        return ""
    return setting
