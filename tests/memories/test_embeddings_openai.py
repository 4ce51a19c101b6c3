"""The quality tier: embeddinggemma, bge-m3, Qwen3-Embedding (and e5, nomic) behind a local
OpenAI-compatible server (Ollama, TEI, vLLM). The server here is the fake one of
tests/fake_openai.py, which speaks the real /v1/embeddings protocol and records what it was sent:
the tests check what such a server would receive, which is what decides the quality of the vectors.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from apps.memories.embeddings import EmbeddingConfigurationError, calibration, get_embedder, thresholds
from apps.memories.models import MemoryEmbedding
from apps.memories.recall import recall
from tests.factories import fact
from tests.fake_embeddings import fake_vector, unit

# The prompts each model was trained with, as its model card / sentence-transformers config gives them.
GEMMA_QUERY, GEMMA_DOCUMENT = "task: search result | query: ", "title: none | text: "
QWEN3_QUERY = "Instruct: Given a web search query, retrieve relevant passages that answer the query\nQuery:"

SPELLINGS = [  # (what people write after "openai:", query prefix, passage prefix)
    ("embeddinggemma", GEMMA_QUERY, GEMMA_DOCUMENT),  # Ollama
    ("embeddinggemma:300m", GEMMA_QUERY, GEMMA_DOCUMENT),  # Ollama, with its tag
    ("google/embeddinggemma-300m", GEMMA_QUERY, GEMMA_DOCUMENT),  # TEI, vLLM
    ("bge-m3", "", ""),  # dense bge-m3 needs no instruction
    ("bge-m3:567m", "", ""),
    ("BAAI/bge-m3", "", ""),
    ("qwen3-embedding", QWEN3_QUERY, ""),
    ("qwen3-embedding:0.6b", QWEN3_QUERY, ""),
    ("Qwen/Qwen3-Embedding-0.6B", QWEN3_QUERY, ""),
    ("Qwen/Qwen3-Embedding-8B", QWEN3_QUERY, ""),
    ("intfloat/multilingual-e5-small", "query: ", "passage: "),
    ("intfloat/multilingual-e5-large", "query: ", "passage: "),
    ("intfloat/e5-base-v2", "query: ", "passage: "),
    ("nomic-embed-text", "search_query: ", "search_document: "),
    ("nomic-embed-text:v1.5", "search_query: ", "search_document: "),
    ("nomic-ai/nomic-embed-text-v1.5", "search_query: ", "search_document: "),
]


def _use(settings, model: str):
    settings.EMBEDDINGS_MODEL = f"openai:{model}"
    return get_embedder()


# --- what the server receives ------------------------------------------------------------------


def test_with_embeddinggemma_queries_carry_the_query_prompt_and_memories_the_document_prompt(remote, settings):
    embedder = _use(settings, "embeddinggemma")
    embedder.embed_passages(["喜欢喝乌龙茶", "lives in Hangzhou"])
    embedder.embed_query("她喜欢喝什么茶？")

    assert remote.inputs == [
        "title: none | text: 喜欢喝乌龙茶",
        "title: none | text: lives in Hangzhou",
        "task: search result | query: 她喜欢喝什么茶？",
    ]
    assert {r["body"]["model"] for r in remote.requests} == {"embeddinggemma"}


@pytest.mark.parametrize("model, query_prefix, passage_prefix", SPELLINGS)
def test_the_usual_spellings_of_a_model_get_its_prefixes_and_reach_the_server_as_written(
    remote, settings, model, query_prefix, passage_prefix
):
    embedder = _use(settings, model)
    embedder.embed_passages(["用户主力语言是 Golang"])
    embedder.embed_query("他用什么编程语言？")

    assert remote.inputs == [passage_prefix + "用户主力语言是 Golang", query_prefix + "他用什么编程语言？"]
    assert [r["body"]["model"] for r in remote.requests] == [model, model]
    assert embedder.model_id == f"openai:{model}"


def test_the_qwen3_instruction_ends_in_a_line_break_and_query_colon_right_before_the_text(remote, settings):
    _use(settings, "qwen3-embedding:0.6b").embed_query("where does she live")

    assert remote.inputs == [
        "Instruct: Given a web search query, retrieve relevant passages that answer the query\n"
        "Query:where does she live"
    ]


@pytest.mark.parametrize(
    "model", ["text-embedding-3-small", "my-own-finetune", "intfloat/multilingual-e5-large-instruct"]
)
def test_an_unknown_model_gets_no_prefix(remote, settings, model):
    embedder = _use(settings, model)
    embedder.embed_passages(["loves oolong tea"])
    embedder.embed_query("what tea")

    assert remote.inputs == ["loves oolong tea", "what tea"]
    assert (embedder.query_prefix, embedder.passage_prefix) == ("", "")


def passage_then_query(remote, settings, model: str) -> list[str]:
    """What the server received for one passage ("loves oolong tea") and one query ("what tea")."""
    embedder = _use(settings, model)
    embedder.embed_passages(["loves oolong tea"])
    embedder.embed_query("what tea")
    return remote.inputs


def test_explicit_prefix_settings_win_over_the_models_own(remote, settings):
    settings.EMBEDDINGS_QUERY_PREFIX = "task: question answering | query: "
    settings.EMBEDDINGS_PASSAGE_PREFIX = "title: Alice | text: "
    assert passage_then_query(remote, settings, "embeddinggemma") == [
        "title: Alice | text: loves oolong tea",
        "task: question answering | query: what tea",
    ]


def test_setting_one_prefix_leaves_the_other_to_the_model(remote, settings):
    settings.EMBEDDINGS_QUERY_PREFIX = "task: question answering | query: "
    assert passage_then_query(remote, settings, "embeddinggemma") == [
        "title: none | text: loves oolong tea",
        "task: question answering | query: what tea",
    ]


def test_none_turns_a_models_prefixes_off(remote, settings):
    """For a server that adds them itself (TEI started with --default-prompt-name), or vectors
    stored before the prefixes were applied."""
    settings.EMBEDDINGS_QUERY_PREFIX = "none"
    settings.EMBEDDINGS_PASSAGE_PREFIX = "none"
    assert passage_then_query(remote, settings, "nomic-embed-text") == ["loves oolong tea", "what tea"]


def test_an_explicit_prefix_is_used_for_an_unknown_model_too(remote, settings):
    settings.EMBEDDINGS_QUERY_PREFIX = "Represent this sentence for searching relevant passages: "
    assert passage_then_query(remote, settings, "mxbai-embed-large") == [
        "loves oolong tea",
        "Represent this sentence for searching relevant passages: what tea",
    ]


def test_the_embedder_says_which_prefixes_it_applies(settings):
    settings.EMBEDDINGS_URL = "http://127.0.0.1:9/v1"  # never called
    embedder = _use(settings, "google/embeddinggemma-300m")

    assert (embedder.model_id, embedder.query_prefix, embedder.passage_prefix) == (
        "openai:google/embeddinggemma-300m",
        GEMMA_QUERY,
        GEMMA_DOCUMENT,
    )


def test_changing_a_prefix_setting_gives_a_fresh_embedder_not_a_stale_one(remote, settings):
    first = _use(settings, "embeddinggemma")
    settings.EMBEDDINGS_QUERY_PREFIX = "none"
    second = get_embedder()

    assert first is not second and (first.query_prefix, second.query_prefix) == (GEMMA_QUERY, "")


def test_the_vectors_are_those_of_the_prefixed_texts(remote, settings):
    embedder = _use(settings, "embeddinggemma")
    np.testing.assert_allclose(
        embedder.embed_passages(["loves oolong tea"])[0],
        unit(fake_vector("title: none | text: loves oolong tea")),
        atol=1e-6,
    )
    np.testing.assert_allclose(
        embedder.embed_query("what tea"), unit(fake_vector("task: search result | query: what tea")), atol=1e-6
    )


# --- stored under their own model id, with their own calibration ---------------------------------


@pytest.mark.django_db(transaction=True)
def test_vectors_of_a_remote_model_are_stored_under_its_own_model_id_and_recalled_with_its_calibration(
    alice, remote, settings
):
    settings.EMBEDDINGS_MODEL = "openai:embeddinggemma:300m"
    settings.EMBEDDINGS_CALIBRATION = {"openai:embeddinggemma:300m": {"floor": 0.35, "duplicate": 0.93}}
    memory = fact(alice, "drink", "loves oolong tea")

    stored = MemoryEmbedding.objects.get(memory=memory)
    assert stored.model_id == "openai:embeddinggemma:300m"
    np.testing.assert_allclose(np.asarray(stored.embedding), unit(fake_vector(GEMMA_DOCUMENT + memory.text)), atol=1e-6)

    result = recall(workspace=alice.workspace, subject=alice, query="oolong tea", include_trace=True)
    assert result.fallback is None
    assert (result.trace["model"], result.trace["similarity_floor"]) == ("openai:embeddinggemma:300m", 0.35)
    assert remote.inputs[-1] == GEMMA_QUERY + "oolong tea"


@pytest.mark.django_db(transaction=True)
def test_an_unmeasured_remote_model_is_recalled_with_the_conservative_default(alice, remote, settings):
    settings.EMBEDDINGS_MODEL = "openai:bge-m3"
    fact(alice, "drink", "loves oolong tea")

    result = recall(workspace=alice.workspace, subject=alice, query="oolong tea", include_trace=True)
    assert result.trace["model"] == "openai:bge-m3"
    assert result.trace["similarity_floor"] == thresholds.UNKNOWN["floor"]


@pytest.mark.parametrize("model", ["openai:embeddinggemma", "openai:bge-m3", "openai:qwen3-embedding:0.6b"])
def test_no_quality_tier_model_has_invented_thresholds(model):
    """Not measured here (no weights can be downloaded on this machine): the conservative default
    until bench/bench_embeddings.py has measured it on a real server."""
    assert calibration(model) == thresholds.UNKNOWN


# --- bad configuration: a clear message, never a 500 ------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent.parent


def start(**env: str) -> subprocess.CompletedProcess:
    """A fresh process reading the settings with `env` (what `manage.py` would see at start-up)."""
    base = {
        "PATH": os.environ["PATH"],
        "DJANGO_SETTINGS_MODULE": "memoryadmin.settings",
        "DEBUG": "true",
        "SECRET_KEY": "settings-test-secret",
        "DATABASE_URL": "postgres://nobody@127.0.0.1:1/nothing",
    }
    code = (
        "import json; from django.conf import settings as s; print(json.dumps([s.EMBEDDINGS_MODEL, "
        "s.EMBEDDINGS_URL, s.EMBEDDINGS_QUERY_PREFIX, s.EMBEDDINGS_PASSAGE_PREFIX, s.EMBEDDINGS_CALIBRATION]))"
    )
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=base | env, capture_output=True, text=True, timeout=60
    )


def test_a_start_with_a_quality_tier_model_and_its_url_reads_the_prefixes_as_auto():
    started = start(EMBEDDINGS_MODEL="openai:embeddinggemma", EMBEDDINGS_URL="http://127.0.0.1:11434/v1")

    assert started.returncode == 0, started.stderr
    assert json.loads(started.stdout.splitlines()[-1]) == [
        "openai:embeddinggemma",
        "http://127.0.0.1:11434/v1",
        "auto",
        "auto",
        {},
    ]


@pytest.mark.parametrize(
    "env, message",
    [
        ({"EMBEDDINGS_MODEL": "openai:embeddinggemma"}, "needs EMBEDDINGS_URL"),
        ({"EMBEDDINGS_MODEL": "openai:embeddinggemma", "EMBEDDINGS_URL": "localhost:11434/v1"}, "not an http(s) URL"),
        ({"EMBEDDINGS_MODEL": "openai:", "EMBEDDINGS_URL": "http://127.0.0.1:11434/v1"}, "needs a model name"),
        ({"EMBEDDINGS_MODEL": "embeddinggemma"}, "Unknown EMBEDDINGS_MODEL 'embeddinggemma'"),
        ({"EMBEDDINGS_CALIBRATION": "{openai:bge-m3: {floor: 0.3}}"}, "EMBEDDINGS_CALIBRATION is not JSON"),
        ({"EMBEDDINGS_CALIBRATION": '{"openai:bge-m3": {"floor": "high"}}'}, "'floor' must be a number"),
        ({"EMBEDDINGS_CALIBRATION": '{"openai:bge-m3": {"flor": 0.3}}'}, "'flor'"),
        ({"EMBEDDINGS_CALIBRATION": '{"openai:bge-m3": {"floor": 1}}'}, "'floor' must be"),
        ({"EMBEDDINGS_CALIBRATION": '{"openai:bge-m3": 0.3}'}, "EMBEDDINGS_CALIBRATION"),
    ],
)
def test_a_start_with_bad_embedding_settings_stops_with_a_clear_message(env, message):
    started = start(**env)

    assert started.returncode != 0
    assert "ImproperlyConfigured" in started.stderr and message in started.stderr


def test_an_openai_model_string_without_a_name_is_a_configuration_error(settings):
    settings.EMBEDDINGS_URL = "http://127.0.0.1:9/v1"
    with pytest.raises(EmbeddingConfigurationError, match="needs a model name after 'openai:'"):
        get_embedder("openai:")
