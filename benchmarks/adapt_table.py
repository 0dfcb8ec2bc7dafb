"""The adaptive agent's match table and exact curve in docs/exploitation.md.

Writes the fixed opponents as policy files (``--files DIR``: the equilibrium ``nash``,
the calling station ``call``, the maniac ``raise``, ``random`` and the exploitable mixture
``mix:0.5:nash:random`` of pokerlab.opponents.models), then plays duplicate matches in one
process (``--workers 1``: the agent learns over the whole match), exactly the commands
the table lists:

    pokerlab match adapt policy:DIR/leduc_call.npz --game leduc --hands N --duplicate \
        --seed S --workers 1 --json

and the same with the base (``policy:DIR/leduc_nash.npz``, the equilibrium the agent starts
from) in A's seat.  With the same seed both matches deal the same cards, so the difference
adapt - base is also given with a CI over the paired deals.

The exact curve: against each fixed opponent, ``adapt(eps=inf,pmax=P)`` plays ``--curve-hands``
hands; its final strategy's exact exploitability and exact gain against the true opponent
are set beside the offline restricted-Nash-response frontier to the true opponent at that
exploitability (pokerlab.opponents.response.frontier_gain).

Usage: ``python benchmarks/adapt_table.py [--hands 2000] [--curve-hands 400] [--json]
[--no-write] [--files DIR]``; rewrites the section between ``<!-- adapt_table:start -->``
and ``<!-- adapt_table:end -->`` of docs/exploitation.md.

``--game hunl`` (``--hands`` default 10,000, ``--stack`` 100): duplicate matches at 100 bb in
one process of ``adapt`` (over the shipped blueprint) and of ``blueprint`` against ``call``,
``raise``, ``tag`` and ``blueprint``, and ``adapt`` against itself:

    pokerlab match adapt call --hands N --duplicate --seed S --stack 100 --workers 1 --json

with ``adapt - base`` paired over the same deals (the same seed deals the same cards and
gives the agents the same seeds, so until its first response ``adapt`` plays exactly the
blueprint's actions); rewrites the section between ``<!-- adapt_table_hunl:start -->`` and
``<!-- adapt_table_hunl:end -->``.  The load average is sampled before and after every
match.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "exploitation.md"
START, END = "<!-- adapt_table:start -->", "<!-- adapt_table:end -->"
Z95 = 1.959963984540054
OPPONENTS = ("call", "raise", "random", "mix:0.5:nash:random")


def _fname(game: str, spec: str) -> str:
    return f"{game}_{spec.replace(':', '_').replace('.', '')}.npz"


def write_opponents(game: str, folder: Path) -> dict[str, str]:
    from pokerlab.evaluation.exploit import policy_slot_probs
    from pokerlab.games import load_game
    from pokerlab.games.compiled import compile_game
    from pokerlab.opponents.models import load_model
    from pokerlab.opponents.response import _to_policy
    from pokerlab.policy.files import save_policy

    g = load_game(game)
    cg = compile_game(g)
    out = {}
    for spec in ("nash", *OPPONENTS):
        path = folder / _fname(game, spec)
        if not path.exists():
            pol = _to_policy(cg, policy_slot_probs(cg, load_model(spec, g)),
                             {"game": game, "algo": spec})
            save_policy(pol, path)
        out[spec] = str(path)
    return out


def _match(a: str, b: str, game: str, hands: int, seed: int) -> Any:
    from pokerlab.arena import play_match

    return play_match(a, b, game=game, hands=hands, duplicate=True, seed=seed, workers=1)


def _pair_ci(x: np.ndarray) -> float:
    p = x.reshape(-1, 2).mean(axis=1)
    return float(Z95 * p.std(ddof=1) / math.sqrt(p.size))


def table(game: str, files: dict[str, str], folder: str, hands: int, seed: int
          ) -> list[dict[str, Any]]:
    base = f"policy:{files['nash']}"
    rows = []
    for opp in (*OPPONENTS, "nash", "adapt"):
        b = "adapt" if opp == "adapt" else f"policy:{files[opp]}"
        t0 = time.perf_counter()
        ra = _match("adapt", b, game, hands, seed)
        secs = time.perf_counter() - t0
        row: dict[str, Any] = {
            "opponent": opp, "hands": hands, "seed": seed,
            "adapt_mbb": ra.mean_mbb, "adapt_ci95_mbb": ra.ci95_mbb, "seconds": secs,
            "command": f"pokerlab match adapt {_show(b, folder)} --game {game} --hands {hands} "
                       f"--duplicate --seed {seed} --workers 1 --json"}
        if opp not in ("nash", "adapt"):
            rb = _match(base, b, game, hands, seed)
            d = (ra.chips - rb.chips) / ra.big_blind * 1000.0
            row.update(base_mbb=rb.mean_mbb, base_ci95_mbb=rb.ci95_mbb,
                       base_exact_mbb=rb.exact_mbb, diff_mbb=float(d.mean()),
                       diff_ci95_mbb=_pair_ci(d))
        rows.append(row)
    return rows


def _show(spec: str, folder: str) -> str:
    return spec.replace(folder, "DIR")


class Fixed:
    """A small-game agent playing fixed slot probabilities."""

    def __init__(self, cg: Any, slots: np.ndarray, name: str) -> None:
        self.cg, self.slots, self.name = cg, slots, name
        self.rng = np.random.default_rng(0)

    def reset(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def act_state(self, state: Any, player: int) -> int:
        cg = self.cg
        i = cg.infoset_index(state.information_state_string(player))
        lo, hi = int(cg.infoset_offset[i]), int(cg.infoset_offset[i + 1])
        p = self.slots[lo:hi]
        return int(cg.infoset_actions[lo + int(self.rng.choice(hi - lo, p=p / p.sum()))])


def curve(game: str, hands: int, pmaxes: tuple[float, ...]) -> list[dict[str, Any]]:
    """Final strategies of adapt(eps=inf,pmax=P) against fixed opponents, exactly."""
    from pokerlab.agents.adapt import adapt_tree
    from pokerlab.evaluation.matches import hand_seed, play_small_hand
    from pokerlab.opponents.models import load_model
    from pokerlab.opponents.response import (
        evaluate_response,
        frontier_gain,
        model_slots,
        response_curve,
    )
    from pokerlab.registry import build_agent

    g, tree = adapt_tree(game)
    cg = tree.cg
    out = []
    for opp in ("call", "mix:0.5:nash:random"):
        true = model_slots(cg, load_model(opp, g))
        rnr = response_curve(cg, true, [k / 20 for k in range(21)])

        for pmax in pmaxes:
            ag = build_agent(f"adapt(eps=inf,pmax={pmax})", game=game)
            fx = Fixed(cg, true, opp)
            ag.start_match()
            for t in range(hands):
                seat = t % 2
                first, second = (ag, fx) if seat == 0 else (fx, ag)
                play_small_hand(g, first, second, 0, hand_seed(5, t, 0), hand_seed(5, t, 1),
                                hand_seed(5, t, 2))
            ag._refit()  # the responses to the final model
            # the strategy it would play now in each seat (the same candidate in both)
            j = ag.choose(0)
            r = evaluate_response(cg, ag.candidates[j], true)
            out.append({"opponent": opp, "pmax": pmax, "hands": hands,
                        "p": ag.candidate_p[j], "exploitability": r.exploitability,
                        "gain": r.gain, "rnr_gain": frontier_gain(rnr, r.exploitability),
                        "br_gain": rnr[-1].gain})
    return out


def render(game: str, rows: list[dict[str, Any]], crv: list[dict[str, Any]],
           load: float) -> str:
    def f(v: float | None) -> str:
        return "n/a" if v is None else f"{v:+.0f}"

    lines = [START, "",
             f"Generated by `python benchmarks/adapt_table.py` (load average {load:.1f} on a "
             "shared 2-core machine; do not hand-edit).  Game: "
             f"{game}; mbb/hand of A, duplicate, 95% CIs over the deal pairs; `DIR` is the "
             "folder of the opponents' policy files the script writes (`--files DIR`).  "
             "`base` is the equilibrium policy the agent starts from (`policy:DIR/"
             f"{game}_nash.npz`); `adapt - base` is paired over the same deals.", "",
             "| opponent (B) | hands | adapt (A) | base (A) | base exact | adapt - base |",
             "|---|---|---|---|---|---|"]
    for r in rows:
        base = (f"{f(r['base_mbb'])} ± {r['base_ci95_mbb']:.0f}" if "base_mbb" in r else "")
        ex = f(r.get("base_exact_mbb")) if "base_mbb" in r else ""
        diff = (f"**{f(r['diff_mbb'])} ± {r['diff_ci95_mbb']:.0f}**" if "diff_mbb" in r
                else "")
        lines.append(f"| {r['opponent']} | {r['hands']:,} | {f(r['adapt_mbb'])} ± "
                     f"{r['adapt_ci95_mbb']:.0f} | {base} | {ex} | {diff} |")
    lines += ["", "Commands (A = `adapt`; the base rows put `policy:DIR/"
              f"{game}_nash.npz` in A's place):", "", "```"]
    lines += [r["command"] for r in rows]
    lines += ["```", "",
              "Exact curve: `adapt(eps=inf,pmax=P)` after "
              f"{crv[0]['hands'] if crv else 0} hands against a fixed opponent; its final "
              "strategy's exact exploitability and exact gain against the true opponent "
              "(chips/hand, mean of both seats) beside the offline RNR frontier to the true "
              "opponent at the same exploitability.", "",
              "| opponent | pmax | p played | exploitability | gain | RNR frontier gain | "
              "gain / frontier | BR gain |",
              "|---|---|---|---|---|---|---|---|"]
    for c in crv:
        ratio = c["gain"] / c["rnr_gain"] if c["rnr_gain"] > 0 else float("nan")
        lines.append(f"| {c['opponent']} | {c['pmax']:g} | {c['p']:g} | "
                     f"{c['exploitability']:.4f} | {c['gain']:.4f} | {c['rnr_gain']:.4f} | "
                     f"{ratio:.3f} | {c['br_gain']:.4f} |")
    lines += ["", END]
    return "\n".join(lines)


# ----------------------------------------------------------------------------- HUNL
HSTART, HEND = "<!-- adapt_table_hunl:start -->", "<!-- adapt_table_hunl:end -->"
HUNL_OPPONENTS = ("call", "raise", "tag", "blueprint", "adapt")


def _hunl_match(a: str, b: str, hands: int, seed: int, stack: float) -> Any:
    from pokerlab.arena import play_match

    return play_match(a, b, hands=hands, duplicate=True, seed=seed, stack_bb=stack, workers=1)


def _q(spec: str) -> str:
    return f"'{spec}'" if any(c in spec for c in "()|;") else spec


def hunl_table(hands: int, seed: int, stack: float, spec: str = "adapt",
               opponents: tuple[str, ...] = HUNL_OPPONENTS,
               say: Any = None) -> list[dict[str, Any]]:
    """One row per opponent: ``spec`` and (except against ``adapt``) the blueprint in A's
    seat, the paired difference, the agent's refits and share of hands played with the
    response, seconds and the load average around the matches."""
    rows = []
    for opp in opponents:
        b = spec if opp == "adapt" else opp
        load0 = os.getloadavg()[0]
        t0 = time.perf_counter()
        ra = _hunl_match(spec, b, hands, seed, stack)
        secs = time.perf_counter() - t0
        cnt = ra.counters.get("A", {})
        row: dict[str, Any] = {
            "opponent": opp, "hands": hands, "seed": seed, "stack_bb": stack,
            "adapt_mbb": ra.mean_mbb, "adapt_ci95_mbb": ra.ci95_mbb, "seconds": secs,
            "refits": cnt.get("refits"), "response_share":
                (cnt.get("response_hands", 0.0) / hands if cnt else None),
            "command": f"pokerlab match {_q(spec)} {_q(b)} --hands {hands} --duplicate "
                       f"--seed {seed} --stack {stack:g} --workers 1 --json"}
        if opp == "adapt":
            cb = ra.counters.get("B", {})
            row["b_refits"] = cb.get("refits")
            row["b_response_share"] = cb.get("response_hands", 0.0) / hands if cb else None
        else:
            rb = _hunl_match("blueprint", b, hands, seed, stack)
            d = (ra.chips - rb.chips) / ra.big_blind * 1000.0
            row.update(base_mbb=rb.mean_mbb, base_ci95_mbb=rb.ci95_mbb,
                       diff_mbb=float(d.mean()), diff_ci95_mbb=_pair_ci(d))
        row["load"] = [load0, os.getloadavg()[0]]
        rows.append(row)
        if say is not None:
            say(json.dumps(row))
    return rows


def hunl_markers(spec: str) -> tuple[str, str]:
    """The block markers of a spec's table (``adapt``: the plain ones)."""
    if spec == "adapt":
        return HSTART, HEND
    return (f"<!-- adapt_table_hunl {spec}:start -->", f"<!-- adapt_table_hunl {spec}:end -->")


