"""The redaction gate: personal data in mixed Chinese/English text becomes typed placeholders.

No database: these are plain functions. The engines are shared by the whole test process.
"""

from __future__ import annotations

import socket
import threading

import pytest
import tldextract

import apps.privacy
from apps.privacy import PIIRejected, Redacted, get_engines, redact, redact_data, redaction
from apps.privacy.recognizers import offline_tld_extractor

MIXED = "我的手机是13812345678，邮箱 zhang.san@qq.com，身份证 11010519491231002X，卡号 6222020200112233446"
MIXED_RAW_VALUES = ["13812345678", "zhang.san@qq.com", "11010519491231002X", "6222020200112233446"]

VALID_ID = "11010519491231002X"  # correct GB 11643-1999 check character
MISTYPED_ID = "110105194912310021"  # same number, wrong check character
ID_THAT_PASSES_LUHN = "440306199003071056"  # valid ID that is also a Luhn-valid 18-digit number


def types(result: Redacted) -> list[str]:
    return [f.entity_type for f in result.findings]


# --- mixed Chinese / English ---------------------------------------------------------------------


def test_it_redacts_all_four_chinese_identifiers_in_one_sentence() -> None:
    result = redact(MIXED)

    for raw in MIXED_RAW_VALUES:
        assert raw not in result.text
    for word in ["我的手机是", "邮箱", "身份证", "卡号"]:
        assert word in result.text
    assert types(result) == ["CN_MOBILE", "EMAIL_ADDRESS", "CN_RESIDENT_ID", "CN_BANK_CARD"]
    assert result.text == "我的手机是<CN_MOBILE>，邮箱 <EMAIL_ADDRESS>，身份证 <CN_RESIDENT_ID>，卡号 <CN_BANK_CARD>"


def test_findings_point_at_spans_of_the_original_text_and_never_carry_the_value() -> None:
    result = redact(MIXED)

    assert [MIXED[f.start : f.end] for f in result.findings] == MIXED_RAW_VALUES
    for raw in MIXED_RAW_VALUES:
        assert raw not in repr(result.findings)
    assert result.counts == {"CN_MOBILE": 1, "EMAIL_ADDRESS": 1, "CN_RESIDENT_ID": 1, "CN_BANK_CARD": 1}


def test_it_redacts_a_mobile_next_to_chinese_text_with_a_typed_placeholder() -> None:
    assert redact("手机13812345678谢谢").text == "手机<CN_MOBILE>谢谢"


def test_it_redacts_a_card_number_glued_to_chinese_text() -> None:
    result = redact("银行卡4111111111111111")

    assert result.text == "银行卡<CN_BANK_CARD>"


def test_it_redacts_only_the_email_when_it_is_glued_to_chinese_text() -> None:
    result = redact("邮箱是zhang.san@qq.com")

    assert result.text == "邮箱是<EMAIL_ADDRESS>"
    assert types(result) == ["EMAIL_ADDRESS"]


@pytest.mark.parametrize(
    "text", ["+86 139-1234-5678", "138 1234 5678", "0086 13912345678", "电话：+86 139-1234-5678。"]
)
def test_it_redacts_a_mobile_with_a_country_prefix_or_separators(text: str) -> None:
    result = redact(text)

    assert types(result) == ["CN_MOBILE"]
    assert not any(ch.isdigit() for ch in result.text)


def test_it_does_not_tag_a_mobile_inside_a_longer_digit_run() -> None:
    assert redact("编号213812345678").findings == ()
    assert redact("流水12345613812345678901号").findings == ()


def test_it_still_redacts_an_id_with_a_wrong_check_digit_but_scores_it_lower() -> None:
    valid = redact(f"身份证{VALID_ID}")
    mistyped = redact(f"身份证{MISTYPED_ID}")

    assert valid.text == mistyped.text == "身份证<CN_RESIDENT_ID>"
    assert mistyped.findings[0].score < valid.findings[0].score


def test_it_ignores_an_id_shaped_number_whose_birth_date_is_not_a_real_date() -> None:
    assert redact("编号 110105194902310021").findings == ()  # 31 February


def test_an_id_that_also_passes_luhn_is_a_resident_id_not_a_bank_card() -> None:
    result = redact(f"证件 {ID_THAT_PASSES_LUHN}")

    assert types(result) == ["CN_RESIDENT_ID"]


def test_one_span_gets_one_finding_even_when_several_recognizers_match_it() -> None:
    result = redact("卡号 6222020200112233446 和 4111111111111111")

    assert types(result) == ["CN_BANK_CARD", "CN_BANK_CARD"]
    assert result.text == "卡号 <CN_BANK_CARD> 和 <CN_BANK_CARD>"


def test_it_redacts_a_card_number_written_in_groups() -> None:
    assert redact("卡 6222 0202 0011 2233 446 ok").text == "卡 <CN_BANK_CARD> ok"


