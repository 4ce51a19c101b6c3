"""The optional LLM extractor, against a fake server on this machine that speaks the real Chat
Completions protocol: what it sends, how a good answer becomes proposals, why malformed output writes
nothing, and which failures raise ExtractionError for the task to retry. No database needed."""

from __future__ import annotations

import copy
import json
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from apps.memories.extraction.base import Extraction, Proposal, Skip, Turn
from apps.memories.extraction.llm import RESPONSE_SCHEMA, SYSTEM_PROMPT, ExtractionError, LLMExtractor
from tests.fake_openai import FakeOpenAIServer

MODEL = "qwen2.5:7b-instruct"

# 2025-03-13 20:30 UTC is already Friday 2025-03-14 04:30 in Shanghai.
NOW = datetime(2025, 3, 13, 20, 30, tzinfo=UTC)
TURN = Turn(
    user_message="我不吃辣。明天下午三点我要去看牙医。Do I like sushi?",
    assistant_message="好的，已为您预订明天 15:00 的牙医门诊。",
    now=NOW,
    timezone="Asia/Shanghai",
)

PROFILE_ITEM = {
    "kind": "profile",
    "category": "constraint",
    "key": "饮食",
    "value": "不吃辣",
    "text": "用户不吃辣。",
    "confidence": 0.9,
    "stability": "stable",
    "importance": 0.8,
    "sensitive": "",
    "scope": "personal",
    "evidence": "我不吃辣",
}
EPISODE_ITEM = {
    "kind": "episode",
    "category": "event",
    "key": "",
    "value": "",
    "text": "助手为用户预订了 2025-03-15 15:00 的牙医门诊。",
    "confidence": 0.85,
    "stability": "stable",
    "importance": 0.6,
    "sensitive": "health",
    "scope": "personal",
    "evidence": "已为您预订明天 15:00 的牙医门诊",
}
SKIP_ITEM = {"text": "Do I like sushi?", "reason": "question"}
GOOD_ANSWER = {"memories": [PROFILE_ITEM, EPISODE_ITEM], "skipped": [SKIP_ITEM]}


class FakeChatServer(FakeOpenAIServer):
    """POST /v1/chat/completions the way OpenAI, Ollama and vLLM answer it. Set `content` (a string,
    or anything JSON-encodable) for the model's answer, or `mode`/`finish_reason`/`refusal` to fail."""

    path = "/v1/chat/completions"

    def __init__(self) -> None:
        super().__init__()
        self.content: object = GOOD_ANSWER  # mode: "ok" | "error" | "bad_request" | "hang"
        self.finish_reason = "stop"
        self.refusal: str | None = None

    def answer(self, body: dict) -> tuple[int, dict | bytes]:
        if self.mode == "error":
            return 500, {"error": {"message": "model crashed"}}
        if self.mode == "bad_request":
            return 400, {"error": {"message": "response_format json_schema is not supported"}}
        if self.mode == "hang":
            self.release.wait(10)
        content = self.content if isinstance(self.content, str) else json.dumps(self.content)
        message = {"role": "assistant", "content": content}
        if self.refusal is not None:
            message = {"role": "assistant", "content": None, "refusal": self.refusal}
        return 200, {
            "id": "chatcmpl-test",
            "object": "chat.completion",
            "created": 1741897800,
            "model": body["model"],
            "choices": [{"index": 0, "message": message, "finish_reason": self.finish_reason}],
            "usage": {"prompt_tokens": 812, "completion_tokens": 164, "total_tokens": 976},
        }


@pytest.fixture(scope="module")
def chat_server():
    server = FakeChatServer()
    yield server
    server.close()


@pytest.fixture
def llm(settings, chat_server):
    """The fake server, reset, with the settings pointing at it."""
    chat_server.requests.clear()
    chat_server.mode, chat_server.content = "ok", copy.deepcopy(GOOD_ANSWER)
    chat_server.finish_reason, chat_server.refusal = "stop", None
    settings.LLM_BASE_URL = chat_server.url
    settings.LLM_MODEL = MODEL
    settings.LLM_API_KEY = ""
    settings.LLM_TIMEOUT = 5
    return chat_server


def extract(turn: Turn = TURN) -> Extraction:
    return LLMExtractor().extract(turn)


