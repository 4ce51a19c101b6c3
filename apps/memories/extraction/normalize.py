"""Normalization for extracted memories: relative dates, units and keys.

Everything here is pure (no database, no settings) and bilingual (zh + en).

Dates — `resolve_dates(text, now=, timezone=)`
    Relative expressions are resolved in the SUBJECT's time zone (`now` is converted first, so
    "明天" said at 2026-11-30T20:00Z by someone in Asia/Shanghai is 2026-12-02). Every resolved
    expression is rewritten as ``<resolved> (<original words>)``, e.g. "2026-12-01 (明天) 开会",
    "meeting on 2026-12-04 (next Friday)", "2026-12-01 15:00 (明天下午3点)". Resolution by grain:

        day       2026-12-01                      "明天", "tomorrow", "下周五", "12月5日"
        datetime  2026-12-01T15:00:00+08:00       "明天下午3点", "tomorrow 3pm", "3小时后"
                  (shown in the text as "2026-12-01 15:00")
        week      2026-W50 (ISO week)             "下周", "next week"
        weekend   2026-12-05/2026-12-06           "周末", "this weekend"
        month     2026-12                         "下个月", "next month"
        year      2027                            "明年", "next year"

    Week conventions: weeks start on Monday. "下周五" is the Friday of next calendar week;
    "周五"/"这周五"/"this Friday"/"on Friday" is the Friday of this week if not past, else the next
    one; English "next Friday" is the next Friday strictly after today (dateparser's reading: on a
    Monday it is four days away). Bare clock times without a day ("下午三点", "at 3pm") are not
    resolved: the day is unknown. The own rules cover Chinese (dateparser misses "下周五",
    "后天下午三点", "两周后", "12月5日", ...) and the common English forms; dateparser handles English
    "in two weeks", "3 days ago", "a month from now" and month-name dates ("Dec 5", "5 December").

Units — `canonical_units(text)`
    Sizes are BINARY: in this service sizes come from memory, disk, container and heap limits,
    where "1G", "1GB", "1 GB", "1gb", "1024MB" and "1GiB" all mean 1024³ bytes, so every byte unit
    is read as its IEC value and written as KiB/MiB/GiB/TiB/PiB ("1 GiB"). Bits (Mb, Gbps, kbps)
    are left alone. Bare "G"/"T" ("16G") count as bytes; bare "K"/"M" and "兆" only next to a
    memory/disk word ("内存 512M"), since "5M users" and "100兆宽带" are not sizes.
    Durations are written in the largest of d, h, min, s, ms that keeps the value exact to one
    decimal (days only when whole): "2h" and "两小时" → "2 h", "90 min" → "1.5 h", "500ms" → "500 ms".
    The original words are kept: "1 GiB (1G)"; an expression already canonical is left as it is.

Keys — `canonical_key(key)`
    Synonyms (zh + en) land on one key: "编程语言" / "main language" → "programming_language";
    anything else becomes a lowercase snake_case slug, Chinese kept (the services' `normalize_key`
    applied to the result is a no-op).
"""

from __future__ import annotations

import bisect
import calendar
import re
import unicodedata
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

__all__ = ["canonical_key", "canonical_units", "cn_number", "known_key", "resolve_dates"]

# --- numbers -----------------------------------------------------------------------------------

_CN_DIGITS = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "俩": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
_CN_NUM = r"[零〇一二两俩三四五六七八九十百]+"
_NUM = rf"(?:\d+(?:\.\d+)?|{_CN_NUM})"
_EN_NUMBER_WORDS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "couple of": 2,
    "a couple of": 2,
    "few": 3,
    "a few": 3,
}


def cn_number(token: str) -> float | None:
    """'3' → 3, '2.5' → 2.5, '三' → 3, '十二' → 12, '二十三' → 23, '两' → 2, '一百' → 100."""
    token = token.strip()
    if not token:
        return None
    try:
        return float(token)
    except ValueError:
        pass
    if any(ch not in _CN_DIGITS and ch not in "十百" for ch in token):
        return None
    total, current = 0, 0
    for ch in token:
        if ch in _CN_DIGITS:
            current = _CN_DIGITS[ch]
        elif ch == "十":
            total += (current or 1) * 10
            current = 0
        elif ch == "百":
            total += (current or 1) * 100
            current = 0
    return float(total + current)


def _fmt_number(value: float) -> str:
    if abs(value - round(value)) < 1e-9:
        return str(int(round(value)))
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _spaced(text: str, start: int, end: int, replacement: str) -> str:
    """Insert `replacement` for text[start:end], with a space on either side where it would
    otherwise touch a word character ("我们明天开会" → "我们 2026-12-01 (明天) 开会")."""
    before, after = text[:start], text[end:]
    if before and not before[-1].isspace() and before[-1] not in "([（【\"'“‘":
        replacement = " " + replacement
    if after and not after[0].isspace() and after[0] not in ",.;:!?，。；：！？、)]）】\"'”’":
        replacement = replacement + " "
    return before + replacement + after


def _apply(text: str, items: list[dict], render) -> str:
    """Rewrite spans right to left so earlier spans keep their offsets."""
    out = text
    for item in sorted(items, key=lambda i: i["span"][0], reverse=True):
        start, end = item["span"]
        out = _spaced(out, start, end, render(item))
    return out


# --- dates -------------------------------------------------------------------------------------

_WEEKDAY_ZH = {
    "一": 0,
    "二": 1,
    "三": 2,
    "四": 3,
    "五": 4,
    "六": 5,
    "日": 6,
    "天": 6,
    "末": 5,
    "1": 0,
    "2": 1,
    "3": 2,
    "4": 3,
    "5": 4,
    "6": 5,
    "7": 6,
}
_WEEKDAY_EN = {
    "monday": 0,
    "mon": 0,
    "tuesday": 1,
    "tue": 1,
    "tues": 1,
    "wednesday": 2,
    "wed": 2,
    "thursday": 3,
    "thu": 3,
    "thur": 3,
    "thurs": 3,
    "friday": 4,
    "fri": 4,
    "saturday": 5,
    "sat": 5,
    "sunday": 6,
    "sun": 6,
}

_ZH_DAY_WORDS = {
    "大前天": -3,
    "前天": -2,
    "昨天": -1,
    "昨日": -1,
    "昨": -1,
    "今天": 0,
    "今日": 0,
    "今儿": 0,
    "今": 0,
    "明天": 1,
    "明日": 1,
    "明儿": 1,
    "明": 1,
    "后天": 2,
    "大后天": 3,
}
_ZH_PARTS = ("凌晨", "早上", "早晨", "上午", "中午", "下午", "傍晚", "晚上", "夜里", "早", "晚")
_ZH_PART = "|".join(_ZH_PARTS)
_ZH_TIME = (
    rf"(?P<hour>\d{{1,2}}|{_CN_NUM})(?:(?:点|點|时|時)(?:(?P<half>半)|(?P<quarter>一刻|三刻)|"
    rf"(?P<minute>\d{{1,2}}|{_CN_NUM})分?)?|[:：](?P<minute2>\d{{2}}))"
)
_ZH_WEEK_PREFIX = r"(?P<wprefix>下下个?|下个?|上上个?|上个?|这个?|本)?"
_ZH_WEEK = r"(?:周|星期|礼拜|禮拜)"

