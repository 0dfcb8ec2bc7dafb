"""Screenshots of the play page for docs/play.md (desktop 1280x800 and phone 390x844).

Runs a play server on a free loopback port (seeded deals, the ``call`` agent so that the
hand reaches a showdown), drives Debian's Chromium with Playwright to the end of a hand
played to a showdown, and writes ``docs/play_desktop.png`` and ``docs/play_phone.png``
(plus a mid-hand phone view, ``docs/play_phone_turn.png``)::

    .venv/bin/python benchmarks/play_screenshots.py [--out docs]

Existing files are replaced (they are figures of this script).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(Path(__file__).resolve().parents[1] / "docs"))
    ap.add_argument("--seed", type=int, default=21)
    args = ap.parse_args(argv)
    out = Path(args.out)
    if not out.is_dir():
        print(f"error: --out {str(out)!r} is not a folder", file=sys.stderr)
        return 2
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        print("error: Chromium is missing (apt-get install -y chromium)", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    from pokerlab.play.server import BackgroundServer, ServerConfig

    with tempfile.TemporaryDirectory() as tmp:
        cfg = ServerConfig(agent="call", out_dir=tmp, seed=args.seed)
        with BackgroundServer(cfg) as url, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            for name, (w, h) in (("desktop", (1280, 800)), ("phone", (390, 844))):
                ctx = browser.new_context(viewport={"width": w, "height": h},
                                          device_scale_factor=1)
                page = ctx.new_page()
                page.set_default_timeout(60_000)
                page.goto(f"{url}/?game=hunl&agent=call&pace=0")
                page.wait_for_function("window.pokerlab && window.pokerlab.tables > 0")

                def step(sel: str, page: Any = page) -> None:
                    n = page.evaluate("window.pokerlab.tables")
                    page.click(sel)
                    page.wait_for_function(
                        "n => window.pokerlab.tables > n && !window.pokerlab.pending", arg=n)

                step("#btn-fold")   # hand 1: fold the button
                step("#btn-deal")   # hand 2: the agent limps, the person is to act
                if name == "phone":
                    page.screenshot(path=str(out / "play_phone_turn.png"))
                step("#btn-call")   # check: the flop
                page.click("#quick-pot")
                step("#btn-raise")  # pot bet, called: the turn
                page.click("#quick-allin")
                step("#btn-raise")  # all-in, called: the showdown
                page.check("#coach-toggle")
                page.wait_for_function("window.pokerlab.coachOn === true")
                page.wait_for_timeout(300)
                page.screenshot(path=str(out / f"play_{name}.png"), full_page=(name == "phone"))
                ctx.close()
            browser.close()
    for f in ("play_desktop.png", "play_phone.png", "play_phone_turn.png"):
        print(out / f)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
