"""Generate the redaction corpora in tests/data/pii/ from a fixed seed.

    .venv/bin/python bench/make_pii_corpus.py [--seed 12] [--out tests/data/pii]

Two files, one JSON object a line:

- `leaks.jsonl` — personal data embedded in Chinese, English and mixed sentences:
  {"kind": "phone|email|card|iban|national_id", "value": ..., "text": ..., "lang": ..., "source": ...}.
  Values come from Faker (many locales), from `phonenumbers.example_number_for_type` for every region
  and type (mobile, fixed line) in E.164, international and national formats, from our own
  generators for the identifiers Faker does not make (legacy 15-digit resident IDs, Hong Kong IDs,
  Chinese passports, Luhn-valid cards of any prefix), and the same values again as people evade a
  filter: full-width digits, zero-width characters, a space after every digit, odd separators,
  Chinese numerals, full-width or ideographic e-mail punctuation.
- `clean.jsonl` — sentences without personal data: versions, dates, times, amounts, order numbers,
  ports, percentages, years, sizes and short numeric answers, {"kind": ..., "text": ..., "lang": ...}.

The test suite reads the committed files (no Faker needed at test time); `bench/eval_redaction.py`
calls `build()` with another seed to report figures on values nobody has looked at.
"""

from __future__ import annotations

import argparse
import json
import random
import string
from pathlib import Path

import phonenumbers
from faker import Faker
from phonenumbers import PhoneNumberFormat, PhoneNumberType

LOCALES = (
    "zh_CN zh_TW en_US en_GB en_AU en_IN en_CA en_NZ fr_FR fr_CH de_DE de_AT es_ES es_MX pt_BR pt_PT "
    "it_IT nl_NL nl_BE ja_JP ko_KR ru_RU pl_PL tr_TR id_ID vi_VN th_TH sv_SE da_DK no_NO cs_CZ fi_FI "
    "el_GR ro_RO uk_UA he_IL"
).split()
# Countries whose banks issue IBANs, among the locales above (Faker's iban() elsewhere is fake).
IBAN_LOCALES = (
    "en_GB fr_FR fr_CH de_DE de_AT es_ES pt_PT it_IT nl_NL nl_BE pl_PL "
    "tr_TR sv_SE da_DK no_NO cs_CZ fi_FI el_GR ro_RO uk_UA"
).split()

# Templates: {v} is the value. The phone templates name the number for what it is, in the ways
# people do; the neutral ones carry only international numbers (with "+").
PHONE = {
    "zh": [
        "我的手机号是{v}，有事打我。",
        "电话：{v}",
        "联系方式 {v}（工作日）",
        "有问题请拨打{v}",
        "他的微信就是手机号{v}",
        "办公室座机 {v}，转前台也行。",
        "客服热线{v}",
        "把号码{v}存一下",
        "紧急联系人电话{v}",
        "加我WhatsApp {v}",
    ],
    "en": [
        "Call me at {v} after 6pm.",
        "My phone number is {v}.",
        "You can reach her on {v}.",
        "Tel: {v}",
        "Text me at {v} if the flight is late.",
        "Office line {v}, ask for Sam.",
        "Mobile {v} (WhatsApp too)",
        "His contact number: {v}",
        "Please phone {v} to reschedule.",
        "Fax {v}",
    ],
    "mixed": [
        "我的 phone 是 {v}",
        "call 我 {v} 吧",
        "联系 Anna：{v}",
        "my mobile 号码 {v}，谢谢",
        "WhatsApp 上找我 {v}",
    ],
}
PHONE_NEUTRAL = {
    "zh": ["记一下：{v}", "{v} 这个是我的", "新号码 {v}"],
    "en": ["Noted: {v}", "That's {v}, the new one.", "It's {v}."],
    "mixed": ["new one: {v} 记得更新", "{v} 是 Tom 的"],
}
EMAIL = {
    "zh": ["我的邮箱是{v}", "邮件发到{v}就行", "请抄送给 {v} 谢谢", "联系邮箱：{v}"],
    "en": ["Email me at {v}.", "My address is {v}, not the old one.", "Send the invoice to {v}", "cc {v} please"],
    "mixed": ["发 email 到 {v}", "我的 mail 是{v}", "reply 给 {v} 就好"],
}
CARD = {
    "zh": ["我的银行卡号{v}，帮我查下余额", "卡号：{v}", "用尾号那张卡 {v} 付款", "信用卡{v}被冻结了"],
    "en": ["My card number is {v}.", "Charge it to {v}", "The card {v} was declined.", "Use card {v} for the deposit."],
    "mixed": ["我的 card 是 {v}", "用 Visa {v} 付", "refund 到卡 {v}"],
}
IBAN = {
    "zh": ["我的银行账号（IBAN）是{v}", "请汇款到 {v}", "收款账户：{v}"],
    "en": ["My IBAN is {v}.", "Please wire it to {v}", "Account: {v}"],
    "mixed": ["转账到 IBAN {v} 就行", "我的 account 是 {v}"],
}
NATIONAL_ID = {
    "zh": ["我的身份证号是{v}", "证件号码：{v}", "身份证{v}，请核对", "护照号 {v}", "登记的证件是 {v}"],
    "en": [
        "My ID number is {v}.",
        "ID: {v}",
        "Passport {v}, expires next year.",
        "SSN {v}",
        "National Insurance number {v}",
    ],
    "mixed": ["我的 ID 是 {v}", "证件 number：{v}", "passport 号码 {v}"],
}
NAMES = ["Anna", "李雷", "Tom", "王芳", "Priya", "Jürgen", "Sofía", "田中"]

