"""The adaptive agent ``adapt``: it models its opponent from the hands played so far and
shifts toward a best response to the model, never risking more than it has won (plus
``eps``).  See docs/exploitation.md ("The adaptive agent").

Specs (:func:`parse_spec`): ``adapt`` (small games: over the exact equilibrium ``nash``),
``adapt:BASE`` (``BASE`` any small-game agent spec with a policy: ``nash``, ``random``,
``policy:PATH``), ``adapt(base=BASE,prior=PRIOR,eps=X,strength=S,refit=N,grid=P1/P2/..,
pmax=P)``.

**What it sees.**  Only its own information: at each decision the information-state string
of its seat; after each hand (the ``end_hand(view)`` call that matches and the play tables
make at the end of every hand, ``view`` a :class:`pokerlab.games.hand_end.SmallHandEnd`)
its own final information state -- which holds the public actions -- and, only when the
hand reached a showdown (no fold), the opponent's final information state, which the
showdown shows.  It never sees the finished game state.  The hand is located in the
compiled game tree from that alone (every terminal node whose information state for this
seat is the one seen).

**The model** (as :class:`pokerlab.opponents.estimate.ObservedModel`, from the first hand
of the match or play session): Dirichlet posterior means with prior strength ``s``
pseudo-observations toward the prior policy (``prior``, default the exact equilibrium).
Every decision counts at its public state, which pulls the prior toward the public
frequencies; the decisions of a hand that reached a showdown count at the opponent's
information set too (a deviation from ``ObservedModel``, which counts a decision in one
table only: the public table here is the first level of the hierarchical prior for every
hand, so a card-blind opponent is learnt from every hand):

    base(I, a) = (m_P(a) + s * prior(I, a)) / (m_P + s),
    model(I, a) = (n_I(a) + s * base(I, a)) / (n_I + s).

**The responses** are recomputed after ``refit``, ``2 refit``, ``4 refit``, ... hands (at
most every ``16 refit``): the base policy and the restricted Nash responses ``RNR(p)`` to
the model (Johanson, Zinkevich & Bowling 2007; the sequence-form LP below, shared with
:mod:`pokerlab.opponents.response`) for ``p`` on the grid (``p <= pmax``).  For each
candidate and seat it keeps the exact worst-case value (a best response against it) and the
value predicted against the model.

**Safety** (Ganzfried & Sandholm 2015, "Safe opponent exploitation", risk what you've won
in expectation): a budget ``k`` starts at ``eps`` chips.  Before a hand in seat ``s`` the
agent plays the candidate with the highest predicted value among those whose worst case is
at least ``v_s - k`` (``v_s``: the base's worst case in seat ``s``, the game value when the
base is an equilibrium).  After the hand

    k <- k + min_{tau consistent} u_s(sigma, tau) - v_s

where ``tau`` ranges over the opponent's pure strategies that agree with every action it
was seen to take this hand, for every private hand it may have held (only the shown one
after a showdown): an exact constrained best response
(:mod:`pokerlab.agents.adapt_kernels`).  Luck does not enter ``k``, so ``k >= 0`` always and
the agent's expected total against any opponent is at least the base's guaranteed total
minus ``eps``.  ``eps=inf`` turns the budget off (``pmax`` alone limits the exploitation).

Matches call :meth:`AdaptAgent.start_match` when they set an agent up for a run of hands (a
chunk: with several worker processes each chunk learns on its own; measure with
``--workers 1``).  On HUNL the registry builds :class:`pokerlab.agents.adapt_hunl.HUNLAdaptAgent`
instead (a blueprint base, locked MCCFR responses, a budget of realised winnings).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog

from pokerlab.agents.adapt_kernels import constrained_br_value
from pokerlab.agents.base import AgentBase
from pokerlab.errors import AgentError, ConfigError
from pokerlab.games.compiled import KIND_DECISION, KIND_TERMINAL, CompiledGame
from pokerlab.games.hand_end import SmallHandEnd, is_fold
from pokerlab.games.spec import check_keys, parse_named_call
from pokerlab.solvers.lp import behaviour_from_plan, payoff_matrix, sequence_form_lp

__all__ = ["AdaptAgent", "AdaptConfig", "AdaptTree", "parse_spec", "rnr_slots"]

DEFAULT_GRID = (0.0, 0.1, 0.25, 0.5, 0.75, 1.0)


# ------------------------------------------------------------------- the restricted Nash LP
def player_mask(cg: CompiledGame, player: int) -> np.ndarray:
    """Boolean per slot: the slot belongs to ``player``'s information sets."""
    m = np.zeros(cg.num_slots, dtype=bool)
    for i in range(cg.num_infosets):
        if cg.infoset_player[i] == player:
            m[int(cg.infoset_offset[i]):int(cg.infoset_offset[i + 1])] = True
    return m


