"""Local best response (LBR; Lisý & Bowling 2017) against an agent, by sampling.

LBR plays one seat against the agent; every deal is played twice with the seats swapped
(duplicate).  It never sees the agent's cards.  It keeps the agent's *range* -- a weight
per possible private hand (1326 combos in hold'em) -- by Bayes' rule: the prior is uniform
over the hands that do not clash with LBR's cards, board cards zero the hands they block,
and every agent action multiplies each hand's weight by the probability the agent takes
that action with that hand (asked for all hands at once, see
:func:`all_hands_probabilities`).

At its own decisions LBR values each action of its action set against the range and plays
the best one (the paper's Algorithm 1):

* fold: what LBR has put in is lost;
* check/call: both players check to the showdown ("check-down"); LBR wins
  ``equity x pot`` where the equity against each hand is exact (every runout enumerated
  with the numba evaluator, :mod:`pokerlab.evaluation.lbr_kernels`; preflop the exact
  all-in equity matrix);
* a bet/raise: the agent folds with its own per-hand fold probability at the state after
  the raise, otherwise LBR assumes a call and a check-down against the calling hands.

Ties prefer call, then fold, then the smaller raise.  Before ``from_round`` (1 = preflop ..
4 = river) LBR only checks/calls, as in the paper's "rounds 3-4" rows.

Action sets (``--actions``): ``fc`` (fold/call), ``fcp`` (+ pot), ``fcpa`` (+ pot and
all-in), ``56`` (fold, call, all-in and the 53 pot fractions ``0.05 x 1.15^k``), ``c``
(check/call only), or any bet-set text of :mod:`pokerlab.abstraction.bets` (e.g.
``"50%, 100%, a"``); or one set per round (:func:`~pokerlab.evaluation.lbr_core.
split_rounds`): ``c,56,fc,fc`` is the paper's setting (4), C preflop, the 56 sizes on the
flop, F,C on turn and river (``/`` separates sets that are bet-set texts).  A round whose
set is ``c`` is played like a round before ``from_round``.  On the small games (Kuhn,
Leduc) ``fc`` means fold/call and every other set means all legal actions, per round.

The hand loop (:func:`play_lbr_hand`), the decision rule (:func:`lbr_choose`) and the
statistics are shared by hold'em (:class:`HoldemSession`) and the small protocol games
(:mod:`pokerlab.evaluation.lbr_small`), so the sampled code path can be checked against
the exact LBR value on Leduc.

Estimators (``LBRConfig.estimator``): ``sampled`` (the default) plays each deal as dealt,
the agent's actions drawn from its probabilities for its real hand; ``expected``
(:class:`ExpectedHoldemSession`, :func:`play_expected_hand`) keeps LBR's cards and the
deal's board but integrates the agent's hand (uniform over the combos the full board and
LBR's cards leave) and its action draws out exactly -- the conditional expectation of the
sampled value, so the same mean with a smaller variance per deal, at the price of a range
query at every agent node of the expanded tree.  The kernels are the sampled estimator's.

Units: ``mbb`` is milli-big-blinds per hand for hold'em and milli-chips per hand for the
small games (``unit`` in :meth:`LBRResult.to_json`).  The reported value is LBR's mean
winnings per hand over both seats; its 95% CI comes from the per-deal duplicate means.
"""

from __future__ import annotations

import copy
import time
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from pokerlab.cards.range_kernels import combos64
from pokerlab.evaluation.lbr_core import (  # noqa: F401 - the LBR names, as before
    ESTIMATORS,
    NUM_COMBOS,
    ROUND_NAMES,
    Z95,
    ActionSet,
    Draws,
    ExpectedSession,
    LBRConfig,
    LBRError,
    LBRResult,
    LBRSession,
    agent_seed,
    check_estimator,
    check_from_round,
    check_rounds,
    deal_cards,
    draws,
    lbr_choose,
    line_group,
    line_rows,
    merge_lines,
    parse_action_set,
    play_expected_hand,
    play_lbr_hand,
    run_sessions,
    summarize,
)
from pokerlab.kinds import DECISION
from pokerlab.policy.range_query import (
    all_hands,
    fast_state,
    fold_probability,
    hand_independent,
    indexed_fold_vectors,
    indexed_policy_all_hands,
)