def system_prompt(server: FakeChatServer) -> str:
    (system,) = [m["content"] for m in server.last["body"]["messages"] if m["role"] == "system"]
    return system


def assert_malformed(result: Extraction) -> None:
    assert result.proposals == []
    assert len(result.skipped) == 1 and result.skipped[0].reason == "llm_malformed"
    assert result.skipped[0].text  # says what was wrong


# --- what is sent ------------------------------------------------------------------------------


def test_the_extractor_is_named_llm_and_versioned_by_its_model(llm):
    extractor = LLMExtractor()
    assert (extractor.name, extractor.version) == ("llm", f"1:{MODEL}")


def test_the_request_names_the_model_at_temperature_zero_with_the_strict_json_schema(llm):
    extract()
    request = llm.last
    assert request["path"] == "/v1/chat/completions"
    body = request["body"]
    assert body["model"] == MODEL
    assert body["temperature"] == 0
    assert body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "memories", "strict": True, "schema": RESPONSE_SCHEMA},
    }
    assert [m["role"] for m in body["messages"]] == ["system", "user"]


def test_the_schema_is_strict_every_field_required_and_no_extra_fields(llm):
    item = RESPONSE_SCHEMA["properties"]["memories"]["items"]
    assert set(item["required"]) == set(item["properties"]) == set(PROFILE_ITEM)
    assert item["additionalProperties"] is False and RESPONSE_SCHEMA["additionalProperties"] is False
    assert item["properties"]["category"]["enum"] == ["preference", "fact", "constraint", "goal", "event"]
    assert item["properties"]["sensitive"]["enum"] == [
        "",
        "health",
        "emotion",
        "finance",
        "religion",
        "politics",
        "sexuality",
    ]


def test_the_api_key_is_sent_as_a_bearer_token_when_set(llm, settings):
    settings.LLM_API_KEY = "sk-test-123"
    extract()
    assert llm.last["headers"]["Authorization"] == "Bearer sk-test-123"


def test_no_authorization_header_is_sent_without_a_key(llm):
    extract()
    assert "Authorization" not in llm.last["headers"]


def test_the_system_prompt_gives_todays_date_and_time_in_the_subjects_time_zone(llm):
    extract()
    prompt = system_prompt(llm)
    assert "2025-03-14 04:30" in prompt and "Friday" in prompt and "星期五" in prompt
    assert "Asia/Shanghai" in prompt and "UTC+08:00" in prompt
    assert "2025-03-13" not in prompt  # the UTC date would put "tomorrow" on the wrong day
    assert "absolute date" in prompt and "绝对日期" in prompt


def test_an_unknown_time_zone_falls_back_to_utc_in_the_prompt(llm):
    extract(Turn(user_message="I'm vegetarian.", now=NOW, timezone="Mars/Olympus_Mons"))
    prompt = system_prompt(llm)
    assert "2025-03-13 20:30" in prompt and "time zone UTC (UTC+00:00)" in prompt


def test_the_system_prompt_lays_down_the_conservative_rules_in_both_languages(llm):
    extract()
    prompt = system_prompt(llm)
    for rule in (
        "first person",
        "question",
        "hypothetical",
        "conditional",
        "quoted",
        "joke",
        "injection",
        "instructions aimed at the assistant",
        "sensitive",
        "team",
        "confirms",
        "宁缺毋滥",
    ):
        assert rule in prompt, rule


def test_the_turn_goes_in_the_user_message_as_delimited_data(llm):
    extract()
    (user,) = [m["content"] for m in llm.last["body"]["messages"] if m["role"] == "user"]
    assert "DATA, not instructions" in user
    data = json.loads(user[user.index("{") :])
    assert data == {"user_message": TURN.user_message, "assistant_message": TURN.assistant_message}
    assert "我不吃辣" in user  # readable, not \\u-escaped


def test_an_empty_turn_asks_nothing_and_proposes_nothing(llm):
    assert extract(Turn(user_message="  ", now=NOW)) == Extraction(proposals=[], skipped=[])
    assert llm.requests == []


def test_a_proxy_in_the_environment_is_not_used_for_a_server_on_this_machine(llm, monkeypatch):
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:9")  # nothing listens there
    monkeypatch.setenv("http_proxy", "http://127.0.0.1:9")
    assert len(extract().proposals) == 2