def combine_slots(cg: CompiledGame, mine: np.ndarray, other: np.ndarray, player: int
                  ) -> np.ndarray:
    """``mine`` at ``player``'s slots, ``other`` elsewhere."""
    return np.where(player_mask(cg, player), mine, other)


def sequences(cg: CompiledGame, p: int) -> tuple[np.ndarray, int]:
    """Slot -> sequence index of player ``p`` (0 = the empty sequence), and their number."""
    from pokerlab.solvers.lp import player_sequences

    seq_of_slot, _ = player_sequences(cg, p)
    return seq_of_slot, int(seq_of_slot.max(initial=0)) + 1


def realization_plan(cg: CompiledGame, slots: np.ndarray, p: int, seq_of_slot: np.ndarray,
                     n_seq: int) -> np.ndarray:
    """Realization plan (per sequence, index 0 = empty sequence) of a behaviour strategy."""
    r = np.zeros(n_seq)
    r[0] = 1.0
    order = sorted((i for i in range(cg.num_infosets) if cg.infoset_player[i] == p),
                   key=lambda i: int(cg.infoset_depth[i]))
    for i in order:
        par = int(cg.infoset_parent_seq[i])
        base = 1.0 if par < 0 else r[seq_of_slot[par]]
        for s in range(int(cg.infoset_offset[i]), int(cg.infoset_offset[i + 1])):
            r[seq_of_slot[s]] = base * slots[s]
    return r


def restricted_lp(A: sp.csr_matrix, E: sp.csr_matrix, F: sp.csr_matrix, g: np.ndarray,
                  p: float) -> np.ndarray:
    """max_x p * g.x + (1-p) * min_y x^T A y over realization plans (E x = e, F y = f).

    Dual of the inner min: ``max q0 s.t. F^T q <= A^T x``.  Endpoints lexicographic (see
    :mod:`pokerlab.opponents.response`)."""
    nx, nq = A.shape[0], F.shape[0]
    A_ub, b_ub, A_eq, b_eq, bounds = sequence_form_lp(A, E, F)
    gain_row = np.concatenate([g, np.zeros(nq)])
    worst_row = np.zeros(nx + nq)
    worst_row[nx] = 1.0
    opts = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}

    def run(obj: np.ndarray, extra: tuple[np.ndarray, float] | None) -> tuple[np.ndarray, float]:
        ub, bu = A_ub, b_ub
        if extra is not None:  # keep extra[0] . z >= extra[1]
            ub = sp.vstack([A_ub, sp.csr_matrix(-extra[0])]).tocsr()
            bu = np.concatenate([b_ub, [-extra[1]]])
        res = linprog(-obj, A_ub=ub, b_ub=bu, A_eq=A_eq, b_eq=b_eq, bounds=bounds,
                      method="highs-ds", options=opts)
        if res.status != 0:
            raise ConfigError(f"restricted-response LP failed: {res.message}")
        return np.asarray(res.x), float(-res.fun)

    if p <= 0.0:
        _, best = run(worst_row, None)
        z, _ = run(gain_row, (worst_row, best - 1e-10 * (1.0 + abs(best))))
    elif p >= 1.0:
        _, best = run(gain_row, None)
        z, _ = run(worst_row, (gain_row, best - 1e-10 * (1.0 + abs(best))))
    else:
        z, _ = run(p * gain_row + (1.0 - p) * worst_row, None)
    return z[:nx]


