"""The search agent: :class:`SearchAgent` plays a re-solved subgame at every decision from
its start street on (see the package docstring), its opponent model one of
:mod:`pokerlab.agents.search.opponent`'s, chosen from the config; :func:`make_search_agent`
builds it from a spec."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from pokerlab.agents.beliefs import HoldemBeliefs
from pokerlab.agents.search.config import SearchConfig, parse_search_spec
from pokerlab.agents.search.nesting import anchor
from pokerlab.agents.search.opponent import opponent_model
from pokerlab.agents.search.solve import solve, warm_up
from pokerlab.agents.search.state import (
    BUDGET_REASON,
    ERROR_PREFIX,
    LEAF_COST,
    RATE_S_PER_BYTE,
    SearchStats,
    Solve,
    public_key,
)
from pokerlab.cards.cards import COMBO_INDEX
from pokerlab.errors import AgentError, PokerlabError
from pokerlab.holdem.actions import Action, ActionKind
from pokerlab.holdem.view import AgentBase, PlayerView
from pokerlab.rng import SplitMix64, to_unit
from pokerlab.subgame.resolve import real_action
from pokerlab.think import STREETS, histogram, street_prefix


class SearchAgent(AgentBase):
    """Real-time search over a base policy agent (see the package docstring).  ``model``:
    the opponent model's agent (``None``: the base policy); the config picks how it is
    learned (:func:`~pokerlab.agents.search.opponent.opponent_model`).  An agent whose
    model learns (``tilt=1``, ``learn=N``) has ``end_hand`` (it learns between hands, so
    it has no match fast path) and starts from the prior with every match."""

    def __init__(self, base: Any, config: SearchConfig | None = None, *, name: str = "search",
                 seed: int = 0, model: Any = None) -> None:
        self.base = base
        self.config = config if config is not None else SearchConfig()
        self.name = name
        self.tree = self.config.tree.build()
        from pokerlab.subgame.spot import tree_config

        self.ladder = (self.tree,
                       tree_config(bets="75%", raises="2.5x", river_bets="50%,100%", raise_cap=2),
                       tree_config(bets="75%", raises="none", raise_cap=1))
        """Trees from the configured one to coarser ones, used when a spot is too big for
        the budget (:func:`~pokerlab.agents.search.solve.fit_full`)."""
        self.rate = RATE_S_PER_BYTE
        self.leaf_cost = dict(LEAF_COST)
        """Depth-limited search: per spot street (0 flop, 1 turn), seconds per leaf to build
        its continuation and to evaluate it once (both players), refined by each search."""
        from pokerlab.agents.continuation import LeafTrees

        self.leaf_trees = LeafTrees()
        """The leaves' card-free continuation trees by their betting, kept across hands."""
        warm_up()
        self.opponent = opponent_model(self.config, base, model)
        self.beliefs = HoldemBeliefs(base, opponent_model=self.opponent.range_model())
        if self.opponent.learns:
            self.end_hand = self.learn_from_hand  # type: ignore[method-assign]
        self.stats = SearchStats()
        self.rng = SplitMix64(seed)
        self.prev: Solve | None = None
        self.solves: dict[tuple[Any, ...], Solve] = {}
        """This hand's solves by the public state at their root (its own decisions and
        street starts): what a later decision nests in, whatever asked for them (its own
        play or a range query)."""
        self.last_error = ""

    @property
    def model(self) -> Any:
        """The opponent model's agent: the ``model=`` agent or the base, once learned
        (``learn=N``) the posterior; the tilt model wraps it (``opponent.tilt``)."""
        return self.opponent.model

    def reset(self, seed: int) -> None:
        self.rng = SplitMix64(seed ^ 0x5EA2C4)
        self.base.reset(seed)
        if self.model is not self.base:
            self.model.reset(seed ^ 0x0DE1)
        self.beliefs.reset()
        self.prev = None
        self.solves = {}

    def start_match(self) -> None:
        """Forget the opponent: the model is the prior (the base or ``model=``) again."""
        self.opponent.start_match()
        self.beliefs.opponent_model = self.opponent.range_model()

    def learn_from_hand(self, view: PlayerView) -> None:
        """The end of a hand as this agent's seat saw it (a
        :func:`~pokerlab.holdem.view.final_view`): the opponent model learns from it
        (this is the agent's ``end_hand`` when its model learns)."""
        if self.opponent.end_hand(view):
            self.stats.model_refits += 1
            self.beliefs.opponent_model = self.opponent.range_model()

    def counters(self) -> dict[str, Any]:
        """Per-agent figures a match reports: think time percentiles and counts."""
        st = self.stats
        t = np.asarray(st.think_ms, dtype=np.float64)
        out: dict[str, Any] = {"search_decisions": st.searches + st.fallbacks,
                               "think_ms_count": int(t.size), "think_ms_sum": float(t.sum())}
        out.update(histogram(t))  # summed over worker processes; percentiles from the sums
        out.update({"searches": st.searches, "fallbacks": st.fallbacks, "nested_solves": st.nested,
                    "safe_solves": st.safe_solves, "coarser_trees": st.coarser,
                    "blueprint_gadgets": st.blueprint_gadgets, "iterations": st.iterations,
                    "locked_nodes": st.locked_nodes, "depth_limited": st.depth_limited,
                    "street_solves": st.street_solves, "widened_ranges": st.widened,
                    "warm_leaves": st.warm_leaves,
                    "leaf_trees_built": self.leaf_trees.misses,
                    "leaf_trees_reused": self.leaf_trees.hits})
        budget = st.reasons.get(BUDGET_REASON, 0)  # no subgame fitted the time left
        out["fallbacks_budget"] = budget
        out["fallbacks_error"] = st.fallbacks - budget
        for reason, n in st.reasons.items():  # each error's one line, counted (summed by a match)
            if reason != BUDGET_REASON:
                out[f"{ERROR_PREFIX}{reason}"] = n
        for s, name in enumerate(STREETS[1:], start=1):
            out[f"searches_{name}"] = st.searches_by_street[s]
            out[f"fallbacks_{name}"] = st.fallbacks_by_street[s]
            ts = np.asarray(st.think_by_street[s], dtype=np.float64)
            if ts.size:
                head = street_prefix(s)[: -len("bin_")]
                out[head + "count"] = int(ts.size)
                out[head + "sum"] = float(ts.sum())
                out.update(histogram(ts, prefix=street_prefix(s)))
        if self.opponent.learns:
            out["model_refits"] = st.model_refits
        return out

    # ---------------------------------------------------------------------- play
    def act(self, view: PlayerView) -> Action:
        if view.street < self.config.tree.street or view.street > 3:
            return self.base.act(view)
        t0 = time.perf_counter()
        self.last_error = ""
        try:
            action = self.search(view, t0 + self.config.budget.ms / 1000.0)
        except PokerlabError as exc:  # a search that cannot run plays the base policy
            self.last_error = str(exc)
            action = None
        if action is None:
            self.stats.fallback(view.street, self.last_error)
            self.prev = None
            action = self.base.act(view)
        self.stats.think(view.street, 1000.0 * (time.perf_counter() - t0))
        return action

    def trusted(self, street: int) -> bool:
        """Whether the opponent model has seen enough on ``street`` (0 preflop .. 3 river)
        to be played against unsafely (``verify``; a model that does not learn always)."""
        return self.opponent.trusted(street)

    def anchor(self, view: PlayerView, deadline: float, mine: int | None) -> Solve | None:
        """The solve of this hand ``view`` nests in (:func:`~pokerlab.agents.search.nesting.anchor`)."""
        return anchor(self, view, deadline, mine)

    def solve_at(self, view: PlayerView, deadline: float, mine: int | None, *,
                 root_actor: int | None = None, nest: bool = True) -> tuple[Any, int] | None:
        """The solved subgame at ``view`` and the street-start stack, or ``None``
        (:func:`~pokerlab.agents.search.solve.solve`)."""
        return solve(self, view, deadline, mine, root_actor=root_actor, nest=nest)

    def search(self, view: PlayerView, deadline: float) -> Action | None:
        """The action played at ``view``: sampled from the solve's strategy for its hand
        (a solve a range query made at this public state is reused)."""
        me = view.player
        mine = int(COMBO_INDEX[view.hole[0], view.hole[1]])
        got = self.kept(view, mine)
        if got is None:
            got = self.solve_at(view, deadline, mine)
        if got is None:
            return None
        solver, stack = got
        names = solver.action_names(0)
        hands = solver.deal.combos[me]
        at = np.nonzero(hands == mine)[0]
        if at.size == 0:
            raise AgentError("search: its own hand is outside its range")
        root_strategy = solver.average_strategy(0)
        sigma = root_strategy[:, int(at[0])]
        if not np.all(np.isfinite(sigma)) or sigma.sum() <= 0:
            raise AgentError("search: no strategy for its own hand")
        u = to_unit(self.rng.next()) * float(sigma.sum())
        k = int(np.searchsorted(np.cumsum(sigma), u, side="right"))
        k = min(k, len(names) - 1)
        amount = solver.tree.action_amounts[0][k]
        self.record_strategy(view, solver, root_strategy)
        self.prev = self.keep(view, got)
        return real_action(view, names[k], amount)

    def record_strategy(self, view: PlayerView, solver: Any,
                        sigma: np.ndarray | None = None) -> tuple[list[Action], np.ndarray]:
        """The solve's strategy at its root (``sigma``, its average strategy there when
        already read) as real actions and (1326, actions) probabilities (zero off its
        range), recorded in the beliefs: its own range later in the hand follows the action
        it is seen to take, whether it acted here or answered a range query (as LBR asks)
        that its later searches must agree with."""
        from pokerlab.policy.range_query import real_columns

        acts, col = real_columns(
            real_action(view, name, amount)
            for name, amount in zip(solver.action_names(0), solver.tree.action_amounts[0], strict=True))
        probs = np.zeros((1326, len(acts)))
        if sigma is None:
            sigma = solver.average_strategy(0)
        hands = solver.deal.combos[view.player]
        for k, c in enumerate(col):
            probs[hands, c] += sigma[k]
        self.beliefs.record(view, acts, probs)
        return acts, probs

    def kept(self, view: PlayerView, mine: int | None) -> tuple[Any, int] | None:
        """This hand's solve at ``view``'s public state (made for its play or for a range
        query there) and its street-start stack, when it is rooted at the searcher's
        decision and (``mine``, its own combo) holds its hand; else ``None``.  One public
        state, one strategy: a range query (as LBR asks, also at states the hand never
        reaches) and the play there agree."""
        s = self.solves.get(public_key(view))
        if s is None or s.n_events != len(view.events):
            return None
        solver = s.solver
        if int(solver.tree.player[0]) != view.player:
            return None
        if mine is not None and not bool(np.any(solver.deal.combos[view.player] == mine)):
            return None
        return solver, s.stack

    def keep(self, view: PlayerView, got: tuple[Any, int]) -> Solve:
        """Record the solve ``got`` made at the searcher's decision ``view`` (what later
        decisions of the hand nest in)."""
        solve_ = Solve(solver=got[0], searcher=view.player, street=view.street,
                       n_events=len(view.events), stack=got[1], key=public_key(view))
        self.solves[solve_.key] = solve_
        return solve_

    # ------------------------------------------------------------- range queries
    def action_probabilities_all_hands(self, view: PlayerView) -> tuple[list[Action], np.ndarray]:
        """The strategy of every combo at ``view`` (what LBR and range trackers ask): the
        base policy's before the start street, else the re-solved subgame's at its root
        (combos outside the searcher's range check or call).  The solve is kept, so the
        agent's next ``act`` at the same public state plays from it."""
        from pokerlab.policy.range_query import all_hands_probabilities
        from pokerlab.subgame.resolve import all_hands

        live = all_hands(view.board) > 0
        if view.street < self.config.tree.street or view.street > 3:
            return all_hands_probabilities(self.base, view, live)
        got = self.kept(view, None)  # this public state's solve (a query after act, or twice)
        if got is None:
            t0 = time.perf_counter()
            self.last_error = ""
            try:
                got = self.solve_at(view, t0 + self.config.budget.ms / 1000.0, None)
            except PokerlabError as exc:
                self.last_error = str(exc)
                got = None
            if got is None:
                self.stats.fallback(view.street, self.last_error)
                return all_hands_probabilities(self.base, view, live)
            self.keep(view, got)
            self.stats.think(view.street, 1000.0 * (time.perf_counter() - t0))
        assert got is not None
        solver = got[0]
        acts, probs = self.record_strategy(view, solver)
        off = np.ones(1326, dtype=bool)
        off[solver.deal.combos[view.player]] = False
        probs = probs.copy()
        probs[off, acts.index(Action(kind=ActionKind.CHECK_CALL))] = 1.0  # off its range: check/call
        return acts, probs

    def action_probabilities(self, view: PlayerView) -> list[tuple[Action, float]]:
        """This hand's strategy at ``view`` (one solve, kept for ``act``)."""
        acts, probs = self.action_probabilities_all_hands(view)
        row = probs[int(COMBO_INDEX[view.hole[0], view.hole[1]])]
        return [(a, float(p)) for a, p in zip(acts, row, strict=True) if p > 0]


