"""The served site, one Chromium and fresh pages for the browser tests (one server and one browser for the package's
browser tests)."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.site import Site, serve

CHROMIUM = os.environ.get("TURNSTILE_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(os.environ.get("TURNSTILE_ARTIFACTS", Path(__file__).resolve().parents[2] / ".artifacts" / "web"))


def _need_chromium() -> None:
    """Skip loudly without Chromium, or fail in CI, which installs it (.ci/run)."""
    if shutil.which(CHROMIUM) or Path(CHROMIUM).exists():
        return
    message = f"browser tests need Chromium at {CHROMIUM} (apt-get install -y chromium)"
    if os.environ.get("TURNSTILE_REQUIRE_SERVICES") == "1":
        pytest.fail(message + "; CI installs it (.ci/run)")
    pytest.skip(message)


@pytest.fixture(scope="package")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """The served site."""
    _need_chromium()
    yield from serve(tmp_path_factory.mktemp("web") / "web.db")


@pytest.fixture(scope="package")
def browser(site: Site) -> Iterator[Any]:
    """One Chromium for the module."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


class Recorder:
    """Every request a page makes, and the text of every JSON or SVG answer it receives."""

    # The log and the record show cards that were public when played: a card in a hand now may have been on the table
    # before a reshuffle. Their redaction is checked event by event in tests/conformance; here, the table as it is.
    HISTORY = re.compile(r"/(events|export|verifications)(\?|$)")

    def __init__(self, page: Any) -> None:
        self.urls: list[str] = []
        self.bodies: list[str] = []
        page.on("request", lambda request: self.urls.append(request.url))
        page.on("response", self.keep)

    def keep(self, response: Any) -> None:
        kind = response.headers.get("content-type", "")
        if ("json" in kind or "svg" in kind) and not self.HISTORY.search(response.url):
            with contextlib.suppress(Exception):  # an answer the page let go of has no body to read
                self.bodies.append(response.text())


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh page (its own session storage). The tests wait on JavaScript conditions, which the pages' CSP forbids:
    bypassed here, so the XSS test also shows the page itself never turns a name into markup."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True, bypass_csp=True)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
    assert errors == [], errors
