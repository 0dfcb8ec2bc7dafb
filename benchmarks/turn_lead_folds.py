"""How often agents fold to a lead on the turn (issue 49: where LBR beats the turn searcher).

The line: the button (the agent, player 1) raises to 2.5 bb preflop, the big blind calls;
on the flop the big blind checks and the button checks behind; on the turn the big blind
leads ``--size`` times the pot (default 1.0: LBR's pot bet). The button's range there is
the blueprint's (``--base``) by Bayes along the line, card removal included; for every
board each agent's fold probability is averaged over that range. A fold frequency above
``size / (1 + size)`` (a half for a pot bet) lets any two cards lead profitably, which is
what LBR (setting 2, from the turn) finds.

``--line bet`` measures the other leak LBR finds (its all-in over the searcher's turn bet,
``T Ab La``): on the same line the big blind checks the turn instead; each agent's share
of betting (any size) over its range is reported, then the big blind goes all-in over
the agent's most likely bet size and the agent's fold share over the range that bet
(its own betting probabilities, by Bayes) is reported, with the break-even fold share of
the all-in (the shove risked over the shove plus the pot it wins).

The searchers are budget-bound: their answers vary with the machine's load, so run this on
an idle machine. The deals are ``pokerlab.evaluation.lbr.deal_cards(seed, d)``; boards whose
preflop raise the base does not make are skipped (none with the shipped blueprint).

Usage: ``python benchmarks/turn_lead_folds.py
[--specs "blueprint-100;search(street=turn,depth=1,leaves=modicum)"] [--line lead|bet] [--boards 30]
[--size 1.0] [--seed 7] [--stack 100] [--base blueprint-100] [--json]``
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from search_opponents import fail  # noqa: E402

from pokerlab.evaluation.lbr_core import Z95  # noqa: E402


def column(acts: list[Any], kind: Any, amount: int | None = None) -> int | None:
    for i, a in enumerate(acts):
        if a.kind == kind and (amount is None or a.amount == amount):
            return i
    return None


def fold_share(agent: Any, view: Any, w: np.ndarray) -> float:
    """The agent's fold probability at ``view`` averaged over the range ``w``."""
    from pokerlab.holdem.actions import ActionKind
    from pokerlab.policy.range_query import all_hands

    acts, p = all_hands(agent, view, w > 0, vectorised=True)
    ok = w > 0
    k = column(acts, ActionKind.FOLD)
    if k is None:
        return 0.0
    rows = p.sum(axis=1)
    return float((w[ok] * p[ok, k] / rows[ok]).sum() / w[ok].sum())


def mean_ci(xs: list[float]) -> dict[str, float]:
    """Mean and 95% half-width over the boards."""
    x = np.asarray(xs, dtype=np.float64)
    sd = float(x.std(ddof=1)) if x.size > 1 else math.inf
    return {"mean": float(x.mean()) if x.size else math.nan, "ci95": Z95 * sd / math.sqrt(max(x.size, 1))}