FULL_WIDTH = {c: chr(ord(c) + 0xFEE0) for c in string.digits + "+-()@."}
ZERO_WIDTH = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u200e"]
CN_DIGITS = "零一二三四五六七八九"


def _sentence(rng: random.Random, templates: dict[str, list[str]], value: str) -> tuple[str, str]:
    lang = rng.choice(("zh", "en", "mixed"))
    return lang, rng.choice(templates[lang]).format(v=value)


def _luhn_complete(body: str) -> str:
    for check in string.digits:
        digits = body + check
        total = 0
        for i, ch in enumerate(reversed(digits)):
            d = int(ch)
            if i % 2 == 1:
                d = d * 2 - 9 if d > 4 else d * 2
            total += d
        if total % 10 == 0:
            return digits
    raise AssertionError("unreachable")


def _cn_id(rng: random.Random) -> str:
    weights = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
    body = (
        f"{rng.randint(110000, 659999)}{rng.randint(1940, 2008)}{rng.randint(1, 12):02d}"
        f"{rng.randint(1, 28):02d}{rng.randint(0, 999):03d}"
    )
    return body + "10X98765432"[sum(int(d) * w for d, w in zip(body, weights, strict=True)) % 11]


def _cn_id_15(rng: random.Random) -> str:
    """The legacy first-generation ID: area, YYMMDD, sequence (no check character)."""
    area, year = rng.randint(110000, 659999), rng.randint(40, 84)
    return f"{area}{year:02d}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}{rng.randint(0, 999):03d}"


def _hk_id(rng: random.Random) -> str:
    prefix = "".join(rng.choice(string.ascii_uppercase) for _ in range(rng.choice((1, 1, 1, 2))))
    digits = "".join(rng.choice(string.digits) for _ in range(6))
    chars = " " + prefix if len(prefix) == 1 else prefix
    total = sum((9 - i) * (36 if c == " " else ord(c) - 55) for i, c in enumerate(chars))
    total += sum((7 - i) * int(d) for i, d in enumerate(digits))
    check = (11 - total % 11) % 11
    check_char = "A" if check == 10 else str(check)
    return rng.choice(
        [f"{prefix}{digits}({check_char})", f"{prefix}{digits}{check_char}", f"{prefix}{digits} ({check_char})"]
    )


