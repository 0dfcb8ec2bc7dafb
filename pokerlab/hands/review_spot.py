"""One reviewed hand: its postflop line, the solved spot, and the hero's decisions scored.

:func:`hand_line` reads a hand that is heads-up from the flop on (the engine's replay,
:func:`pokerlab.hands.replay.replay`, checks it first): board, pot and effective stack at
the flop, both players' hole cards where known, the postflop actions as street totals.
:func:`build_spot` makes the flop spot: the fixed review tree (:class:`ReviewConfig`: one
bet size per street and one raise size) with every real bet and raise size of the hand
added exactly, at its street and player, as a fraction of the pot that gives its chips.
:func:`score_hand` solves it once and walks the real actions through the tree (the
opponent's too, every one on the tree), scoring each of the hero's decisions: the EV of
each action for the hero's combo is the solved counterfactual value of the child node
(per combo, normalised by the opponent hands it can meet), the loss is best minus chosen.
Turn and river decisions are scored in a turn / river subgame from the real board, its
ranges narrowed by the previous street's solved strategies along the real line (Bayes), or
with ``ReviewConfig(resolve=False)`` in the flop solve's subtrees.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pokerlab.cards.cards import COMBO_MASKS, cards_str, combo_index, parse_card
from pokerlab.errors import PokerlabError
from pokerlab.kinds import CHANCE, DECISION

STREETS = ("flop", "turn", "river")


class Skip(PokerlabError):
    """A hand (or a hero in it) that cannot be reviewed: ``reason`` is the short count key."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(detail or reason)
        self.reason = reason


ALGO = "rdcfr"
"""The review solves' algorithm (``SolveConfig.algo``): DCFR with restarted averages."""
CHECK_EVERY = 20
"""Iterations between two exploitability checks of a review solve against its target."""
F32_LIMIT = 1.5e9
"""Bytes of a review spot in float32 past which it is solved in 16 bits all the same."""


@dataclass(frozen=True, kw_only=True)
class ReviewConfig:
    """The review settings (docs/review.md): the fixed review tree (one bet size per street
    in % of the pot; the raise size, % of the pot after calling, offered on the streets of
    ``raise_streets`` only, elsewhere only the hand's own raises; the raise cap per street,
    raised to the hand's own count; an all-in added where the stack behind is at most
    ``allin_threshold`` pots, 0 never), the solve budget per spot (iteration cap,
    exploitability target in % of the pot, checked every ``CHECK_EVERY`` iterations; the
    algorithm ``ALGO``: Discounted CFR with restarted averages, which at 35 iterations leaves review
    flop spots as exploitable as plain DCFR at 40, docs/review.md), 16-bit storage
    (``compress``: always; by default only for a spot whose float32 arrays would pass
    ``F32_LIMIT`` bytes, as float32 iterations are about a fifth faster) and ``resolve``:
    turn and river decisions scored in a turn / river subgame from the real board with the
    ranges narrowed by the previous street's solve along the real line (else they read the
    flop solve's subtrees)."""

    flop_bets: str = "50%"
    turn_bets: str = "75%"
    river_bets: str = "75%"
    raises: str = "100%"
    raise_streets: str = "flop"
    raise_cap: int = 1
    allin_threshold: float = 0.67
    iterations: int = 35
    target_pct: float = 1.0
    compress: bool = False
    resolve: bool = True

    def to_json(self) -> dict[str, Any]:
        return {"flop_bets": self.flop_bets, "turn_bets": self.turn_bets, "river_bets": self.river_bets,
                "raises": self.raises, "raise_streets": self.raise_streets, "raise_cap": self.raise_cap,
                "allin_threshold": self.allin_threshold, "iterations": self.iterations,
                "target_pct": self.target_pct, "algo": ALGO, "check_every": CHECK_EVERY,
                "compress": self.compress, "resolve": self.resolve}

    def raise_on(self, street: int) -> bool:
        """Whether the standard raise size is offered on ``street`` (0 flop .. 2 river)."""
        names = {x.strip() for x in self.raise_streets.split(",") if x.strip()}
        bad = names - {"flop", "turn", "river", "none", "all"}
        if bad:
            raise PokerlabError(f"--raise-streets: unknown street {sorted(bad)[0]!r} "
                                "(flop, turn, river, all or none)")
        return "all" in names or STREETS[street] in names


