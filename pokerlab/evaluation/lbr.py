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
all-in), ``56`` (fold, call, all-in and the 53 pot fractions ``0.05 x 1.15^k``), or any
bet-set text of :mod:`pokerlab.abstraction.bets` (e.g. ``"50%, 100%, a"``).  On the small
games (Kuhn, Leduc) ``fc`` means fold/call and every other set means all legal actions.

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
import dataclasses
import time
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

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
    _combos64,
    agent_seed,
    check_estimator,
    check_from_round,
    deal_cards,
    draws,
    lbr_choose,
    parse_action_set,
    play_expected_hand,
    play_lbr_hand,
    policy_columns,
    run_sessions,
    summarize,
)


# ----------------------------------------------------------------------------- agents
def _with_hole(view: Any, cards: tuple[int, int]) -> Any:
    from pokerlab.holdem.events import HoleDealt

    ev = tuple(HoleDealt(e.player, cards) if isinstance(e, HoleDealt) and e.player == view.player
               else e for e in view.events)
    return dataclasses.replace(view, hole=cards, events=ev)


def hand_independent(agent: Any) -> bool:
    """True for agents whose play never looks at their cards: those with
    ``hand_independent = True`` (``random``, ``call``, ``raise``)."""
    return bool(getattr(agent, "hand_independent", False))


def compact_distribution(agent: Any, view: Any) -> tuple[list[tuple[Any, float]],
                                                        np.ndarray, np.ndarray] | None:
    """The agent's action distribution at ``view`` as (non-raise ``(action, p)`` pairs,
    raise-to amounts, their probabilities), or ``None`` when it exposes none.

    An agent may give it directly by a ``compact_distribution(view)`` method (``random``
    spreads part of its weight over every legal raise size, so its distribution is built
    from its weights instead of thousands of ``(Action, p)`` pairs); else it is read from
    ``action_probabilities(view)``.
    """
    from pokerlab.holdem.engine import ActionKind

    direct = getattr(agent, "compact_distribution", None)
    if direct is not None:
        return direct(view)  # type: ignore[no-any-return]
    fn = getattr(agent, "action_probabilities", None)
    if fn is None:
        return None
    others: list[tuple[Any, float]] = []
    sizes: list[int] = []
    weights: list[float] = []
    for a, q in fn(view):
        if a.kind == ActionKind.RAISE:
            sizes.append(int(a.amount))
            weights.append(float(q))
        else:
            others.append((a, float(q)))
    return others, np.asarray(sizes, dtype=np.int64), np.asarray(weights, dtype=np.float64)


def fold_probability(agent: Any, view: Any) -> float:
    """The agent's probability of folding at ``view`` (0 when it exposes none)."""
    from pokerlab.holdem.engine import ActionKind

    d = compact_distribution(agent, view)
    if d is None:
        return 0.0
    return float(sum(q for a, q in d[0] if a.kind == ActionKind.FOLD))


@dataclass
class _FastState:
    checked: bool = False
    ok: bool = True
    buckets: dict[tuple[int, tuple[int, ...], bool], np.ndarray] = field(default_factory=dict)
    fold_rows: dict[tuple[int, tuple[int, ...]], np.ndarray] = field(default_factory=dict)


_FAST: weakref.WeakKeyDictionary[Any, _FastState] = weakref.WeakKeyDictionary()


def _fast_state(agent: Any) -> _FastState:
    st = _FAST.get(agent)
    if st is None:
        st = _FAST[agent] = _FastState()
    return st


