"""Properties of the gate for any text: it never fails, findings are sound spans of the original,
and what it leaves outside them is the original, character for character."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from apps.privacy import redact

# Text that looks like what reaches the gate: digits (ASCII, full-width, Chinese), separators,
# format characters, CJK and Latin letters, "@" and "+".
ALPHABET = st.sampled_from(
    list(
        "0123456789０１２３４５６７８９一二三四五六七八九零 -./_,()+@＠．。"
        "xX电话手机号码callmeTel邮箱abc\u200b\u200d\ufeff\u202e\n"
    )
)
TEXTS = st.text(alphabet=ALPHABET, max_size=120) | st.text(max_size=80)


@settings(max_examples=400, deadline=None)
@given(TEXTS)
def test_any_text_is_redacted_without_error_into_disjoint_spans_of_the_original(text: str) -> None:
    result = redact(text)

    spans = sorted((f.start, f.end) for f in result.findings)
    assert all(0 <= a < b <= len(text) for a, b in spans)
    assert all(b1 <= a2 for (_, b1), (a2, _) in zip(spans, spans[1:], strict=False))
    rebuilt, last = [], 0
    for (a, b), finding in zip(spans, sorted(result.findings, key=lambda f: f.start), strict=True):
        rebuilt.append(text[last:a] + f"<{finding.entity_type}>")
        last = b
    assert result.text == "".join(rebuilt) + text[last:]