@dataclass
class PostAct:
    street: int  # 1 flop, 2 turn, 3 river
    seat: int
    kind: str  # f x c b r
    to: int  # the seat's street total after the action
    facing: int  # the street's bet level before the action
    pot_before: int


@dataclass
class HandLine:
    """What a review needs of one hand heads-up from the flop (chips in the hand's units)."""

    key: str
    label: str
    players: list[str]
    positions: list[str]
    seats: tuple[int, int]  # (out of position, in position) postflop
    hole: dict[int, tuple[int, int]]
    board: list[int]
    pot: int
    stack: int
    big_blind: int
    table_size: int
    preflop: list[tuple[int, str, int]]  # (seat, kind, to)
    post: list[PostAct] = field(default_factory=list)
    preflop_aggressor: int = -1


def hand_line(h: Any) -> HandLine:
    """The :class:`HandLine` of RawHand ``h``; :class:`Skip` when it has no heads-up
    postflop pot (or is not a legal hand)."""
    from pokerlab.hands.replay import replay
    from pokerlab.hands.replay_codes import position_names

    try:
        facts = replay(h)
    except PokerlabError as exc:
        raise Skip("corrupt history", f"{h.where()}: {exc}") from None
    n = facts.table_size
    rows = facts.actions
    pre = [r for r in rows if r[1] == 0]
    folded = {r[2] for r in pre if r[3] == "f"}
    live = [i for i in range(n) if i not in folded]
    flop_rows = [r for r in rows if r[1] >= 1]
    if len(facts.board.replace(" ", "")) < 6:
        raise Skip("no flop")
    if len(live) != 2:
        raise Skip("not heads-up on the flop", f"{h.where()}: {len(live)} players see the flop")
    if not flop_rows:
        raise Skip("all-in before the flop")
    oop = int(flop_rows[0][2])
    ip = live[0] if live[1] == oop else live[1]
    hole: dict[int, tuple[int, int]] = {}
    board: list[int] = []
    for a in h.actions:
        w = a.split()
        if len(w) >= 3 and w[0] == "d" and w[1] == "dh" and "?" not in w[3 if len(w) > 3 else 2]:
            seat = int(w[2][1:]) - 1
            cards = w[3]
            hole[seat] = (parse_card(cards[:2]), parse_card(cards[2:4]))
        elif len(w) >= 3 and w[0] == "d" and w[1] == "db":
            txt = w[2]
            board += [parse_card(txt[i:i + 2]) for i in range(0, len(txt), 2)]
    put = [0] * n
    for i in range(n):
        put[i] = min(h.antes[i] + h.blinds_or_straddles[i], h.starting_stacks[i])
    for r in pre:
        put[int(r[2])] += int(r[4])
    pot = int(sum(put))
    if pot != int(flop_rows[0][6]):
        raise Skip("corrupt history", f"{h.where()}: pot {pot} at the flop is not the replay's")
    stack = min(h.starting_stacks[oop] - put[oop], h.starting_stacks[ip] - put[ip])
    post = [PostAct(street=int(r[1]), seat=int(r[2]), kind=str(r[3]), to=int(r[5]),
                    facing=int(r[5]) - int(r[4]) + int(r[7]),
                    pot_before=int(r[6])) for r in flop_rows]
    names = list(h.players) if h.players else [f"p{i + 1}" for i in range(n)]
    agg = [int(r[2]) for r in pre if r[3] in ("b", "r")]
    return HandLine(key=h.key(), label=str(h.hand) if h.hand is not None else h.where(),
                    players=names, positions=position_names(n, swapped=facts.swapped),
                    seats=(oop, ip), hole=hole, board=board, pot=pot, stack=int(stack),
                    big_blind=int(facts.big_blind), table_size=n,
                    preflop=[(int(r[2]), str(r[3]), int(r[5])) for r in pre],
                    post=post, preflop_aggressor=agg[-1] if agg else -1)


# ---------------------------------------------------------------------- ranges and spot