def bet_then_shove(agent: Any, st: Any, w: np.ndarray) -> dict[str, float] | None:
    """At ``st`` (checked to the agent on the turn): the agent's betting share over ``w``;
    then, over its most likely bet size, the big blind's all-in and the agent's fold share
    over the range that bet; ``None`` when the agent never bets or no all-in is left."""
    from pokerlab.holdem.actions import Action, ActionKind
    from pokerlab.policy.range_query import all_hands

    acts, p = all_hands(agent, st.view(1), w > 0, vectorised=True)
    ok = w > 0
    p = p / np.where(p.sum(axis=1, keepdims=True) > 0, p.sum(axis=1, keepdims=True), 1.0)
    bets = [i for i, x in enumerate(acts) if x.kind == ActionKind.RAISE]
    if not bets:
        return None
    share = float((w[ok, None] * p[ok][:, bets]).sum() / w[ok].sum())
    k = max(bets, key=lambda i: float((w * p[:, i]).sum()))
    wb = w * p[:, k]
    if not float(wb.sum()) > 0:
        return None
    nxt = st.clone()
    nxt.apply(acts[k])
    if not nxt.legal().can_raise or nxt.max_raise_to <= nxt.bets[1]:
        return None
    pot_before = nxt.pot
    shove = nxt.max_raise_to
    risk = shove - nxt.bets[0]
    nxt.apply(Action(kind=ActionKind.RAISE, amount=shove))
    fold = fold_share(agent, nxt.view(1), wb)
    return {"bet_share": share, "bet_to": float(acts[k].amount), "fold_to_allin": fold,
            "break_even_fold": risk / (risk + pot_before)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--specs", default="blueprint-100;search(street=turn,depth=1,leaves=modicum)")
    ap.add_argument("--line", default="lead", choices=("lead", "bet"))
    ap.add_argument("--boards", type=int, default=30)
    ap.add_argument("--size", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--stack", type=float, default=100.0)
    ap.add_argument("--base", default="blueprint-100")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    if a.boards < 1:
        raise fail(f"--boards must be at least 1, got {a.boards}")
    if not (math.isfinite(a.size) and a.size > 0):
        raise fail(f"--size must be a positive pot fraction, got {a.size}")

    from pokerlab.cards.cards import COMBO_MASKS, card_str, cards_mask
    from pokerlab.errors import PokerlabError
    from pokerlab.evaluation.lbr import deal_cards
    from pokerlab.holdem.actions import Action, ActionKind
    from pokerlab.holdem.engine import HoldemConfig, HoldemState
    from pokerlab.policy.range_query import all_hands
    from pokerlab.registry import make_agent

    cfg = HoldemConfig.from_bb(a.stack)
    specs = [s.strip() for s in a.specs.split(";") if s.strip()]
    try:
        base = make_agent(a.base, game="hunl", config=cfg)
        agents = {s: make_agent(s, game="hunl", config=cfg) for s in specs}
    except PokerlabError as e:
        raise fail(str(e)) from None
    call = Action(kind=ActionKind.CHECK_CALL)
    open_to = int(round(2.5 * cfg.big_blind))

    def free(cards: list[int]) -> np.ndarray:
        return np.asarray((COMBO_MASKS & np.uint64(cards_mask(cards))) == 0)

    folds: dict[str, list[float]] = {s: [] for s in specs}
    bets: dict[str, list[dict[str, float]]] = {s: [] for s in specs}
    rows = []
    t0 = time.perf_counter()
    for d in range(a.boards):
        cards = [int(c) for c in deal_cards(a.seed, d)]
        st = HoldemState(config=cfg)
        st.deal_hole(cards[0:2])
        st.deal_hole(cards[2:4])
        base.reset(0)
        live = free(cards[0:4])
        acts, p = all_hands(base, st.view(1), live, vectorised=True)
        k = column(acts, ActionKind.RAISE, open_to)
        if k is None:
            continue
        w = p[:, k] * live
        st.apply(Action(kind=ActionKind.RAISE, amount=open_to))
        st.apply(call)
        st.deal_board(cards[4:7])
        st.apply(call)
        live = live & free(cards[4:7])
        acts, p = all_hands(base, st.view(1), live, vectorised=True)
        k = column(acts, ActionKind.CHECK_CALL)
        w = w * (p[:, k] if k is not None else 0.0) * live
        st.apply(call)
        st.deal_board(cards[7:8])
        w = w * free(cards[7:8])
        if not float(w.sum()) > 0:
            continue
        row: dict[str, Any] = {"board": " ".join(card_str(c) for c in cards[4:8])}
        if a.line == "bet":
            st.apply(call)
            for s, agent in agents.items():
                agent.reset(1000 + d)
                r = bet_then_shove(agent, st, w)
                if r is not None:
                    row[s] = r
                    bets[s].append(r)
            rows.append(row)
            continue
        st.apply(Action(kind=ActionKind.RAISE, amount=int(round(a.size * st.pot))))
        for s, agent in agents.items():
            agent.reset(1000 + d)
            row[s] = fold_share(agent, st.view(1), w)
            folds[s].append(row[s])
        rows.append(row)
    if a.line == "bet":
        out_b: dict[str, Any] = {"unit": "shares of the button's range", "line": "bet",
                                 "boards": len(rows), "seed": a.seed, "stack_bb": a.stack,
                                 "agents": {}, "rows": rows,
                                 "seconds": round(time.perf_counter() - t0, 1)}
        for s, rs in bets.items():
            keys = ("bet_share", "fold_to_allin", "break_even_fold")
            out_b["agents"][s] = {"boards": len(rs), **{k: mean_ci([r[k] for r in rs]) for k in keys}}
        if a.json:
            print(json.dumps(out_b, indent=1))
            return
        print(f"checked to on the turn: bet share, then fold to an all-in over the most likely bet; "
              f"{len(rows)} boards, seed {a.seed}, {a.stack:g} bb")
        for s, d in out_b["agents"].items():
            print(f"{s:55s} bet {d['bet_share']['mean']:.3f} +- {d['bet_share']['ci95']:.3f}  "
                  f"fold to all-in {d['fold_to_allin']['mean']:.3f} +- {d['fold_to_allin']['ci95']:.3f} "
                  f"(break-even {d['break_even_fold']['mean']:.2f})")
        return
    out: dict[str, Any] = {"unit": "fold probability over the button's range", "size": a.size,
                           "boards": len(rows), "seed": a.seed, "stack_bb": a.stack,
                           "break_even_fold": a.size / (1.0 + a.size), "agents": {},
                           "rows": rows, "seconds": round(time.perf_counter() - t0, 1)}
    for s, xs in folds.items():
        out["agents"][s] = mean_ci(xs)
    if a.json:
        print(json.dumps(out, indent=1))
        return
    print(f"fold to a {a.size:g}-pot turn lead (break-even {out['break_even_fold']:.2f}), "
          f"{len(rows)} boards, seed {a.seed}, {a.stack:g} bb")
    for s, d in out["agents"].items():
        print(f"{s:55s} {d['mean']:.3f} +- {d['ci95']:.3f}")


if __name__ == "__main__":
    main()
