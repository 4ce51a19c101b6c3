"""What changed between two versions of a memory: English by word, Chinese by character; a
placeholder of removed personal data (<CN_MOBILE>) is one token, shown as people see it."""

import json
import re
from difflib import SequenceMatcher

from django.utils.safestring import SafeString, mark_safe

from apps.privacy.labels import PLACEHOLDER, placeholders_html

_TOKENS = re.compile(PLACEHOLDER.pattern + r"|[A-Za-z0-9_]+|\s+|.", re.DOTALL)


def _tokens(text: str) -> list[str]:
    return [match.group(0) for match in _TOKENS.finditer(text)]


def diff_html(before: str, after: str) -> SafeString:
    old, new = _tokens(before), _tokens(after)
    parts: list[str] = []
    for op, a1, a2, b1, b2 in SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if op == "equal":
            parts.append(placeholders_html("".join(old[a1:a2])))
        if op in ("delete", "replace"):
            parts.append(f"<del>{placeholders_html(''.join(old[a1:a2]))}</del>")
        if op in ("insert", "replace"):
            parts.append(f"<ins>{placeholders_html(''.join(new[b1:b2]))}</ins>")
    return mark_safe("".join(parts))


def event_changes(before: dict, after: dict) -> dict:
    """What an audit event's before/after say, for the log: `text` (the memory text as stored, or
    what changed in it), and `fields` — (name, before, after) for every other value that differs,
    or that one side alone records (a key's prefix, a webhook's URL, how many versions were erased)."""
    before, after = before or {}, after or {}
    old, new = before.get("text"), after.get("text")
    text: str
    if old is not None and new is not None and old != new:
        text = diff_html(old, new)
    else:
        text = placeholders_html(new if new is not None else old or "") if (new or old) else ""
    if (old is None) != (new is None):  # a memory written (or a snapshot kept) whole: its text says it
        return {"text": text, "fields": []}
    fields = [
        (name, _shown(before.get(name)), _shown(after.get(name)))
        for name in dict.fromkeys([*before, *after])
        if name not in _IN_TEXT and before.get(name) != after.get(name)
    ]
    return {"text": text, "fields": fields}


_IN_TEXT = ("text", "value")  # a fact's text is "key: value": its value is in the text already


def _shown(value) -> SafeString | str:
    if value is None:
        return ""
    if isinstance(value, (dict, list)):
        return placeholders_html(json.dumps(value, ensure_ascii=False, sort_keys=True))
    return placeholders_html(str(value))