def flop_ranges(line: HandLine, presets: dict[str, str]) -> tuple[np.ndarray, np.ndarray, str]:
    """(oop, ip) ranges (1326 weights each) and where they came from."""
    from pokerlab.cards.ranges import parse_range
    from pokerlab.hands.review_ranges import blueprint_ranges, preset_keys

    oop, ip = line.seats
    if line.table_size == 2:
        bb = 0 if line.positions[0] == "BB" else 1
        eng = {bb: 0, 1 - bb: 1}
        acts = [(eng[s], -1 if k == "f" else (to if k in ("b", "r") else 0)) for s, k, to in line.preflop]
        r = blueprint_ranges(acts, big_blind=line.big_blind, stack=line.stack + line.pot // 2)
        return r[eng[oop]].copy(), r[eng[ip]].copy(), "blueprint"
    k0, k1 = preset_keys([(s, k) for s, k, _ in line.preflop], (oop, ip), line.positions)
    return parse_range(presets[k0]), parse_range(presets[k1]), f"presets {k0} / {k1}"


def _frac(x: float) -> str:
    return f"{100.0 * x!r}%"


def street_start(line: HandLine, street: int) -> tuple[int, int]:
    """(pot, effective stack) at the start of ``street`` (1 flop, 2 turn, 3 river)."""
    if street == 1:
        return line.pot, line.stack
    first = next((a for a in line.post if a.street == street), None)
    if first is None:
        raise Skip("no postflop decision", f"no action on the {STREETS[street - 1]}")
    put = 0
    for s in range(1, street):
        tos = [a.to for a in line.post if a.street == s and a.seat == line.seats[0]]
        put += tos[-1] if tos else 0
    if first.pot_before != line.pot + 2 * put:
        raise Skip("corrupt history", f"pot {first.pot_before} at the {STREETS[street - 1]} "
                   f"is not {line.pot} + 2 x {put}")
    return first.pot_before, line.stack - put


def build_spot(line: HandLine, ranges: tuple[np.ndarray, np.ndarray], cfg: ReviewConfig,
               street: int = 1) -> Any:
    """The spot of ``line`` at the start of ``street`` (1 flop, 2 turn, 3 river) with the
    hand's own sizes in the tree (module docstring)."""
    from pokerlab.subgame.spot import make_spot, tree_config

    oop, ip = line.seats
    who = {oop: 0, ip: 1}
    bets: list[list[list[float]]] = [[[], []] for _ in range(3)]
    raises: list[list[list[float]]] = [[[], []] for _ in range(3)]
    aggr = [0, 0, 0]
    for a in line.post:
        if a.kind not in ("b", "r"):
            continue
        s, p = a.street - 1, who[a.seat]
        aggr[s] += 1
        if a.facing == 0:
            bets[s][p].append(a.to / a.pot_before)
        else:
            own_before = _own_before(line, a)
            to_call = a.facing - own_before
            raises[s][p].append((a.to - a.facing) / (a.pot_before + to_call))
    defaults = (line_cfg_bets(cfg, 0), line_cfg_bets(cfg, 1), line_cfg_bets(cfg, 2))
    tc = tree_config(bets="none", raises="none", allin_threshold=cfg.allin_threshold, force_allin=0.0,
                     merge=0.0, raise_cap=max(cfg.raise_cap, *aggr))
    from dataclasses import replace

    from pokerlab.subgame.spot import StreetSizes, parse_sizes

    sizes = []
    for s in range(3):
        row = []
        for p in (0, 1):
            b = ",".join([defaults[s], *(_frac(x) for x in bets[s][p])])
            std = [cfg.raises] if cfg.raise_on(s) else []
            r = ",".join([*std, *(_frac(x) for x in raises[s][p])]) or "none"
            row.append(StreetSizes(bets=parse_sizes(b, raise_sizes=False, what="bet"),
                                   raises=parse_sizes(r, raise_sizes=True, what="raise")))
        sizes.append((row[0], row[1]))
    tc = replace(tc, sizes=tuple(sizes))
    hero_fix = [np.asarray(r, dtype=np.float64).copy() for r in ranges]
    for p in (0, 1):
        top = float(hero_fix[p].max())
        if top > 0:
            hero_fix[p] /= top
    for seat, p in who.items():  # a known hand outside its range still gets a (tiny) weight
        if seat in line.hole:
            c = combo_index(*sorted(line.hole[seat]))
            hero_fix[p][c] = max(hero_fix[p][c], 1e-3)
    pot, stack = street_start(line, street)
    if stack <= 0:
        raise Skip("all-in before the street", f"no chips behind at the {STREETS[street - 1]}")
    return make_spot(board=line.board[:2 + street], pot=pot, stack=stack, oop=hero_fix[0],
                     ip=hero_fix[1], tree=tc, big_blind=float(line.big_blind))


def line_cfg_bets(cfg: ReviewConfig, street: int) -> str:
    return (cfg.flop_bets, cfg.turn_bets, cfg.river_bets)[street]


def _own_before(line: HandLine, act: PostAct) -> int:
    own = 0
    for a in line.post:
        if a is act:
            return own
        if a.street == act.street and a.seat == act.seat and a.kind in ("c", "b", "r"):
            own = a.to
    return own


# -------------------------------------------------------------------------------- scoring

def _situation(line: HandLine, i: int) -> str:
    """The decision's situation label (docs/review.md)."""
    act = line.post[i]
    seat, street = act.seat, act.street
    before = [a for a in line.post[:i] if a.street == street]
    prev = [a for a in line.post[:i] if a.street == street - 1 and a.kind in ("b", "r")]
    facing = act.facing > _own_before(line, act)
    if facing:
        if any(a.seat == seat and a.kind in ("b", "r") for a in before):
            return "facing raise"
        if any(a.seat == seat and a.kind == "x" for a in before):
            return "check-raise spot"
        if street == 3:
            return "river bluff-catch"
        if street == 1 and line.preflop_aggressor != seat and not any(a.kind in ("b", "r") for a in
                                                                      before[:-1]):
            return "facing c-bet"
        return "facing bet"
    if street == 1 and line.preflop_aggressor == seat:
        return "c-bet"
    if prev and prev[-1].seat == seat:
        return "barrel"
    if prev and seat == line.seats[0] and not before:
        return "donk"
    return "probe" if street > 1 else "first in"


def _walk_reach(solver: Any, node: int, slot: int, smap: tuple[int, ...], reach: list[np.ndarray],
                a: int) -> None:
    """Multiply the actor's reach by its average strategy's probability of action ``a``
    (kept unchanged when no hand of its range takes it: the model was wrong)."""
    q = int(solver.tree.player[node])
    sigma = solver.average_strategy(node, slot)
    hmap = solver.hand_map(q, smap)
    new = reach[q] * sigma[a][hmap]
    if new.sum() > 1e-9 * max(reach[q].sum(), 1e-300):
        reach[q] = new


def _action_index(solver: Any, node: int, act: PostAct, stack_cap: int) -> int:
    names = solver.tree.action_names[node]
    amounts = solver.tree.action_amounts[node]
    for k, nm in enumerate(names):
        if act.kind == "f" and nm == "fold":
            return k
        if act.kind == "x" and nm == "check":
            return k
        if act.kind == "c" and nm == "call":
            return k
        if act.kind in ("b", "r") and nm.split()[0] in ("bet", "raise", "allin"):
            if amounts[k] == act.to or (nm.startswith("allin") and act.to >= amounts[k]):
                return k
    raise Skip("off-tree action", f"{act.kind} {act.to}: the tree offers {', '.join(names)}")


def _range_1326(solver: Any, reach: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    out = []
    for p in (0, 1):
        w = np.zeros(1326)
        w[solver.deal.combos[p]] = reach[p]
        out.append(w)
    return out[0], out[1]


def score_hand(line: HandLine, heroes: set[int], solve: Any, cfg: ReviewConfig | None = None,
               ranges: tuple[np.ndarray, np.ndarray] | None = None) -> list[dict[str, Any]]:
    """The scored decisions of the seats in ``heroes`` (their hole cards known).  ``solve``
    is a solved :class:`~pokerlab.subgame.solver.SpotSolver` of the flop spot, or a function
    spot -> solved solver; with ``cfg.resolve`` (and ``ranges``, the flop ranges) the turn
    and river are re-solved from the real board with the ranges the previous solve's
    strategies leave along the real line (Bayes)."""
    cfg = cfg or ReviewConfig(resolve=False)
    if callable(solve):
        if ranges is None:
            raise PokerlabError("score_hand: a solve function needs the flop ranges")
        solver = solve(build_spot(line, ranges, cfg, 1))
    else:
        solver, solve = solve, None
    oop, ip = line.seats
    who = {oop: 0, ip: 1}
    last = max((a.street for a in line.post if a.seat in heroes), default=0)
    tokens: list[str] = []
    tr, d = solver.tree, solver.deal
    reach = [d.weights[0].astype(np.float64).copy(), d.weights[1].astype(np.float64).copy()]
    street = 1
    out: list[dict[str, Any]] = []
    bb = float(line.big_blind)
    for i, act in enumerate(line.post):
        while act.street > street:  # deal the next card
            view = solver.cursor(tokens)
            if int(tr.kind[view.node]) != CHANCE:
                raise Skip("off-tree action", "the tree's street ended early")
            c = line.board[2 + street]
            bit = np.uint64(1) << np.uint64(c)
            for p in (0, 1):
                reach[p][(COMBO_MASKS[d.combos[p]] & bit) != 0] = 0.0
            street += 1
            if cfg.resolve and solve is not None and street <= last:
                # the next street as its own subgame: the real board, the narrowed ranges
                solver = solve(build_spot(line, _range_1326(solver, reach), cfg, street))
                tr, d = solver.tree, solver.deal
                reach = [d.weights[0].astype(np.float64).copy(), d.weights[1].astype(np.float64).copy()]
                tokens = []
            else:
                tokens.append(cards_str([c]))
        if street > last:
            break
        view = solver.cursor(tokens)
        node = view.node
        if int(tr.kind[node]) != DECISION or int(tr.player[node]) != who[act.seat]:
            raise Skip("off-tree action", "the tree's node is not this player's decision")
        a = _action_index(solver, node, act, line.stack)
        if act.seat in heroes and act.seat in line.hole:
            out.append(_score(solver, line, i, view, reach, a, bb))
        _walk_reach(solver, node, view.slot, view.suit_map, reach, a)
        tokens.append(tr.action_names[node][a])
    return out


def _score(solver: Any, line: HandLine, i: int, view: Any, reach: list[np.ndarray], a: int,
           bb: float) -> dict[str, Any]:
    from pokerlab.subgame.solver_views import NodeView

    tr, d = solver.tree, solver.deal
    node = view.node
    p = int(tr.player[node])
    who = ("oop", "ip")[p]
    act = line.post[i]
    combo = combo_index(*sorted(line.hole[act.seat]))
    hands = np.flatnonzero(d.combos[p] == combo)
    if hands.shape[0] == 0:
        raise Skip("hero's hand not in the solved range")
    h = int(hands[0])
    r = [reach[0].copy(), reach[1].copy()]
    r[p][h] = max(r[p][h], 1.0)
    names = list(tr.action_names[node])
    evs = []
    for k in range(len(names)):
        child = tr.child(node, k)
        cv = NodeView(node=child, street=view.street, slot=view.slot, board=view.board,
                      suit_map=view.suit_map, reach=(r[0], r[1]), path=view.path)
        rep = solver.node_report(cv)
        evs.append(float(rep[who]["ev"][combo]))
    sigma = solver.average_strategy(node, view.slot)[:, solver.hand_map(p, view.suit_map)][:, h]
    best = int(np.nanargmax(evs))
    loss = max(0.0, evs[best] - evs[a])
    pot = float(solver.spot.pot + tr.contrib[node, 0] + tr.contrib[node, 1])
    return {"hand": line.label, "hand_key": line.key, "player": line.players[act.seat],
            "position": line.positions[act.seat], "street": STREETS[act.street - 1],
            "situation": _situation(line, i), "board": cards_str(view.board),
            "cards": cards_str(sorted(line.hole[act.seat])), "pot_bb": pot / bb,
            "action": names[a], "best_action": names[best], "ev_loss_bb": loss / bb,
            "ev_loss_pct_pot": 100.0 * loss / pot,
            "ev_bb": {nm: (e / bb if math.isfinite(e) else None) for nm, e in zip(names, evs, strict=True)},
            "mix": {nm: float(x) for nm, x in zip(names, sigma, strict=True)}}