_ZH_DATE_RE = re.compile(
    "(?:"
    # 今天/明天/后天 (+ part of day + time); 今晚 / 明早
    r"(?P<zday>大前天|前天|昨天|昨日|今天|今日|今儿|明天|明日|明儿|大后天|后天)"
    rf"(?P<zpart>{_ZH_PART})?(?:{_ZH_TIME})?"
    r"|(?P<zshort>今|明|昨)(?P<zshortpart>晚|早|夜)"
    # 下周五 / 周五 / 这周五 / 下下周一 (+ part + time); 周末 / 下周末
    rf"|(?<![一二两三四五六七八九十几每个逢\d]){_ZH_WEEK_PREFIX}{_ZH_WEEK}(?P<wday>[一二三四五六日天末1-7])"
    rf"(?P<wpart>{_ZH_PART})?(?:{_ZH_TIME.replace('?P<', '?P<w')})?"
    # 下周 / 上周 / 本周 (whole week)
    rf"|(?P<weekonly>下下个?|下个?|上个?|这个?|本){_ZH_WEEK}(?!几)"
    # 下个月 15 号 / 下个月15号
    r"|(?P<mdmonth>下个|下|这个|本)月\s*(?P<mdday>\d{1,2}|[一二三四五六七八九十]{1,3})\s*[日号]"
    # 下个月 / 上个月 / 本月 / 下下个月
    r"|(?P<month>下下个|下个|下|上个|上|这个|本)月(?![份底初中]?\d)"
    # 明年三月 / 明年3月15号 / 今年年底 / 年底
    rf"|(?P<ymyear>明年|今年|后年)(?P<ymmonth>1[0-2]|[1-9]|十[一二]?|[一二三四五六七八九])月份?(?:(?P<ymday>\d{{1,2}}|{_CN_NUM})[日号])?"
    r"|(?P<yend>明年|今年|后年)?(?:年底|年末)"
    # 明年 / 去年 / 今年 / 后年 / 前年
    r"|(?P<year>明年|去年|今年|后年|前年)"
    # 3天后 / 两周后 / 一个月后 / 三小时后 / 10分钟后 / 2天前
    rf"|(?P<n>\d+|{_CN_NUM}|半)个?(?P<unit>天|日|周|星期|礼拜|月|年|小时|钟头|分钟)(?P<dir>后|以后|之后|前|以前|之前)"
    # 12月5日 / 2026年12月5号
    r"|(?:(?P<y>\d{4})\s*年\s*)?(?P<m>1[0-2]|0?[1-9]|十[一二]?|[一二三四五六七八九])\s*月\s*"
    r"(?P<d>\d{1,2}|[一二三]?十[一二三四五六七八九]?|[一二三四五六七八九])\s*[日号]"
    # 15号 / 二十号 (a day of the month alone: its next occurrence), not 3号线, 20号楼, 每个月15号
    r"|(?<![\d一二三四五六七八九十月第每个几路街道巷弄座栋楼村组室区排是的])(?<!月\s)(?<![第每是]\s)(?<!排在)(?<!一般)(?<!通常)(?<!每次)"
    r"(?P<bd>[12]?\d|3[01]|[一二三]?十[一二三四五六七八九]?|[一二三四五六七八九])\s*号"
    r"(?!楼|线|床|门|口|位|球|房|院|桌|机|键|码|字|箱|子|电池|病房|店|选手|队员|球员|车厢|包厢|窗口|柜台|站台|出口|入口|车位|座位)"
    # 2027 年 2 月 (a month of a given year)
    r"|(?P<yy>\d{4})\s*年\s*(?P<yym>1[0-2]|0?[1-9])\s*月(?:份)?"
    # 三月 / 3月份 (a month alone: its next occurrence)
    r"|(?<![\d一二三四五六七八九十个年上下这本每])(?P<bm>1[0-2]|[1-9]|十[一二]?|[一二三四五六七八九])月份?(?![\d一二三四五六七八九十]|[日号底初中])"
    ")"
)