# ----------------------------------------------------------------------------- hold'em
class HoldemSession:
    """One HUNL hand of LBR (seat ``seat``) against ``agent`` with the 9 dealt ``cards``
    (hole of player 0, hole of player 1, flop, turn, river)."""

    def __init__(self, agent: Any, config: Any, seat: int, cards: Sequence[int],
                 action_set: ActionSet, from_round: int, *, vectorised: bool = True) -> None:
        from pokerlab.cards.cards import COMBO_INDEX, COMBO_MASKS, cards_mask
        from pokerlab.holdem.engine import HoldemState

        self.agent = agent
        self.config = config
        self.seat = seat
        self.cards = [int(c) for c in cards]
        self.action_set = action_set
        self.from_round = from_round
        st = HoldemState(config=config)
        st.deal_hole(self.cards[0:2])
        st.deal_hole(self.cards[2:4])
        self.state = st
        self.hole = tuple(st.hole[seat])
        opp = st.hole[1 - seat]
        self._opp_combo = int(COMBO_INDEX[opp[0], opp[1]])
        self._masks = COMBO_MASKS
        blocked = (COMBO_MASKS & np.uint64(cards_mask(self.hole))) != 0
        self.range = np.where(blocked, 0.0, 1.0)
        self._eq_cache: dict[int, np.ndarray] = {}
        self.vectorised = vectorised

    # -- protocol
    def advance(self) -> int:
        from pokerlab.cards.cards import cards_mask
        from pokerlab.holdem.engine import Phase

        st = self.state
        while st.phase == Phase.DEAL_BOARD:
            n = st.cards_due()
            pos = 4 + len(st.board)
            new = self.cards[pos:pos + n]
            st.deal_board(new)
            blocked = (self._masks & np.uint64(cards_mask(new))) != 0
            self.range = np.where(blocked, 0.0, self.range)
        if st.phase == Phase.TERMINAL:
            return -1
        return int(st.actor)

    def lbr_active(self) -> bool:
        st = self.state.street
        return st + 1 >= self.from_round and self.action_set.active(st)

    def call_action(self) -> Any:
        from pokerlab.holdem.engine import Action, ActionKind

        return Action(kind=ActionKind.CHECK_CALL)

    def opponent_hand(self) -> int:
        return self._opp_combo

    def opponent_policy(self) -> tuple[list[Any], np.ndarray]:
        view = self.state.view(1 - self.seat)
        if hand_independent(self.agent):
            # the same distribution for every hand: the Bayes update is a constant factor,
            # so let the agent draw its own action (seeded by reset) and keep the range
            return [self.agent.act(view)], (self.range > 0).astype(np.float64)[:, None]
        return all_hands(self.agent, view, self.range > 0, vectorised=self.vectorised)

    def apply(self, action: Any) -> None:
        self.state.apply(action)

    def payoff(self) -> float:
        return float(self.state.payoffs()[self.seat])

    def outcome(self) -> str:
        """How the hand went from LBR's first round (``from_round``) on, one group per
        street with betting: the street's letter (``P F T R``) and each action as ``L``
        (LBR) or ``A`` (the agent) with ``x`` check, ``c`` call, ``f`` fold, ``b`` bet or
        raise, ``a`` all-in; `` sd`` at the end of a showdown.  For example
        ``"T Lb Ac | R Lx Ab Lf"``."""
        from pokerlab.holdem import events as ev

        first = self.from_round - 1
        stacks = self.config.stacks
        street, start = 0, 0
        groups: dict[int, list[str]] = {}
        for e in self.state.history:
            if isinstance(e, ev.BoardDealt):
                street, start = e.street, e.pot // 2
                continue
            if street < first or not isinstance(e, (ev.Folded, ev.CheckedOrCalled, ev.RaisedTo)):
                continue
            who = "L" if e.player == self.seat else "A"
            if isinstance(e, ev.Folded):
                act = "f"
            elif isinstance(e, ev.CheckedOrCalled):
                act = "c" if e.amount > 0 else "x"
            else:
                act = "a" if start + e.raise_to >= stacks[e.player] else "b"
            groups.setdefault(street, []).append(who + act)
        text = " | ".join("PFTR"[s] + " " + " ".join(toks) for s, toks in sorted(groups.items()))
        return text + (" sd" if self.state.is_showdown else "")

    # -- valuation
    def equity(self) -> np.ndarray:
        """LBR's check-down pot share against every combo on the current board."""
        nb = len(self.state.board)
        eq = self._eq_cache.get(nb)
        if eq is None:
            eq = checkdown_equities(self.hole, tuple(self.state.board))
            self._eq_cache[nb] = eq
        return eq

    def lbr_options(self) -> list[tuple[Any, np.ndarray | float]]:
        from pokerlab.abstraction.bets import StreetBets, resolve_raises
        from pokerlab.holdem.engine import Action, ActionKind

        st = self.state
        me, opp = self.seat, 1 - self.seat
        lg = st.legal()
        c_me, c_opp = st.committed
        if me == 1:
            c_me, c_opp = c_opp, c_me
        tot_me = self.config.stacks[me]
        tot_opp = self.config.stacks[opp]
        two_eq = 2.0 * self.equity() - 1.0
        opts: list[tuple[Any, np.ndarray | float]] = []
        c_call = min(tot_me, c_opp)
        opts.append((Action(kind=ActionKind.CHECK_CALL), two_eq * c_call))
        if lg.can_fold:
            opts.append((Action(kind=ActionKind.FOLD), -float(c_me)))
        sizes = self.action_set.sizes[st.street]
        if lg.can_raise and sizes:
            raises = resolve_raises(
                StreetBets(sizes=tuple(sizes)), pot=st.pot, current_bet=max(st.bets),
                to_call=st.to_call, min_raise_to=lg.min_raise_to, all_in_to=lg.max_raise_to,
                big_blind=self.config.big_blind, raises_so_far=0)
            live = self.range > 0
            folds = None
            if self.vectorised and not hand_independent(self.agent):
                folds = indexed_fold_vectors(
                    self.agent, st.view(opp),
                    [Action(kind=ActionKind.RAISE, amount=int(a)) for _, a in raises], live)
            for r, (_, amount) in enumerate(raises):
                act = Action(kind=ActionKind.RAISE, amount=int(amount))
                if folds is not None:
                    fold = folds[r]
                    new_me = c_me + (int(amount) - st.bets[me])
                    c = min(new_me, tot_opp)
                    opts.append((act, fold * float(c_opp) + (1.0 - fold) * two_eq * c))
                    continue
                child = st.clone()
                child.apply(act)
                if hand_independent(self.agent):
                    fold = np.full(NUM_COMBOS, fold_probability(self.agent, child.view(opp)))
                else:
                    acts, probs = all_hands(self.agent, child.view(opp), live,
                                             vectorised=self.vectorised)
                    fold = np.zeros(NUM_COMBOS)
                    for k, a in enumerate(acts):
                        if a.kind == ActionKind.FOLD:
                            fold = fold + probs[:, k]
                new_me = c_me + (int(amount) - st.bets[me])
                c = min(new_me, tot_opp)
                opts.append((act, fold * float(c_opp) + (1.0 - fold) * two_eq * c))
        return opts


