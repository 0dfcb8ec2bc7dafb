"""Nested re-solving: which earlier solve of the hand a decision nests in
(:func:`anchor`), a solve of the street from its start (:func:`street_solve`), and the
ranges (and, when safe, the gadget's values) read at the decision from that solve
(:func:`nested_ranges`)."""

from __future__ import annotations

import math
import time

import numpy as np

from pokerlab.agents.leaves import compatible_mass
from pokerlab.agents.search.state import Searcher, Solve, public_key
from pokerlab.cards.cards import card_str
from pokerlab.holdem.events import BoardDealt, CheckedOrCalled, Folded, RaisedTo
from pokerlab.holdem.view import PlayerView

NestedRanges = tuple[np.ndarray, np.ndarray, np.ndarray | None, np.ndarray | None]


def street_start(view: PlayerView) -> tuple[int, int]:
    """(pot, effective stack) at the start of the current street."""
    pot = int(view.pot - view.bets[0] - view.bets[1])
    stack = int(min(view.stacks[0] + view.bets[0], view.stacks[1] + view.bets[1]))
    return pot, stack


def reaches_next_street(solve: Solve) -> bool:
    """Whether ``solve``'s tree goes on past its street (not depth-limited: a
    depth-limited tree ends at the street's leaves, so a later street cannot nest in it)."""
    leaf = solve.solver.tree.leaf
    return leaf is None or not bool(leaf.any())


def anchor(agent: Searcher, view: PlayerView, deadline: float, mine: int | None,
           at_street_start: bool = True) -> Solve | None:
    """The solve of this hand that ``view`` nests in: the one at the searcher's last
    decision on this street (whoever asked for it: its play or a range query); else an
    earlier street's solve whose tree covers this street (:func:`reaches_next_street`);
    else, when the opponent has acted on this street before the searcher (``anchor``), a
    solve of the whole street from its start (Pluribus: the opponent's actions there are
    read in a solved strategy, not through the model; the solve itself carries no
    gadget: docs/search.md); else ``None``."""
    me = view.player
    ev = view.events
    start = max((i + 1 for i, e in enumerate(ev) if isinstance(e, BoardDealt)), default=0)
    own = [i for i, e in enumerate(ev)
           if i >= start and isinstance(e, (Folded, CheckedOrCalled, RaisedTo)) and e.player == me]
    if own:
        got = agent.solves.get(public_key(view, own[-1]))
        if got is not None:
            return got
    prev = agent.prev
    if prev is not None and prev.searcher == me and prev.street < view.street and \
            reaches_next_street(prev) and prev.n_events <= len(ev) and \
            prev.key == public_key(view, prev.n_events):
        return prev
    acted = any(isinstance(e, (Folded, CheckedOrCalled, RaisedTo)) for e in ev[start:])
    if at_street_start and agent.config.safety.anchor and acted and not own and start > 0:
        got = agent.solves.get(public_key(view, start))
        if got is None:
            got = street_solve(agent, view, start, deadline, mine)
        return got
    return None


def street_solve(agent: Searcher, view: PlayerView, start: int, deadline: float,
                 mine: int | None) -> Solve | None:
    """A solve of the current street from its start (events ``[:start]``), for the
    searcher ``view.player``; half the time left."""
    from pokerlab.holdem.engine import HoldemState
    from pokerlab.holdem.events import HoleDealt, event_to_action
    from pokerlab.holdem.view import make_view

    st = HoldemState(config=view.config)
    for p in (0, 1):
        st.deal_hole(list(view.hole) if p == view.player else None)
    for e in view.events[:start]:
        if isinstance(e, BoardDealt):
            st.deal_board(list(e.cards))
        elif isinstance(e, (Folded, CheckedOrCalled, RaisedTo)):
            st.apply(event_to_action(e))
        elif not isinstance(e, HoleDealt):
            continue
    v0 = make_view(st, view.player)
    now = time.perf_counter()
    got = agent.solve_at(v0, now + 0.5 * max(deadline - now, 0.0), mine, root_actor=int(st.actor),
                         nest=False)
    if got is None:
        return None
    agent.stats.street_solves += 1
    solve = Solve(solver=got[0], searcher=view.player, street=view.street, n_events=start,
                  stack=got[1], key=public_key(view, start))
    agent.solves[solve.key] = solve
    return solve