# what follows "the 3rd" when it is no day of the month: "the 3rd floor", "the 5th of May" (read as a date
# elsewhere), "the 2nd Tuesday", "the 15th every month" (a rule, not a day)
ORDINAL_DAY = (
    r"(?!\s*(?:of\b|floor|fl\b|stor(?:e)?y|shelf|level|time|attempt|try|century|row|place|grade|class|lap|round|hole|step|line|"
    r"page|chapter|episode|draft|quarter|percentile|edition|season|anniversary|birthday|street|st\b|avenue|ave\b|road|rd\b|"
    r"team|squad|division|generation|gen\b|"
    r"day|week|month|year|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun|every\b|each\b))"
)
_EN_WEEKDAY = "monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues|tue|wed|thurs|thur|thu|fri|sat|sun"
_EN_TIME = (
    r"(?:\s*(?:at\s+)?(?P<ehour>\d{1,2})(?::(?P<emin>\d{2}))?\s*(?P<eampm>a\.?m\.?|p\.?m\.?)"
    r"|\s+at\s+(?P<ehour2>\d{1,2}):(?P<emin2>\d{2})|\s+at\s+(?P<enoon>noon|midnight))"
)
_EN_PART = r"(?:\s+(?P<epart>morning|afternoon|evening|night))"
_EN_DATE_RE = re.compile(
    r"\b(?:"
    r"(?P<eday>the\s+day\s+after\s+tomorrow|the\s+day\s+before\s+yesterday|tomorrow|today|tonight|yesterday)"
    rf"{_EN_PART}?(?:{_EN_TIME})?"
    rf"|(?P<ethis>this)\s+(?P<ethispart>morning|afternoon|evening)"
    rf"|(?:(?P<eprefix>next|this|last|coming|on|by|until|till)\s+)(?P<eweekday>{_EN_WEEKDAY})\b"
    rf"{_EN_PART.replace('epart', 'wpart')}?(?:{_EN_TIME.replace('?P<e', '?P<w')})?"
    r"|(?P<eperiodprefix>next|last|this)\s+(?P<eperiod>week(?:end)?|month|year)"
    r"|(?P<eseasonprefix>next|last|this|in\s+the|by)\s+(?P<eseason>spring|summer|fall|autumn|winter)\b"
    r"|(?P<edp>in\s+(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a\s+couple\s+of|a\s+few)"
    r"\s+(?:days?|weeks?|months?|years?|hours?|minutes?)"
    r"|(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
    r"\s+(?:days?|weeks?|months?|years?|hours?|minutes?)\s+(?:ago|from\s+now|later)"
    r"|(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|"
    r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?"
    r"|\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|"
    r"july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)(?:,?\s+\d{4})?)"
    # "in January", "by the end of March", "next June", "March 2028": a month alone, its next occurrence
    r"|(?:(?P<emprefix>in|by|until|till|before|after|since|this|next|during|of|early|mid|late)\s+(?:the\s+end\s+of\s+)?)"
    r"(?P<emonth>january|february|march|april|may|june|july|august|september|october|november|december)"
    r"(?:\s+(?P<emyear>\d{4}))?(?!\s+(?:be|have|not|I|you|we|he|she|they)\b)"
    r"|(?P<emonth2>january|february|march|april|may|june|july|august|september|october|november|december)\s+(?P<emyear2>\d{4})"
    # "on the 20th": a day of the month alone, its next occurrence (not "on the 3rd floor", "on the 5th of May")
    rf"|(?:on|by|until|till|before)\s+the\s+(?P<edom>[12]?\d|3[01])(?:st|nd|rd|th){ORDINAL_DAY}"
    r")\b",
    re.IGNORECASE,
)
# "2026-12-01 (明天)" — an already annotated expression is not annotated again.
_ALREADY = re.compile(r"\d{4}(?:-W?\d{2}(?:-\d{2})?)?(?:[ T]\d{2}:\d{2}(?::\d{2})?)?(?:/[\d-]+)?\s*[(（]\s*$")


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def _add_months(day: date, months: int) -> date:
    month_index = day.month - 1 + months
    year, month = day.year + month_index // 12, month_index % 12 + 1
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def _hour_for_part(hour: int, part: str | None) -> tuple[int, int]:
    """(hour, extra days) for a clock hour said with a part of the day."""
    part = (part or "").lower()
    if part in ("下午", "傍晚", "晚上", "夜里", "晚", "afternoon", "evening", "night", "pm"):
        if hour == 12 and part in ("晚上", "夜里", "晚", "night"):
            return 0, 1
        return (hour + 12 if hour < 12 else hour), 0
    if part == "中午":
        return (hour + 12 if hour < 6 else hour), 0
    if part in ("凌晨", "am") and hour == 12:
        return 0, 0
    return hour, 0


def _minutes(half, quarter, minute, minute2) -> int:
    if half:
        return 30
    if quarter:
        return 15 if quarter == "一刻" else 45
    for value in (minute, minute2):
        if value:
            number = cn_number(value)
            return int(number) if number is not None and 0 <= number < 60 else 0
    return 0


def _week_monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


def _iso_week(day: date) -> str:
    year, week, _ = day.isocalendar()
    return f"{year}-W{week:02d}"


def _day_item(day: date, tz: ZoneInfo, hour: int | None = None, minute: int = 0, extra_days: int = 0) -> dict:
    if hour is None:
        return {"resolved": day.isoformat(), "grain": "day", "display": day.isoformat()}
    moment = datetime(day.year, day.month, day.day, hour, minute, tzinfo=tz) + timedelta(days=extra_days)
    return {"resolved": moment.isoformat(), "grain": "datetime", "display": moment.strftime("%Y-%m-%d %H:%M")}


def _month_item(year: int, month: int) -> dict:
    label = f"{year:04d}-{month:02d}"
    return {"resolved": label, "grain": "month", "display": label}


def _next_day_of_month(number: float | None, today: date, tz: ZoneInfo) -> dict | None:
    """ "15号", "on the 20th": this month's if still to come, else the next month that has that day."""
    if number is None or not 1 <= number <= 31:
        return None
    first = today.replace(day=1)
    for ahead in range(3):
        month = _add_months(first, ahead)
        if number <= calendar.monthrange(month.year, month.month)[1] and month.replace(day=int(number)) >= today:
            return _day_item(month.replace(day=int(number)), tz)
    return None


