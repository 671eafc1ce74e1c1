"""Headless Debian Chromium driven by Playwright, for the web page's tests.

Playwright's own browser downloads are never used (`playwright install` is not run): it launches the
system's `/usr/bin/chromium`, which `scripts/chromium.sh` installs with apt. Playwright gives each launch a
fresh temporary profile (it refuses `--user-data-dir`), and the flags keep Chromium from calling home on the
closed network.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Playwright, sync_playwright

CHROMIUM = Path("/usr/bin/chromium")
NOT_INSTALLED = f"{CHROMIUM} is not installed: run scripts/chromium.sh (apt; it uses sudo when not run as root)."
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
JOURNAL: list[str] = []
"""What the pages of this process's contexts printed to their console and which of their requests failed, with the
monotonic time: tests/e2e/conftest.py empties it before each test and adds it to the report of a test that failed."""


@contextmanager
def chromium() -> Iterator[Browser]:
    """A headless Chromium for the test; FAILS (never skips) when Chromium is not installed."""
    if not CHROMIUM.exists():
        pytest.fail(NOT_INSTALLED, pytrace=False)
    playwright: Playwright = sync_playwright().start()
    try:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=FLAGS
        )
        try:
            yield browser
        finally:
            browser.close()
    finally:
        playwright.stop()


def phone(browser: Browser, *, locale: str) -> BrowserContext:
    """A fresh phone-sized context (390×844) whose browser language is `locale`."""
    context = browser.new_context(viewport=PHONE, locale=locale, device_scale_factor=2, is_mobile=True, has_touch=True)
    context.set_default_timeout(30_000)
    context.on("console", lambda m: JOURNAL.append(f"{time.monotonic():.2f} console.{m.type}: {m.text}"))
    context.on("requestfailed", lambda r: JOURNAL.append(f"{time.monotonic():.2f} failed: {r.method} {r.url} {r.failure}"))
    return context
