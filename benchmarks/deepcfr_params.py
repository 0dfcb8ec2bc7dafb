"""The Deep CFR network's parameter counts in docs/deepcfr.md, from the code.

Builds the network exactly as the solver does (``pokerlab.deepcfr.solver.make_net`` over
``encoder_for(game)``) and counts its parameters
(``pokerlab.deepcfr.network.count_parameters``) for the sizes the page names, then rewrites
those numbers in docs/deepcfr.md (``--no-write``: print only).  ``tests/test_adapt.py``
checks that the page and the code agree, so the count cannot go stale again.

Usage: ``python benchmarks/deepcfr_params.py [--json] [--no-write]``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "deepcfr.md"

# (game, width, regex whose group 2 is the number, in docs/deepcfr.md)
SITES = (
    ("flop_holdem", 64, r"(3 actions\): )([\d,]+)( parameters)"),
    ("leduc", 64, r"(Leduc at\s+width 64: )([\d,]+)"),
    ("flop_holdem", 32, r"(\(width 32: )([\d,]+)( parameters)"),
)


def count(game: str, width: int) -> int:
    from pokerlab.deepcfr.encoding import encoder_for
    from pokerlab.deepcfr.network import count_parameters
    from pokerlab.deepcfr.solver import make_net
    from pokerlab.games import load_game

    return int(count_parameters(make_net(encoder_for(load_game(game)), width, 0)))


def counts() -> list[dict[str, object]]:
    return [{"game": g, "width": w, "parameters": count(g, w), "pattern": pat}
            for g, w, pat in SITES]


def doc_numbers(text: str) -> list[int | None]:
    out: list[int | None] = []
    for _, _, pat in SITES:
        m = re.search(pat, text)
        out.append(None if m is None else int(m.group(2).replace(",", "")))
    return out


def rewrite(text: str, rows: list[dict[str, object]]) -> str:
    for r in rows:
        pat = str(r["pattern"])
        text, n = re.subn(pat, lambda m, r=r: m.group(1) + f"{r['parameters']:,}"
                          + (m.group(3) if m.lastindex and m.lastindex >= 3 else ""),
                          text, count=1)
        if n != 1:
            raise SystemExit(f"pattern {pat!r} not found in {DOC}")
    return text


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--no-write", action="store_true")
    a = ap.parse_args(argv)
    rows = counts()
    if not a.no_write:
        from pokerlab.io import atomic_write_text

        atomic_write_text(DOC, rewrite(DOC.read_text(), rows))
    if a.json:
        print(json.dumps([{k: v for k, v in r.items() if k != "pattern"} for r in rows]))
    else:
        for r in rows:
            print(f"{r['game']} width {r['width']}: {r['parameters']:,} parameters")
    return 0


if __name__ == "__main__":
    sys.exit(main())