def _zh_item(match: re.Match, local: datetime, tz: ZoneInfo) -> dict | None:
    g = match.groupdict()
    today = local.date()

    def clock(prefix: str, part: str | None) -> tuple[int | None, int, int]:
        hour_text = g.get(prefix + "hour")
        if not hour_text:
            return None, 0, 0
        hour_number = cn_number(hour_text)
        if hour_number is None or not 0 <= hour_number <= 24:
            return None, 0, 0
        hour, extra = _hour_for_part(int(hour_number), part)
        minute = _minutes(
            g.get(prefix + "half"), g.get(prefix + "quarter"), g.get(prefix + "minute"), g.get(prefix + "minute2")
        )
        return hour % 24, minute, extra

    if g["zday"]:
        day = today + timedelta(days=_ZH_DAY_WORDS[g["zday"]])
        hour, minute, extra = clock("", g["zpart"])
        return _day_item(day, tz, hour, minute, extra)
    if g["zshort"]:
        return _day_item(today + timedelta(days=_ZH_DAY_WORDS[g["zshort"]]), tz)
    if g["wday"]:
        prefix = g["wprefix"] or ""
        offset = {"下下": 2, "下": 1, "上上": -2, "上": -1}.get(prefix.rstrip("个"), 0)
        if g["wday"] == "末":
            saturday = _week_monday(today) + timedelta(weeks=offset, days=5)
            return {
                "resolved": f"{saturday.isoformat()}/{(saturday + timedelta(days=1)).isoformat()}",
                "grain": "weekend",
                "display": f"{saturday.isoformat()}/{(saturday + timedelta(days=1)).isoformat()}",
            }
        target = _week_monday(today) + timedelta(weeks=offset, days=_WEEKDAY_ZH[g["wday"]])
        if not prefix and target < today:  # bare "周五" already past this week: the coming one
            target += timedelta(weeks=1)
        hour, minute, extra = clock("w", g["wpart"])
        return _day_item(target, tz, hour, minute, extra)
    if g["weekonly"]:
        offset = {"下下": 2, "下": 1, "上": -1}.get(g["weekonly"].rstrip("个"), 0)
        monday = _week_monday(today) + timedelta(weeks=offset)
        return {"resolved": _iso_week(monday), "grain": "week", "display": _iso_week(monday)}
    if g["mdmonth"]:
        offset = {"下个": 1, "下": 1}.get(g["mdmonth"], 0)
        first, number = _add_months(today.replace(day=1), offset), cn_number(g["mdday"])
        if number is None or not 1 <= number <= calendar.monthrange(first.year, first.month)[1]:
            return None
        return _day_item(first.replace(day=int(number)), tz)
    if g["ymyear"] or g["bm"]:
        month = cn_number(g["ymmonth"] or g["bm"])
        if month is None or not 1 <= month <= 12:
            return None
        year = today.year + {"明年": 1, "今年": 0, "后年": 2}.get(g["ymyear"] or "", 0)
        if g["bm"] and int(month) < today.month:
            year += 1
        if g["ymday"]:
            number = cn_number(g["ymday"])
            try:
                return _day_item(date(year, int(month), int(number or 0)), tz)
            except ValueError:
                return None
        return _month_item(year, int(month))
    if g["yend"] is not None or match.group(0) in ("年底", "年末"):
        return _month_item(today.year + {"明年": 1, "后年": 2}.get(g["yend"] or "", 0), 12)
    if g["month"]:
        offset = {"下下个": 2, "下个": 1, "下": 1, "上个": -1, "上": -1}.get(g["month"], 0)
        first = _add_months(today.replace(day=1), offset)
        return {"resolved": first.strftime("%Y-%m"), "grain": "month", "display": first.strftime("%Y-%m")}
    if g["year"]:
        offset = {"明年": 1, "去年": -1, "今年": 0, "后年": 2, "前年": -2}[g["year"]]
        return {"resolved": str(today.year + offset), "grain": "year", "display": str(today.year + offset)}
    if g["n"]:
        amount = 0.5 if g["n"] == "半" else cn_number(g["n"])
        if amount is None:
            return None
        sign = 1 if g["dir"] in ("后", "以后", "之后") else -1
        unit = g["unit"]
        if unit in ("小时", "钟头", "分钟"):
            delta = timedelta(hours=amount) if unit != "分钟" else timedelta(minutes=amount)
            moment = (local + sign * delta).replace(second=0, microsecond=0)
            return {"resolved": moment.isoformat(), "grain": "datetime", "display": moment.strftime("%Y-%m-%d %H:%M")}
        if unit in ("天", "日"):
            day = today + sign * timedelta(days=amount)
        elif unit in ("周", "星期", "礼拜"):
            day = today + sign * timedelta(weeks=amount)
        elif unit == "月":
            day = _add_months(today, sign * int(amount))
        else:
            day = _add_months(today, sign * 12 * int(amount))
        return _day_item(day, tz)
    if g["bd"]:
        return _next_day_of_month(cn_number(g["bd"]), today, tz)
    if g["m"]:
        month, day_number = cn_number(g["m"]), cn_number(g["d"])
        if month is None or day_number is None:
            return None
        month, day_number = int(month), int(day_number)
        year = int(g["y"]) if g["y"] else today.year
        if not g["y"] and (month, day_number) == (2, 29):  # the next leap year's
            year = next(y for y in range(year, year + 8) if calendar.isleap(y) and date(y, 2, 29) >= today)
        try:
            day = date(year, month, day_number)
        except ValueError:
            return None
        if not g["y"] and day < today:  # no year: the next such day
            try:
                day = date(year + 1, month, day_number)
            except ValueError:
                return None
        return _day_item(day, tz)
    if g["yy"]:
        return _month_item(int(g["yy"]), int(g["yym"]))
    return None


def _en_clock(g: dict, prefix: str) -> tuple[int | None, int, int]:
    noon = g.get(prefix + "noon")
    if noon:
        return (12, 0, 0) if noon.lower() == "noon" else (0, 0, 1)
    hour_text, minute_text, ampm = g.get(prefix + "hour"), g.get(prefix + "min"), g.get(prefix + "ampm")
    if not hour_text:
        hour_text, minute_text, ampm = g.get(prefix + "hour2"), g.get(prefix + "min2"), None
    if not hour_text:
        return None, 0, 0
    hour, minute = int(hour_text), int(minute_text or 0)
    if hour > 24 or minute > 59 or (ampm and not 1 <= hour <= 12):
        return None, 0, 0
    if ampm:
        meridiem = "pm" if ampm.lower().startswith("p") else "am"
        hour = hour % 12 + (12 if meridiem == "pm" else 0)
    return hour % 24, minute, 0


@lru_cache(maxsize=1)
def _dateparser():
    import dateparser  # imported lazily: it takes a moment to load its language data

    return dateparser


_MONTHS_EN = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
]


def _en_item(match: re.Match, local: datetime, tz: ZoneInfo, timezone: str) -> dict | None:
    g = match.groupdict()
    today = local.date()
    if g["edom"]:
        return _next_day_of_month(int(g["edom"]), today, tz)
    if g["eday"]:
        word = " ".join(g["eday"].lower().split())
        offset = {
            "the day after tomorrow": 2,
            "the day before yesterday": -2,
            "tomorrow": 1,
            "today": 0,
            "tonight": 0,
            "yesterday": -1,
        }[word]
        hour, minute, extra = _en_clock(g, "e")
        if hour is not None and g.get("epart") and not g.get("eampm"):
            hour, extra = _hour_for_part(hour, g["epart"])
        return _day_item(today + timedelta(days=offset), tz, hour, minute, extra)
    if g["ethis"]:
        return _day_item(today, tz)
    if g["eweekday"]:
        prefix = (g["eprefix"] or "").lower()
        weekday = _WEEKDAY_EN[g["eweekday"].lower().rstrip(".")]
        ahead = (weekday - today.weekday()) % 7
        if prefix == "last":
            behind = (today.weekday() - weekday) % 7 or 7
            day = today - timedelta(days=behind)
        elif prefix == "next":
            day = today + timedelta(days=ahead or 7)
        else:  # this / coming / on / by / until
            day = today + timedelta(days=ahead)
        hour, minute, extra = _en_clock(g, "w")
        if hour is not None and g.get("wpart") and not g.get("wampm"):
            hour, extra = _hour_for_part(hour, g["wpart"])
        return _day_item(day, tz, hour, minute, extra)
    if g["eperiod"]:
        prefix, period = g["eperiodprefix"].lower(), g["eperiod"].lower()
        offset = {"next": 1, "last": -1, "this": 0}[prefix]
        if period == "week":
            monday = _week_monday(today) + timedelta(weeks=offset)
            return {"resolved": _iso_week(monday), "grain": "week", "display": _iso_week(monday)}
        if period == "weekend":
            saturday = _week_monday(today) + timedelta(weeks=offset, days=5)
            span = f"{saturday.isoformat()}/{(saturday + timedelta(days=1)).isoformat()}"
            return {"resolved": span, "grain": "weekend", "display": span}
        if period == "month":
            first = _add_months(today.replace(day=1), offset)
            return {"resolved": first.strftime("%Y-%m"), "grain": "month", "display": first.strftime("%Y-%m")}
        return {"resolved": str(today.year + offset), "grain": "year", "display": str(today.year + offset)}
    if g["eseason"]:
        start = {"spring": 3, "summer": 6, "fall": 9, "autumn": 9, "winter": 12}[g["eseason"].lower()]
        prefix = " ".join(g["eseasonprefix"].lower().split())
        year = today.year + (-1 if prefix == "last" else 0)
        if prefix != "last" and (
            date(year, start, 1) <= today.replace(day=1) if prefix != "next" else start <= today.month
        ):
            year += 1
        end = _add_months(date(year, start, 1), 2)
        span = f"{year:04d}-{start:02d}/{end.year:04d}-{end.month:02d}"
        return {"resolved": span, "grain": "season", "display": span}
    if g["emonth"] or g["emonth2"]:
        month = _MONTHS_EN.index((g["emonth"] or g["emonth2"]).lower()) + 1
        year_text = g["emyear"] or g["emyear2"]
        year = (
            int(year_text)
            if year_text
            else today.year
            + (1 if month < today.month or ((g["emprefix"] or "").lower() == "next" and month <= today.month) else 0)
        )
        return _month_item(year, month)
    if g["edp"]:
        phrase = g["edp"]
        parsed = _dateparser().parse(
            phrase,
            languages=["en"],
            settings={
                "RELATIVE_BASE": local.replace(tzinfo=None),
                "TIMEZONE": timezone or "UTC",
                "PREFER_DATES_FROM": "future",
                "RETURN_AS_TIMEZONE_AWARE": False,
            },
        )
        if parsed is None:
            return None
        if re.search(r"hours?|minutes?", phrase, re.IGNORECASE):
            moment = parsed.replace(second=0, microsecond=0, tzinfo=tz)
            return {"resolved": moment.isoformat(), "grain": "datetime", "display": moment.strftime("%Y-%m-%d %H:%M")}
        return _day_item(parsed.date(), tz)
    return None