def render_hunl(rows: list[dict[str, Any]], spec: str = "adapt") -> str:
    start, end = hunl_markers(spec)

    def f(v: float | None) -> str:
        return "n/a" if v is None else f"{v:+,.0f}"

    loads = [x for r in rows for x in r["load"]]
    secs = sum(r["seconds"] for r in rows)
    opt = "" if spec == "adapt" else f" --spec '{spec}'"
    lines = [start, "",
             f"Generated by `python benchmarks/adapt_table.py --game hunl --hands "
             f"{rows[0]['hands']} --seed {rows[0]['seed']}{opt}` (do not hand-edit): load "
             "average "
             f"{min(loads):.1f}-{max(loads):.1f} on a shared 2-core machine (other engineers' "
             f"work), {secs / 60:.0f} min in all.  HUNL at {rows[0]['stack_bb']:g} bb; "
             "mbb/hand of A, duplicate, 95% CIs over the deal pairs; base = `blueprint` (the "
             "shipped blueprint, what `adapt` starts from); `adapt - base` paired over the "
             "same deals; refits and the share of hands played with the response (budget "
             "positive) are A's.", "",
             f"| opponent (B) | hands | `{spec}` (A) | base (A) | `{spec}` - base | refits | "
             "response hands | seconds |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        base = f"{f(r['base_mbb'])} ± {r['base_ci95_mbb']:,.0f}" if "base_mbb" in r else ""
        diff = (f"**{f(r['diff_mbb'])} ± {r['diff_ci95_mbb']:,.0f}**" if "diff_mbb" in r
                else "")
        share = r.get("response_share")
        ref = r.get("refits")
        lines.append(f"| {r['opponent']} | {r['hands']:,} | {f(r['adapt_mbb'])} ± "
                     f"{r['adapt_ci95_mbb']:,.0f} | {base} | {diff} | "
                     f"{'' if ref is None else f'{ref:.0f}'} | "
                     f"{'' if share is None else f'{100 * share:.0f}%'} | "
                     f"{r['seconds']:.0f} |")
    lines += ["", "Commands (the base rows put `blueprint` in A's place):", "", "```"]
    lines += [r["command"] for r in rows]
    lines += ["```", "", end]
    return "\n".join(lines)


def _write_block(text: str, start: str, end: str, title: str) -> None:
    from pokerlab.io import atomic_write_text

    doc = DOC.read_text()
    if start in doc and end in doc:
        head, rest = doc.split(start, 1)
        doc = head + text + rest.split(end, 1)[1]
    else:
        doc = doc.rstrip("\n") + f"\n\n## {title}\n\n" + text + "\n"
    atomic_write_text(DOC, doc)


def main_hunl(a: argparse.Namespace) -> int:
    hands = a.hands if a.hands is not None else 10_000
    say = None if a.json else (lambda line: print(line, file=sys.stderr, flush=True))
    opps = tuple(x.strip() for x in a.opponents.split(",")) if a.opponents else HUNL_OPPONENTS
    rows = hunl_table(hands, a.seed, a.stack, a.spec, opps, say)
    text = render_hunl(rows, a.spec)
    if not a.no_write:
        _write_block(text, *hunl_markers(a.spec), f"The adaptive agent on HUNL: {a.spec}")
    if a.json:
        print(json.dumps({"table": rows}))
    else:
        print(text)
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="leduc")
    ap.add_argument("--hands", type=int, default=None,
                    help="hands per match (default 2000; hunl 10000)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--stack", type=float, default=100.0, help="hunl: stack in big blinds")
    ap.add_argument("--spec", default="adapt", help="hunl: the adaptive agent's spec")
    ap.add_argument("--opponents", default="",
                    help="hunl: comma-separated opponents (default call,raise,tag,"
                         "blueprint,adapt)")
    ap.add_argument("--curve-hands", type=int, default=400)
    ap.add_argument("--files", type=Path, default=None)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--no-write", action="store_true")
    a = ap.parse_args(argv)
    if a.game == "hunl":
        return main_hunl(a)
    if a.hands is None:
        a.hands = 2000
    with tempfile.TemporaryDirectory() as tmp:
        folder = a.files if a.files is not None else Path(tmp)
        files = write_opponents(a.game, folder)
        rows = table(a.game, files, str(folder), a.hands, a.seed)
    crv = curve(a.game, a.curve_hands, (0.1, 0.25, 0.5, 1.0))
    text = render(a.game, rows, crv, os.getloadavg()[0])
    if not a.no_write:
        from pokerlab.io import atomic_write_text

        doc = DOC.read_text()
        if START in doc and END in doc:
            head, rest = doc.split(START, 1)
            doc = head + text + rest.split(END, 1)[1]
        else:
            doc = doc.rstrip("\n") + "\n\n## The adaptive agent: measured\n\n" + text + "\n"
        atomic_write_text(DOC, doc)
    if a.json:
        print(json.dumps({"table": rows, "curve": crv}))
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