def test_a_mobile_inside_an_email_is_redacted_as_the_email() -> None:
    assert redact("邮箱13812345678@163.com").text == "邮箱<EMAIL_ADDRESS>"


# --- English ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "raw", "entity_type"),
    [
        ("Mail john.doe@example.com today", "john.doe@example.com", "EMAIL_ADDRESS"),
        ("Call me at (415) 555-0132.", "(415) 555-0132", "PHONE_NUMBER"),
        ("Amex 3782 822463 10005 expires soon", "3782 822463 10005", "CREDIT_CARD"),
        ("Visa 4111 1111 1111 1111 expires soon", "4111 1111 1111 1111", "CN_BANK_CARD"),
        ("Wire it to GB82 WEST 1234 5698 7654 32 please", "GB82 WEST 1234 5698 7654 32", "IBAN_CODE"),
        ("The server is at 192.168.10.20 now", "192.168.10.20", "IP_ADDRESS"),
        ("My SSN is 536-90-4821.", "536-90-4821", "US_SSN"),
        ("Send BTC to 1BoatSLRHtKNngkdXEeobR76b53LETtpyT", "1BoatSLRHtKNngkdXEeobR76b53LETtpyT", "CRYPTO"),
    ],
)
def test_it_redacts_english_personal_data(text: str, raw: str, entity_type: str) -> None:
    result = redact(text)

    assert raw not in result.text
    assert types(result) == [entity_type]
    assert result.text == text.replace(raw, f"<{entity_type}>")


# --- ordinary text ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "我2023年买了3台服务器",
        "订单号 20231115 已发货",
        "We deployed v2.3.1 on port 8080",
        "I have 2 cats and 13 fish",
        "价格 ¥12,345.67 元，时间戳 1700000000123",
        "",
        "   \n\t ",
    ],
)
def test_it_leaves_ordinary_text_exactly_alone(text: str) -> None:
    result = redact(text)

    assert result.text == text
    assert result.findings == ()
    assert result.counts == {}


# --- settings --------------------------------------------------------------------------------------


def test_it_rejects_an_entity_type_configured_to_be_rejected(settings) -> None:
    settings.PII_REJECT_ENTITIES = ["CN_RESIDENT_ID", "US_SSN"]

    with pytest.raises(PIIRejected) as error:
        redact(MIXED)

    assert error.value.entity_types == ["CN_RESIDENT_ID"]
    assert "CN_RESIDENT_ID" in str(error.value)
    for raw in MIXED_RAW_VALUES:
        assert raw not in str(error.value)


def test_it_redacts_other_types_normally_when_rejection_is_configured(settings) -> None:
    settings.PII_REJECT_ENTITIES = ["CN_RESIDENT_ID"]

    assert redact("手机13812345678").text == "手机<CN_MOBILE>"


def test_it_ignores_findings_below_the_score_threshold(settings) -> None:
    settings.PII_SCORE_THRESHOLD = 0.6

    assert redact(f"身份证{MISTYPED_ID}").findings == ()  # scores 0.5
    assert redact(f"身份证{VALID_ID}").text == "身份证<CN_RESIDENT_ID>"  # scores 0.95


# --- redact_data -----------------------------------------------------------------------------------


def test_redact_data_walks_nested_dicts_and_lists_and_merges_counts() -> None:
    data = {
        "name": "张三",
        "contacts": ["13812345678", {"email": "zhang.san@qq.com", "backup": "13912345678"}],
        "zhang.san@qq.com": "key is an email",
        "age": 30,
        "score": 4.5,
        "active": True,
        "note": None,
    }

    new_data, counts = redact_data(data)

    assert new_data == {
        "name": "张三",
        "contacts": ["<CN_MOBILE>", {"email": "<EMAIL_ADDRESS>", "backup": "<CN_MOBILE>"}],
        "<EMAIL_ADDRESS>": "key is an email",
        "age": 30,
        "score": 4.5,
        "active": True,
        "note": None,
    }
    assert counts == {"CN_MOBILE": 2, "EMAIL_ADDRESS": 2}
    assert data["contacts"][0] == "13812345678"  # the input is not modified


def test_redact_data_keeps_keys_apart_when_they_redact_to_the_same_text() -> None:
    new_data, counts = redact_data({"a@example.com": 1, "b@example.com": 2})

    assert new_data == {"<EMAIL_ADDRESS>": 1, "<EMAIL_ADDRESS>#2": 2}
    assert counts == {"EMAIL_ADDRESS": 2}


def test_redact_data_returns_scalars_unchanged() -> None:
    assert redact_data("no pii here") == ("no pii here", {})
    assert redact_data(None) == (None, {})
    assert redact_data([1, 2.5, False]) == ([1, 2.5, False], {})