class ExpectedHoldemSession(HoldemSession):
    """A :class:`HoldemSession` for the ``expected`` estimator
    (:func:`~pokerlab.evaluation.lbr_core.play_expected_hand`): the agent's hand is not
    the deal's but integrated over every combo that clashes with neither LBR's cards nor
    the deal's whole 5-card board (``weights``, uniform at the start); LBR's ``range``
    is as in the sampled hand (it sees only the board dealt so far).  The agent's hole
    cards in the engine state are the deal's, a placeholder that nothing reads: range
    queries answer for all combos, folds do not depend on them and a showdown is valued
    against ``weights``.  Agents that ignore their cards (``hand_independent``) still
    draw their own action, one branch: their hand is integrated out, their draws are
    not (``random`` spreads over every legal raise size)."""

    def __init__(self, agent: Any, config: Any, seat: int, cards: Sequence[int],
                 action_set: ActionSet, from_round: int, *, vectorised: bool = True) -> None:
        from pokerlab.cards.cards import cards_mask
        from pokerlab.cards.evaluator import strength, strengths_on_board

        super().__init__(agent, config, seat, cards, action_set, from_round,
                         vectorised=vectorised)
        board = self.cards[4:9]
        blocked = (self._masks & np.uint64(cards_mask([*self.hole, *board]))) != 0
        self.weights = np.where(blocked, 0.0, 1.0)
        self.weights /= float(self.weights.sum())
        # the agent's strength on the full board per combo, LBR's own (for showdowns)
        self._opp_strength = np.asarray(strengths_on_board(board), dtype=np.int64)
        self._lbr_strength = int(strength([*self.hole, *board]))

    def branch(self) -> ExpectedHoldemSession:
        b = copy.copy(self)
        b.state = self.state.clone()
        return b

    def expected_payoff(self) -> float:
        """A fold: its payoff; a showdown: LBR's chips against each combo (win, tie or
        lose on the full board, :meth:`HoldemState.showdown_payoffs`) averaged over
        ``weights``."""
        st = self.state
        if not st.is_showdown:
            return self.payoff()
        w = self.weights
        total = float(w.sum())
        s = self._opp_strength
        win = float(w[s < self._lbr_strength].sum()) / total
        tie = float(w[s == self._lbr_strength].sum()) / total
        lose = float(w[s > self._lbr_strength].sum()) / total
        sign = 1 if self.seat == 0 else -1  # outcome > 0: player 0 has the better hand
        return (win * st.showdown_payoffs(sign)[self.seat]
                + tie * st.showdown_payoffs(0)[self.seat]
                + lose * st.showdown_payoffs(-sign)[self.seat])