def _cn_passport(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return rng.choice("EG") + "".join(rng.choice(string.digits) for _ in range(8))
    return "E" + rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ") + "".join(rng.choice(string.digits) for _ in range(7))


def _group(digits: str, sizes: list[int], sep: str) -> str:
    parts, i = [], 0
    for size in sizes:
        parts.append(digits[i : i + size])
        i += size
    if i < len(digits):
        parts.append(digits[i:])
    return sep.join(p for p in parts if p)


def _card_values(rng: random.Random, fake: Faker) -> list[tuple[str, str]]:
    out = []
    for card_type in (
        "visa13",
        "visa16",
        "visa19",
        "mastercard",
        "amex",
        "discover",
        "jcb15",
        "jcb16",
        "diners",
        "maestro",
    ):
        for _ in range(30):
            number = fake.credit_card_number(card_type)
            style = rng.random()
            if style < 0.4:
                number = _group(number, [4, 4, 4, 4], rng.choice(" -"))
            out.append((number, f"faker:{card_type}"))
    # Any prefix, 12-19 digits: Maestro 12 (6304), JCB 15 (2131/1800), UnionPay 19 (62), and random.
    for prefix, length, label in [
        ("6304", 12, "maestro12"),
        ("2131", 15, "jcb15"),
        ("1800", 15, "jcb15"),
        ("62", 19, "unionpay19"),
        ("62", 16, "unionpay16"),
        ("", 0, "any"),
    ]:
        for _ in range(40):
            n = length or rng.randint(12, 19)
            head = prefix or str(rng.randint(1, 9))
            body = head + "".join(rng.choice(string.digits) for _ in range(n - len(head) - 1))
            number = _luhn_complete(body)
            if len(set(number)) == 1:
                continue
            if rng.random() < 0.5:
                number = _group(number, [4] * 5, rng.choice(" -"))
            out.append((number, f"generated:{label}"))
    return out


def _phone_examples() -> list[tuple[str, str]]:
    out = []
    for region in sorted(phonenumbers.SUPPORTED_REGIONS):
        for type_name, number_type in (("mobile", PhoneNumberType.MOBILE), ("fixed", PhoneNumberType.FIXED_LINE)):
            example = phonenumbers.example_number_for_type(region, number_type)
            if example is None:
                continue
            for fmt_name, fmt in (
                ("e164", PhoneNumberFormat.E164),
                ("intl", PhoneNumberFormat.INTERNATIONAL),
                ("national", PhoneNumberFormat.NATIONAL),
            ):
                out.append((phonenumbers.format_number(example, fmt), f"phonenumbers:{region}:{type_name}:{fmt_name}"))
    return out


def _evasions(rng: random.Random, value: str, kind: str) -> list[tuple[str, str]]:
    """The same value written to slip past a filter."""
    digits = "".join(c for c in value if c.isdigit())
    out = [("".join(FULL_WIDTH.get(c, c) for c in value), "evasion:full-width")]
    zw = rng.choice(ZERO_WIDTH)
    out.append(("".join(c + zw if c.isdigit() else c for c in value).rstrip(zw), "evasion:zero-width"))
    if kind in ("phone", "card", "national_id") and digits == "".join(c for c in value if c.isalnum()):
        out.append((" ".join(digits), "evasion:space-per-digit"))
        sep = rng.choice("./_,")
        sizes = (
            [3, 4, 4]
            if len(digits) == 11
            else [4] * 5
            if kind == "card"
            else [6, 8, 4]
            if len(digits) == 18
            else [3, 3, 4, 4]
        )
        out.append((_group(digits, sizes, sep), f"evasion:separator{sep}"))
    return out


def _email_evasions(value: str) -> list[tuple[str, str]]:
    local, _, domain = value.partition("@")
    return [
        (f"{local}＠{domain}", "evasion:full-width-at"),
        (f"{local}@{domain.replace('.', '．')}", "evasion:full-width-dot"),
        (f"{local}@{domain.replace('.', '。')}", "evasion:ideographic-dot"),
        (f"{local}＠{domain.replace('.', '。')}", "evasion:full-width-at-ideographic-dot"),
    ]


def _unicode_emails(rng: random.Random, fake_zh: Faker, fake_ja: Faker) -> list[tuple[str, str]]:
    domains = [
        "example.com",
        "qq.com",
        "163.com",
        "例子.中国",
        "例え.jp",
        "bücher.de",
        "münchen.de",
        "пример.рф",
        "почта.рф",
        "xn--fsqu00a.xn--fiqs8s",
        "公司.香港",
        "mail.example.org",
    ]
    out = []
    for _ in range(60):
        local = rng.choice([fake_zh.name(), fake_ja.last_name(), "zhang.san", "josé", "müller", "ivan", "li_lei"])
        out.append((f"{local}@{rng.choice(domains)}", "generated:unicode-email"))
    return out


def build(seed: int) -> tuple[list[dict], list[dict]]:
    rng = random.Random(seed)
    Faker.seed(seed)
    leaks: list[dict] = []

    def add(kind: str, value: str, source: str, templates: dict[str, list[str]]) -> None:
        lang, text = _sentence(rng, templates, value)
        leaks.append({"kind": kind, "value": value, "text": text, "lang": lang, "source": source})

    fakers = {locale: Faker(locale) for locale in LOCALES}
    for locale, fake in fakers.items():
        for _ in range(120):
            add("phone", fake.phone_number(), f"faker:{locale}", PHONE)
        for _ in range(12):
            add("email", fake.email(), f"faker:{locale}", EMAIL)
        for _ in range(4):
            add("email", fake.free_email(), f"faker:{locale}", EMAIL)
    for value, source in _phone_examples():
        # A national number with neither "+" nor a phone word is indistinguishable from any other
        # number ("71 234" is the Cook Islands' and a count); only "+" numbers also stand alone.
        # (National formats of common regions without a phone word: tests/privacy/test_formats.py.)
        international = source.endswith(("intl", "e164"))
        add("phone", value, source, PHONE_NEUTRAL if international and rng.random() < 0.4 else PHONE)
    for value, source in _unicode_emails(rng, fakers["zh_CN"], fakers["ja_JP"]):
        add("email", value, source, EMAIL)
    for value, source in _card_values(rng, fakers["en_US"]):
        add("card", value, source, CARD)
    for locale in IBAN_LOCALES:
        for _ in range(15):
            iban = fakers[locale].iban()
            add("iban", iban if rng.random() < 0.5 else _group(iban, [4] * 9, " "), f"faker:{locale}", IBAN)
    for _ in range(250):
        value = fakers["zh_CN"].ssn()
        add("national_id", value, "faker:zh_CN", NATIONAL_ID)
    for _ in range(60):
        value = _cn_id(rng)
        add("national_id", _group(value, [6, 8, 4], rng.choice(" -")), "generated:cn-id-6-8-4", NATIONAL_ID)
    for _ in range(100):
        add("national_id", _cn_id_15(rng), "generated:cn-id-15", NATIONAL_ID)
    for _ in range(150):
        add("national_id", fakers["zh_TW"].ssn(), "faker:zh_TW", NATIONAL_ID)
    for _ in range(150):
        add("national_id", _hk_id(rng), "generated:hk-id", NATIONAL_ID)
    for _ in range(100):
        add("national_id", _cn_passport(rng), "generated:cn-passport", NATIONAL_ID)
    for _ in range(150):
        add("national_id", fakers["en_US"].ssn(), "faker:en_US", NATIONAL_ID)
    for _ in range(150):
        add("national_id", fakers["en_GB"].ssn(), "faker:en_GB", NATIONAL_ID)

    # Evasions of a sample of what is above.
    base = list(leaks)
    for item in rng.sample([x for x in base if x["kind"] != "email"], 600):
        for value, source in _evasions(rng, item["value"], item["kind"]):
            templates = {"phone": PHONE, "card": CARD, "iban": IBAN, "national_id": NATIONAL_ID}[item["kind"]]
            add(item["kind"], value, f"{item['source']}+{source}", templates)
    for item in rng.sample([x for x in base if x["kind"] == "email" and x["source"].startswith("faker")], 150):
        for value, source in _email_evasions(item["value"]):
            add("email", value, f"{item['source']}+{source}", EMAIL)
    for _ in range(150):
        mobile = "1" + rng.choice("3456789") + "".join(rng.choice(string.digits) for _ in range(9))
        add("phone", "".join(CN_DIGITS[int(d)] for d in mobile), "generated:cn-mobile+evasion:chinese-numerals", PHONE)
    for _ in range(50):
        value = _cn_id(rng)
        add(
            "national_id",
            "".join(CN_DIGITS[int(d)] if d.isdigit() else d for d in value),
            "generated:cn-id+evasion:chinese-numerals",
            NATIONAL_ID,
        )
    return leaks, _clean(rng)


# --- sentences without personal data ----------------------------------------------------------


def _clean(rng: random.Random) -> list[dict]:
    r = rng.randint

    def version():
        return rng.choice(
            [
                f"v{r(0, 9)}.{r(0, 20)}.{r(0, 30)}",
                f"{r(1, 5)}.{r(0, 12)}",
                f"{r(1, 3)}.{r(0, 9)}.{r(0, 9)}.{r(100, 9999)}",
            ]
        )

    def date():
        y, m, d = r(1990, 2030), r(1, 12), r(1, 28)
        return rng.choice(
            [
                f"{y}-{m:02d}-{d:02d}",
                f"{y}/{m}/{d}",
                f"{d:02d}.{m:02d}.{y}",
                f"{m}/{d}/{y}",
                f"{y}年{m}月{d}日",
                f"{y}{m:02d}{d:02d}",
                f"{y}-{m:02d}-{d:02d} {r(0, 23):02d}:{r(0, 59):02d}",
            ]
        )

    def time():
        return rng.choice(
            [
                f"{r(0, 23):02d}:{r(0, 59):02d}",
                f"{r(1, 12)}pm",
                f"{r(0, 23)}:{r(0, 59):02d}:{r(0, 59):02d}",
                f"{r(1, 12)}点半",
            ]
        )

    def amount():
        return rng.choice(
            [
                f"¥{r(1, 999999)}",
                f"${r(1, 9999)}.{r(0, 99):02d}",
                f"{r(1, 999):,}{r(100, 999)} 元",
                f"€{r(1, 500)},{r(0, 99):02d}",
                f"{r(1, 99)}.{r(1, 9)}万",
                f"{r(1, 9)},{r(100, 999)},{r(100, 999)} USD",
                f"RMB {r(100, 99999)}",
            ]
        )

    def order():
        return rng.choice(
            [
                f"A{r(10000, 99999)}",
                f"#{r(1000, 99999)}",
                f"{r(1000, 9999)}",
                f"ORD-{r(2020, 2026)}-{r(1, 99999):05d}",
                f"SF{r(10**11, 10**12 - 1)}",
                f"INV{r(100000, 999999)}",
                f"{r(10**7, 10**8 - 1)}",
            ]
        )

    templates = [
        ("version", "zh", lambda: f"我们昨天部署了 {version()} 版本，修了登录的问题。"),
        ("version", "en", lambda: f"Upgrade to {version()} before the migration."),
        ("version", "mixed", lambda: f"升级到 Python {r(3, 3)}.{r(8, 13)} 和 Django {r(4, 5)}.{r(0, 2)} 之后再说"),
        ("date", "zh", lambda: f"会议改到 {date()} 了。"),
        ("date", "en", lambda: f"The contract starts on {date()} and runs for a year."),
        ("date", "mixed", lambda: f"deadline 是 {date()}，别忘了"),
        ("time", "zh", lambda: f"明天 {time()} 开会"),
        ("time", "en", lambda: f"Let's meet at {time()} near the station."),
        ("time", "mixed", lambda: f"{time()} 的 standup 取消"),
        ("amount", "zh", lambda: f"预算大约是 {amount()}，不能超。"),
        ("amount", "en", lambda: f"The quote came in at {amount()} including tax."),
        ("amount", "mixed", lambda: f"这个月 cloud bill 是 {amount()}"),
        ("order", "zh", lambda: f"订单号 {order()} 已发货"),
        ("order", "en", lambda: f"Order {order()} was refunded yesterday."),
        ("order", "mixed", lambda: f"ticket {order()} 还没处理"),
        ("port", "en", lambda: f"The service listens on port {r(1024, 65535)}."),
        ("port", "mixed", lambda: f"把 Postgres 换到 {r(5000, 5999)} 端口，redis 用 {r(6000, 6999)}"),
        ("percent", "zh", lambda: f"转化率提高了 {r(1, 99)}.{r(0, 9)}%，成本下降 {r(1, 60)}%"),
        ("percent", "en", lambda: f"CPU sits at {r(1, 100)}% and memory at {r(1, 99)}.{r(0, 9)}%."),
        ("year", "zh", lambda: f"我 {r(1970, 2010)} 年出生在南方，{r(2010, 2025)} 年搬到北京。"),
        ("year", "en", lambda: f"From {r(1990, 2010)} to {r(2011, 2026)} I worked in retail."),
        ("year", "mixed", lambda: f"{r(2015, 2026)}-{r(2015, 2026)} 那几年用的是 Java {r(6, 21)}"),
        ("size", "zh", lambda: f"内存 {r(1, 64)}G，硬盘 {r(128, 4096)}GB，带宽 {r(10, 1000)}Mbps"),
        ("size", "en", lambda: f"The dump is {r(1, 999)} MB, about {r(10000, 9999999)} rows."),
        (
            "answer",
            "zh",
            lambda: rng.choice(
                [f"{r(1, 20)}", f"选 {r(1, 4)}", f"第{r(1, 9)}个", f"{r(1, 10)}个人", f"大概{r(2, 30)}分钟"]
            ),
        ),
        (
            "answer",
            "en",
            lambda: rng.choice(
                [f"{r(1, 99)}", f"option {r(1, 5)}", f"about {r(2, 90)} minutes", f"{r(1, 12)} of them"]
            ),
        ),
        ("measure", "zh", lambda: f"身高 {r(150, 195)}cm，体重 {r(45, 100)}kg，每天走 {r(2000, 20000)} 步"),
        ("measure", "en", lambda: f"I ran {r(3, 42)}.{r(0, 9)} km in {r(20, 59)}:{r(10, 59)} this morning."),
        ("range", "zh", lambda: f"第 {r(1, 10)}-{r(11, 30)} 章下周讲，{r(9, 11)}:00-{r(12, 18)}:30 在线"),
        ("range", "en", lambda: f"Pages {r(1, 200)}-{r(201, 400)} are missing from the {r(1990, 2024)} edition."),
        ("model", "mixed", lambda: f"买了 iPhone {r(11, 17)} Pro 和 RTX {r(30, 50)}{r(6, 9)}0，{r(1, 3)} 年保修"),
        ("ip-free", "en", lambda: f"Build {r(1000, 99999)} passed {r(100, 5000)} tests in {r(1, 59)}m{r(1, 59)}s."),
        ("count", "zh", lambda: f"这周处理了 {r(10, 999)} 个工单，{r(1, 99)} 个升级到二线"),
        ("count", "mixed", lambda: f"本季度 DAU {r(10000, 999999)}，MAU {r(100000, 9999999)}"),
        ("coord", "en", lambda: f"Room {r(100, 999)}, floor {r(1, 40)}, building {r(1, 9)}."),
        ("isbn", "en", lambda: f"The book is ISBN 978-{r(0, 9)}-{r(100, 999)}-{r(10000, 99999)}-{r(0, 9)}."),
    ]
    out = []
    for i in range(1400):
        kind, lang, make = templates[i % len(templates)]
        out.append({"kind": kind, "text": make(), "lang": lang})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent.parent / "tests" / "data" / "pii")
    args = parser.parse_args()
    leaks, clean = build(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    for name, rows in (("leaks.jsonl", leaks), ("clean.jsonl", clean)):
        with open(args.out / name, "w", encoding="utf-8") as f:
            for row in rows:
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
        print(f"{args.out / name}: {len(rows)} rows")


if __name__ == "__main__":
    main()
