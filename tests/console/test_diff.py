from apps.console.diff import diff_html


def test_english_changes_are_shown_by_word():
    assert diff_html("city: Shanghai", "city: Hangzhou") == "city: <del>Shanghai</del><ins>Hangzhou</ins>"


def test_chinese_changes_are_shown_by_character():
    assert diff_html("喜欢喝乌龙茶", "喜欢喝红茶") == "喜欢喝<del>乌龙</del><ins>红</ins>茶"


def test_text_is_escaped():
    assert diff_html("<b>", "<i>") == "&lt;<del>b</del><ins>i</ins>&gt;"


def test_a_placeholder_is_one_token_shown_as_hidden_personal_data():
    html = diff_html("call <CN_MOBILE>", "mail <EMAIL_ADDRESS>")

    assert "<del>call</del><ins>mail</ins>" in html
    assert '<del><span class="pii-token"' in html and "phone number (hidden)" in html
    assert '<ins><span class="pii-token"' in html and "email address (hidden)" in html
    assert "&lt;" not in html