def rnr_slots(cg: CompiledGame, msp: np.ndarray, p: int | float) -> np.ndarray:
    """The restricted Nash response with model weight ``p`` to the model ``msp`` (slot
    probabilities), in both seats, by the sequence-form LP."""
    from pokerlab.solvers.lp import sequence_constraints

    s0, n0 = sequences(cg, 0)
    s1, n1 = sequences(cg, 1)
    A = payoff_matrix(cg, s0, n0, s1, n1)
    E = sequence_constraints(cg, 0, s0, n0)
    F = sequence_constraints(cg, 1, s1, n1)
    y_fix = realization_plan(cg, msp, 1, s1, n1)
    x_fix = realization_plan(cg, msp, 0, s0, n0)
    out = np.zeros(cg.num_slots)
    x = restricted_lp(A, E, F, np.asarray(A @ y_fix).ravel(), float(p))   # exploiter = 0
    behaviour_from_plan(cg, x, 0, s0, out)
    B = (-A.T).tocsr()
    y = restricted_lp(B, F, E, np.asarray(B @ x_fix).ravel(), float(p))   # exploiter = 1
    behaviour_from_plan(cg, y, 1, s1, out)
    return out


# ------------------------------------------------------------------------------- the spec
@dataclass(frozen=True, kw_only=True)
class AdaptConfig:
    """The adaptive agent's parameters (see the module docs)."""

    base: str = "nash"
    prior: str = "nash"
    strength: float = 2.0
    eps: float = 1.0
    grid: tuple[float, ...] = DEFAULT_GRID
    pmax: float = 1.0
    refit: int = 50

    def __post_init__(self) -> None:
        if not (math.isfinite(self.strength) and self.strength >= 0):
            raise AgentError(f"adapt: strength must be a finite number >= 0, got "
                             f"{self.strength!r}")
        if not (self.eps >= 0):
            raise AgentError(f"adapt: eps must be >= 0 chips (inf: no budget), got {self.eps!r}")
        if not self.grid or any(not 0.0 <= p <= 1.0 for p in self.grid):
            raise AgentError(f"adapt: grid values must lie in [0, 1], got {self.grid!r}")
        if not 0.0 <= self.pmax <= 1.0:
            raise AgentError(f"adapt: pmax must lie in [0, 1], got {self.pmax!r}")
        if isinstance(self.refit, bool) or not isinstance(self.refit, int) or self.refit < 1:
            raise AgentError(f"adapt: refit must be a positive number of hands, got "
                             f"{self.refit!r}")
        if not self.base.strip() or not self.prior.strip():
            raise AgentError("adapt: base and prior must be agent specs")

    @property
    def ps(self) -> tuple[float, ...]:
        return tuple(sorted({float(p) for p in self.grid if p <= self.pmax + 1e-12}))


_KEYS = ("base", "prior", "strength", "eps", "grid", "pmax", "refit")


def parse_spec(spec: str) -> AdaptConfig:
    """``adapt``, ``adapt:BASE`` or ``adapt(key=value,...)`` (keys: base, prior, strength,
    eps, grid as ``P1/P2/..``, pmax, refit) to its :class:`AdaptConfig` (the syntax:
    :func:`pokerlab.games.spec.parse_call`)."""
    call = parse_named_call(spec, "adapt", error=AgentError, what="agent spec",
                            usage="adapt, adapt:BASE or adapt(key=value,...)", suffix=False)
    if call.suffix is not None:
        return AdaptConfig(base=call.suffix)
    check_keys(call, _KEYS, error=AgentError, what="agent spec")
    kw: dict[str, Any] = {}
    for k, v in call.params:
        try:
            if k in ("base", "prior"):
                kw[k] = v
            elif k == "refit":
                kw[k] = int(v)
            elif k == "grid":
                kw[k] = tuple(float(x) for x in v.split("/") if x.strip())
            else:
                kw[k] = float(v)
        except ValueError:
            raise AgentError(f"agent spec {spec!r}: {k}={v!r} is not a number") from None
    return AdaptConfig(**kw)