def checkdown_equities(hole: Sequence[int], board: Sequence[int]) -> np.ndarray:
    """Pot share of ``hole`` against every combo when checking down from ``board`` (0 for
    combos that clash); preflop from the exact all-in equity matrix."""
    from pokerlab.cards.cards import COMBO_INDEX

    if len(board) == 0:
        from pokerlab.cards.equity import preflop_equity_matrix

        row = preflop_equity_matrix()[int(COMBO_INDEX[hole[0], hole[1]])]
        return np.nan_to_num(np.asarray(row, dtype=np.float64), nan=0.0)
    from pokerlab.cards.evaluator import eval_tables
    from pokerlab.evaluation.lbr_kernels import checkdown_equity

    out = np.zeros(NUM_COMBOS)
    b = np.zeros(5, dtype=np.int64)
    b[:len(board)] = board
    checkdown_equity(eval_tables(), np.asarray(hole, dtype=np.int64), b, len(board),
                     combos64(), out)
    return out


def lbr_holdem(agent: Any, *, config: Any = None, lbr: LBRConfig | None = None,
               deals: Sequence[int] | None = None,
               progress: Callable[[int], None] | None = None) -> LBRResult:
    """LBR against a HUNL ``agent`` (an :class:`pokerlab.agents.Agent`), by the
    estimator ``lbr.estimator`` (sampled by default).

    ``lbr.hands`` deals, each played with LBR in both seats.  ``deals`` picks the deal
    numbers explicitly (for splitting a run over processes).
    """
    from pokerlab.holdem.engine import HoldemConfig

    cfg = config if config is not None else HoldemConfig.from_bb(200)
    c = lbr or LBRConfig()
    ids = list(range(c.hands)) if deals is None else list(deals)
    t0 = time.perf_counter()
    per = per_deal_holdem(agent, cfg, c, ids, progress)
    return summarize(per, agent=str(getattr(agent, "name", agent)), game="hunl",
                     actions=parse_action_set(c.actions).name, from_round=c.from_round,
                     seconds=time.perf_counter() - t0, unit="mbb/hand",
                     big_blind=float(cfg.big_blind), seed=c.seed, estimator=c.estimator)


