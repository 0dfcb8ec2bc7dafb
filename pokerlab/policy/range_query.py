"""Range queries: an agent's action probabilities for every hole-card combo at once.

LBR, AIVAT, the belief tracker, the tilt model, the search agent and the depth-limited
continuation all ask an agent "what would you do here with each of the 1326 hands?".
The answers live here, below the agents and the evaluators that ask
(:func:`all_hands_probabilities`): an agent's own vectorised
``action_probabilities_all_hands`` (``tag``, ``pushfold``); for a policy agent over an
indexed blueprint one card-bucket pass per board (its bucketer's ``bucket_vector``,
:mod:`pokerlab.abstraction.hs_cards`) and one row gather per node (:func:`node_rows`,
:func:`policy_columns`: how the agent's node is played at the real state), the node
coming from the agent's cursor over its tree (:mod:`pokerlab.abstraction.cursor`);
one query broadcast to all hands for agents that ignore their cards; else one
``action_probabilities`` call per combo.  Agents are read by capability (duck typing):
nothing here imports an agent, an abstraction or an evaluator.
"""

from __future__ import annotations

import dataclasses
import weakref
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pokerlab.cards.cards import COMBOS
from pokerlab.cards.range_kernels import per_combo_buckets
from pokerlab.errors import AgentError
from pokerlab.holdem.abstract_ids import FOLD
from pokerlab.holdem.engine import Action, ActionKind

NUM_COMBOS = 1326


def policy_columns(agent: Any, node: int, real: Any) -> tuple[list[int], list[int], list[Any], list[int]]:
    """How an indexed policy agent plays its tree node ``node`` at the real state ``real``:
    the node's abstract actions (``acts``), the positions of those legal at ``real``
    (``keep``), the distinct real actions they become (``columns``, the agent's
    :meth:`ActionMap.to_real`; check/call always among them, last when no abstract action
    gives it) and each kept action's column (``col_of``).  The one step LBR's range
    queries, its compiled real tree and the depth-limited continuation share."""
    acts = [int(a) for a in agent.tree.actions(node)]
    legal_real = set(agent.map.abstract_actions(real))
    keep = [k for k, a in enumerate(acts) if a in legal_real]
    columns, col_of = real_columns(agent.map.to_real(real, acts[k]) for k in keep)
    return acts, keep, columns, col_of


def real_columns(actions: Iterable[Any]) -> tuple[list[Any], list[int]]:
    """The distinct real actions of ``actions`` in first-seen order, check/call always
    among them (last when none of ``actions`` is it), and each action's column."""
    columns: list[Any] = []
    col_of: list[int] = []
    for act in actions:
        if act not in columns:
            columns.append(act)
        col_of.append(columns.index(act))
    call = Action(kind=ActionKind.CHECK_CALL)
    if call not in columns:
        columns.append(call)
    return columns, col_of


def with_hole(view: Any, cards: tuple[int, int]) -> Any:
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
    d = compact_distribution(agent, view)
    if d is None:
        return 0.0
    return float(sum(q for a, q in d[0] if a.kind == ActionKind.FOLD))


@dataclass
class FastState:
    checked: bool = False
    ok: bool = True
    buckets: dict[tuple[int, tuple[int, ...], bool], np.ndarray] = field(default_factory=dict)
    fold_rows: dict[tuple[int, tuple[int, ...]], np.ndarray] = field(default_factory=dict)


_FAST: weakref.WeakKeyDictionary[Any, FastState] = weakref.WeakKeyDictionary()


def fast_state(agent: Any) -> FastState:
    st = _FAST.get(agent)
    if st is None:
        st = _FAST[agent] = FastState()
    return st


def indexed_policy_all_hands(agent: Any, view: Any, live: np.ndarray, *,
                              vectorised: bool = True) -> tuple[list[Any], np.ndarray] | None:
    """Vectorised ``action_probabilities`` of a ``policy:`` agent over an indexed policy:
    the hand is replayed once (the betting does not depend on the hole cards), every
    combo's bucket on the street comes from one pass over the board
    (:func:`bucket_vector`, cached per board) and the probabilities are one row gather
    from the policy.  ``None`` when the agent is not such an agent.  Checked against the
    agent's own per-hand answer on its first use.  ``vectorised=False`` is the plain
    per-combo twin (the parity tests compare the two bit for bit)."""
    if not (getattr(agent, "indexed", False) and hasattr(agent, "decision_node")
            and hasattr(agent, "bucket") and hasattr(agent, "map")):
        return None
    try:
        fs = fast_state(agent)
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
        probs = policy_rows(pol, node, n, keep, col_of, len(columns), call_col, buckets, live)
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
        for j in np.nonzero(live)[0][:3]:
            a, b = int(COMBOS[j, 0]), int(COMBOS[j, 1])
            ref = dict(agent.action_probabilities(with_hole(view, (b, a))))
            got = {columns[c]: probs[j, c] for c in range(len(columns)) if probs[j, c] > 0}
            if set(ref) != set(got) or any(abs(ref[x] - got[x]) > 1e-6 for x in ref):
                fs.ok = False
                return None
        fs.checked = True
    return columns, probs


