"""One small HTTP client for the attack suites that talk to pytest-django's live_server over plain
HTTP (urllib), the way an outside client would: JSON, form or raw bodies, an optional bearer key,
a cookie header or a cookie jar, extra headers; redirects are not followed (a 3xx is the answer)."""

import json
import re
from dataclasses import dataclass
from http.cookiejar import CookieJar
from urllib.error import HTTPError
from urllib.parse import urlencode
from urllib.request import HTTPCookieProcessor, HTTPRedirectHandler, Request, build_opener


@dataclass
class Answer:
    status: int
    headers: dict
    text: str

    def json(self):
        return json.loads(self.text)

    @property
    def data(self):
        """The body parsed as JSON when the server says it is JSON, else the text."""
        kind = next((value for name, value in self.headers.items() if name.lower() == "content-type"), "")
        return self.json() if "json" in kind and self.text else self.text


class _DoNotFollow(HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # a 3xx comes back as the answer


class LiveClient:
    """A cookie-keeping client of the live server. `key` is sent as a bearer token, `cookie` as a
    Cookie header (instead of the jar's), `prefix` goes before every path."""

    def __init__(self, base_url: str, *, key: str = "", cookie: str = "", prefix: str = "") -> None:
        self.base_url, self.key, self.cookie, self.prefix = base_url, key, cookie, prefix
        self.cookies = CookieJar()
        self.opener = build_opener(HTTPCookieProcessor(self.cookies), _DoNotFollow())

    def request(self, method: str, path: str, *, body=None, form=None, raw: str | None = None, headers=None) -> Answer:
        data, sent = None, {}
        if raw is not None:
            data, sent["Content-Type"] = raw.encode(), "application/json"
        elif body is not None:
            data, sent["Content-Type"] = json.dumps(body).encode(), "application/json"
        elif form is not None:
            data, sent["Content-Type"] = urlencode(form).encode(), "application/x-www-form-urlencoded"
        if self.key:
            sent["Authorization"] = f"Bearer {self.key}"
        if self.cookie:
            sent["Cookie"] = self.cookie
        sent.update(headers or {})
        request = Request(self.base_url + self.prefix + path, data=data, method=method, headers=sent)
        try:
            with self.opener.open(request, timeout=30) as response:
                return Answer(response.status, dict(response.headers), response.read().decode())
        except HTTPError as error:
            return Answer(error.code, dict(error.headers), error.read().decode())

    def __call__(self, method: str, path: str, body=None, **headers) -> Answer:
        return self.request(method, path, body=body, headers=headers)

    def call(self, method: str, path: str, body=None, *, raw: str | None = None, **headers):
        """(status, JSON or text) of one request."""
        answer = self.request(method, path, body=body, raw=raw, headers=headers)
        return answer.status, answer.data

    def session_cookie(self) -> str | None:
        return next((c.value for c in self.cookies if c.name == "sessionid"), None)

    def post_form_of(self, path: str) -> Answer:
        """Open a page and submit its (CSRF-protected) form, as a person clicking would."""
        page = self.request("GET", path)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
        assert token, page.text[:500]
        return self.request("POST", path, form={"csrfmiddlewaretoken": token.group(1)})
