"""What changed between two versions of a memory, character by character (works for Chinese)."""

from difflib import SequenceMatcher

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe


def diff_html(before: str, after: str) -> SafeString:
    parts = []
    for op, a1, a2, b1, b2 in SequenceMatcher(None, before, after, autojunk=False).get_opcodes():
        if op == "equal":
            parts.append(escape(before[a1:a2]))
        if op in ("delete", "replace"):
            parts.append(f"<del>{escape(before[a1:a2])}</del>")
        if op in ("insert", "replace"):
            parts.append(f"<ins>{escape(after[b1:b2])}</ins>")
    return mark_safe("".join(parts))