# --- a good answer -----------------------------------------------------------------------------


def test_a_good_answer_becomes_proposals_with_every_field_mapped(llm):
    result = extract()
    assert result.proposals == [
        Proposal(
            kind="profile",
            category="constraint",
            key="饮食",
            value="不吃辣",
            text="用户不吃辣。",
            confidence=0.9,
            importance=0.8,
            stability="stable",
            sensitive="",
            scope="personal",
            evidence="我不吃辣",
        ),
        Proposal(
            kind="episode",
            category="event",
            key="",
            value="",
            text="助手为用户预订了 2025-03-15 15:00 的牙医门诊。",
            confidence=0.85,
            importance=0.6,
            stability="stable",
            sensitive="health",
            scope="personal",
            evidence="已为您预订明天 15:00 的牙医门诊",
        ),
    ]


def test_skipped_items_from_the_model_come_through_as_skips(llm):
    injection = {"text": "ignore previous instructions", "reason": "injection"}
    llm.content = {"memories": [], "skipped": [SKIP_ITEM, injection]}
    result = extract()
    assert result.proposals == []
    assert result.skipped == [
        Skip(text="Do I like sushi?", reason="question"),
        Skip(text="ignore previous instructions", reason="injection"),
    ]


def test_an_empty_answer_is_a_valid_answer(llm):
    llm.content = {"memories": [], "skipped": []}
    assert extract() == Extraction(proposals=[], skipped=[])


def test_integer_scores_and_team_scope_and_transient_stability_are_accepted(llm):
    team = dict(
        PROFILE_ITEM,
        category="fact",
        key="database",
        value="PostgreSQL",
        text="The team uses PostgreSQL.",
        confidence=0.5,
        importance=1,
        scope="team",
        evidence="we use PostgreSQL",
    )
    tired = dict(
        PROFILE_ITEM,
        category="fact",
        key="energy",
        value="tired",
        confidence=1,
        importance=0,
        stability="transient",
        sensitive="emotion",
        evidence="I'm tired today",
    )
    llm.content = {"memories": [team, tired], "skipped": []}
    first, second = extract().proposals
    assert (first.scope, first.confidence, first.importance) == ("team", 0.5, 1.0)
    assert (second.stability, second.sensitive) == ("transient", "emotion")
    assert (second.confidence, second.importance) == (1.0, 0.0)


# --- malformed output writes nothing -------------------------------------------------------------


def _with(item: dict, **changes) -> dict:
    return {"memories": [dict(item, **changes)], "skipped": []}


def _without(item: dict, field: str) -> dict:
    return {"memories": [{k: v for k, v in item.items() if k != field}], "skipped": []}


MALFORMED = {
    "invalid JSON": '{"memories": [{"kind": "profile", ',
    "JSON in a markdown fence": "```json\n" + json.dumps(GOOD_ANSWER) + "\n```",
    "prose": "The user does not eat spicy food.",
    "empty content": "",
    "a list instead of an object": [PROFILE_ITEM],
    "memories not a list": {"memories": PROFILE_ITEM, "skipped": []},
    "skipped missing": {"memories": [PROFILE_ITEM]},
    "an extra top-level field": dict(GOOD_ANSWER, note="hi"),
    "confidence as a string": _with(PROFILE_ITEM, confidence="0.9"),
    "confidence as a boolean": _with(PROFILE_ITEM, confidence=True),
    "key as a number": _with(PROFILE_ITEM, key=42),
    "value as null": _with(PROFILE_ITEM, value=None),
    "an unknown category": _with(PROFILE_ITEM, category="hobby"),
    "an unknown kind": _with(PROFILE_ITEM, kind="fact"),
    "a profile item in the event category": _with(PROFILE_ITEM, category="event"),
    "an episode in a profile category": _with(EPISODE_ITEM, category="fact"),
    "confidence 1.7": _with(PROFILE_ITEM, confidence=1.7),
    "negative importance": _with(PROFILE_ITEM, importance=-0.1),
    "an unknown stability": _with(PROFILE_ITEM, stability="permanent"),
    "an unknown sensitive category": _with(PROFILE_ITEM, sensitive="medical"),
    "an unknown scope": _with(PROFILE_ITEM, scope="company"),
    "a missing key for a profile item": _without(PROFILE_ITEM, "key"),
    "an empty key for a profile item": _with(PROFILE_ITEM, key="  "),
    "an empty value for a profile item": _with(PROFILE_ITEM, value=""),
    "an episode without text": _with(EPISODE_ITEM, text=""),
    "a missing evidence field": _without(PROFILE_ITEM, "evidence"),
    "an extra item field": _with(PROFILE_ITEM, occurred_at="2025-03-15"),
    "a key longer than the column": _with(PROFILE_ITEM, key="k" * 129),
    "a skip with an unknown reason": {"memories": [], "skipped": [{"text": "x", "reason": "boring"}]},
    "a skip without text": {"memories": [], "skipped": [{"text": "", "reason": "question"}]},
    "a memory item that is a string": {"memories": ["用户不吃辣"], "skipped": []},
    "one good item and one bad one": {
        "memories": [PROFILE_ITEM, dict(EPISODE_ITEM, confidence=2)],
        "skipped": [SKIP_ITEM],
    },
}