def _indexed_policy_all_hands(agent: Any, view: Any, live: np.ndarray, *,
                              vectorised: bool = True) -> tuple[list[Any], np.ndarray] | None:
    """Vectorised ``action_probabilities`` of a ``policy:`` agent over an indexed policy:
    the hand is replayed once (the betting does not depend on the hole cards), every
    combo's bucket on the street comes from one pass over the board
    (:func:`bucket_vector`, cached per board) and the probabilities are one row gather
    from the policy.  ``None`` when the agent is not such an agent.  Checked against the
    agent's own per-hand answer on its first use.  ``vectorised=False`` is the plain
    per-combo twin (the parity tests compare the two bit for bit)."""
    from pokerlab.holdem.engine import Action, ActionKind

    if not (getattr(agent, "indexed", False) and hasattr(agent, "decision_node")
            and hasattr(agent, "bucket") and hasattr(agent, "map")):
        return None
    try:
        fs = _fast_state(agent)
    except TypeError:  # not weak-referenceable: no cache, no fast path
        return None
    if not fs.ok:
        return None
    real, node, ok = agent.decision_node(view)
    call = Action(kind=ActionKind.CHECK_CALL)
    if not ok:
        return [call], live.astype(np.float64)[:, None]
    tree = agent.tree
    street = int(tree.street[node])
    acts, keep, columns, col_of = policy_columns(agent, node, real)
    call_col = columns.index(call)
    buckets = _board_buckets(agent, fs, street, tuple(view.board), vectorised)
    pol = agent.policy
    n = len(acts)
    if vectorised and n < 8:
        probs = _policy_rows(pol, node, n, keep, col_of, len(columns), call_col, buckets, live)
    else:
        probs = np.zeros((NUM_COMBOS, len(columns)))
        rows: dict[int, np.ndarray] = {}
        for j in np.nonzero(live)[0].tolist():
            bk = int(buckets[j])
            row = rows.get(bk)
            if row is None:
                s0 = pol.row_start(node, bk)
                w = (np.ones(n) if s0 < 0
                     else np.asarray(pol.probs[s0:s0 + n], dtype=np.float64))
                if w.sum() <= 0:
                    w = np.ones(n)
                wk = w[keep]
                row = np.zeros(len(columns))
                if wk.size == 0 or wk.sum() <= 0:
                    row[call_col] = 1.0
                else:
                    for x, c in zip(wk / wk.sum(), col_of, strict=True):
                        row[c] += x
                rows[bk] = row
            probs[j] = row
    if not fs.checked:
        from pokerlab.cards.cards import COMBOS

        for j in np.nonzero(live)[0][:3]:
            a, b = int(COMBOS[j, 0]), int(COMBOS[j, 1])
            ref = dict(agent.action_probabilities(_with_hole(view, (b, a))))
            got = {columns[c]: probs[j, c] for c in range(len(columns)) if probs[j, c] > 0}
            if set(ref) != set(got) or any(abs(ref[x] - got[x]) > 1e-6 for x in ref):
                fs.ok = False
                return None
        fs.checked = True
    return columns, probs


def _board_buckets(agent: Any, fs: _FastState, street: int, board: tuple[int, ...],
                   vectorised: bool) -> np.ndarray:
    """Every combo's bucket on ``board`` (:func:`bucket_vector`, or its per-combo twin),
    cached per agent, street and board."""
    key = (street, board, vectorised)
    buckets = fs.buckets.get(key)
    if buckets is None:
        if len(fs.buckets) > 64:
            fs.buckets.clear()
        buckets = (bucket_vector(agent, street, board) if vectorised
                   else _bucket_vector_py(agent, street, board))
        fs.buckets[key] = buckets
    return buckets


def _policy_rows(pol: Any, node: int, n: int, keep: list[int], col_of: list[int],
                 ncols: int, call_col: int, buckets: np.ndarray, live: np.ndarray
                 ) -> np.ndarray:
    """``probs[combo, column]`` of node ``node`` for the live combos: one row per distinct
    bucket (the same float operations, in the same order, as the per-combo twin: rows of
    fewer than 8 actions sum left to right in numpy too), gathered to the combos."""
    idx = np.nonzero(live)[0]
    probs = np.zeros((NUM_COMBOS, ncols))
    if idx.size == 0:
        return probs
    uniq, inv, rows = _node_rows(pol, node, n, keep, col_of, ncols, call_col, buckets[idx])
    probs[idx] = rows[inv]
    return probs