def test_redact_data_rejects_naming_every_rejected_type_found_anywhere(settings) -> None:
    settings.PII_REJECT_ENTITIES = ["CN_RESIDENT_ID", "EMAIL_ADDRESS"]

    with pytest.raises(PIIRejected) as error:
        redact_data({"a": [f"id {VALID_ID}"], "b": {"c": "mail zhang.san@qq.com"}})

    assert error.value.entity_types == ["CN_RESIDENT_ID", "EMAIL_ADDRESS"]
    assert VALID_ID not in str(error.value)


def test_redact_data_refuses_values_that_are_not_json_like() -> None:
    with pytest.raises(TypeError):
        redact_data({"when": object()})


# --- engines -----------------------------------------------------------------------------------------


def test_the_engines_are_built_once_per_process() -> None:
    assert get_engines() is get_engines()


def test_by_default_no_nlp_model_is_loaded() -> None:
    analyzer, _ = get_engines()

    assert type(analyzer.nlp_engine).__name__ == "NoOpNlpEngine"
    assert "PERSON" not in analyzer.get_supported_entities("en")


def test_concurrent_first_calls_build_the_engines_once(monkeypatch) -> None:
    builds: list[int] = []
    sentinel = (object(), object())

    def slow_build():
        builds.append(1)
        threading.Event().wait(0.05)  # widen the race window
        return sentinel

    monkeypatch.setattr(redaction, "_engines", None)
    monkeypatch.setattr(redaction, "_build_engines", slow_build)
    barrier = threading.Barrier(8)
    seen: list[object] = []

    def first_call() -> None:
        barrier.wait()
        seen.append(get_engines())

    threads = [threading.Thread(target=first_call) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert len(builds) == 1
    assert len(seen) == 8 and all(engines is sentinel for engines in seen)


def test_the_package_re_exports_the_public_interface() -> None:
    assert apps.privacy.redact is redaction.redact
    assert apps.privacy.PIIRejected is redaction.PIIRejected


# --- no network ---------------------------------------------------------------------------------------


@pytest.fixture
def network_attempts(monkeypatch) -> list[str]:
    """Record (and refuse) every DNS lookup and socket connection."""
    attempts: list[str] = []

    def refuse(name):
        def call(*args, **kwargs):
            attempts.append(name)
            raise OSError(f"network disabled in tests ({name})")

        return call

    monkeypatch.setattr(socket, "getaddrinfo", refuse("getaddrinfo"))
    monkeypatch.setattr(socket, "create_connection", refuse("create_connection"))
    monkeypatch.setattr(socket.socket, "connect", refuse("connect"))
    return attempts


def test_the_network_guard_catches_tldextracts_default_download(network_attempts) -> None:
    """Control for the next tests: a stock extractor without a cache does try to download."""
    tldextract.TLDExtract(cache_dir=None)("zhang.san@qq.com")

    assert network_attempts


def test_tld_lookups_use_the_bundled_suffix_list_without_network(network_attempts) -> None:
    assert offline_tld_extractor()("zhang.san@qq.com").fqdn == "qq.com"
    assert offline_tld_extractor()("someone@example.invalidtld").fqdn == ""
    assert network_attempts == []


def test_building_the_engines_and_redacting_an_email_needs_no_network(network_attempts, monkeypatch) -> None:
    monkeypatch.setattr(redaction, "_engines", None)  # build fresh, restored afterwards

    assert redact("邮箱是zhang.san@qq.com").text == "邮箱是<EMAIL_ADDRESS>"
    assert network_attempts == []


# --- optional NER model ------------------------------------------------------------------------------


def test_a_missing_ner_model_is_a_clear_configuration_error_not_a_download(
    settings, monkeypatch, network_attempts
) -> None:
    from django.core.exceptions import ImproperlyConfigured

    monkeypatch.setattr(redaction, "_engines", None)
    settings.PII_NER_MODEL = "xx_model_that_is_not_installed"

    with pytest.raises(ImproperlyConfigured, match="xx_model_that_is_not_installed"):
        get_engines()
    assert network_attempts == []


def test_a_configured_spacy_model_is_loaded_and_the_patterns_still_apply(settings, monkeypatch, tmp_path) -> None:
    """A blank spaCy pipeline saved to disk stands in for a real model (none is installed)."""
    import spacy

    spacy.blank("en").to_disk(tmp_path / "blank_en")
    monkeypatch.setattr(redaction, "_engines", None)
    settings.PII_NER_MODEL = str(tmp_path / "blank_en")

    analyzer, _ = get_engines()

    assert type(analyzer.nlp_engine).__name__ == "SpacyNlpEngine"
    assert {"PERSON", "LOCATION"} <= set(analyzer.get_supported_entities("en"))
    assert (
        redact(MIXED).text
        == "我的手机是<CN_MOBILE>，邮箱 <EMAIL_ADDRESS>，身份证 <CN_RESIDENT_ID>，卡号 <CN_BANK_CARD>"
    )