# A month, day or weekday said alone is its next occurrence — unless its clause says the thing is
# already done ("I quit in March", 三月份离职了, "on Friday I met her"): then it is the last one.
_CLAUSE_EDGE = re.compile(r"[。！？!?;；,，\n]|\b(?:and|but|so|then)\b|但是|可是|不过|然后|而且", re.IGNORECASE)
_DONE_EN = re.compile(
    r"\b(?:ago|already|was|were|did|went|came|left|quit|moved|started|began|joined|finished|graduated|"
    r"retired|sold|lost|took|met|married|visited|passed|failed|arrived|returned|switched|changed|resigned|"
    r"relocated|adopted|broke|launched|shipped|released|hired|fired|divorced|opened|closed|ended|"
    r"stopped|became|won|flew|drove|spent|completed|landed|settled|transferred|upgraded|built)\b",
    re.IGNORECASE,
)
# what says the date belongs to something still to come, whatever was done about it ("I enrolled in a course
# that starts in March", "I was informed my exam is on Friday", "bought tickets for the concert in June")
_AHEAD_EN = re.compile(
    r"\b(?:will|won't|gonna|going\s+to|plan|plans|planning|planned|supposed|hope|hoping|want|wants|wanna|intend|"
    r"expect|expecting|scheduled|booked|next|thinking|told|asked|invited|invitation|informed|notified|reminded|have\s+to|has\s+to|"
    r"need\s+to|must|should|would|could|might|may|can|if|when|until|till|by|before|starts?|starting|begins?|beginning|"
    r"opens?|due|upcoming|coming|tickets?|flights?|reservation|appointment|is\s+(?:on|in)|are\s+(?:on|in))\b|'ll\b",
    re.IGNORECASE,
)
_TO_DO = re.compile(
    r"\bto\s+(?:quit|leave|move|start|join|finish|graduate|retire|get|go|come)\b", re.IGNORECASE
)  # "planned to quit"
_DONE_ZH = re.compile(
    r"已经|已經|刚(?!好|才好)|曾经|之前|以前|那天|那次|那会儿?|咗|(?<![为除算对好罢极太])了(?!解)|(?:去|到|做|学|用|待|住|看|吃|玩|干|买|考)过(?![来去])"
)
# 要/会/得 as words of their own, not inside 重要, 开会, 学会, 得到
_AHEAD_ZH = re.compile(
    r"(?<![重需主只])要(?![求点素闻])|(?<![开约聚例晚早大年学体机理社协宴舞个场次])会(?![议员计话所场长])|将|打算|准备|计划|想|"
    r"(?<![获取觉记懂值显])得(?![到了奖分])|预计|即将|快|到时|如果|假如|要是|之后|以后|前要|之前要"
)


def _said_as_done(text: str, start: int, end: int, edges: list[tuple[int, int]]) -> bool:
    """`edges`: the (start, end) of every clause break of `text`, in order."""
    before = bisect.bisect_right(edges, (start, start)) - 1
    while before >= 0 and edges[before][1] > start:
        before -= 1
    left = edges[before][1] if before >= 0 else 0
    after = bisect.bisect_left(edges, (end, -1))
    right = edges[after][0] if after < len(edges) else len(text)
    if text[end:].lstrip().startswith("的"):
        return False  # "三月的机票", "周五的会": the date of something named after it
    causal = re.match(r"\s+(?:is|are|was|has|will)\b", text[end:], re.IGNORECASE)  # "Since March is our busy season"
    if (re.search(r"(?i)\bsince\s*$", text[left:start]) or re.match(r"(?i)since\b", text[start:end])) and not causal:
        return True
    clause = text[left:start] + " " + text[end:right]
    if re.match(r"[^。！？!?\n]*(?:紧张|期待|盼着?|倒计时)", text[end:]):
        return False  # "六月结婚了，好紧张": nerves or hope for what is still to come
    if re.search(r"[\u4e00-\u9fff]", clause):
        done = _DONE_ZH.search(clause)
        if done and done.group() == "了" and re.search(r"就|才|快|该", clause):  # 三月就毕业了: still to come
            done = _DONE_ZH.search(clause, done.end())
        return bool(done) and not _AHEAD_ZH.search(clause)
    return bool(_DONE_EN.search(clause)) and not _AHEAD_EN.search(clause) and not _TO_DO.search(text[left:start])


def _bare(match: re.Match) -> str:
    """Which kind of date said without its year, month or week the match is: "month", "month_day",
    "day_of_month", "weekday", "weekend" — or "" when it says where it sits itself (下周五, next March)."""
    g = match.groupdict()
    if g.get("bm") or (
        g.get("emonth") and not g.get("emyear") and (g.get("emprefix") or "").lower() not in ("next", "this")
    ):
        return "month"
    if (g.get("m") and not g.get("y")) or (
        g.get("edp")
        and re.search(r"(?i)[a-z]{3}", g["edp"])
        and not re.search(r"\d{4}|\b(?:in|ago|from|later)\b", g["edp"], re.IGNORECASE)
    ):
        return "month_day"
    if g.get("bd") or g.get("edom"):
        return "day_of_month"
    if g.get("wday") and not g.get("wprefix"):
        return "weekend" if g["wday"] == "末" else "weekday"
    if g.get("eweekday") and (g.get("eprefix") or "").lower() == "on":
        return "weekday"
    return ""