def _follow(solver: object, view: PlayerView, n_events: int) -> list[str] | None:
    """The path (action names, dealt cards) of ``view``'s events since ``n_events`` in
    ``solver``'s tree, an opponent's raise the tree lacks as the nearest size; ``None``
    when the tree cannot follow or the path does not end at the searcher's decision."""
    from pokerlab.subgame.tree import CHANCE, DECISION

    tr = solver.tree  # type: ignore[attr-defined]
    node = 0
    tokens: list[str] = []
    for e in view.events[n_events:]:
        if isinstance(e, BoardDealt):
            if tr.kind[node] != CHANCE:
                return None
            tokens.append(card_str(e.cards[0]))
            node = tr.child(node, 0)
        elif isinstance(e, (Folded, CheckedOrCalled, RaisedTo)):
            if tr.kind[node] != DECISION or int(tr.player[node]) != e.player:
                return None
            names = tr.action_names[node]
            amts = tr.action_amounts[node]
            if isinstance(e, Folded):
                want = [a for a, nm in enumerate(names) if nm == "fold"]
            elif isinstance(e, CheckedOrCalled):
                want = [a for a, nm in enumerate(names) if nm in ("check", "call")]
            else:
                raises = [a for a, nm in enumerate(names)
                          if nm.split(" ")[0] in ("bet", "raise", "allin")]
                if not raises:
                    return None
                x = max(int(e.raise_to), 1)
                want = [min(raises, key=lambda a: abs(math.log(max(amts[a], 1)) - math.log(x)))]
            if not want:
                return None
            tokens.append(names[want[0]])
            node = tr.child(node, want[0])
    if tr.kind[node] != DECISION or int(tr.player[node]) != view.player:
        return None
    return tokens


def nested_ranges(view: PlayerView, prev: Solve | None, safe: bool) -> NestedRanges | None:
    """Ranges (and, when safe, the gadget's values and the opponent's prior) at ``view``
    from the solve ``prev`` of this hand (:func:`anchor`); ``None`` when its tree cannot
    follow."""
    from pokerlab.subgame.resolve import counterfactual_values, node_reach

    if prev is None or prev.searcher != view.player:
        return None
    s = prev.solver
    tokens = _follow(s, view, prev.n_events)
    if tokens is None:
        return None
    _, r0, r1 = node_reach(s, tokens)
    if not safe:
        return r0, r1, None, None
    opp = 1 - view.player
    cbv = counterfactual_values(s, tokens, opp, best_response=True)
    prior = np.asarray(s.spot.ranges[opp], dtype=np.float64).copy()
    # values count chips from the solve's street start: re-base them on this street's
    pot, stack = street_start(view)
    paid = prev.stack - stack
    if paid:
        ours = r0 if view.player == 0 else r1
        cbv = cbv + paid * compatible_mass(ours) * (prior > 0)
    return r0, r1, cbv, prior


def leaf_pairs(source: Solve, view: PlayerView, solver: object) -> list[tuple[int, int]]:
    """For a depth-limited ``solver`` nested at ``view`` in the depth-limited solve
    ``source`` of the same street: ``(leaf of solver, the same leaf of source)`` for every
    leaf whose path from ``view`` the source's tree holds (its river state can start from the
    source's); empty when the source's tree cannot follow ``view``."""
    tokens = _follow(source.solver, view, source.n_events)
    if tokens is None:
        return []
    theirs = {path: i for i, path in enumerate(source.solver.leaf_paths())}  # type: ignore[attr-defined]
    out = []
    for i, path in enumerate(solver.leaf_paths()):  # type: ignore[attr-defined]
        j = theirs.get(tuple(tokens) + tuple(path))
        if j is not None:
            out.append((i, j))
    return out