def per_deal_holdem(agent: Any, config: Any, lbr: LBRConfig, deals: Sequence[int],
                    progress: Callable[[int], None] | None = None, *,
                    vectorised: bool = True, kernel: bool = True,
                    outcomes: dict[str, np.ndarray] | None = None) -> np.ndarray:
    """``per_deal[i, seat]`` chips for the given deal numbers (worker entry point);
    ``vectorised=False`` plays the per-combo reference LBR (same hands, same values);
    unless ``kernel=False``, fold/call LBR against an indexed policy on its own tree runs
    in one kernel (:func:`fc_kernel_deals`) and every other action set (or table) against
    such a policy in the real-tree kernel
    (:func:`pokerlab.evaluation.lbr_tree.tree_kernel_deals`).

    ``outcomes`` (``expected``/``active`` only) receives the same chips split by how
    the hands went (:meth:`HoldemSession.outcome`; see
    :func:`~pokerlab.evaluation.lbr_core.run_sessions`).

    ``lbr.estimator`` ``"expected"`` or ``"active"`` plays :class:`ExpectedHoldemSession` hands through
    :func:`~pokerlab.evaluation.lbr_core.play_expected_hand` (always in Python: the
    kernels are the sampled estimator's)."""
    aset = check_rounds(parse_action_set(lbr.actions), 4, "hunl")
    if lbr.estimator in ("expected", "active"):
        def make_expected(d: int, seat: int) -> tuple[ExpectedSession, Draws]:
            agent.reset(agent_seed(lbr.seed, d, seat))
            sess = ExpectedHoldemSession(agent, config, seat, deal_cards(lbr.seed, d), aset,
                                         lbr.from_round, vectorised=vectorised)
            return sess, draws(lbr.seed, d, seat)

        return run_sessions(make_expected, list(deals), progress, estimator=lbr.estimator,
                            outcomes=outcomes)
    if outcomes is not None:
        raise LBRError("LBR's value by outcome needs the expected or active estimator")
    if vectorised and kernel:
        from pokerlab.evaluation.lbr_tree import tree_kernel_deals

        fast = None if aset.raises else fc_kernel_deals(agent, config, lbr, deals, progress)
        if fast is None and _range_query_checked(agent, config):
            fast = tree_kernel_deals(agent, config, lbr, deals, progress)
        if fast is not None:
            return fast

    def make(d: int, seat: int) -> tuple[LBRSession, Draws]:
        agent.reset(agent_seed(lbr.seed, d, seat))
        sess = HoldemSession(agent, config, seat, deal_cards(lbr.seed, d), aset,
                             lbr.from_round, vectorised=vectorised)
        return sess, draws(lbr.seed, d, seat)

    return run_sessions(make, list(deals), progress)


def _range_query_checked(agent: Any, config: Any) -> bool:
    """The range query's first-use check (its answers against the agent's own
    ``action_probabilities``, :func:`indexed_policy_all_hands`) at the agent's first
    decision of a hand, for the real-tree kernel: True when it passed."""
    from pokerlab.evaluation.lbr_tree import tree_kernel_ok
    from pokerlab.holdem.engine import HoldemState

    if tree_kernel_ok(agent) is None:
        return False
    try:
        fs = fast_state(agent)
    except TypeError:
        return False
    if not fs.checked and fs.ok:
        st = HoldemState(config=config)
        st.deal_hole([0, 1])
        st.deal_hole([2, 3])
        agent.reset(0)
        indexed_policy_all_hands(agent, st.view(st.actor), np.ones(NUM_COMBOS, dtype=bool))
    return bool(fs.ok and fs.checked)


def fc_kernel_side(agent: Any, config: Any) -> Any:
    """The agent's match-kernel side when fold/call LBR can run in
    :func:`pokerlab.evaluation.lbr_kernels.lbr_fc_kernel`: an indexed policy on its own
    tree at the LBR table ``config`` (so LBR's folds and calls never leave it) whose
    nodes never offer two actions of the same chips; else ``None``."""
    from pokerlab.policy.kernel_side import kernel_side

    side = kernel_side(agent)
    if side is None or side.config != config:
        return None
    return side if distinct_chips(side.tree) else None


_DISTINCT: dict[int, tuple[Any, bool]] = {}


def distinct_chips(t: Any) -> bool:
    """No decision node of the action tree ``t`` offers two actions of the same chips
    (what fold/call LBR's kernel needs); remembered per tree (held weakly)."""
    hit = _DISTINCT.get(id(t))
    if hit is not None and hit[0]() is t:
        return hit[1]
    ok = True
    for node in np.flatnonzero(t.kind == DECISION).tolist():
        a, k = int(t.child_start[node]), int(t.num_children[node])
        ch = t.child_node[a:a + k]
        if len({(int(t.committed0[c]), int(t.committed1[c])) for c in ch}) < k:
            ok = False
            break
    if len(_DISTINCT) > 64:
        _DISTINCT.clear()
    _DISTINCT[id(t)] = (weakref.ref(t), ok)
    return ok


