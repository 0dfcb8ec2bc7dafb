"""Shared test fixtures: Debian's Chromium driven by Playwright for the browser tests."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest


def chromium_path() -> str:
    """Debian's ``chromium`` (Playwright's own browser download does not work here): missing
    is a failure on CI (``make test`` installs it) and a skip elsewhere."""
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None and os.path.exists("/usr/bin/chromium"):
        path = "/usr/bin/chromium"
    if path is None:
        msg = "Chromium is missing: apt-get install -y chromium (make test does this)"
        if os.environ.get("CI"):
            pytest.fail(msg)
        pytest.skip(msg)
    return path


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium per test module."""
    sync_api = pytest.importorskip("playwright.sync_api")
    path = chromium_path()
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=["--no-sandbox"])
        yield b
        b.close()
