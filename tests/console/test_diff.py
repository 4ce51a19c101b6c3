from apps.console.diff import diff_html


def test_english_changes_are_shown_by_word():
    assert diff_html("city: Shanghai", "city: Hangzhou") == "city: <del>Shanghai</del><ins>Hangzhou</ins>"


def test_chinese_changes_are_shown_by_character():
    assert diff_html("喜欢喝乌龙茶", "喜欢喝红茶") == "喜欢喝<del>乌龙</del><ins>红</ins>茶"


def test_text_is_escaped():
    assert diff_html("<b>", "<i>") == "&lt;<del>b</del><ins>i</ins>&gt;"