# ---------------------------------------------------------------------- the game's tables
@dataclass
class AdaptTree:
    """A compiled small game with what the agent needs to place a finished hand in it."""

    cg: CompiledGame
    parent_edge: np.ndarray            # node -> the edge leading to it (-1: root)
    edge_node: np.ndarray              # edge -> the node it leaves
    public_of_infoset: np.ndarray      # infoset -> public-state id
    num_public: int
    num_actions: int
    showdown: np.ndarray               # terminal node -> reached without a fold
    terminal_key: list[dict[int, str]]  # per player: terminal node -> information state
    terminals_by_key: list[dict[str, list[int]]] = field(default_factory=list)

    @classmethod
    def build(cls, game: Any) -> AdaptTree:
        from pokerlab.games.compiled import compile_game

        cg = compile_game(game)
        if cg.num_players != 2:
            raise AgentError(f"adapt needs a two-player game, {cg.game_name!r} has "
                             f"{cg.num_players}")
        n = cg.num_nodes
        parent_edge = np.full(n, -1, dtype=np.int64)
        edge_node = np.full(cg.children.shape[0], -1, dtype=np.int64)
        pub_of = np.full(cg.num_infosets, -1, dtype=np.int64)
        pub_ids: dict[str, int] = {}
        showdown = np.zeros(n, dtype=bool)
        tkey: list[dict[int, str]] = [{}, {}]
        by_key: list[dict[str, list[int]]] = [{}, {}]
        # walk the states beside the compiled nodes: (node, state, folded, last action name)
        stack: list[tuple[int, Any, bool, str]] = [(0, game.new_initial_state(), False, "")]
        while stack:
            h, st, folded, last = stack.pop()
            if cg.kind[h] == KIND_TERMINAL:
                showdown[h] = not folded
                for p in (0, 1):
                    k = st.information_state_string(p)
                    tkey[p][h] = k
                    by_key[p].setdefault(k, []).append(h)
                continue
            s, cnt = int(cg.child_start[h]), int(cg.child_count[h])
            decision = cg.kind[h] == KIND_DECISION
            if decision:
                pub = st.public_state_string()
                pub_of[int(cg.infoset[h])] = pub_ids.setdefault(pub, len(pub_ids))
            for e in range(s, s + cnt):
                c = int(cg.children[e])
                parent_edge[c] = e
                edge_node[e] = h
                a = int(cg.edge_action[e])
                name = st.action_to_string(a).strip().lower() if decision else last
                fold = decision and is_fold(name, last)
                stack.append((c, st.child(a), folded or fold, name))
        return cls(cg=cg, parent_edge=parent_edge, edge_node=edge_node,
                   public_of_infoset=pub_of, num_public=len(pub_ids),
                   num_actions=int(cg.infoset_actions.max(initial=0)) + 1,
                   showdown=showdown, terminal_key=tkey, terminals_by_key=by_key)

    def opponent_path(self, terminal: int, opponent: int) -> list[tuple[int, int]]:
        """The opponent's decisions on the way to ``terminal``: (information set, slot)."""
        cg = self.cg
        out: list[tuple[int, int]] = []
        h = terminal
        while self.parent_edge[h] >= 0:
            e = int(self.parent_edge[h])
            par = int(self.edge_node[e])
            if cg.kind[par] == KIND_DECISION and int(cg.player[par]) == opponent:
                out.append((int(cg.infoset[par]), int(cg.edge_slot[e])))
            h = par
        out.reverse()
        return out


_TREES: dict[str, tuple[Any, AdaptTree]] = {}


def adapt_tree(game_name: str) -> tuple[Any, AdaptTree]:
    """The game object and its :class:`AdaptTree`, built once per process."""
    hit = _TREES.get(game_name)
    if hit is None:
        from pokerlab.games import load_game

        game = load_game(game_name)
        hit = (game, AdaptTree.build(game))
        _TREES[game_name] = hit
    return hit


