"""External ids in API paths with bidi controls or other control/format characters get 400 naming
`external_id`, on every endpoint that takes one; nothing is stored."""

from urllib.parse import quote

import pytest

from apps.accounts.models import PortalLink, Subject
from apps.memories.models import Ingest, Memory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "method, path, body",
    [
        ("post", "facts", {"key": "tone", "value": "formal", "category": "preference"}),
        ("post", "episodes", {"text": "退款已提交"}),
        ("post", "turns", {"turn_id": "t-1", "user_message": "我不吃辣"}),
        ("post", "recall", {"query": "tea"}),
        ("post", "portal-link", None),
        ("get", "memories", None),
        ("get", "export", None),
        ("get", "", None),
    ],
)
@pytest.mark.parametrize("char", ["\u202e", "\u2066", "\u200f", "\x7f", "\u200b"], ids=lambda c: f"U+{ord(c):04X}")
def test_an_external_id_with_a_bidi_or_control_character_gets_400(api, method, path, body, char):
    url = f"/api/v1/subjects/{quote('alice' + char + 'gnp')}" + (f"/{path}" if path else "")

    response = getattr(api, method)(url, body, format="json")

    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "invalid" and "control" in " ".join(error["fields"]["external_id"])
    assert (Subject.objects.count(), Memory.objects.count(), Ingest.objects.count(), PortalLink.objects.count()) == (
        0,
        0,
        0,
        0,
    )
