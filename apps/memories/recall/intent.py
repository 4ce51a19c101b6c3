"""Cheap reads of a query's intent, in Chinese and English."""

import re

# Whole turns that need no memory: greetings, thanks, acknowledgements, goodbyes.
_SMALL_TALK = re.compile(
    r"^\s*(?:"
    r"h(?:i|ello|ey)(?: there)?|good (?:morning|afternoon|evening|night)|thanks?(?: you)?(?: so much| a lot)?|thx|ty|"
    r"ok(?:ay)?|k|cool|great|nice|got it|sure|yes|no|yep|nope|bye|goodbye|see you|cheers|lol|"
    r"你好|您好|嗨|哈喽|早上好|晚上好|晚安|谢谢(?:你|您)?|多谢|感谢|好的?|嗯+|哦+|行|可以|没问题|收到|再见|拜拜|哈哈+"
    r")(?:\s*[,，]?\s*(?:(?:thanks?|谢谢|bot|assistant|助手)))?[\s!！.。~～?？]*$",
    re.IGNORECASE,
)
_RECENT = re.compile(
    r"last time|previous(?:ly)?|recent(?:ly)?|latest|yesterday|earlier|before|last (?:week|month|session|conversation)|"
    r"上次|上一次|之前|最近|刚才|昨天|前几天|上周|上个月|上回",
    re.IGNORECASE,
)


def needs_no_memory(query: str) -> bool:
    return bool(_SMALL_TALK.match(query))


def asks_about_recent(query: str) -> bool:
    return bool(_RECENT.search(query))