# ------------------------------------------------------------------------------- the agent
class AdaptAgent(AgentBase):
    """The adaptive agent of a small two-player zero-sum game (see the module docs)."""

    def __init__(self, game_name: str, config: AdaptConfig, base: Any, prior: Any, *,
                 name: str = "adapt", seed: int = 0) -> None:
        from pokerlab.policy.exact import best_response_values, policy_slot_probs

        self.name = name
        self.config = config
        self.game, self.tree = adapt_tree(game_name)
        cg = self.tree.cg
        self.base_slots = policy_slot_probs(cg, base)
        self.prior_slots = policy_slot_probs(cg, prior)
        br = best_response_values(cg, self.base_slots)
        self.reference = (-float(br[1]), -float(br[0]))
        """The base's worst-case value per seat (``v_s``)."""
        self.rng = np.random.default_rng(seed)
        self._masks = (player_mask(cg, 0), player_mask(cg, 1))
        self.candidate_p = (-1.0, *config.ps)
        self._initial: tuple[list[np.ndarray], np.ndarray, np.ndarray] | None = None
        self.candidates: list[np.ndarray] = []
        self.worst = np.zeros((2, 0))
        self.predicted = np.zeros((2, 0))
        self.start_match()

    # ------------------------------------------------------------------ match boundaries
    def start_match(self) -> None:
        """Forget the opponent: a new match or play session starts."""
        tr = self.tree
        self.infoset_counts = np.zeros(tr.cg.num_slots)
        self.public_counts = np.zeros((tr.num_public, tr.num_actions))
        self.budget = float(self.config.eps)
        self.hands = 0
        self.trace: list[tuple[int, float, float]] = []
        """Per finished hand: (candidate played, p or -1 for the base, budget after)."""
        self._next_refit = self.config.refit
        if self._initial is None:  # the responses to the prior, computed once
            self._refit()
            self._initial = (self.candidates, self.worst, self.predicted)
        self.candidates, self.worst, self.predicted = self._initial
        self._stale = False
        self._seat: int | None = None
        self._choice: int | None = None

    def reset(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self._seat = None
        self._choice = None

    # ------------------------------------------------------------------ model and responses
    def model_slots(self) -> np.ndarray:
        """The opponent model (both seats' information sets), slot probabilities."""
        cg, tr = self.tree.cg, self.tree
        s = self.config.strength
        out = self.prior_slots.copy()
        for i in range(cg.num_infosets):
            lo, hi = int(cg.infoset_offset[i]), int(cg.infoset_offset[i + 1])
            base = self.prior_slots[lo:hi]
            pub = self.public_counts[int(tr.public_of_infoset[i]), cg.infoset_actions[lo:hi]]
            m = float(pub.sum())
            if m > 0 and m + s > 0:
                base = (pub + s * base) / (m + s)
            row = self.infoset_counts[lo:hi]
            n = float(row.sum())
            out[lo:hi] = (row + s * base) / (n + s) if n > 0 and n + s > 0 else base
        return out

    def _refit(self) -> None:
        from pokerlab.policy.exact import best_response_values, expected_values

        cg = self.tree.cg
        msp = self.model_slots()
        ps = self.config.ps
        cands = [self.base_slots] + [rnr_slots(cg, msp, p) for p in ps]
        worst = np.zeros((2, len(cands)))
        pred = np.zeros((2, len(cands)))
        for j, sl in enumerate(cands):
            br = best_response_values(cg, sl)
            for seat in (0, 1):
                worst[seat, j] = -float(br[1 - seat])
                pred[seat, j] = float(expected_values(
                    cg, np.where(self._masks[seat], sl, msp))[seat])
        self.candidates = cands
        self.worst = worst
        self.predicted = pred
        self._stale = False

    def choose(self, seat: int) -> int:
        """The candidate to play in ``seat`` now: the best against the model among those
        the budget allows (the base on ties)."""
        if self._stale:
            self._refit()
        need = self.reference[seat] - self.budget - 1e-12
        ok = [j for j in range(len(self.candidates)) if self.worst[seat, j] >= need]
        if not ok:  # cannot happen with budget >= 0; the base is then the safe choice
            return 0
        best = max(self.predicted[seat, j] for j in ok)
        return min(j for j in ok if self.predicted[seat, j] >= best - 1e-9)

    def strategy(self, seat: int) -> np.ndarray:
        """This hand's strategy (slot probabilities) in ``seat``."""
        if self._seat != seat or self._choice is None:
            self._seat = seat
            self._choice = self.choose(seat)
        return self.candidates[self._choice]

    # ------------------------------------------------------------------ playing
    def action_probabilities_state(self, state: Any, player: int) -> dict[int, float]:
        if state.current_player() != player:
            raise AgentError(f"agent {self.name!r} asked to act for player {player}, but "
                             f"player {state.current_player()} is to act")
        cg = self.tree.cg
        key = state.information_state_string(player)
        i = cg._index_map().get(key)
        if i is None:
            raise AgentError(f"agent {self.name!r}: unknown information state {key!r}")
        lo, hi = int(cg.infoset_offset[i]), int(cg.infoset_offset[i + 1])
        sl = self.strategy(player)
        return {int(a): float(q) for a, q in zip(cg.infoset_actions[lo:hi], sl[lo:hi],
                                                 strict=True)}

    def act_state(self, state: Any, player: int) -> int:
        probs = self.action_probabilities_state(state, player)
        acts = list(probs)
        p = np.array([max(0.0, probs[a]) for a in acts])
        u = self.rng.random() * p.sum()
        k = int(np.searchsorted(np.cumsum(p), u, side="right"))
        return int(acts[min(k, len(acts) - 1)])

    def end_hand(self, view: SmallHandEnd) -> None:
        """The end of a hand as this agent's seat saw it (``view.player``): update the
        model and the budget, refit when due."""
        tr, cg = self.tree, self.tree.cg
        player = int(view.player)
        opp = 1 - player
        key = view.info_state
        ends = tr.terminals_by_key[player].get(key)
        if not ends:
            raise AgentError(f"agent {self.name!r}: no finished hand {key!r} in the game")
        shown = view.opponent_info_state
        if tr.showdown[ends[0]] and shown is not None:  # a showdown shows the opponent's cards
            ends = [t for t in ends if tr.terminal_key[opp][t] == shown] or ends
        paths = {tuple(tr.opponent_path(t, opp)) for t in ends}
        first = next(iter(paths))
        for i, sl in first:  # every decision at its public state, shown ones also at
            self.public_counts[int(tr.public_of_infoset[i]), int(cg.infoset_actions[sl])] \
                += 1.0
        if tr.showdown[ends[0]] and len(paths) == 1:  # the information set
            for _, sl in first:
                self.infoset_counts[sl] += 1.0
        sl_played = self.strategy(player)
        worst = min(-constrained_br_value(cg, sl_played, opp, dict(path)) for path in paths)
        self.budget += worst - self.reference[player]
        assert self._choice is not None
        self.trace.append((self._choice, float(self.candidate_p[self._choice]), self.budget))
        self.hands += 1
        self._seat = None
        self._choice = None
        if self.hands >= self._next_refit:  # refit before the next hand's first choice
            self._stale = True
            step = min(self.hands, 16 * self.config.refit)
            self._next_refit = self.hands + step


def make_adapt_agent(spec: str, *, game: str, kind: str, seed: int,
                     build: Callable[..., Any]) -> AdaptAgent:
    """The agent of an ``adapt`` spec (``build``: the registry's ``build_agent``, which
    resolves the base and prior specs)."""
    cfg = parse_spec(spec)
    if kind == "hunl":
        raise AgentError(f"agent {spec!r}: this is the small games' adaptive agent; on hunl "
                         "build it with pokerlab.agents.adapt_hunl.make_hunl_adapt_agent")
    base = _small_policy(cfg.base, game, build)
    prior = base if cfg.prior == cfg.base else _small_policy(cfg.prior, game, build)
    cfg = replace(cfg)
    return AdaptAgent(game, cfg, base, prior, name=spec.strip(), seed=seed)


_NASH: dict[str, Any] = {}


def _small_policy(spec: str, game: str, build: Callable[..., Any]) -> Any:
    if spec.strip().lower() in ("nash", "equilibrium"):
        pol = _NASH.get(game)
        if pol is None:
            from pokerlab.solvers.lp import solve_lp

            g, _ = adapt_tree(game)
            pol = solve_lp(g).policy
            _NASH[game] = pol
        return pol
    if spec.strip().lower().startswith("adapt"):
        raise AgentError(f"adapt: the base {spec!r} must be a fixed policy, not adapt")
    from pokerlab.agents.small import agent_policy

    return agent_policy(build(spec, game=game))
