"""Traditional Chinese and Cantonese read as Simplified Mandarin, character for character.

The rules are written in Simplified Mandarin. A turn written in Traditional characters ("現在在新竹當工程師")
or in Cantonese ("我係香港人，而家喺觀塘做物流") is read through `as_simplified()`, which keeps every
character at its place (OpenCC's t2s, BYVoid/OpenCC, Apache-2.0, then a few Cantonese function words one for
one), so that what the rules keep can be given back in the person's own script by `in_own_script()`:
"工程師" stays "工程師".
"""

import re
from functools import lru_cache

_CJK_RUN = re.compile(r"[\u3400-\u9fff]+")
# Cantonese function words as their Mandarin ones, each the same length (after t2s: 係 → 系)
_CANTONESE = (
    (re.compile(r"(?<=[我你佢他她公婆爸妈仔女])系(?![统列数])"), "是"),  # 我老公係 pilot
    (
        re.compile(r"(?<=[我你他她])是([^，,。！!？?]{1,10}?)嚟(?=$|[，,。！!？?\s])"),
        r"是\1啦",
    ),  # 我係護士嚟: I am a nurse (嚟 a particle here)
    (re.compile(r"喺"), "在"),
    (re.compile(r"姪"), "侄"),  # 姪女: OpenCC keeps the variant, the rules know 侄
    (re.compile(r"钟意"), "喜欢"),
    (re.compile(r"我哋"), "我们"),
    (re.compile(r"而家"), "现在"),
    (re.compile(r"嘅"), "的"),
    (re.compile(r"唔该"), "麻烦"),  # 唔该用广东话覆我: please, not "should not"
    (re.compile(r"屋企"), "家里"),
    (re.compile(r"食嘢"), "吃饭"),
    (re.compile(r"(?<=[唔不要想爱去鍾钟中意])食(?![物品堂谱欲材])"), "吃"),  # 我唔食猪肉
    (re.compile(r"食(?=素|斋)"), "吃"),  # 我食素㗎: vegetarian
    (re.compile(r"唔"), "不"),
    (re.compile(r"冇"), "没"),
    (re.compile(r"佢"), "他"),
    (re.compile(r"咗"), "了"),
    (re.compile(r"老细"), "老板"),  # 我老细: one's boss
    (re.compile(r"嚟"), "来"),
    (re.compile(r"睇"), "看"),
    (re.compile(r"谂"), "想"),
    (re.compile(r"返工"), "上班"),  # 我喺观塘返工: where one works
    (re.compile(r"收工"), "下班"),
    (re.compile(r"([做读住返教揸])紧"), r"在\1"),  # 做紧 data analyst: 在做
    (re.compile(r"(?<=[A-Za-z0-9])\s?同(?=\s?[A-Za-z])"), lambda m: m.group(0).replace("同", "和")),  # 用Excel同SAP
    (re.compile(r"(?<=[我你他她])个(?![人子性头儿女仔])"), "的"),  # 我個客户: my client (not 我个人, 我个子, 我個女)
    (re.compile(r"(在[^，,。！？!?在]{0,20}?)一间(?!房|屋|卧)"), r"\1一家"),  # 在KL一间international school: a firm
)


@lru_cache(maxsize=1)
def _t2s():
    try:
        import opencc
    except ImportError:  # without the package, Traditional text is read as it is
        return None
    return opencc.OpenCC("t2s")


def as_simplified(text: str) -> str:
    """`text` in Simplified Mandarin, of the same length, each character where it was."""
    if not text or not _CJK_RUN.search(text):
        return text
    converter = _t2s()
    simplified = converter.convert(text) if converter else text
    if len(simplified) != len(text):  # a phrase rule changed the length: convert one character at a time
        simplified = "".join(ch if len(c := converter.convert(ch)) != 1 else c for ch in text)
    for pattern, mandarin in _CANTONESE:
        simplified = pattern.sub(mandarin, simplified)
    return simplified


def in_own_script(value: str, simplified: str, original: str) -> str:
    """`value`, read off `simplified`, with each of its Chinese runs as `original` wrote it."""
    if simplified == original or not value:
        return value

    def own(run: re.Match) -> str:  # the longest pieces found, left to right: "每周末都在练钢琴" → "每週末都在練鋼琴"
        text, out, start = run.group(0), [], 0
        while start < len(text):
            end = next((end for end in range(len(text), start, -1) if simplified.find(text[start:end]) >= 0), start + 1)
            at = simplified.find(text[start:end])
            out.append(original[at : at + end - start] if at >= 0 else text[start:end])
            start = end
        return "".join(out)

    return _CJK_RUN.sub(own, value)