def _last_occurrence(item: dict, bare: str, today: date, tz: ZoneInfo) -> dict:
    """The same month, day or weekday, moved back to its latest occurrence up to today."""
    if item["grain"] == "month":
        year, month = map(int, item["resolved"].split("-"))
        if (year, month) > (today.year, today.month):
            year -= 1
        return _month_item(year, month)
    if item["grain"] == "weekend":
        saturday = date.fromisoformat(item["resolved"].split("/")[0])
        if saturday > today:
            saturday -= timedelta(weeks=1)
        span = f"{saturday.isoformat()}/{(saturday + timedelta(days=1)).isoformat()}"
        return {"resolved": span, "grain": "weekend", "display": span}
    if item["grain"] != "day":
        return item
    day = date.fromisoformat(item["resolved"])
    while day > today:
        if bare == "weekday":
            day -= timedelta(weeks=1)
        elif bare == "day_of_month":
            earlier = _add_months(day.replace(day=1), -1)
            if day.day > calendar.monthrange(earlier.year, earlier.month)[1]:
                return item
            day = earlier.replace(day=day.day)
        else:
            try:
                day = day.replace(year=day.year - 1)
            except ValueError:  # 29 February
                return item
    return _day_item(day, tz)


# Traditional characters of date words, each to its simplified one (same length, so spans still match)
_DATE_T2S = str.maketrans("個禮後週號兩點這時間幾過來還們從於", "个礼后周号两点这时间几过来还们从于")


def resolve_dates(text: str, *, now: datetime | None = None, timezone: str = "UTC") -> tuple[str, list[dict]]:
    """Resolve relative dates against `now` in the subject's `timezone`.

    Returns the rewritten text ("2026-12-01 (明天) 开会") and one dict per expression:
    ``{"original", "resolved", "grain", "span"}``, `span` being (start, end) in the INPUT text.
    """
    if not text:
        return text, []
    tz = _zone(timezone)
    if now is None:
        now = datetime.now(UTC)
    elif now.tzinfo is None:
        now = now.replace(tzinfo=tz)
    local = now.astimezone(tz)

    found: list[dict] = []
    taken: list[tuple[int, int]] = []
    scan = text.translate(_DATE_T2S)  # "下個月", "下禮拜" are read as 下个月, 下礼拜 (one character for one)
    edges = [m.span() for m in _CLAUSE_EDGE.finditer(scan)]
    for regex, resolver in (
        (_ZH_DATE_RE, lambda m: _zh_item(m, local, tz)),
        (_EN_DATE_RE, lambda m: _en_item(m, local, tz, timezone)),
    ):
        for match in regex.finditer(scan):
            start, end = match.span()
            original = text[start:end]  # as the person wrote it
            # "on Friday": the preposition stays outside the annotation
            lead = re.match(r"(?i)(?:on|by|until|till)\s+", original)
            if lead:
                start += lead.end()
                original = text[start:end]
            if any(start < t_end and t_start < end for t_start, t_end in taken):
                continue
            if _ALREADY.search(text[:start]):
                continue
            item = resolver(match)
            if item is None:
                continue
            if (bare := _bare(match)) and _said_as_done(scan, start, end, edges):
                item = _last_occurrence(item, bare, local.date(), tz)
            taken.append((start, end))
            found.append(
                {
                    "original": original,
                    "resolved": item["resolved"],
                    "grain": item["grain"],
                    "span": (start, end),
                    "display": item["display"],
                }
            )
    found.sort(key=lambda i: i["span"][0])
    rewritten = _apply(text, found, lambda i: f"{i['display']} ({i['original']})")
    for item in found:
        item.pop("display")
    return rewritten, found


# --- units -------------------------------------------------------------------------------------

_BINARY = {"": 0, "k": 1, "m": 2, "g": 3, "t": 4, "p": 5}
_BINARY_NAMES = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"]
_MEMORY_CONTEXT = re.compile(
    r"内存|显存|硬盘|磁盘|存储|空间|容量|缓存|堆|交换|memory|\bram\b|\bdisk|storage|\bheap|\bswap|vram|"
    r"\bvolume|quota|\bcache|\bssd|\bhdd|-xm[xs]",
    re.IGNORECASE,
)
_SIZE_RE = re.compile(
    rf"(?<![A-Za-z0-9.])(?P<num>{_NUM})\s*(?P<ge>个)?\s*"
    r"(?P<unit>[KkMmGgTtPp]i[Bb]|[KMGTP]B|[kmgtp]b|[KMGTPkmgtp](?![A-Za-z])|兆(?!网|宽带|带宽|光纤)|bytes?|字节)"
    r"(?![A-Za-z0-9])(?!\s*(?:网|network|信号|手机|phone|基站|套餐|LTE|bps|/s))",
)
_DURATION_UNITS = [  # (pattern, seconds)
    (r"ms|msec|毫秒|milliseconds?", 0.001),
    (r"s|secs?|seconds?|秒钟?", 1.0),
    (r"mins?|minutes?|分钟", 60.0),
    (r"h|hrs?|hours?|个?小时|个?钟头", 3600.0),
    (r"days?|天", 86400.0),
]
_DURATION_RE = re.compile(
    rf"(?<![A-Za-z0-9.第这那])(?P<num>{_NUM}|半)(?P<gehalf>个半)?\s*(?P<unit>"
    + "|".join(f"(?:{p})" for p, _ in _DURATION_UNITS)
    + r")(?P<half>半)?(?![A-Za-z0-9])(?!\s*(?:后|以后|之后|前|以前|之前|ago|from now|later))",
    re.IGNORECASE,
)


def _size_item(match: re.Match, text: str) -> dict | None:
    number = cn_number(match["num"])
    unit = match["unit"]
    if number is None:
        return None
    lower = unit.lower()
    if lower in ("byte", "bytes", "字节"):
        power = 0
    elif unit == "兆":
        power = 2
    else:
        power = _BINARY[lower[0]]
    bare = len(unit) == 1 and unit != "兆"
    needs_context = unit == "兆" or (bare and (lower in ("k", "m", "p") or unit.islower()))  # "50g" may be grams
    if needs_context:
        window = text[max(0, match.start() - 12) : match.end() + 12]
        if not _MEMORY_CONTEXT.search(window):
            return None
    if bare and lower in ("g", "t") and match["num"] in ("3", "4", "5") and not match["ge"]:
        window = text[max(0, match.start() - 12) : match.end() + 12]
        if not _MEMORY_CONTEXT.search(window):  # "4G" / "5G" are mobile networks
            return None
    size = number * 1024**power
    canonical = None
    for index in range(len(_BINARY_NAMES) - 1, -1, -1):
        value = size / 1024**index
        if value >= 1 and abs(value * 100 - round(value * 100)) < 1e-6:
            canonical = f"{_fmt_number(value)} {_BINARY_NAMES[index]}"
            break
    if canonical is None:
        for index in range(len(_BINARY_NAMES) - 1, -1, -1):
            if size / 1024**index >= 1:
                canonical = f"{_fmt_number(round(size / 1024**index, 2))} {_BINARY_NAMES[index]}"
                break
    if canonical is None:
        return None
    return {"canonical": canonical, "quantity": "bytes", "value": size}


