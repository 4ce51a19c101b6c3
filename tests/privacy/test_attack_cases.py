"""Cases from an attack pass on the gate (a colleague who did not write it, trying what people type
and what developers paste): numbers that are not personal data, and ways personal data slipped by."""

from __future__ import annotations

import pytest

from apps.privacy import redact
from tests.privacy.leaks import leaked


@pytest.mark.parametrize(
    "text",
    [
        "It costs 2881.28 now",
        "余额 23456.78",
        "股价 1688.88",
        "分辨率 1920 1080",
        "成绩 89 92 78 85",
        "1 2 3 4 5 6 7 8 9 10",
        "x = np.array([694, 740, 990, 991])",
        "lat 36.368224, lng 109.274083",
        "pp. 3853-10583",
        "GB/T 7988-2008",
        "型号 780-1367",
        "arXiv:1978.11648",
        "driver 500.13.49",
        "7.772.721,86 €",
        "订单号 861384305322881339",
        "运单号 8576528147763",
        "SKU 150603381834",
        "EAN 6901234567892",
        "created_at: 1644624000000",
        "微信图片_20240512183045.jpg",
        "Due 26 05 1997.",
        "会议定在2017 08 17",
        "1997-05-26T13:44:26.123456+08:00",
        "17.08.2017 00:00",
        "2017.8-2019.8",
        "5/26-5/27",
        "08/11/1998 - 11/11/1998",
        "line 9736",
        "no 58248998 found",
        "call stack depth 20023",
        "kill -9 9673",
        "WHERE id IN (1268, 1348, 5109)",
        "error E19745325",
        "型号 AB614844C",
        "yarn add lodash@4.17.21",
        "npm i @types/node@20.11.5",
        "uuid e023756a-f057-44e3-8fd9-df4f78e1815d",
        "sha 56408098033243019af1f536d88cf233",
        "ts 1793843508887",
        "跑了 12.5 公里，用时 58:21",
        "价格从 1,299 降到 999",
        "第 3 季度营收 1.2 亿",
        "Q3 revenue was 12,345,678 USD",
    ],
)
def test_it_leaves_what_developers_and_everyday_chat_contain_alone(text: str) -> None:
    assert redact(text).text == text


@pytest.mark.parametrize(
    ("kind", "value", "text"),
    [
        ("phone", "8613812345678", "加我 https://wa.me/8613812345678"),
        ("phone", "+447700900123", "ping me on wa.me/+447700900123"),
        ("phone", "+447700900123", "https://t.me/+447700900123"),
        ("phone", "19195784785", "有事打1919578\n4785"),
        ("phone", "15074610688", "我的手机号是150\n7461\n0688"),
        ("phone", "+44 7700 900123", "+44 7700\n900123"),
        ("card", "6217000012345678", "卡号 6217 0000 1234 5678"),
        ("card", "6222021234567890123", "银行卡号：6222021234567890123"),
        ("card", "5500000000000005", "credit card 5500 0000 0000 0005"),
        ("email", "zhangsan@qq.com", "我的邮箱 zhangsan @ qq.com"),
        ("email", "john.smith@gmail.com", "john.smith [at] gmail [dot] com"),
        ("email", "john.smith@gmail.com", "mail john.smith(at)gmail.com"),
        ("email", "zhangsan@qq.com", "邮箱 zhangsan艾特qq点com"),
        ("phone", "19965321479", "手机 一九九六五三两一四七九"),
        ("phone", "13812345678", "电话 一三八 一二三四 五六七八"),
        ("phone", "13820148366", "电话 138、2014、8366"),
        ("national_id", "A123456(3)", "身份证 A123456-3"),
        ("national_id", "A123456789", "ID: A 123456789"),
        ("national_id", "E12345678", "护照号E-12345678"),
        ("national_id", "510107200501053829", "身份证 510107 200501 053829"),
        ("national_id", "884081501", "my social is 884081501"),
        ("phone", "12345678", "QQ 12345678"),
    ],
)
def test_it_redacts_what_the_attack_pass_slipped_by(kind: str, value: str, text: str) -> None:
    assert not leaked(kind, value, redact(text).text), redact(text).text
