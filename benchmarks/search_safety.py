"""Safe against unsafe re-solving on river spots, where best response is exact.

For each spot: a "blueprint" (trunk) strategy is a short DCFR solve; at a node the
searcher re-solves its subtree with the resolve gadget (safe) or on the reached ranges
only (unsafe), the re-solved strategy replaces the trunk's below the node, and the
opponent's exact best response to the combined strategy gives the searcher's
exploitability (% of the starting pot, against the game value from a 3,000-iteration
solve).  Same code path as the search agent
(pokerlab.subgame.resolve).  Writes docs/search_safety.json and prints a table.

    .venv/bin/python benchmarks/search_safety.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from pokerlab.subgame import SpotSolver, make_spot, tree_config
from pokerlab.subgame.resolve import (
    counterfactual_values,
    decision_paths,
    lock_player,
    node_reach,
    root_after,
    strategy_at,
    subgame_spot,
)

TREE = tree_config(bets="50%,100%", raises="2.5x")
RANGES = {
    "wide": ("22+,A2s+,K9s+,QTs+,JTs,ATo+,KJo+,T9s,98s", "55+,A5s+,KTs+,QJs,AJo+,KQo,T8s,86s,J9s"),
    "polar": ("AA,KK,QQ,AK,72o,83o,94o,T5o,J6o", "22+,A2+,K9+,Q9+,J9+,T9"),
}
CASES = [
    ("Ks9h5c2d7s", "wide", ("check",), 1),
    ("Ks9h5c2d7s", "wide", ("bet 50",), 1),
    ("QdJd8c4s2h", "wide", ("check", "bet 50"), 0),
    ("QdJd8c4s2h", "wide", ("check",), 1),
    ("AhTc6d3s3c", "polar", ("check",), 1),
    ("AhTc6d3s3c", "polar", ("bet 100",), 1),
]


def run(trunk_iters: int = 6, resolve_iters: int = 400) -> list[dict[str, object]]:
    rows = []
    for board, rng, prefix, searcher in CASES:
        oop, ip = RANGES[rng]
        spot = make_spot(board=board, pot=100, stack=300, oop=oop, ip=ip, tree=TREE)
        trunk = SpotSolver(spot)
        trunk.solve(iterations=trunk_iters, target_pct=None)
        opp = 1 - searcher
        exact = SpotSolver(spot)
        exact.solve(iterations=3000, target_pct=0.005)
        value_opp = exact.values()[opp]  # the game value for the opponent
        br_trunk = trunk.best_response_values()[opp]
        cbv = counterfactual_values(trunk, prefix, opp, best_response=True)
        _, r0, r1 = node_reach(trunk, prefix)
        acts = [(n.partition(" ")[0], int(n.partition(" ")[2] or 0)) for n in prefix]
        root = root_after(spot, acts)
        out: dict[str, object] = {"board": board, "ranges": rng, "node": " / ".join(prefix),
                                  "searcher": ("oop", "ip")[searcher],
                                  "trunk_pct": 100 * (br_trunk - value_opp) / spot.pot}
        for safe in (False, True):
            sub = SpotSolver(subgame_spot(spot, root, searcher, (r0, r1), safe=safe))
            if safe:
                sub.set_gadget(opp, cbv)
            sub.solve(iterations=resolve_iters, target_pct=None)
            strategies = {}
            for p in decision_paths(trunk, searcher):
                inside = p[:len(prefix)] == prefix
                strategies[p] = strategy_at(sub, p[len(prefix):])[1] if inside else strategy_at(trunk, p)[1]
            br = lock_player(spot, searcher, strategies).best_response_values()[opp]
            out["safe_pct" if safe else "unsafe_pct"] = 100 * (br - value_opp) / spot.pot
        rows.append(out)
    return rows


def write_block(md: Path, name: str, text: str) -> None:
    """Replace the lines between ``<!-- NAME:begin -->`` and ``<!-- NAME:end -->`` in ``md``."""
    doc = md.read_text()
    a, b = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    if a not in doc or b not in doc:
        return
    head, rest = doc.split(a, 1)
    _, tail = rest.split(b, 1)
    md.write_text(f"{head}{a}\n{text}\n{b}{tail}")


def main() -> int:
    rows = run()
    print(f"{'board':12} {'ranges':6} {'node':18} {'searcher':8} {'trunk':>8} {'unsafe':>8} {'safe':>8}"
          "   (exploitability of the searcher's strategy, % of pot)")
    for r in rows:
        print(f"{r['board']:12} {r['ranges']:6} {r['node']:18} {r['searcher']:8} {r['trunk_pct']:8.3f} "
              f"{r['unsafe_pct']:8.3f} {r['safe_pct']:8.3f}")
    path = Path(__file__).resolve().parent.parent / "docs" / "search_safety.json"
    doc = {"command": "python benchmarks/search_safety.py", "rows": rows}
    path.write_text(json.dumps(doc, indent=1) + "\n")
    lines = ["| board | ranges | node | searcher | trunk | unsafe | safe |",
             "|---|---|---|---|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['board']} | {r['ranges']} | {r['node']} | {r['searcher']} | "
                     f"{r['trunk_pct']:.3f} | {r['unsafe_pct']:.3f} | {r['safe_pct']:.3f} |")
    write_block(path.parent / "search.md", "search_safety", "\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
