"""Real-browser tests: Playwright drives Debian's Chromium against a live server on the real database.

Screenshots of each step go to test-output/screenshots/ (kept as files). Without /usr/bin/chromium
the tests are skipped locally and fail in CI (CI=true), where .ci/run installs it.
"""

import os
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"

# Playwright's sync API runs an event loop in this thread; the ORM calls made by the tests
# themselves (setting up data) are still plain synchronous code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


# Module scope, not session: while sync_playwright() is open its event loop runs in this thread, and
# any later test that calls asyncio.run() (the async client, the MCP SDK's client) would fail.
@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        message = f"{CHROMIUM} is missing: apt-get install chromium chromium-driver"
        pytest.fail(message) if os.environ.get("CI") else pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield browser
        browser.close()


class Page:
    """A browser tab that records console errors and saves numbered screenshots."""

    def __init__(self, page, base_url: str, name: str) -> None:
        self.page, self.base_url, self.name = page, base_url, name
        self.errors: list[str] = []
        self.shots = 0
        page.on("console", lambda message: message.type == "error" and self.errors.append(message.text))
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("dialog", lambda dialog: dialog.accept())

    def go(self, path: str) -> None:
        self.page.goto(self.base_url + path)

    def shot(self, step: str) -> Path:
        self.shots += 1
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{self.name}-{self.shots:02d}-{step}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path


@pytest.fixture
def open_page(browser, live_server, request):
    contexts = []

    def open_page(*, width: int = 1280, height: int = 900, locale: str = "en-US", bypass_csp: bool = False) -> Page:
        # bypass_csp: only for injecting a test tool (axe-core) into pages whose CSP forbids inline script
        context = browser.new_context(
            viewport={"width": width, "height": height}, locale=locale, accept_downloads=True, bypass_csp=bypass_csp
        )
        contexts.append(context)
        return Page(context.new_page(), live_server.url, request.node.name.removeprefix("test_"))

    yield open_page
    for context in contexts:
        context.close()