_DURATION_NAMES = [("d", 86400.0), ("h", 3600.0), ("min", 60.0), ("s", 1.0), ("ms", 0.001)]


def _duration_item(match: re.Match, text: str) -> dict | None:
    number = 0.5 if match["num"] == "半" else cn_number(match["num"])
    if number is None:
        return None
    if match["gehalf"] or match["half"]:
        number += 0.5
    unit = match["unit"]
    if unit == "天" and match["num"] == "一" and not match["half"]:  # "一天" is usually "one day", not a span
        return None
    seconds_per = next(s for p, s in _DURATION_UNITS if re.fullmatch(p, unit, re.IGNORECASE))
    if unit.lower() == "s":
        before = text[max(0, match.start() - 12) : match.start()]
        if re.search(r"[A-Z][A-Za-z]*\s*$", before):  # "iPhone 5s"
            return None
    seconds = number * seconds_per
    canonical = None
    for name, size in _DURATION_NAMES:
        value = seconds / size
        if value < 1:
            continue
        if name == "d" and abs(value - round(value)) > 1e-9:
            continue
        if abs(value * 10 - round(value * 10)) < 1e-6:
            canonical = f"{_fmt_number(value)} {name}"
            break
    if canonical is None:
        return None
    return {"canonical": canonical, "quantity": "duration", "value": seconds}


def canonical_units(text: str) -> tuple[str, list[dict]]:
    """Rewrite sizes and durations as "<canonical> (<original>)".

    Returns the text and ``{"original", "canonical", "quantity" ("bytes"|"duration"),
    "value" (bytes or seconds), "span"}`` per expression. Already canonical expressions are
    listed but left untouched in the text.
    """
    if not text:
        return text, []
    found: list[dict] = []
    taken: list[tuple[int, int]] = []
    for regex, build in ((_SIZE_RE, _size_item), (_DURATION_RE, _duration_item)):
        for match in regex.finditer(text):
            start, end = match.span()
            if any(start < t_end and t_start < end for t_start, t_end in taken):
                continue
            if _ALREADY_UNIT.search(text[:start]):
                continue
            item = build(match, text)
            if item is None:
                continue
            taken.append((start, end))
            found.append({"original": match.group(0), **item, "span": (start, end)})
    found.sort(key=lambda i: i["span"][0])
    changed = [i for i in found if "".join(i["original"].split()) != "".join(i["canonical"].split())]
    return _apply(text, changed, lambda i: f"{i['canonical']} ({i['original']})"), found


_ALREADY_UNIT = re.compile(r"\d\s*(?:[KMGTP]iB|B|ms|s|min|h|d)\s*[(（]\s*$")


# --- keys --------------------------------------------------------------------------------------