def _node_rows(pol: Any, node: int, n: int, keep: list[int], col_of: list[int], ncols: int,
               call_col: int, bk: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(buckets, index of each of ``bk`` in them, ``rows[bucket, column]``) of node
    ``node``: with dense storage every bucket of the node (at most a few hundred), else
    the distinct buckets of ``bk``."""
    nb = int(pol.num_buckets[node])
    if getattr(pol, "storage", "") == "dense" and int(bk.min()) >= 0 and int(bk.max()) < nb:
        # every row of the node at once (at most a few hundred), gathered by bucket
        uniq, inv = np.arange(nb), bk
        pol._check_node(node)
        starts = int(pol.node_offset[node]) + uniq * n
    else:
        uniq, inv = np.unique(bk, return_inverse=True)
        starts = np.array([pol.row_start(node, int(b)) for b in uniq], dtype=np.int64)
    missing = starts < 0
    w = np.asarray(pol.probs[np.where(missing, 0, starts)[:, None] + np.arange(n)[None, :]],
                   dtype=np.float64)
    w[missing] = 1.0
    tot = np.zeros(uniq.size)
    for k in range(n):
        tot = tot + w[:, k]
    w[~(tot > 0)] = 1.0
    wk = w[:, keep]
    tk = np.zeros(uniq.size)
    for k in range(len(keep)):
        tk = tk + wk[:, k]
    good = tk > 0
    rows = np.zeros((uniq.size, ncols))
    x = wk / np.where(good, tk, 1.0)[:, None]
    for k, c in enumerate(col_of):
        rows[:, c] += np.where(good, x[:, k], 0.0)
    rows[~good, call_col] = 1.0
    return uniq, inv, rows


def indexed_fold_vectors(agent: Any, view: Any, actions: list[Any], live: np.ndarray
                         ) -> list[np.ndarray] | None:
    """The agent's fold probability for every live combo after each hypothetical next
    action of its opponent at ``view`` (the agent's view; LBR's raise sizes), for a
    ``policy:`` agent over an indexed policy: one :meth:`nodes_after` call, then per
    resulting node one row gather by bucket (cached per node and legal set).  The same
    numbers as summing the fold column of :func:`all_hands_probabilities` at each child
    view (the rows come from the same :func:`_node_rows`); ``None`` when the agent does
    not qualify (not indexed, not yet checked against its own answers, or rows of 8 or
    more actions, which take the per-combo sum)."""
    from pokerlab.abstraction.action_map import FOLD

    if not (getattr(agent, "indexed", False) and hasattr(agent, "nodes_after")):
        return None
    try:
        fs = _fast_state(agent)
    except TypeError:
        return None
    if not (fs.ok and fs.checked):
        return None
    pol = agent.policy
    if getattr(pol, "storage", "") != "dense":
        return None
    tree = agent.tree
    out: list[np.ndarray] = []
    zero = np.zeros(NUM_COMBOS)
    for real, node in agent.nodes_after(view, actions):
        if node < 0 or not agent._decides(node, real):
            out.append(zero)
            continue
        acts = [int(a) for a in tree.actions(node)]
        n = len(acts)
        if n >= 8:
            return None
        legal_real = set(agent.map.abstract_actions(real))
        keep = [k for k, a in enumerate(acts) if a in legal_real]
        if not any(acts[k] == FOLD for k in keep):
            out.append(zero)
            continue
        buckets = _board_buckets(agent, fs, int(tree.street[node]), tuple(view.board), True)
        rkey = (node, tuple(keep))
        by_bucket = fs.fold_rows.get(rkey)
        if by_bucket is None:
            if len(fs.fold_rows) > 4096:
                fs.fold_rows.clear()
            col_of = [0 if acts[k] == FOLD else 1 for k in keep]
            if int(pol.num_buckets[node]) <= 0:
                return None
            _, _, rows = _node_rows(pol, node, n, keep, col_of, 2, 1,
                                    np.zeros(1, dtype=np.int64))
            by_bucket = fs.fold_rows[rkey] = np.ascontiguousarray(rows[:, 0])
        idx = np.nonzero(live)[0]
        bk = buckets[idx]
        fold = np.zeros(NUM_COMBOS)
        if idx.size and (int(bk.min()) < 0 or int(bk.max()) >= by_bucket.size):
            return None  # a bucket outside the node's rows: the general path decides
        fold[idx] = by_bucket[bk]
        out.append(fold)
    return out


def bucket_vector(agent: Any, street: int, board: tuple[int, ...]) -> np.ndarray:
    """Every combo's card bucket (``agent.bucket(street, hole, board)``) on ``board`` at
    once, ``-1`` for combos the board blocks.  Hand-strength card specs (the blueprint's
    ``hs`` buckets): one strength pass over the board and one sorted sweep
    (:func:`pokerlab.evaluation.lbr_kernels.hand_strength_all`); other agents: one
    ``agent.bucket`` call per combo (:func:`_bucket_vector_py`)."""
    from pokerlab.cards.cards import BOARD_PREFIX, CLASS_OF_COMBO, COMBO_MASKS, cards_mask

    # an agent with an injected bucketer (policy agents): its hand-strength spec, if that
    # is what it buckets with; else the agent's own card spec
    bucketer = getattr(agent, "bucketer", None)
    tables = getattr(bucketer, "cards", None)
    if tables is not None and hasattr(tables, "tables") and hasattr(bucketer, "bucket"):
        return _table_bucket_vector(tables, street, board)
    spec = getattr(bucketer, "spec", None) if bucketer is not None else getattr(agent, "card_spec", None)
    if spec is None or not hasattr(spec, "thresholds") or not hasattr(spec, "buckets"):
        return _bucket_vector_py(agent, street, board)
    blocked = (COMBO_MASKS & np.uint64(cards_mask(list(board)))) != 0
    if street == 0:
        out = (CLASS_OF_COMBO.astype(np.int64) if spec.buckets[0] == 169
               else np.zeros(NUM_COMBOS, dtype=np.int64))
        return np.where(blocked, -1, out)
    if spec.buckets[street] == 1:
        return np.where(blocked, -1, 0).astype(np.int64)
    from pokerlab.cards.evaluator import eval_tables
    from pokerlab.cards.evaluator_kernels import combos_on_board_kernel
    from pokerlab.evaluation.lbr_kernels import hand_strength_all

    bd = np.asarray(list(board)[:BOARD_PREFIX[street]], dtype=np.int64)
    strengths = np.zeros(NUM_COMBOS, dtype=np.int32)
    combos = _combos64()
    combos_on_board_kernel(eval_tables(), combos, bd, bd.size, strengths)
    hs = np.zeros(NUM_COMBOS)
    hand_strength_all(strengths, combos, hs)
    th = np.asarray(spec.thresholds[street], dtype=np.float64)
    out = (hs[:, None] > th[None, :]).sum(axis=1).astype(np.int64)
    return np.where(blocked | (strengths == 0), -1, out)


def _table_bucket_vector(cards: Any, street: int, board: tuple[int, ...]) -> np.ndarray:
    """:func:`bucket_vector` of a table bucketer (a card abstraction's tables,
    :class:`~pokerlab.agents.policy_agent.TableBucketer`): every unblocked combo's
    canonical index on the board in one indexer call, then one table gather."""
    from pokerlab.abstraction.indexer import street_indexer
    from pokerlab.cards.cards import BOARD_PREFIX, COMBO_MASKS, COMBOS, cards_mask

    out = np.full(NUM_COMBOS, -1, dtype=np.int64)
    bd = list(board)[:BOARD_PREFIX[street]]
    live = (COMBO_MASKS & np.uint64(cards_mask(list(board)))) == 0
    if street >= len(cards.tables) or cards.num_buckets(street) <= 1:
        out[live] = 0
        return out
    hands = np.empty((int(live.sum()), 2 + len(bd)), dtype=np.int64)
    hands[:, 0] = COMBOS[live, 1]
    hands[:, 1] = COMBOS[live, 0]
    hands[:, 2:] = np.asarray(bd, dtype=np.int64)
    out[live] = cards.tables[street][street_indexer(street).index_many(hands)]
    return out


def _bucket_vector_py(agent: Any, street: int, board: tuple[int, ...]) -> np.ndarray:
    """Plain twin of :func:`bucket_vector`: one ``agent.bucket`` call per combo."""
    from pokerlab.cards.cards import COMBOS

    buckets = np.full(NUM_COMBOS, -1, dtype=np.int64)
    used = set(board)
    for j in range(NUM_COMBOS):
        a, b = int(COMBOS[j, 0]), int(COMBOS[j, 1])
        if a not in used and b not in used:
            buckets[j] = agent.bucket(street, (b, a), tuple(board))
    return buckets


def all_hands_probabilities(agent: Any, view: Any, live: np.ndarray | None = None
                            ) -> tuple[list[Any], np.ndarray]:
    """The agent's action probabilities at ``view`` for every hole-card combo at once.

    Returns ``(actions, probs)`` with ``probs[combo, k]`` the probability of ``actions[k]``
    holding ``combo`` (rows of combos outside ``live`` are 0).  Uses, in this order: the
    agent's own vectorised ``action_probabilities_all_hands(view)`` (the range query of
    ``tag`` and ``pushfold``); for ``policy:``/``blueprint`` agents over an indexed policy
    one bucket pass per board and one row gather (:func:`_indexed_policy_all_hands`); one
    query broadcast to all hands for agents that ignore their cards; else
    ``action_probabilities`` on the view with each live combo as the hole cards.
    """
    return _all_hands(agent, view, live, vectorised=True)


def _all_hands(agent: Any, view: Any, live: np.ndarray | None, *, vectorised: bool
               ) -> tuple[list[Any], np.ndarray]:
    """:func:`all_hands_probabilities`; ``vectorised=False`` is the per-combo reference
    (no agent range query, the per-combo twin of the indexed-policy path): LBR as it was
    before the range queries, for the parity tests and the speed benchmark."""
    from pokerlab.cards.cards import COMBOS

    fn = getattr(agent, "action_probabilities_all_hands", None) if vectorised else None
    if fn is not None:
        acts, probs = (fn(view, live) if getattr(agent, "all_hands_live", False)
                       else fn(view))
        probs = np.asarray(probs, dtype=np.float64)
        if live is not None:
            probs = probs * live[:, None]
        return list(acts), probs
    if live is not None:
        fast = _indexed_policy_all_hands(agent, view, live, vectorised=vectorised)
        if fast is not None:
            return fast
    single = getattr(agent, "action_probabilities", None)
    if single is None:
        raise LBRError(f"agent {getattr(agent, 'name', agent)!r} does not expose action "
                       f"probabilities; LBR needs them to track its range")
    if hand_independent(agent):
        from pokerlab.holdem.engine import Action, ActionKind

        d = compact_distribution(agent, view)
        assert d is not None
        pairs = list(d[0]) + [(Action(kind=ActionKind.RAISE, amount=int(x)), float(q))
                              for x, q in zip(d[1], d[2], strict=True)]
        acts = [a for a, _ in pairs]
        row = np.array([p for _, p in pairs], dtype=np.float64)
        mask = np.ones(NUM_COMBOS) if live is None else live.astype(np.float64)
        return acts, mask[:, None] * row[None, :]
    index: dict[Any, int] = {}
    cols: list[list[tuple[int, float]]] = []
    combos = range(NUM_COMBOS) if live is None else np.nonzero(live)[0]
    for j in combos:
        a, b = int(COMBOS[j, 0]), int(COMBOS[j, 1])
        for act, p in single(_with_hole(view, (b, a))):
            k = index.get(act)
            if k is None:
                k = index[act] = len(cols)
                cols.append([])
            cols[k].append((int(j), float(p)))
    probs = np.zeros((NUM_COMBOS, len(cols)))
    for k, col in enumerate(cols):
        for j, p in col:
            probs[j, k] = p
    return list(index), probs


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
        return self.state.street + 1 >= self.from_round

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
        return _all_hands(self.agent, view, self.range > 0, vectorised=self.vectorised)

    def apply(self, action: Any) -> None:
        self.state.apply(action)

    def payoff(self) -> float:
        return float(self.state.payoffs()[self.seat])

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
                    acts, probs = _all_hands(self.agent, child.view(opp), live,
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
                     _combos64(), out)
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
                    vectorised: bool = True, kernel: bool = True) -> np.ndarray:
    """``per_deal[i, seat]`` chips for the given deal numbers (worker entry point);
    ``vectorised=False`` plays the per-combo reference LBR (same hands, same values);
    unless ``kernel=False``, fold/call LBR against an indexed policy on its own tree runs
    in one kernel (:func:`fc_kernel_deals`) and every other action set (or table) against
    such a policy in the real-tree kernel
    (:func:`pokerlab.evaluation.lbr_tree.tree_kernel_deals`).

    ``lbr.estimator`` ``"expected"`` or ``"active"`` plays :class:`ExpectedHoldemSession` hands through
    :func:`~pokerlab.evaluation.lbr_core.play_expected_hand` (always in Python: the
    kernels are the sampled estimator's)."""
    aset = parse_action_set(lbr.actions)
    if lbr.estimator in ("expected", "active"):
        def make_expected(d: int, seat: int) -> tuple[ExpectedSession, Draws]:
            agent.reset(agent_seed(lbr.seed, d, seat))
            sess = ExpectedHoldemSession(agent, config, seat, deal_cards(lbr.seed, d), aset,
                                         lbr.from_round, vectorised=vectorised)
            return sess, draws(lbr.seed, d, seat)

        return run_sessions(make_expected, list(deals), progress, estimator=lbr.estimator)
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
    ``action_probabilities``, :func:`_indexed_policy_all_hands`) at the agent's first
    decision of a hand, for the real-tree kernel: True when it passed."""
    from pokerlab.evaluation.lbr_tree import tree_kernel_ok
    from pokerlab.holdem.engine import HoldemState

    if tree_kernel_ok(agent) is None:
        return False
    try:
        fs = _fast_state(agent)
    except TypeError:
        return False
    if not fs.checked and fs.ok:
        st = HoldemState(config=config)
        st.deal_hole([0, 1])
        st.deal_hole([2, 3])
        agent.reset(0)
        _indexed_policy_all_hands(agent, st.view(st.actor), np.ones(NUM_COMBOS, dtype=bool))
    return bool(fs.ok and fs.checked)


def fc_kernel_side(agent: Any, config: Any) -> Any:
    """The agent's match-kernel side when fold/call LBR can run in
    :func:`pokerlab.evaluation.lbr_kernels.lbr_fc_kernel`: an indexed policy on its own
    tree at the LBR table ``config`` (so LBR's folds and calls never leave it) whose
    nodes never offer two actions of the same chips; else ``None``."""
    from pokerlab.evaluation.match_kernels import kernel_side

    side = kernel_side(agent)
    if side is None or side.config != config:
        return None
    t = side.tree
    ok = getattr(t, "_lbr_fc_ok", None)
    if ok is None:
        ok = True
        for node in np.flatnonzero(t.kind == 0).tolist():
            a, k = int(t.child_start[node]), int(t.num_children[node])
            ch = t.child_node[a:a + k]
            if len({(int(t.committed0[c]), int(t.committed1[c])) for c in ch}) < k:
                ok = False
                break
        t._lbr_fc_ok = ok
    return side if ok else None


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
    Ts = [street_indexer(s).tables for s in range(4)]
    pre = np.ascontiguousarray(preflop_equity_matrix(), dtype=np.float64)
    stacks = np.asarray(config.stacks, dtype=np.int64)
    out = np.zeros((len(deals), 2))
    ds = np.asarray(list(deals), dtype=np.int64)
    for lo in range(0, len(ds), 256):
        block = ds[lo:lo + 256]
        res = np.zeros((len(block), 2))
        lbr_fc_kernel(int(lbr.seed), block, int(lbr.from_round), t.kind, t.actor, t.street,
                      t.child_start, t.num_children, t.child_action, t.child_node,
                      t.committed0, t.committed1, stacks, *side.arrays, *Ts, eval_tables(),
                      _combos64(), np.ascontiguousarray(COMBO_INDEX, dtype=np.int64),
                      np.ascontiguousarray(CLASS_OF_COMBO, dtype=np.int64), pre,
                      res)  # type: ignore[call-arg]
        out[lo:lo + len(block)] = res
        if progress is not None:
            progress(lo + len(block))
    return out


# ----------------------------------------------------------------------------- runner
@dataclass(frozen=True, kw_only=True)
class _Chunk:
    make: Callable[[], Any]
    game: str
    stack_bb: float
    lbr: LBRConfig
    deals: tuple[int, ...]


def _run_chunk(chunk: _Chunk) -> np.ndarray:
    """Worker entry point: ``per_deal`` chips of one chunk of deals (agent built here)."""
    return _run_chunk_progress(chunk, None)


def _map_chunks(chunks: list[_Chunk], workers: int, ray_address: str | None) -> list[np.ndarray]:
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
                    estimator: str = "sampled") -> LBRResult:
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
    """
    kind = check_lbr_args(game=game, actions=actions, from_round=from_round, hands=hands,
                          seed=seed, exact=False, estimator=estimator)
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
                     deals=tuple(range(lo, hi)))
              for lo, hi in zip(bounds, bounds[1:], strict=False) if hi > lo]
    if parts == 1 and progress is not None:
        per = _run_chunk_progress(chunks[0], progress)
    else:
        per = np.concatenate(_map_chunks(chunks, workers, ray_address))
    return summarize(per, agent=name, game=kind, actions=parse_action_set(actions).name,
                     from_round=from_round, seconds=time.perf_counter() - t0, unit=unit,
                     big_blind=bb, seed=seed, estimator=estimator)


def _run_chunk_progress(chunk: _Chunk,
                        progress: Callable[[int], None] | None) -> np.ndarray:
    if chunk.game == "hunl":
        from pokerlab.holdem.engine import HoldemConfig

        cfg = HoldemConfig.from_bb(chunk.stack_bb)
        return per_deal_holdem(chunk.make(), cfg, chunk.lbr, chunk.deals, progress)
    from pokerlab.evaluation.lbr_small import per_deal_small
    from pokerlab.games import load_game

    game = load_game(chunk.game)
    return per_deal_small(game, chunk.make(), chunk.lbr, chunk.deals, progress)