TiltSearchAgent = SearchAgent
"""The search agent with the frequency model (``tilt=1``, the default): one class now."""

LearningSearchAgent = SearchAgent
"""The search agent with the Dirichlet model (``learn=N``): one class now."""


def _needs_probabilities(agent: Any) -> bool:
    return hasattr(agent, "action_probabilities") or hasattr(agent, "action_probabilities_all_hands")


def make_search_agent(spec: str, *, build: Any, config: Any = None, seed: int = 0) -> SearchAgent:
    """The agent of a ``search`` spec; ``build(spec, ...)`` makes its base agent."""
    cfg, base_spec = parse_search_spec(spec)
    if base_spec.lower().startswith("search"):
        raise AgentError("search: the base agent cannot itself search")
    base = build(base_spec, game="hunl", config=config, seed=seed)
    if not _needs_probabilities(base):
        raise AgentError(f"search: base agent {base_spec!r} does not say how it plays each hand "
                         "(it needs action probabilities to track ranges)")
    model = None
    model_spec = cfg.opponent.model
    if model_spec:
        model = build(model_spec, game="hunl", config=config, seed=seed ^ 0x0DE1)
        if not _needs_probabilities(model):
            raise AgentError(f"search: opponent model {model_spec!r} does not say how it plays "
                             "each hand (it needs action probabilities to track a range)")
    return SearchAgent(base, cfg, name=spec.strip(), seed=seed, model=model)