_KEY_SYNONYMS: dict[str, tuple[str, ...]] = {
    "programming_language": (
        "编程语言",
        "主要语言",
        "主力语言",
        "常用语言",
        "开发语言",
        "主要编程语言",
        "主力编程语言",
        "写代码的语言",
        "programming language",
        "main language",
        "primary language",
        "primary programming language",
        "main programming language",
        "coding language",
        "preferred programming language",
        "language of choice",
        "favorite programming language",
        "favourite programming language",
        "dev language",
        "code language",
        "language",
        "语言",
        "编程",
        "写代码",
    ),
    "spoken_languages": (
        "会说的语言",
        "会的语言",
        "语言能力",
        "外语",
        "spoken language",
        "spoken languages",
        "languages spoken",
        "languages i speak",
    ),
    "reply_language": (
        "回复语言",
        "回答语言",
        "答复语言",
        "输出语言",
        "对话语言",
        "交流语言",
        "沟通语言",
        "语言偏好",
        "回复的语言",
        "回答的语言",
        "answer language",
        "reply language",
        "response language",
        "language for replies",
        "language for answers",
        "language for responses",
        "preferred language",
        "preferred reply language",
        "output language",
        "chat language",
        "communication language",
        "answer in",
    ),
    "report_language": (
        "报告语言",
        "报告的语言",
        "文档语言",
        "report language",
        "language for reports",
        "document language",
        "docs language",
    ),
    "reply_length": (
        "回答长度",
        "回复长度",
        "答复长度",
        "篇幅",
        "回答篇幅",
        "answer length",
        "reply length",
        "response length",
        "verbosity",
        "length of answers",
    ),
    "reply_style": (
        "回答风格",
        "回复风格",
        "答复风格",
        "说话风格",
        "语气",
        "answer style",
        "reply style",
        "response style",
        "tone",
        "writing style",
        "communication style",
    ),
    "reply_format": (
        "回答格式",
        "回复格式",
        "输出格式",
        "答复格式",
        "answer format",
        "reply format",
        "response format",
        "output format",
        "formatting",
        "format",
    ),
    "diet": (
        "饮食",
        "饮食习惯",
        "饮食限制",
        "饮食禁忌",
        "忌口",
        "饮食偏好",
        "食物限制",
        "diet",
        "dietary restriction",
        "dietary restrictions",
        "food restriction",
        "food restrictions",
        "eating habits",
        "dietary needs",
        "dietary preference",
    ),
    "allergy": (
        "过敏",
        "过敏源",
        "过敏原",
        "过敏史",
        "过敏物",
        "食物过敏",
        "allergies",
        "allergy",
        "allergic to",
        "food allergy",
        "food allergies",
        "allergens",
    ),
    "city": (
        "所在城市",
        "城市",
        "住在",
        "居住地",
        "居住城市",
        "常住地",
        "住的城市",
        "现居",
        "现居地",
        "所在地",
        "location",
        "city",
        "current city",
        "home city",
        "where i live",
        "lives in",
        "live in",
        "residence",
        "based in",
        "current location",
    ),
    "hometown": (
        "老家",
        "家乡",
        "籍贯",
        "出生地",
        "故乡",
        "hometown",
        "home town",
        "place of origin",
        "origin",
        "birthplace",
        "from",
    ),
    "work_city": (
        "工作城市",
        "工作地点",
        "上班地点",
        "办公地点",
        "工作地",
        "work location",
        "office location",
        "work city",
        "office city",
    ),
    "job_title": (
        "职业",
        "工作",
        "职位",
        "岗位",
        "头衔",
        "职务",
        "干什么的",
        "job",
        "job title",
        "occupation",
        "profession",
        "role",
        "position",
        "title",
        "work",
    ),
    "employer": (
        "公司",
        "雇主",
        "所在公司",
        "就职公司",
        "单位",
        "工作单位",
        "company",
        "employer",
        "workplace",
        "works at",
        "work at",
        "organization",
    ),
    "editor": (
        "编辑器",
        "代码编辑器",
        "常用编辑器",
        "文本编辑器",
        "ide",
        "editor",
        "code editor",
        "text editor",
        "preferred editor",
        "favorite editor",
        "favourite editor",
        "main editor",
    ),
    "timezone": ("时区", "所在时区", "time zone", "timezone", "tz", "local timezone"),
    "name": (
        "名字",
        "姓名",
        "全名",
        "大名",
        "中文名",
        "英文名",
        "真名",
        "name",
        "real name",
        "full name",
        "first name",
        "given name",
    ),
    "preferred_name": ("称呼", "昵称", "怎么称呼", "叫我", "nickname", "preferred name", "call me", "what to call me"),
    "database": (
        "数据库",
        "主数据库",
        "常用数据库",
        "db",
        "database",
        "primary database",
        "main database",
        "database engine",
        "rdbms",
    ),
    "os": ("操作系统", "系统", "电脑系统", "os", "operating system"),
    "shell": ("shell", "命令行", "终端shell", "default shell"),
    "tech_stack": ("技术栈", "技术选型", "stack", "tech stack", "technology stack", "tech"),
    "framework": ("框架", "web框架", "开发框架", "framework", "web framework"),
    "cloud": ("云", "云服务", "云服务商", "云平台", "cloud", "cloud provider", "cloud platform"),
    "budget": ("预算", "预算上限", "budget", "max budget", "budget limit", "spending limit"),
    "meeting_hours": (
        "会议时间",
        "开会时间",
        "会议安排",
        "meeting hours",
        "meeting time",
        "meetings",
        "meeting schedule",
    ),
    "availability": ("空闲时间", "可用时间", "工作时间", "availability", "working hours", "work hours", "schedule"),
    "income": ("工资", "薪水", "薪资", "月薪", "年薪", "收入", "salary", "income", "pay", "wage", "wages", "earnings"),
    "debt": ("欠款", "债务", "负债", "欠债", "贷款", "debt", "debts", "loan", "loans"),
    "religion": ("宗教", "信仰", "宗教信仰", "religion", "faith", "religious belief"),
    "politics": ("政治立场", "政治倾向", "党派", "political view", "political views", "politics", "party"),
    "sexuality": ("性取向", "sexual orientation", "orientation", "sexuality"),
    "health_condition": (
        "疾病",
        "病",
        "健康状况",
        "身体状况",
        "病史",
        "慢性病",
        "health condition",
        "medical condition",
        "illness",
        "condition",
        "diagnosis",
        "health",
    ),
    "medication": ("药", "用药", "药物", "服药", "吃的药", "medication", "medications", "medicine", "meds", "drugs"),
    "emotional_state": ("情绪", "心情", "心理状态", "情绪状态", "mood", "emotional state", "feelings", "mental state"),
    "hobby": ("爱好", "兴趣", "兴趣爱好", "业余爱好", "hobby", "hobbies", "interests", "pastime"),
    "pet": ("宠物", "pet", "pets"),
    "children": ("孩子", "小孩", "子女", "children", "kids"),
    "spouse": ("配偶", "爱人", "另一半", "spouse", "partner", "wife", "husband", "老婆", "老公", "妻子", "丈夫"),
    "marital_status": ("婚姻状况", "婚姻", "marital status"),
    "habit": ("习惯", "日常", "habit", "habits", "routine"),
    "laptop": ("电脑", "笔记本", "笔记本电脑", "工作电脑", "主力机", "laptop", "computer", "notebook", "work laptop"),
    "phone": ("手机", "phone", "mobile phone", "smartphone", "cell phone"),
    "terminal": ("终端", "terminal", "terminal emulator"),
    "team_chat": ("沟通工具", "聊天工具", "办公软件", "im", "chat tool", "team chat", "messaging"),
    "code_hosting": ("代码托管", "代码仓库", "代码平台", "code hosting", "git hosting", "repository host"),
    "design_tool": ("设计工具", "design tool", "design tools"),
    "memory_limit": ("内存上限", "内存限制", "内存", "memory limit", "memory", "ram", "container memory limit"),
    "native_language": ("母语", "native language", "mother tongue", "first language"),
    "order_number": ("订单号", "订单编号", "订单", "单号", "order number", "order id", "order no", "order"),
    "birthday": ("生日", "出生日期", "birthday", "date of birth", "dob"),
    "school": ("学校", "母校", "大学", "school", "university", "college", "alma mater"),
    "major": ("专业", "major", "field of study"),
    "industry": ("行业", "所在行业", "industry", "field", "sector"),
    "work_mode": ("办公方式", "工作方式", "远程办公", "work mode", "remote work", "work arrangement"),
    "browser": ("浏览器", "browser", "web browser"),
    "spice": ("辣", "吃辣", "辣度", "辣味", "spice", "spicy", "spicy food", "spice level"),
}


def _slug(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold().strip()
    text = re.sub(r"[^\w\s-]", "", text)
    return re.sub(r"[-\s_]+", "_", text).strip("_")


_SYNONYM_INDEX = {_slug(word): canonical for canonical, words in _KEY_SYNONYMS.items() for word in words}
_SYNONYM_INDEX.update({canonical: canonical for canonical in _KEY_SYNONYMS})
_KEY_PREFIXES = re.compile(
    r"^(?:my_|our_|the_|user_s?_|users_|favorite_|favourite_|preferred_|我的|我们的|用户的|用户)"
)


def canonical_key(key: str) -> str:
    """Synonyms → one key ("主要语言" → "programming_language"); otherwise a snake_case slug."""
    slug = _slug(key)[:128]
    if not slug:
        return ""
    if slug in _SYNONYM_INDEX:
        return _SYNONYM_INDEX[slug]
    stripped = _KEY_PREFIXES.sub("", slug)
    for candidate in (stripped, stripped.removesuffix("s"), stripped.removesuffix("_s")):
        if candidate and candidate in _SYNONYM_INDEX:
            return _SYNONYM_INDEX[candidate]
    return slug


def known_key(key: str) -> str:
    """The canonical key when `key` is one of the synonyms above ("内存上限" → "memory_limit"), else ""."""
    slug = _slug(key)[:128]
    canonical = canonical_key(key)
    return canonical if slug and (canonical != slug or slug in _KEY_SYNONYMS) else ""