def _board_buckets(agent: Any, fs: FastState, street: int, board: tuple[int, ...],
                   vectorised: bool) -> np.ndarray:
    """Every combo's bucket on ``board`` (:func:`bucket_vector`, or its per-combo twin),
    cached per agent, street and board."""
    key = (street, board, vectorised)
    buckets = fs.buckets.get(key)
    if buckets is None:
        if len(fs.buckets) > 64:
            fs.buckets.clear()
        buckets = (bucket_vector(agent, street, board) if vectorised
                   else bucket_vector_py(agent, street, board))
        fs.buckets[key] = buckets
    return buckets


def policy_rows(pol: Any, node: int, n: int, keep: list[int], col_of: list[int],
                 ncols: int, call_col: int, buckets: np.ndarray, live: np.ndarray
                 ) -> np.ndarray:
    """``probs[combo, column]`` of node ``node`` for the live combos: one row per distinct
    bucket (the same float operations, in the same order, as the per-combo twin: rows of
    fewer than 8 actions sum left to right in numpy too), gathered to the combos."""
    idx = np.nonzero(live)[0]
    probs = np.zeros((NUM_COMBOS, ncols))
    if idx.size == 0:
        return probs
    uniq, inv, rows = node_rows(pol, node, n, keep, col_of, ncols, call_col, buckets[idx])
    probs[idx] = rows[inv]
    return probs


def node_rows(pol: Any, node: int, n: int, keep: list[int], col_of: list[int], ncols: int,
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
    view (the rows come from the same :func:`node_rows`); ``None`` when the agent does
    not qualify (not indexed, not yet checked against its own answers, or rows of 8 or
    more actions, which take the per-combo sum)."""
    if not (getattr(agent, "indexed", False) and hasattr(agent, "nodes_after")
            and hasattr(agent, "walk")):
        return None
    try:
        fs = fast_state(agent)
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
        if node < 0 or not agent.walk.decides(node, real):
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
            _, _, rows = node_rows(pol, node, n, keep, col_of, 2, 1,
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
    once, ``-1`` for combos the board blocks: the agent's bucketer's own
    ``bucket_vector`` when it has one (hand-strength and table bucketers,
    :mod:`pokerlab.abstraction.hs_cards`), else one ``agent.bucket`` call per combo
    (:func:`bucket_vector_py`)."""
    fn = getattr(getattr(agent, "bucketer", None), "bucket_vector", None)
    if fn is not None:
        return np.asarray(fn(street, board))
    return bucket_vector_py(agent, street, board)


def bucket_vector_py(agent: Any, street: int, board: tuple[int, ...]) -> np.ndarray:
    """Plain twin of :func:`bucket_vector`: one ``agent.bucket`` call per combo."""
    return per_combo_buckets(agent.bucket, street, board)


def all_hands_probabilities(agent: Any, view: Any, live: np.ndarray | None = None
                            ) -> tuple[list[Any], np.ndarray]:
    """The agent's action probabilities at ``view`` for every hole-card combo at once.

    Returns ``(actions, probs)`` with ``probs[combo, k]`` the probability of ``actions[k]``
    holding ``combo`` (rows of combos outside ``live`` are 0).  Uses, in this order: the
    agent's own vectorised ``action_probabilities_all_hands(view)`` (the range query of
    ``tag`` and ``pushfold``); for ``policy:``/``blueprint`` agents over an indexed policy
    one bucket pass per board and one row gather (:func:`indexed_policy_all_hands`); one
    query broadcast to all hands for agents that ignore their cards; else
    ``action_probabilities`` on the view with each live combo as the hole cards.
    """
    return all_hands(agent, view, live, vectorised=True)


def all_hands(agent: Any, view: Any, live: np.ndarray | None, *, vectorised: bool
               ) -> tuple[list[Any], np.ndarray]:
    """:func:`all_hands_probabilities`; ``vectorised=False`` is the per-combo reference
    (no agent range query, the per-combo twin of the indexed-policy path): LBR as it was
    before the range queries, for the parity tests and the speed benchmark."""
    fn = getattr(agent, "action_probabilities_all_hands", None) if vectorised else None
    if fn is not None:
        acts, probs = (fn(view, live) if getattr(agent, "all_hands_live", False)
                       else fn(view))
        probs = np.asarray(probs, dtype=np.float64)
        if live is not None:
            probs = probs * live[:, None]
        return list(acts), probs
    if live is not None:
        fast = indexed_policy_all_hands(agent, view, live, vectorised=vectorised)
        if fast is not None:
            return fast
    single = getattr(agent, "action_probabilities", None)
    if single is None:
        raise AgentError(f"agent {getattr(agent, 'name', agent)!r} does not expose action "
                       f"probabilities; LBR needs them to track its range")
    if hand_independent(agent):
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
        for act, p in single(with_hole(view, (b, a))):
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