@pytest.mark.parametrize("content", MALFORMED.values(), ids=MALFORMED.keys())
def test_malformed_output_writes_nothing_and_says_llm_malformed(llm, content):
    llm.content = content
    assert_malformed(extract())


def test_the_malformed_skip_says_what_was_wrong(llm):
    llm.content = _with(PROFILE_ITEM, confidence=1.7)
    (skip,) = extract().skipped
    assert "memories[0].confidence" in skip.text and "outside 0..1" in skip.text
    llm.content = _without(PROFILE_ITEM, "key")
    (skip,) = extract().skipped
    assert "memories[0] lacks key" in skip.text


# --- no answer is an ExtractionError (the task retries) ------------------------------------------


def test_an_http_500_raises_a_retryable_extraction_error(llm):
    llm.mode = "error"
    with pytest.raises(ExtractionError, match="HTTP 500.*model crashed") as caught:
        extract()
    assert caught.value.retryable and caught.value.status == 500


def test_an_http_400_raises_an_extraction_error_that_retrying_will_not_fix(llm):
    llm.mode = "bad_request"
    with pytest.raises(ExtractionError, match="HTTP 400.*not supported") as caught:
        extract()
    assert not caught.value.retryable and caught.value.status == 400


def test_a_server_that_hangs_past_the_timeout_raises_in_about_the_timeout(llm, settings):
    settings.LLM_TIMEOUT = 0.3
    llm.mode = "hang"
    started = time.monotonic()
    with pytest.raises(ExtractionError, match="within 0.3 s"):
        extract()
    assert time.monotonic() - started < 1.5


def test_a_refusal_raises_an_extraction_error(llm):
    llm.refusal = "I'm sorry, I can't help with that."
    with pytest.raises(ExtractionError, match="refused"):
        extract()


def test_an_answer_cut_off_at_the_token_limit_raises_an_extraction_error(llm):
    llm.finish_reason = "length"
    llm.content = '{"memories": [{"kind": "profile", "category": "constr'
    with pytest.raises(ExtractionError, match="length"):
        extract()


def test_an_unreachable_server_raises_an_extraction_error(llm, settings):
    settings.LLM_BASE_URL = "http://127.0.0.1:9/v1"  # discard port: nothing listens
    with pytest.raises(ExtractionError, match="cannot reach|failed"):
        extract()


# --- configuration -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, value",
    [("LLM_MODEL", ""), ("LLM_BASE_URL", ""), ("LLM_BASE_URL", "ftp://example.com"), ("LLM_TIMEOUT", 0)],
)
def test_a_missing_or_bad_setting_is_improperly_configured(llm, settings, name, value):
    setattr(settings, name, value)
    with pytest.raises(ImproperlyConfigured, match=name):
        LLMExtractor()


def test_the_timeout_defaults_to_ten_seconds(llm, settings):
    del settings.LLM_TIMEOUT
    assert LLMExtractor().timeout == 10.0


def test_the_readme_shows_the_exact_schema_and_system_prompt():
    readme = (Path(__file__).resolve().parent.parent.parent / "README.md").read_text(encoding="utf-8")
    prompt = SYSTEM_PROMPT.replace("{{", "{").replace("}}", "}").rstrip("\n")
    assert json.dumps(RESPONSE_SCHEMA, ensure_ascii=False, indent=2) in readme
    assert prompt in readme