def fc_kernel_deals(agent: Any, config: Any, lbr: LBRConfig, deals: Sequence[int],
                    progress: Callable[[int], None] | None = None) -> np.ndarray | None:
    """``per_deal`` of fold/call LBR by the kernel (``None`` when the agent does not
    qualify, see :func:`fc_kernel_side`): the same hands and values as the Python path
    (tests/test_lbr_fast.py), in blocks of 256 deals for the progress callback."""
    side = fc_kernel_side(agent, config)
    if side is None:
        return None
    from pokerlab.abstraction.indexer import street_indexer
    from pokerlab.cards.cards import CLASS_OF_COMBO, COMBO_INDEX
    from pokerlab.cards.equity import preflop_equity_matrix
    from pokerlab.cards.evaluator import eval_tables
    from pokerlab.evaluation.lbr_kernels import lbr_fc_kernel

    t = side.tree
    active = active_table(lbr)
    Ts = [street_indexer(s).tables for s in range(4)]
    pre = np.ascontiguousarray(preflop_equity_matrix(), dtype=np.float64)
    stacks = np.asarray(config.stacks, dtype=np.int64)
    out = np.zeros((len(deals), 2))
    ds = np.asarray(list(deals), dtype=np.int64)
    for lo in range(0, len(ds), 256):
        block = ds[lo:lo + 256]
        res = np.zeros((len(block), 2))
        lbr_fc_kernel(int(lbr.seed), block, active, t.kind, t.actor, t.street,
                      t.child_start, t.num_children, t.child_action, t.child_node,
                      t.committed0, t.committed1, stacks, *side.arrays, *Ts, eval_tables(),
                      combos64(), np.ascontiguousarray(COMBO_INDEX, dtype=np.int64),
                      np.ascontiguousarray(CLASS_OF_COMBO, dtype=np.int64), pre,
                      res)  # type: ignore[call-arg]
        out[lo:lo + len(block)] = res
        if progress is not None:
            progress(lo + len(block))
    return out


def active_table(lbr: LBRConfig) -> np.ndarray:
    """The kernels' per-round table (int64, preflop .. river): 1 where LBR decides
    (``lbr.from_round`` or later and that round's set is not ``c``), 0 where it only
    checks/calls (:meth:`ActionSet.active_rounds`)."""
    aset = check_rounds(parse_action_set(lbr.actions), 4, "hunl")
    return np.asarray(aset.active_rounds(int(lbr.from_round)), dtype=np.int64)


# ----------------------------------------------------------------------------- runner
@dataclass(frozen=True, kw_only=True)
class _Chunk:
    make: Callable[[], Any]
    game: str
    stack_bb: float
    lbr: LBRConfig
    deals: tuple[int, ...]
    lines: bool = False  # also split the chips by line (HoldemSession.outcome)


ChunkResult = tuple[np.ndarray, dict[str, np.ndarray]]
"""A chunk's ``per_deal`` chips and, if asked, the same split by line (else empty)."""


def _run_chunk(chunk: _Chunk) -> ChunkResult:
    """Worker entry point: ``per_deal`` chips of one chunk of deals (agent built here)."""
    return _run_chunk_progress(chunk, None)


def _map_chunks(chunks: list[_Chunk], workers: int, ray_address: str | None) -> list[ChunkResult]:
    """The chunks on :func:`pokerlab.executor.map_chunks`: Ray with an address, else
    ``workers`` processes (one: here)."""
    from pokerlab.executor import default_backend, map_chunks

    return map_chunks(_run_chunk, chunks, backend=default_backend(workers, ray_address),
                      workers=workers, ray_address=ray_address)


def check_lbr_args(*, game: str, actions: str, from_round: int, hands: int, seed: int,
                   exact: bool, estimator: str = "sampled") -> str:
    """Validate LBR arguments before any work; returns the game kind."""
    from pokerlab.evaluation.matches import game_kind

    check_estimator(estimator)
    kind = game_kind(game)
    LBRConfig(actions=actions, from_round=from_round, hands=hands, seed=seed,
              estimator=estimator)
    aset = parse_action_set(actions)
    if aset.rounds:
        if kind == "hunl":
            check_rounds(aset, 4, kind)
        else:
            from pokerlab.evaluation.lbr_small import game_rounds
            from pokerlab.games import load_game

            check_rounds(aset, game_rounds(load_game(kind)), kind)
    if exact and kind == "hunl":
        raise LBRError("--exact is for the small games (kuhn, leduc, eight_card), not hunl")
    if exact and estimator != "sampled":
        raise LBRError(f"--exact enumerates everything; the estimator {estimator!r} is "
                       f"for sampled deals")
    return kind


