"""Hand-written cases for the formats people really type, the evasions they use, and the numbers
that must be left alone. Each redaction case names the raw value that must not survive."""

from __future__ import annotations

import pytest

from apps.privacy import redact, redact_data
from tests.privacy.leaks import leaked

PHONES = [
    "(11) 98765-4321",
    "01.23.45.67.89",
    "+44 7700 900 123",
    "0412 345 678",
    "+91-98765 43210",
    "+852 9123 4567",
    "(212) 555-0142",
    "555-123-4567x890",
    "+41 (0)44 123 45 67",
    "021-6234 5678",
    "0755 8888 6666",
    "+886 912 345 678",
    "+65 8123 4567",
    "030 1234567",
    "+49 (0)30 1234 5678",
    "0044 20 7946 0958",
    "+1 (415) 555-0132 ext. 204",
    "010-62345678 转 8021",
    "07700 900123",
    "+33 6 12 34 56 78",
    "+61 412 345 678",
    "+7 (912) 345-67-89",
    "03-1234-5678",
    "+82 10-1234-5678",
    "139 1234 5678",
    "+86 139-1234-5678",
    "0086 13912345678",
]


@pytest.mark.parametrize("phone", PHONES)
@pytest.mark.parametrize("frame", ["我的电话是{}", "Call me on {} tomorrow.", "{}", "联系我：{}，谢谢"])
def test_it_redacts_phone_numbers_as_people_write_them(phone: str, frame: str) -> None:
    text = frame.format(phone)

    assert not leaked("phone", phone, redact(text).text), redact(text).text


@pytest.mark.parametrize(
    "card",
    [
        "630412345674",
        "6304 1234 5674",  # Maestro, 12 digits
        "213100000000001",
        "180000000000002",  # JCB 15
        "6212345678901234569",  # UnionPay 19
        "4111.1111.1111.1111",
        "4111/1111/1111/1111",
        "4111_1111_1111_1111",
        "4111,1111,1111,1111",
        "4 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1",
        "４１１１ １１１１ １１１１ １１１１",
        "4111\u200b1111\u200b1111\u200b1111",
    ],
)
def test_it_redacts_any_luhn_valid_card_number_with_any_separator(card: str) -> None:
    for text in (f"卡号{card}", f"my card is {card}", f"{card}"):
        assert not leaked("card", card, redact(text).text), redact(text).text


@pytest.mark.parametrize(
    ("value", "entity_type"),
    [
        ("110105 19900307 1239", "CN_RESIDENT_ID"),
        ("110105-19900307-1239", "CN_RESIDENT_ID"),
        ("110105900307123", "CN_RESIDENT_ID"),  # legacy 15 digits
        ("１１０１０５１９９００３０７１２３９", "CN_RESIDENT_ID"),
        ("一一〇一〇五一九九〇〇三〇七一二三九", "CN_RESIDENT_ID"),
        ("A123456(3)", "HK_ID"),
        ("G123456A", "HK_ID"),
        ("A123456789", "TW_ID"),
        ("E12345678", "CN_PASSPORT"),
        ("EA1234567", "CN_PASSPORT"),
        ("536-90-4821", "US_SSN"),
        ("QQ 12 34 56 C", "UK_NINO"),
        ("AB123456C", "UK_NINO"),
        ("DE89 3704 0044 0532 0130 00", "IBAN_CODE"),
        ("fr1420041010050500013m02606", "IBAN_CODE"),
    ],
)
def test_it_redacts_the_national_ids_people_here_type(value: str, entity_type: str) -> None:
    for text in (f"证件号{value}，请核对", f"My ID is {value}."):
        result = redact(text)
        assert not leaked("national_id", value, result.text), result.text
        assert entity_type in result.counts, result.counts


@pytest.mark.parametrize(
    "email",
    [
        "zhang.san＠qq.com",
        "zhang.san@qq．com",
        "zhang.san@qq。com",
        "张三@example.com",
        "josé.garcía@correo.es",
        "user@例子.中国",
        "müller@bücher.de",
        "ivan@пример.рф",
        "zhang.san@xn--fsqu00a.xn--fiqs8s",
    ],
)
def test_it_redacts_e_mail_with_unicode_or_full_width_parts(email: str) -> None:
    for text in (f"我的邮箱是{email}", f"mail me at {email} please", f"邮件发到 {email} 就行"):
        result = redact(text)
        assert not leaked("email", email, result.text), result.text
        assert "EMAIL_ADDRESS" in result.counts


def test_it_redacts_a_mobile_written_in_chinese_numerals() -> None:
    result = redact("我的手机号是一三八一二三四五六七八，记一下")

    assert result.text == "我的手机号是<CN_MOBILE>，记一下"


def test_placeholders_land_on_the_original_text_around_full_width_and_zero_width_characters() -> None:
    text = "电话１３８\u200b１２３４\u200b５６７８，邮箱 li＠qq．com。"

    result = redact(text)

    assert result.text == "电话<CN_MOBILE>，邮箱 <EMAIL_ADDRESS>。"
    assert [text[f.start : f.end] for f in result.findings] == ["１３８\u200b１２３４\u200b５６７８", "li＠qq．com"]


@pytest.mark.parametrize(
    "text",
    [
        "v2.3.1",
        "2026-11-30",
        "15:30",
        "¥560000",
        "A10023",
        "8812",
        "订单号 20231115 已发货",
        "部署在 10 月 30 日 15:30，版本 v2.3.1，端口 8080",
        "价格 ¥12,345.67 元，共 3 件",
        "It costs $1,299.99 and ships in 3-5 days.",
        "第 2 个",
        "42",
        "2020-2024 年",
        "比分 3:2",
        "Order #48213 was refunded.",
        "会议在 2026/11/30 下午 3 点",
        "30.11.2026 at 14:00",
        "ISBN 978-3-16-148410-0",
        "Python 3.11.7 and Django 5.2.19",
        "温度 -5 到 12 度",
        "DAU 123456，MAU 2345678",
        "转化率 12.5%",
        "9:00-17:30 营业",
        "1024MB = 1GiB",
        "在 1998 年和 2003 年",
        "run 20251130-1 finished",
        "共 1,234,567 行",
    ],
)
def test_it_leaves_numbers_that_are_not_personal_data_alone(text: str) -> None:
    assert redact(text).text == text


def test_redact_data_redacts_numbers_that_are_personal_data_and_keeps_other_numbers() -> None:
    data = {"phone": 13812345678, "card": 4111111111111111, "count": 3, "price": 12.5, "year": 2026, "ok": True}

    redacted, counts = redact_data(data)

    assert redacted == {
        "phone": "<CN_MOBILE>",
        "card": "<CN_BANK_CARD>",
        "count": 3,
        "price": 12.5,
        "year": 2026,
        "ok": True,
    }
    assert counts == {"CN_MOBILE": 1, "CN_BANK_CARD": 1}


def test_redact_data_reads_a_metadata_key_as_the_context_of_its_value() -> None:
    data = {
        "landline": 2162345678,
        "tel": "0207 946 0958",
        "WhatsApp": "4155550132",
        "order": 2162345678,
        "qty": "12 345",
    }

    redacted, counts = redact_data(data)

    assert redacted == {
        "landline": "<PHONE_NUMBER>",
        "tel": "<PHONE_NUMBER>",
        "WhatsApp": "<PHONE_NUMBER>",
        "order": 2162345678,
        "qty": "12 345",
    }
    assert counts == {"PHONE_NUMBER": 3}
