"""Relative dates people use for plans resolve to absolute ones in the person's time zone, the way
a calendar would read them: a month said alone is its next occurrence, "明年三月" is March of next
year, "下个月 15 号" is a day, "年底" the year's last month."""

from datetime import datetime

import pytest

from apps.memories.extraction.normalize import resolve_dates

NOW = datetime.fromisoformat("2026-11-30T10:00:00+08:00")


def resolved(text: str, timezone: str = "Asia/Shanghai") -> list[str]:
    return [item["resolved"] for item in resolve_dates(text, now=NOW, timezone=timezone)[1]]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("I'm moving to Berlin in January", ["2027-01"]),
        ("launch the shop by the end of January", ["2027-01"]),
        ("we ship in December", ["2026-12"]),
        ("the exam is in March 2028", ["2028-03"]),
        ("明年三月准备去日本玩", ["2027-03"]),
        ("明年3月15号考试", ["2027-03-15"]),
        ("下个月 15 号要去 Singapore 开会", ["2026-12-15"]),
        ("下个月15号交房", ["2026-12-15"]),
        ("我想今年年底前把驾照考下来", ["2026-12"]),
        ("年底之前搬家", ["2026-12"]),
        ("三月份去日本", ["2027-03"]),
        ("我 2027 年 2 月要去 Melbourne 交换", ["2027-02"]),
        ("我生日 2 月 29 号", ["2028-02-29"]),
        ("Planning to move to Toronto next spring", ["2027-03/2027-05"]),
        ("we launch this summer", ["2027-06/2027-08"]),
    ],
)
def test_a_month_or_a_day_of_a_named_month_resolves_to_its_next_occurrence(text, expected):
    assert resolved(text) == expected


@pytest.mark.parametrize("text", ["You may go now", "I may switch jobs in a month", "三个月后再说", "march on"])
def test_words_that_only_look_like_months_are_not_read_as_months(text):
    months = [item for item in resolve_dates(text, now=NOW, timezone="Asia/Shanghai")[1] if item["grain"] == "month"]
    assert months == []


@pytest.mark.parametrize(
    "text, expected",
    [
        ("我 12 号要去面试", ["2026-12-12"]),
        ("二十号交房", ["2026-12-20"]),
        ("我30号搬家", ["2026-11-30"]),
        ("the party is on the 4th", ["2026-12-04"]),
        ("rent is due by the 31st", ["2026-12-31"]),
        ("十二月二十四号平安夜", ["2026-12-24"]),
    ],
)
def test_a_day_of_the_month_said_alone_is_its_next_occurrence(text, expected):
    assert resolved(text) == expected


@pytest.mark.parametrize(
    "text",
    ["我坐 2 号线上班", "住在 8 号楼", "每个月 15 号发工资", "I live on the 3rd floor", "on the 2nd attempt it worked"],
)
def test_numbers_with_hao_or_th_that_are_no_days_stay_as_said(text):
    assert resolved(text) == []


@pytest.mark.parametrize(
    "text, expected",
    [
        ("I quit my job in March", ["2026-03"]),
        ("I graduated in December", ["2025-12"]),
        ("We moved to Leeds in September", ["2026-09"]),
        ("I've lived here since February", ["2026-02"]),
        ("we got married on June 5", ["2026-06-05"]),
        ("I started on the 4th", ["2026-11-04"]),
        ("I met her on Friday", ["2026-11-27"]),
        ("三月份我辞职了", ["2026-03"]),
        ("我3月就已经离职了", ["2026-03"]),
        ("我 12 号刚搬过来", ["2026-11-12"]),
        ("周五我去面试了", ["2026-11-27"]),
        ("十二月二十四号那天我们领的证", ["2025-12-24"]),
    ],
)
def test_a_month_or_day_said_with_something_already_done_is_its_last_occurrence(text, expected):
    assert resolved(text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("我三月份要去日本了", ["2027-03"]),
        ("I planned to quit in March", ["2027-03"]),
        ("Booked flights for Japan in March", ["2027-03"]),
        ("I left Shenzhen in June and I'm moving to Hangzhou in January", ["2026-06", "2027-01"]),
        ("My old contract ended, the new one starts in March", ["2027-03"]),
        ("I moved here in November", ["2026-11"]),
        ("下周五我就辞职了", ["2026-12-11"]),
        ("我三月就毕业了", ["2027-03"]),
        ("I've got a wedding in June", ["2027-06"]),
        ("I was thinking of moving in March", ["2027-03"]),
    ],
)
def test_a_plan_next_to_something_done_still_reads_forward(text, expected):
    assert resolved(text) == expected


def test_a_weekday_said_with_every_is_a_habit_not_a_date():
    assert resolved("逢星期三放学要学钢琴") == []


@pytest.mark.parametrize(
    "text, expected",
    [
        ("I enrolled in a course that starts in March", ["2027-03"]),
        ("I was informed my exam is on Friday", ["2026-12-04"]),
        ("Since March is our busy season I can't travel then", ["2027-03"]),
        ("我已经订了三月的机票", ["2027-03"]),
    ],
)
def test_a_date_that_belongs_to_something_still_to_come_reads_forward_after_a_past_verb(text, expected):
    assert resolved(text) == expected


@pytest.mark.parametrize("text, expected", [("我周五开了个会", ["2026-11-27"]), ("我三月辭咗職", ["2026-03"])])
def test_words_that_only_contain_a_future_marker_do_not_make_a_done_thing_future(text, expected):
    assert resolved(text) == expected


@pytest.mark.parametrize(
    "text, expected", [("六月结婚了，好紧张", ["2027-06"]), ("周五考试了，好期待又好紧张", ["2026-12-04"])]
)
def test_something_coming_said_with_nerves_or_hope_reads_forward(text, expected):
    assert resolved(text) == expected