def run_sampled_lbr(make: Callable[[], Any], *, name: str, game: str = "hunl",
                    actions: str = "fc", from_round: int = 1, hands: int = 1000, seed: int = 0,
                    stack_bb: float = 200.0, workers: int = 1, ray_address: str | None = None,
                    progress: Callable[[int], None] | None = None,
                    estimator: str = "sampled", by_line: str | None = None) -> LBRResult:
    """LBR on sampled deals against the opponent ``make()`` builds (reported as
    ``name``), by ``estimator`` (:data:`~pokerlab.evaluation.lbr_core.ESTIMATORS`:
    ``sampled`` plays the deal's hands with drawn agent actions, ``expected``
    integrates the agent's hand and its draws out exactly).

    ``make`` is called once in every process that plays deals, so it must pickle for
    ``workers`` > 1 or Ray (a module-level function, or a ``functools.partial`` of one):
    HUNL, an agent at ``stack_bb`` big blinds; small games, an agent or a policy
    (:func:`pokerlab.evaluation.lbr_small.policy_fn`).  The deals are split over
    ``workers`` processes or Ray tasks (``ray_address``, ``"local"`` starts a local Ray);
    the result does not depend on the split.  Spec strings: :func:`pokerlab.arena.run_lbr`.

    ``by_line`` (HUNL, ``expected`` or ``active``; one of
    :data:`~pokerlab.evaluation.lbr_core.LINE_GROUPS`) adds ``extra["by_line"]``: LBR's
    mbb/hand split by how the hands went from its first round on
    (:func:`~pokerlab.evaluation.lbr_core.line_rows`), where the agent loses.
    """
    kind = check_lbr_args(game=game, actions=actions, from_round=from_round, hands=hands,
                          seed=seed, exact=False, estimator=estimator)
    if by_line is not None:
        line_group("", by_line)  # one of LINE_GROUPS
        if kind != "hunl" or estimator == "sampled":
            raise LBRError("--by-line splits LBR's value by line in hunl with --estimator expected "
                           "or active")
    from pokerlab.executor import check_ray_address, check_workers

    check_workers(workers, option="workers")
    check_ray_address(ray_address)
    cfg = LBRConfig(actions=actions, from_round=from_round, hands=hands, seed=seed,
                    estimator=estimator)
    if kind == "hunl":
        from pokerlab.holdem.engine import HoldemConfig

        bb = float(HoldemConfig.from_bb(stack_bb).big_blind)
        unit = "mbb/hand"
    else:
        bb = 1.0
        unit = "mchips/hand"
    t0 = time.perf_counter()
    n = cfg.hands
    parts = 1 if (workers <= 1 and ray_address is None) else max(2, workers)
    parts = min(parts, n)
    bounds = [round(n * k / parts) for k in range(parts + 1)]
    chunks = [_Chunk(make=make, game=kind, stack_bb=stack_bb, lbr=cfg,
                     deals=tuple(range(lo, hi)), lines=by_line is not None)
              for lo, hi in zip(bounds, bounds[1:], strict=False) if hi > lo]
    if parts == 1 and progress is not None:
        res = [_run_chunk_progress(chunks[0], progress)]
    else:
        res = _map_chunks(chunks, workers, ray_address)
    per = np.concatenate([r[0] for r in res])
    r = summarize(per, agent=name, game=kind, actions=parse_action_set(actions).name,
                  from_round=from_round, seconds=time.perf_counter() - t0, unit=unit,
                  big_blind=bb, seed=seed, estimator=estimator)
    if by_line is not None:
        starts = np.cumsum([0] + [len(x[0]) for x in res])
        lines = merge_lines([(int(row), x[1]) for row, x in zip(starts, res, strict=False)], n)
        r.extra["by_line"] = {"group": by_line, "unit": unit,
                              "rows": line_rows(lines, n, bb, by_line)}
    return r


def _run_chunk_progress(chunk: _Chunk,
                        progress: Callable[[int], None] | None) -> ChunkResult:
    if chunk.game == "hunl":
        from pokerlab.holdem.engine import HoldemConfig

        cfg = HoldemConfig.from_bb(chunk.stack_bb)
        lines: dict[str, np.ndarray] | None = {} if chunk.lines else None
        per = per_deal_holdem(chunk.make(), cfg, chunk.lbr, chunk.deals, progress, outcomes=lines)
        return per, lines or {}
    from pokerlab.evaluation.lbr_small import per_deal_small
    from pokerlab.games import load_game

    game = load_game(chunk.game)
    return per_deal_small(game, chunk.make(), chunk.lbr, chunk.deals, progress), {}
