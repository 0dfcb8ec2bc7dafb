"""How far pokerlab's CFR family and OpenSpiel's solvers agree, iteration by iteration.

For each preset and game, both solvers run side by side; at the listed iteration counts
the script records the largest absolute difference between the two average policies (over
every information set and action) and between the two exploitabilities.  The peers are
OpenSpiel's C++ ``CFRSolver``/``CFRPlusSolver`` (cfr, cfr+) and its Python
``_CFRSolver``/``LCFRSolver``/``DCFRSolver`` (cfr-sim, lcfr, dcfr).

Usage: python benchmarks/openspiel_agreement.py [--json] [--max-iterations N]
"""

from __future__ import annotations

import argparse
import json
from typing import Any

import pyspiel
from open_spiel.python.algorithms import cfr as os_cfr
from open_spiel.python.algorithms import discounted_cfr as os_dcfr
from open_spiel.python.policy import python_policy_to_pyspiel_policy

from pokerlab.games import load_game
from pokerlab.solvers.cfr import CFRSolver

CHECKS = (1, 2, 3, 5, 10, 30, 100, 300, 1000)


def _peer(algo: str, osg: Any) -> tuple[Any, bool]:
    """(solver, is_cpp)."""
    if algo == "cfr":
        return pyspiel.CFRSolver(osg), True
    if algo == "cfr+":
        return pyspiel.CFRPlusSolver(osg), True
    if algo == "cfr-sim":
        return os_cfr._CFRSolver(osg, alternating_updates=False, linear_averaging=False,
                                 regret_matching_plus=False), False
    if algo == "lcfr":
        return os_dcfr.LCFRSolver(osg), False
    return os_dcfr.DCFRSolver(osg), False


def _decision_states(osg: Any) -> dict[str, Any]:
    """One OpenSpiel state per information-state string."""
    out: dict[str, Any] = {}
    stack = [osg.new_initial_state()]
    while stack:
        st = stack.pop()
        if st.is_terminal():
            continue
        if not st.is_chance_node():
            out.setdefault(st.information_state_string(), st)
        for a in st.legal_actions():
            stack.append(st.child(a))
    return out


def agreement(algo: str, game: str, os_name: str, max_it: int) -> list[dict[str, Any]]:
    osg = pyspiel.load_game(os_name)
    ours = CFRSolver(game=load_game(game), config=algo)
    theirs, cpp = _peer(algo, osg)
    states = _decision_states(osg)
    rows = []
    done = 0
    for n in (c for c in CHECKS if c <= max_it):
        ours.run(n - ours.iteration)
        while done < n:
            theirs.evaluate_and_update_policy()
            done += 1
        avg = theirs.average_policy()
        e_theirs = float(pyspiel.exploitability(
            osg, avg if cpp else python_policy_to_pyspiel_policy(avg)))
        mine = ours.average_policy()
        diff = 0.0
        for key, st in states.items():
            theirs_p = avg.action_probabilities(st)
            for a, p in zip(mine.legal_actions(key), mine.probabilities(key), strict=True):
                diff = max(diff, abs(float(p) - float(theirs_p.get(int(a), 0.0))))
        rows.append({"iterations": n, "max_policy_diff": diff,
                     "exploitability_diff": abs(ours.exploitability() - e_theirs)})
    return rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--max-iterations", type=int, default=1000)
    ap.add_argument("--python-max-iterations", type=int, default=100,
                    help="cap for OpenSpiel's (slow) Python solvers on Leduc")
    a = ap.parse_args()
    out: dict[str, Any] = {}
    for game, os_name in (("kuhn", "kuhn_poker"), ("leduc", "leduc_poker")):
        for algo in ("cfr", "cfr+", "cfr-sim", "lcfr", "dcfr"):
            cap = a.max_iterations
            if game == "leduc" and algo not in ("cfr", "cfr+"):
                cap = min(cap, a.python_max_iterations)
            out[f"{game}/{algo}"] = agreement(algo, game, os_name, cap)
    if a.json:
        print(json.dumps(out))
        return
    for name, rows in out.items():
        print(name)
        for r in rows:
            print(f"  {r['iterations']:>5}  policy {r['max_policy_diff']:.3e}  "
                  f"exploitability {r['exploitability_diff']:.3e}")


if __name__ == "__main__":
    main()
