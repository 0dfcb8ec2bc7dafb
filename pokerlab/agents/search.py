"""``search``: an agent that re-solves the hand it is in, over both ranges, at every
decision from a start street on (Libratus / Pluribus style real-time search on the
range-vectorised engine of :mod:`pokerlab.subgame`).

At a decision on the start street or later the agent

1. takes both players' ranges at the current public state: by Bayes through its model of
   each player at every observed action (:class:`~pokerlab.agents.beliefs.HoldemBeliefs`:
   its own actions through what it played, the opponent's through the opponent model
   learned in the match, :class:`~pokerlab.agents.tilt_model.TiltModel`, which is the base
   policy until the opponent is seen); or, **nested**, from a solve of this hand it kept
   (the one at its last decision on this street, whoever asked for it, or one whose tree
   covers this street): the real actions since that solve's root are followed in its
   tree, an opponent's raise the tree lacks as the nearest size;
2. builds a spot that starts *at this decision* (:class:`~pokerlab.subgame.tree.Root`):
   the real pot, stacks and street bets, so an off-tree bet of the opponent is part of the
   subgame exactly, never translated; later actions use the search's own bet sizes; with
   ``depth=1`` the spot ends with the street (Modicum's leaves,
   :mod:`pokerlab.agents.leaves`);
3. solves it with Discounted CFR until the think budget is spent (or 0.5% of the pot),
   and plays its actual hand by sampling its strategy;
4. **safety**: until the learned model has seen enough of the opponent on this street
   (``verify``, the default), or always with ``safe=1``, it re-solves safely: when the
   opponent acted first on the street, the street is solved from its start and the
   opponent's actions are read there (``anchor``); the opponent may take, per hand, its
   best-response counterfactual value in the solve it nests in (the resolve gadget,
   :meth:`~pokerlab.subgame.solver.SpotSolver.set_gadget`), so the new strategy gives no
   opponent hand more than that one did; at the first river search of a hand, its
   best-response value against the blueprint's play of the subgame.  Once the model is
   verified it re-solves on the model's ranges (unsafe), the situations where the model
   deviates confidently locked to it (an exploitative search).

Before the start street, and whenever a search cannot run (no iteration fits the budget,
the spot is over the memory bound, its own hand is outside its range), it plays the base
policy: a legal action always.  ``think_ms`` keeps the time of every search decision.
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pokerlab.agents.beliefs import HoldemBeliefs
from pokerlab.agents.leaves import compatible_mass
from pokerlab.cards.cards import COMBO_INDEX, card_str
from pokerlab.errors import AgentError, PokerlabError
from pokerlab.evaluation.think import histogram
from pokerlab.holdem.actions import Action, ActionKind
from pokerlab.holdem.events import BoardDealt, CheckedOrCalled, Folded, RaisedTo
from pokerlab.holdem.view import PlayerView
from pokerlab.rng import SplitMix64, to_unit
from pokerlab.subgame.resolve import real_action

STREET_NAMES = {"flop": 1, "turn": 2, "river": 3}

RATE_S_PER_BYTE = 2e-9
"""Seconds of one DCFR iteration per byte of the solver's estimated memory, one thread
(measured on this 2-core machine with the float32 kernel, the other core busy: 1.3e-9 to
2.2e-9 over river and turn spots of 0.1 to 18 MB; the float64 kernel before it took 3.4e-9
to 4.2e-9); each agent refines it from its own solves."""

LOCKED_ITERATIONS = 50
"""Iterations after which a solve with locked opponent decisions or a gadget (safe) stops
within its budget (its exploitability is no measure of convergence: the best response
ignores the locks, the gadget changes the game); unlocked river solves reach 0.5% of the
pot in 50-100."""

LIMITED_ITERATIONS = 100
"""The same for a depth-limited solve (its leaves are estimates, refreshed as it goes)."""

MIN_ITERATIONS = 25
"""A subgame is solved only when at least this many iterations fit the budget."""

BUILD_SHARE = 0.85
"""Share of the remaining budget planned for iterations (the rest builds the solver)."""

LEAF_COST = {0: (0.03, 0.035), 1: (0.006, 0.025)}
"""Starting estimates, per leaf of a depth-limited flop (0) or turn (1) spot, of the seconds
to build its continuation (the base policy's tree, buckets of 8 flop runouts or every river)
and to evaluate it once for both players (benchmarks/bench_continuation.py on this
machine)."""

PRUNE = 1e-3
"""Combos whose weight is below this share of the range's largest are dropped from a
subgame (unsafe ranges); the searcher's own hand is always kept."""


@dataclass(frozen=True, kw_only=True)
class SearchConfig:
    """``ms``: think budget per decision (milliseconds); ``street``: first street searched
    (1 flop, 2 turn, 3 river); ``safe``: nested safe re-solving; ``bets`` / ``raises``:
    the subgame's sizes (postflop-solver notation, sizes joined by ``+`` in a spec),
    ``river_bets`` for the river; ``raise_cap``: bets and raises per street in the
    subgame; ``target_pct``: stop early at this exploitability (% of pot);
    ``max_memory``: bytes per decision's subgame; ``threads``: solver threads;
    ``iterations`` (spec ``iters``): a fixed number of iterations per decision instead of
    the time budget (reproducible play: the configured tree, no time checks); ``floor``:
    at every search whose opponent range is modelled (the hand's first, and every one with
    ``safe=0``; a safe nested solve takes its previous solve's prior), every combo the board
    allows keeps at least this share of the largest weight in the opponent's range (0:
    the blueprint's Bayes range alone), so that hands the blueprint would not have played
    this way are in the subgame and, when safe, bounded by the gadget too (see
    docs/search.md); ``model``: the agent spec of the opponent model (``""``: the base
    policy), through which the opponent's range is tracked by Bayes; ``lock``: the
    opponent's decisions in every subgame are fixed to the model's strategy (node locking),
    so the search plays a best response to the model within the subgame (an exploitative
    search; not with ``safe``); ``learn``: every ``learn`` hands of a match the opponent
    model is refitted from the opponent's actions seen so far in it (the Dirichlet
    posterior around the model, the base policy or ``model=``, as ``pokerlab opponent
    model`` builds from a log; :class:`LearningSearchAgent`), 0: no learning; ``tilt``
    (default on unless ``learn``): the opponent's range is tracked through a frequency
    model learned from every finished hand of the match
    (:class:`~pokerlab.agents.tilt_model.TiltModel`: the model, or the base policy, tilted
    per situation toward the opponent's observed fold / call / raise frequencies), and
    the situations where it has at least ``tilt_obs`` observations and a log multiplier
    of at least ``tilt_lock`` are locked to it in every subgame (``tilt_lock=0``: never;
    not with ``safe``); :class:`TiltSearchAgent`; ``depth``: 1 solves to the end of the
    street only, valuing its ends by the base policy's continuation with the opponent
    choosing among its biased versions (Modicum; ``runouts`` per leaf, 0: every river of a
    turn leaf and 8 below a flop leaf; ``bias``: the versions' multiplier), 0 to the end of
    the hand; ``anchor``: when safe and the opponent acted first on the street, read its
    actions in a solve of the street from its start; ``verify``: with ``tilt``, safe until
    the model has ``tilt_obs`` of the opponent's decisions on the street with nothing to
    call and as many facing a bet (or four times as many over the streets)."""

    ms: float = 1000.0
    street: int = 3
    safe: bool = False  # measured: +211 +- 93 mbb/hand against the blueprint, safe=1 +7 +- 89
    bets: str = "50%,100%"
    raises: str = "2.5x"
    river_bets: str = "33%,75%,150%"
    raise_cap: int = 3
    target_pct: float = 0.5
    max_memory: float = 2e9
    threads: int = 1
    iterations: int = 0
    floor: float = 0.0
    gadget: str = "br"
    model: str = ""
    lock: bool = False
    learn: int = 0
    tilt: bool | None = None  # None: on unless learn > 0
    tilt_obs: int = 50
    tilt_lock: float = 2.0
    depth: int = 0
    runouts: int = 0
    bias: float = 5.0
    anchor: bool = True
    verify: bool = True

    def __post_init__(self) -> None:
        if not (math.isfinite(self.ms) and 1 <= self.ms <= 600_000):
            raise AgentError(f"search: ms (think budget per decision) must be 1..600000 milliseconds, "
                             f"got {self.ms!r}")
        if self.street not in (1, 2, 3):
            raise AgentError(f"search: street must be flop, turn or river, got {self.street!r}")
        if not (isinstance(self.raise_cap, int) and 0 <= self.raise_cap <= 10):
            raise AgentError(f"search: raise_cap must be 0..10, got {self.raise_cap!r}")
        if not (math.isfinite(self.target_pct) and self.target_pct >= 0):
            raise AgentError(f"search: target must be >= 0 (% of pot), got {self.target_pct!r}")
        if not (isinstance(self.iterations, int) and 0 <= self.iterations <= 1_000_000):
            raise AgentError(f"search: iters must be 0 (by time) .. 1000000, got {self.iterations!r}")
        if not (isinstance(self.threads, int) and 1 <= self.threads <= 64):
            raise AgentError(f"search: threads must be 1..64, got {self.threads!r}")
        if self.gadget not in ("br", "bp"):
            raise AgentError(f"search: gadget must be br (best response to the blueprint) or bp "
                             f"(the blueprint's own values), got {self.gadget!r}")
        if not (math.isfinite(self.floor) and 0 <= self.floor <= 1):
            raise AgentError(f"search: floor must be 0..1 (share of the range's largest weight), "
                             f"got {self.floor!r}")
        if self.lock and self.safe:
            raise AgentError("search: lock=1 (a best response to the opponent model) cannot be "
                             "safe=1 (no worse than the blueprint against any opponent); choose one")
        if not (isinstance(self.learn, int) and 0 <= self.learn <= 1_000_000):
            raise AgentError(f"search: learn must be 0 (no learning) .. 1000000 hands between "
                             f"refits of the opponent model, got {self.learn!r}")
        if self.tilt is None:
            object.__setattr__(self, "tilt", self.learn == 0)
        elif self.tilt and self.learn:
            raise AgentError("search: tilt=1 (the frequency model learned in the match) and "
                             "learn=N (the Dirichlet model) are two ways to learn the opponent; "
                             "choose one")
        if not (isinstance(self.tilt_obs, int) and 1 <= self.tilt_obs <= 1_000_000):
            raise AgentError(f"search: tilt_obs must be 1..1000000 observations, got {self.tilt_obs!r}")
        if not (math.isfinite(self.tilt_lock) and 0 <= self.tilt_lock <= 50):
            raise AgentError(f"search: tilt_lock must be 0 (never lock) .. 50 (|log multiplier|), "
                             f"got {self.tilt_lock!r}")
        if self.depth and self.safe:
            raise AgentError("search: depth=1 (depth-limited) is unsafe re-solving only; "
                             "safe=1 needs the whole rest of the hand")
        if self.depth not in (0, 1):
            raise AgentError(f"search: depth must be 0 (solve to the end of the hand) or 1 (to the "
                             f"end of the street, Modicum's leaves), got {self.depth!r}")
        if not (isinstance(self.runouts, int) and 0 <= self.runouts <= 10_000):
            raise AgentError(f"search: runouts must be 0 (all) .. 10000 runouts per leaf, "
                             f"got {self.runouts!r}")
        if not (math.isfinite(self.bias) and 1 <= self.bias <= 1000):
            raise AgentError(f"search: bias must be 1..1000 (the continuation strategies' multiplier), "
                             f"got {self.bias!r}")
        if self.model.strip().lower().startswith("search"):
            raise AgentError("search: the opponent model cannot itself search")
        if any(c in self.model for c in ",()"):
            raise AgentError(f"search: model={self.model!r}: write an agent spec without "
                             "commas or parentheses (tag, call, blueprint-100, policy:PATH)")
        self.tree()  # sizes are checked here, once

    def tree(self) -> Any:
        from pokerlab.subgame.tree import tree_config

        try:
            return tree_config(bets=self.bets, raises=self.raises, river_bets=self.river_bets,
                               raise_cap=self.raise_cap)
        except PokerlabError as exc:
            raise AgentError(f"search: bad subgame sizes: {exc}") from None

    def to_json(self) -> dict[str, Any]:
        return {"ms": self.ms, "street": self.street, "safe": self.safe, "bets": self.bets,
                "raises": self.raises, "river_bets": self.river_bets, "raise_cap": self.raise_cap,
                "target_pct": self.target_pct, "max_memory": self.max_memory, "threads": self.threads,
                "iterations": self.iterations, "floor": self.floor, "gadget": self.gadget,
                "model": self.model, "lock": self.lock, "learn": self.learn, "tilt": self.tilt,
                "tilt_obs": self.tilt_obs, "tilt_lock": self.tilt_lock, "depth": self.depth,
                "runouts": self.runouts, "bias": self.bias, "anchor": self.anchor,
                "verify": self.verify}

    @property
    def auto_lock(self) -> bool:
        """Whether the subgames lock the tilt model's confident situations (``tilt=1``,
        ``tilt_lock > 0``, not ``safe`` and not ``lock=1``, which locks every one)."""
        return bool(self.tilt) and self.tilt_lock > 0 and not self.safe and not self.lock


_SPEC = re.compile(r"^search(?:\((?P<opts>[^)]*)\))?(?::(?P<base>.+))?$", re.IGNORECASE)


def parse_search_spec(spec: str) -> tuple[SearchConfig, str]:
    """``search``, ``search:POLICY`` or ``search(ms=1000,street=turn,safe=1,bets=50%+100%)``
    (optionally followed by ``:POLICY``; ``base=SPEC`` also names the base) ->
    (config, base agent spec)."""
    m = _SPEC.match(spec.strip())
    if m is None:
        raise AgentError(f"bad search spec {spec!r}: write search, search:POLICY or "
                         "search(ms=1000,street=turn,safe=1)")
    base = (m.group("base") or "").strip()
    kw: dict[str, Any] = {}
    opts = (m.group("opts") or "").strip()

    def num(k: str, v: str, kind: type) -> Any:
        try:
            return kind(v)
        except ValueError:
            what = "an integer" if kind is int else "a number"
            raise AgentError(f"search option {k}={v!r} is not {what}") from None

    if opts:
        for item in opts.split(","):
            k, eq, v = item.partition("=")
            k, v = k.strip().lower(), v.strip()
            if not eq or not v:
                raise AgentError(f"search option {item.strip()!r} must be key=value")
            if k == "ms":
                kw["ms"] = num(k, v, float)
            elif k == "street":
                if v.lower() not in STREET_NAMES:
                    raise AgentError(f"search: street must be flop, turn or river, got {v!r}")
                kw["street"] = STREET_NAMES[v.lower()]
            elif k in ("safe", "lock", "tilt", "anchor", "verify"):
                if v.lower() not in ("0", "1", "true", "false"):
                    raise AgentError(f"search: {k} must be 0 or 1, got {v!r}")
                kw[k] = v.lower() in ("1", "true")
            elif k == "model":
                kw["model"] = v
            elif k in ("bets", "raises", "river_bets"):
                kw[k] = v.replace("+", ",")
            elif k == "raise_cap":
                kw["raise_cap"] = num(k, v, int)
            elif k == "target":
                kw["target_pct"] = num(k, v, float)
            elif k == "threads":
                kw["threads"] = num(k, v, int)
            elif k == "iters":
                kw["iterations"] = num(k, v, int)
            elif k == "memory":
                kw["max_memory"] = num(k, v, float)
            elif k == "floor":
                kw["floor"] = num(k, v, float)
            elif k == "learn":
                kw["learn"] = num(k, v, int)
            elif k == "tilt_obs":
                kw["tilt_obs"] = num(k, v, int)
            elif k in ("depth", "runouts"):
                kw[k] = num(k, v, int)
            elif k == "bias":
                kw["bias"] = num(k, v, float)
            elif k == "tilt_lock":
                kw["tilt_lock"] = num(k, v, float)
            elif k == "gadget":
                kw["gadget"] = v.lower()
            elif k == "base":
                base = v
            else:
                raise AgentError(f"unknown search option {k!r}; known: ms, street, safe, bets, raises, "
                                 "river_bets, raise_cap, target, threads, iters, memory, floor, gadget, "
                                 "model, lock, learn, tilt, tilt_obs, tilt_lock, depth, runouts, bias, "
                                 "anchor, verify, base")
    return SearchConfig(**kw), base or "blueprint"


@dataclass
class _Solve:
    solver: Any
    searcher: int
    street: int
    n_events: int  # view events at the solve's root
    stack: int  # chips behind at the start of the solve's street (effective)
    key: tuple[Any, ...] = ()  # the public state at the root (_public_key)


@dataclass
class SearchStats:
    think_ms: list[float] = field(default_factory=list)
    searches: int = 0
    fallbacks: int = 0
    nested: int = 0
    safe_solves: int = 0
    iterations: int = 0
    coarser: int = 0
    blueprint_gadgets: int = 0
    locked_nodes: int = 0
    model_refits: int = 0
    depth_limited: int = 0
    street_solves: int = 0
    reasons: dict[str, int] = field(default_factory=dict)


class SearchAgent:
    """Real-time search over a base policy agent (see the module docstring)."""

    def __init__(self, base: Any, config: SearchConfig | None = None, *, name: str = "search",
                 seed: int = 0, model: Any = None) -> None:
        self.base = base
        self.model = base if model is None else model
        """The opponent model: its range is tracked through it, and with ``lock`` its
        subgame decisions are fixed to it (the base policy unless a ``model`` is given)."""
        self.config = config if config is not None else SearchConfig()
        self.name = name
        self.tree = self.config.tree()
        from pokerlab.subgame.tree import tree_config

        self.ladder = (self.tree,
                       tree_config(bets="75%", raises="2.5x", river_bets="50%,100%", raise_cap=2),
                       tree_config(bets="75%", raises="none", raise_cap=1))
        """Trees from the configured one to coarser ones, used when a spot is too big for
        the budget (:meth:`_fit`)."""
        self.rate = RATE_S_PER_BYTE
        self.leaf_cost = dict(LEAF_COST)
        """Depth-limited search: per spot street (0 flop, 1 turn), seconds per leaf to build
        its continuation and to evaluate it once (both players), refined by each search."""
        _warm_up()
        self.tilt_model: Any = None
        if self.config.tilt:
            from pokerlab.agents.tilt_model import TiltModel

            lock_theta = self.config.tilt_lock if self.config.tilt_lock > 0 else 50.0
            self.tilt_model = TiltModel(self.model, min_obs=self.config.tilt_obs, lock_theta=lock_theta)
        self.beliefs = HoldemBeliefs(base, opponent_model=self.tilt_model if self.tilt_model is not None
                                     else None if model is None else model)
        self.stats = SearchStats()
        self.rng = SplitMix64(seed)
        self._prev: _Solve | None = None
        self._solves: dict[tuple[Any, ...], _Solve] = {}
        """This hand's solves by the public state at their root (its own decisions and
        street starts): what a later decision nests in, whatever asked for them (its own
        play or a range query)."""
        self._cache: tuple[tuple[Any, ...], tuple[Any, int]] | None = None
        self.last_error = ""

    def reset(self, seed: int) -> None:
        self.rng = SplitMix64(seed ^ 0x5EA2C4)
        self.base.reset(seed)
        if self.model is not self.base:
            self.model.reset(seed ^ 0x0DE1)
        self.beliefs.reset()
        self._prev = None
        self._solves = {}
        self._cache = None

    def counters(self) -> dict[str, Any]:
        """Per-agent figures a match reports: think time percentiles and counts."""
        t = np.asarray(self.stats.think_ms, dtype=np.float64)
        out: dict[str, Any] = {"search_decisions": self.stats.searches + self.stats.fallbacks,
                               "think_ms_count": int(t.size), "think_ms_sum": float(t.sum())}
        out.update(histogram(t))  # summed over worker processes; percentiles from the sums
        out.update({"searches": self.stats.searches, "fallbacks": self.stats.fallbacks,
                "nested_solves": self.stats.nested, "safe_solves": self.stats.safe_solves,
                "coarser_trees": self.stats.coarser, "blueprint_gadgets": self.stats.blueprint_gadgets,
                "iterations": self.stats.iterations, "locked_nodes": self.stats.locked_nodes,
                "depth_limited": self.stats.depth_limited, "street_solves": self.stats.street_solves})
        if self.config.learn:
            out["model_refits"] = self.stats.model_refits
        return out

    # ---------------------------------------------------------------------- play
    def act(self, view: PlayerView) -> Action:
        if view.street < self.config.street or view.street > 3:
            return self.base.act(view)
        t0 = time.perf_counter()
        self.last_error = ""
        try:
            action = self._search(view, t0 + self.config.ms / 1000.0)
        except PokerlabError as exc:  # a search that cannot run plays the base policy
            self.last_error = str(exc)
            action = None
        if action is None:
            self.stats.fallbacks += 1
            key = self.last_error or "no subgame fits the budget"
            self.stats.reasons[key] = self.stats.reasons.get(key, 0) + 1
            self._prev = None
            action = self.base.act(view)
        self.stats.think_ms.append(1000.0 * (time.perf_counter() - t0))
        return action

    def _opponent_model(self) -> Any:
        """What the opponent's range is tracked through and ``lock=1`` locks to: the tilt
        model when learning frequencies (``tilt``), else the model (or the base)."""
        return self.tilt_model if self.tilt_model is not None else self.model

    def _street_start(self, view: PlayerView) -> tuple[int, int]:
        """(pot, effective stack) at the start of the current street."""
        pot = int(view.pot - view.bets[0] - view.bets[1])
        stack = int(min(view.stacks[0] + view.bets[0], view.stacks[1] + view.bets[1]))
        return pot, stack

    def _root(self, view: PlayerView, to_act: int | None = None) -> Any:
        from pokerlab.subgame.tree import Root

        per = view.street_action_events()
        bets = [0, 0]
        prev = 0
        aggr = 0
        acted = 0
        for e in per[view.street]:
            if isinstance(e, RaisedTo):
                prev = bets[1 - e.player]
                bets[e.player] = int(e.raise_to)
                aggr += 1
            elif isinstance(e, CheckedOrCalled):
                bets[e.player] = max(bets)
            acted += 1
        last = per[view.street - 1][-1] if per[view.street - 1] else None
        donk = bool(isinstance(last, CheckedOrCalled) and last.player == 0 and last.amount > 0)
        if tuple(bets) != tuple(view.bets):
            raise AgentError(f"search: street bets {bets} do not match the view's {view.bets}")
        return Root(to_act=view.player if to_act is None else int(to_act), bets=(bets[0], bets[1]),
                    prev_level=prev, aggressions=aggr, acted=acted, donk_ok=donk)

    def _trusted(self, street: int) -> bool:
        """Whether the learned model has seen enough of the opponent on ``street`` (0
        preflop .. 3 river) to be played against unsafely (``verify``): at least
        ``tilt_obs`` of its decisions there with nothing to call and as many facing a bet,
        or four times as many of each over all streets (the model's tilt of a street then
        leans on the others', :meth:`~pokerlab.agents.tilt_model.TiltModel.refit`).
        Without a learned model (``tilt=0``) the search trusts its model always."""
        tm = self.tilt_model
        if tm is None or not self.config.verify:
            return True
        n, m = tm.counts, tm.min_obs
        own = n[3 * street] >= m and n[3 * street + 1] >= m
        pooled = tm.level_count(0) >= 4 * m and tm.level_count(1) >= 4 * m
        return bool(own or pooled)

    def _anchor(self, view: PlayerView, deadline: float, mine: int | None,
                street_start: bool = True) -> _Solve | None:
        """The solve of this hand that ``view`` nests in: the one at the searcher's last
        decision on this street (whoever asked for it: its play or a range query); else an
        earlier street's solve whose tree covers this street; else, when the opponent has
        acted on this street before the searcher (``anchor``), a solve of the whole street
        from its start (Pluribus: the opponent's actions there are read in a solved
        strategy, not through the model); else ``None``."""
        me = view.player
        ev = view.events
        start = max((i + 1 for i, e in enumerate(ev) if isinstance(e, BoardDealt)), default=0)
        own = [i for i, e in enumerate(ev)
               if i >= start and isinstance(e, (Folded, CheckedOrCalled, RaisedTo)) and e.player == me]
        if own:
            got = self._solves.get(_public_key(view, own[-1]))
            if got is not None:
                return got
        prev = self._prev
        if prev is not None and prev.searcher == me and prev.street < view.street and \
                prev.n_events <= len(ev) and prev.key == _public_key(view, prev.n_events):
            return prev
        acted = any(isinstance(e, (Folded, CheckedOrCalled, RaisedTo)) for e in ev[start:])
        if street_start and self.config.anchor and acted and not own and start > 0:
            got = self._solves.get(_public_key(view, start))
            if got is None:
                got = self._street_solve(view, start, deadline, mine)
            return got
        return None

    def _street_solve(self, view: PlayerView, start: int, deadline: float, mine: int | None) -> _Solve | None:
        """A solve of the current street from its start (events ``[:start]``), for the
        searcher ``view.player``; half the time left."""
        from pokerlab.holdem.engine import HoldemState
        from pokerlab.holdem.events import HoleDealt
        from pokerlab.holdem.view import make_view

        st = HoldemState(config=view.config)
        for p in (0, 1):
            st.deal_hole(list(view.hole) if p == view.player else None)
        for e in view.events[:start]:
            if isinstance(e, BoardDealt):
                st.deal_board(list(e.cards))
            elif isinstance(e, (Folded, CheckedOrCalled, RaisedTo)):
                from pokerlab.holdem.events import event_to_action

                st.apply(event_to_action(e))
            elif not isinstance(e, HoleDealt):
                continue
        v0 = make_view(st, view.player)
        now = time.perf_counter()
        got = self._solve(v0, now + 0.5 * max(deadline - now, 0.0), mine, root_actor=int(st.actor),
                          nest=False)
        if got is None:
            return None
        self.stats.street_solves += 1
        solve = _Solve(solver=got[0], searcher=view.player, street=view.street, n_events=start,
                       stack=got[1], key=_public_key(view, start))
        self._solves[solve.key] = solve
        return solve

    def _nested(self, view: PlayerView, prev: _Solve | None, safe: bool) -> tuple[np.ndarray, np.ndarray,
                                                                                 np.ndarray | None,
                                                                                 np.ndarray | None] | None:
        """Ranges (and, when safe, the gadget's values and the opponent's prior) at ``view``
        from the solve ``prev`` of this hand (:meth:`_anchor`); ``None`` when its tree
        cannot follow."""
        from pokerlab.subgame.resolve import counterfactual_values, node_reach
        from pokerlab.subgame.tree import CHANCE, DECISION

        if prev is None or prev.searcher != view.player:
            return None
        s = prev.solver
        tr = s.tree
        node = 0
        tokens: list[str] = []
        for e in view.events[prev.n_events:]:
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
        _, r0, r1 = node_reach(s, tokens)
        if not safe:
            return r0, r1, None, None
        opp = 1 - view.player
        cbv = counterfactual_values(s, tokens, opp, best_response=True)
        prior = np.asarray(s.spot.ranges[opp], dtype=np.float64).copy()
        # values count chips from the solve's street start: re-base them on this street's
        pot, stack = self._street_start(view)
        paid = prev.stack - stack
        if paid:
            ours = r0 if view.player == 0 else r1
            cbv = cbv + paid * compatible_mass(ours) * (prior > 0)
        return r0, r1, cbv, prior

    def _fit(self, spot: Any, budget: float) -> Any:
        """``spot`` with the richest tree of the ladder whose iteration is predicted to take
        at most 1/:data:`MIN_ITERATIONS` of the ``budget`` (seconds) and whose memory fits;
        ``None`` when none does."""
        import dataclasses

        from pokerlab.subgame.solver import estimate_size

        for tree in self.ladder:
            cand = dataclasses.replace(spot, tree=tree)
            size = estimate_size(cand, isomorphism=False)
            if size.memory_bytes <= self.config.max_memory and \
                    self.rate * size.memory_bytes * MIN_ITERATIONS <= budget:
                if tree is not self.ladder[0]:
                    self.stats.coarser += 1
                return cand
        return None

    def _fit_limited(self, spot: Any, budget: float) -> Any:
        """A depth-limited ``spot`` with the richest tree of the ladder whose leaves are
        predicted to be built and evaluated twice within 70% of the ``budget`` (seconds;
        per leaf costs of the street, refined by each search); ``None`` when none is."""
        import dataclasses

        from pokerlab.subgame.tree import build_betting_tree

        build, evaluate = self.leaf_cost[int(spot.street)]
        for tree in self.ladder:
            cand = dataclasses.replace(spot, tree=tree)
            leaves = build_betting_tree(cand, depth_limited=True).leaf
            n = int(leaves.sum()) if leaves is not None else 0
            if n * (build + 2.0 * evaluate) <= 0.7 * budget:
                if tree is not self.ladder[0]:
                    self.stats.coarser += 1
                return cand
        return None

    def _search(self, view: PlayerView, deadline: float) -> Action | None:
        me = view.player
        mine = int(COMBO_INDEX[view.hole[0], view.hole[1]])
        key = _public_key(view)
        cached = self._cache if self._cache is not None and self._cache[0] == key else None
        got = cached[1] if cached is not None else self._solve(view, deadline, mine)
        self._cache = None
        if got is None:
            return None
        solver, stack = got
        names = solver.action_names(0)
        hands = solver.deal.combos[me]
        at = np.nonzero(hands == mine)[0]
        if at.size == 0:
            raise AgentError("search: its own hand is outside its range")
        sigma = solver._avg_at(0, 0)[:, int(at[0])]
        if not np.all(np.isfinite(sigma)) or sigma.sum() <= 0:
            raise AgentError("search: no strategy for its own hand")
        u = to_unit(self.rng.next()) * float(sigma.sum())
        k = int(np.searchsorted(np.cumsum(sigma), u, side="right"))
        k = min(k, len(names) - 1)
        amount = solver.tree.action_amounts[0][k]
        # its own range follows what it played: this action's probability for every hand
        lik = np.zeros(1326)
        lik[hands] = solver._avg_at(0, 0)[k]
        self.beliefs.record(len(view.events), lik)
        self._cache = (key, got)  # a range query at this same public state reads this solve
        self._prev = self._keep(view, got)
        return real_action(view, names[k], amount)

    def _keep(self, view: PlayerView, got: tuple[Any, int]) -> _Solve:
        """Record the solve ``got`` made at the searcher's decision ``view`` (what later
        decisions of the hand nest in)."""
        solve = _Solve(solver=got[0], searcher=view.player, street=view.street,
                       n_events=len(view.events), stack=got[1], key=_public_key(view))
        self._solves[solve.key] = solve
        return solve

    # ------------------------------------------------------------- range queries
    def action_probabilities_all_hands(self, view: PlayerView) -> tuple[list[Action], np.ndarray]:
        """The strategy of every combo at ``view`` (what LBR and range trackers ask): the
        base policy's before the start street, else the re-solved subgame's at its root
        (combos outside the searcher's range check or call).  The solve is kept, so the
        agent's next ``act`` at the same public state plays from it."""
        from pokerlab.evaluation.lbr import all_hands_probabilities
        from pokerlab.subgame.resolve import all_hands

        live = all_hands(view.board) > 0
        if view.street < self.config.street or view.street > 3:
            return all_hands_probabilities(self.base, view, live)
        key = _public_key(view)
        got: tuple[Any, int] | None
        if self._cache is not None and self._cache[0] == key:
            got = self._cache[1]  # this public state's solve (a query after act, or twice)
        else:
            t0 = time.perf_counter()
            try:
                got = self._solve(view, t0 + self.config.ms / 1000.0, None)
            except PokerlabError as exc:
                self.last_error = str(exc)
                got = None
            if got is None:
                self.stats.fallbacks += 1
                return all_hands_probabilities(self.base, view, live)
            self._cache = (key, got)
            self._keep(view, got)
            self.stats.think_ms.append(1000.0 * (time.perf_counter() - t0))
        assert got is not None
        solver = got[0]
        acts: list[Action] = []
        col: list[int] = []
        for name, amount in zip(solver.action_names(0), solver.tree.action_amounts[0], strict=True):
            a = real_action(view, name, amount)
            if a not in acts:
                acts.append(a)
            col.append(acts.index(a))
        call = Action(kind=ActionKind.CHECK_CALL)
        if call not in acts:
            acts.append(call)
        probs = np.zeros((1326, len(acts)))
        probs[:, acts.index(call)] = 1.0
        sigma = solver._avg_at(0, 0)
        hands = solver.deal.combos[view.player]
        probs[hands] = 0.0
        for k, c in enumerate(col):
            probs[hands, c] += sigma[k]
        return acts, probs

    def action_probabilities(self, view: PlayerView) -> list[tuple[Action, float]]:
        """This hand's strategy at ``view`` (one solve, kept for ``act``)."""
        acts, probs = self.action_probabilities_all_hands(view)
        row = probs[int(COMBO_INDEX[view.hole[0], view.hole[1]])]
        return [(a, float(p)) for a, p in zip(acts, row, strict=True) if p > 0]

    def _blueprint_values(self, view: PlayerView, spot: Any, deadline: float) -> np.ndarray | None:
        """The opponent's best-response counterfactual values at the root of ``spot`` (a
        river subgame starting at ``view``) against the base policy's play of every
        searcher decision in it (range queries at the real states the subgame's actions
        lead to, each base action read as the subgame's nearest); with ``gadget=bp`` its
        values when the base policy plays both sides' decisions; ``None`` past
        ``deadline`` or when the base policy cannot be followed."""
        from pokerlab.subgame.resolve import counterfactual_values
        from pokerlab.subgame.solver import SolveConfig, SpotSolver

        me = view.player
        estimate = self.config.gadget == "bp"
        solver = SpotSolver(spot, SolveConfig(isomorphism=False), threads=self.config.threads)
        for q in ((me, 1 - me) if estimate else (me,)):
            if self._lock_player(solver, view, q, self.base, deadline) is None:
                return None
        # gadget=br: the opponent's best response to the blueprint's play (safe); gadget=bp:
        # its value when both play the blueprint (Libratus' estimate: not a bound, but the
        # searcher must then do better than the blueprint against each opponent hand)
        return counterfactual_values(solver, (), 1 - me, best_response=not estimate)

    def _lock_player(self, solver: Any, view: PlayerView, q: int, agent: Any,
                     deadline: float, situations: Any = None) -> int | None:
        """Fix every decision of player ``q`` in ``solver``'s subgame (rooted at ``view``) to
        ``agent``'s strategy: a range query at the real state each path of subgame actions
        leads to, each of the agent's actions read as the subgame's nearest
        (:func:`_subgame_column`); with ``situations`` (a set of
        :func:`~pokerlab.agents.tilt_model.situation` classes) only the decisions of those
        classes.  Returns the number of nodes locked, ``None`` past ``deadline`` (never
        with ``iters=N``: then play does not depend on the clock)."""
        from pokerlab.agents.beliefs import _with_some_hole
        from pokerlab.agents.tilt_model import situation
        from pokerlab.evaluation.lbr import all_hands_probabilities
        from pokerlab.holdem.view import make_view
        from pokerlab.subgame.resolve import decision_paths

        tr = solver.tree
        live = np.asarray(solver.spot.ranges[q]) > 0
        n = 0
        for path in decision_paths(solver, q):
            if not self.config.iterations and time.perf_counter() > deadline:
                return None
            st = view.replay_state()
            node = 0
            for name in path:
                a = tr.action_names[node].index(name)
                st.apply(real_action(make_view(st, int(st.actor)), name, tr.action_amounts[node][a]))
                node = tr.child(node, a)
            if situations is not None and situation(st.street, st.to_call, st.num_raises) not in situations:
                continue
            acts, probs = all_hands_probabilities(agent, _with_some_hole(make_view(st, q)), live)
            names, amounts = tr.action_names[node], tr.action_amounts[node]
            strat = np.zeros((len(names), 1326))
            for c, act in enumerate(acts):
                strat[_subgame_column(names, amounts, act)] += probs[:, c]
            tot = strat.sum(axis=0)
            mask = live & (tot > 0)
            strat[:, mask] /= tot[mask]
            strat[:, ~mask] = 1.0 / len(names)
            solver.lock(list(path), strat, mask)
            n += 1
        return n

    def _solve(self, view: PlayerView, deadline: float, mine: int | None, *,
               root_actor: int | None = None, nest: bool = True) -> tuple[Any, int] | None:
        """The solved subgame at ``view`` (for the searcher ``view.player``; rooted at a
        decision of ``root_actor``, default the searcher) and the street-start stack, or
        ``None`` when no subgame fits the budget.  ``mine``: the searcher's combo (kept in
        its range); ``nest``: ranges from the solve :meth:`_anchor` finds, when one does."""
        from pokerlab.subgame.resolve import subgame_spot
        from pokerlab.subgame.solver import SolveConfig, SpotSolver
        from pokerlab.subgame.tree import make_spot

        cfg = self.config
        me = view.player
        opp = 1 - me
        # safe: always with safe=1; with verify, until the learned model has seen enough
        # of the opponent on this street (then its ranges are trusted, its deviations locked)
        limited = cfg.depth == 1 and len(view.board) < 5
        safe = bool(cfg.safe) or (not self._trusted(view.street) and not cfg.lock and not limited)
        nested = self._nested(view, self._anchor(view, deadline, mine, street_start=safe), safe) \
            if nest else None
        cbv = prior = None
        if nested is not None:
            r0, r1, cbv, prior = nested
            self.stats.nested += 1
        else:
            r = self.beliefs.update(view)
            r0, r1 = r[0], r[1]
        keep = -1 if mine is None else mine
        r0, r1 = _pruned(r0, keep if me == 0 else -1), _pruned(r1, keep if me == 1 else -1)
        if cfg.floor > 0 and (nested is None or not safe):
            if opp == 0:
                r0 = _floored(r0, cfg.floor, view.board)
            else:
                r1 = _floored(r1, cfg.floor, view.board)
        ours = r0 if me == 0 else r1
        if mine is not None and ours[mine] <= 0:
            raise AgentError("search: its own hand is outside its range")
        scale = [float(r0.max()), float(r1.max())]
        if min(scale) <= 0:
            raise AgentError("search: a range is empty")
        pot, stack = self._street_start(view)
        root = self._root(view, root_actor)
        base = make_spot(board=tuple(view.board), pot=pot, stack=stack, oop=np.clip(r0 / scale[0], 0, 1),
                         ip=np.clip(r1 / scale[1], 0, 1), tree=self.tree, big_blind=view.big_blind,
                         root=root)
        if cbv is not None and prior is not None:
            # the searcher's range is scaled by 1/scale: so are the opponent's values
            cbv = cbv / scale[me]
            reach = (r0 / scale[0], r1 / scale[1])
            spot = subgame_spot(base, root, me, reach, safe=True, prior=prior)
        else:
            spot = base
        if not cfg.iterations:
            left = BUILD_SHARE * (deadline - time.perf_counter())
            spot = self._fit_limited(spot, left) if limited else self._fit(spot, left)
            if spot is None:
                return None
        if cbv is None and safe and len(view.board) == 5 and root_actor is None:
            # the first search of the hand, on the river: the opponent may take its
            # best-response value against the blueprint's play of this subgame
            bp = self._blueprint_values(view, spot, deadline)
            if bp is not None:
                cbv = bp
                prior = np.asarray(spot.ranges[opp], dtype=np.float64).copy()
                spot = subgame_spot(spot, root, me, (spot.ranges[0], spot.ranges[1]), safe=True, prior=prior)
                self.stats.blueprint_gadgets += 1
        solver = SpotSolver(spot, SolveConfig(isomorphism=False), max_memory=cfg.max_memory,
                            threads=cfg.threads, depth_limited=limited)
        mem = float(solver.size.memory_bytes)
        leaves: Any = None
        if limited:
            # Modicum: leaves at the street's end, valued by the base policy's continuation
            # with the opponent choosing among its biased versions
            from pokerlab.agents.leaves import build_leaves

            t_build = time.perf_counter()
            leaves = build_leaves(solver, self.base, view, chooser=opp, runouts=cfg.runouts,
                                  seed=int(self.rng.next() >> 1), bias=cfg.bias)
            solver.set_leaf_model(leaves)
            self.stats.depth_limited += 1
            n_leaves = len(solver.leaf_nodes)
            b_old, e_old = self.leaf_cost[int(spot.street)]
            per_build = (time.perf_counter() - t_build) / max(n_leaves, 1)
            self.leaf_cost[int(spot.street)] = (0.8 * b_old + 0.2 * per_build, e_old)
            if not cfg.iterations and time.perf_counter() + n_leaves * e_old >= deadline:
                return None
        if cbv is not None:
            solver.set_gadget(opp, cbv)
            self.stats.safe_solves += 1
        locked = 0
        if cfg.lock:
            got_locks = self._lock_player(solver, view, opp, self._opponent_model(), deadline)
            if got_locks is None:
                return None
            locked = got_locks
        elif cfg.auto_lock and self.tilt_model is not None and not safe:
            sure = {c for c in range(self.tilt_model.theta.shape[0]) if self.tilt_model.confident(c)}
            if sure:
                got_locks = self._lock_player(solver, view, opp, self.tilt_model, deadline, sure)
                if got_locks is None:
                    return None
                locked = got_locks
        self.stats.locked_nodes += locked
        per_iter = 0.0  # the slowest recent iteration (seconds), what the deadline is kept by
        steady = 0.0  # seconds of the iterations after the first (the first may load kernels)
        next_refresh = 1  # depth-limited: the leaves' exact values before iterations 1, 2, 4, ...
        refresh_cost = 0.0
        while True:
            now = time.perf_counter()
            if cfg.iterations:
                if solver.iteration >= cfg.iterations:
                    break
            elif solver.iteration > 0 and now + per_iter > deadline:
                break
            elif solver.iteration == 0 and now >= deadline:
                return None
            fresh = leaves is not None and solver.iteration + 1 >= next_refresh and (
                cfg.iterations or solver.iteration == 0 or now + refresh_cost + per_iter <= deadline)
            if fresh:
                leaves.refresh()
                next_refresh = 2 * (solver.iteration + 1)
            solver.step()
            took = time.perf_counter() - now
            if fresh:
                refresh_cost = took
                if leaves is not None and solver.leaf_nodes:
                    b_old, e_old = self.leaf_cost[int(spot.street)]
                    per_eval = took / len(solver.leaf_nodes)
                    self.leaf_cost[int(spot.street)] = (b_old, 0.8 * e_old + 0.2 * per_eval)
            else:
                per_iter = max(per_iter * 0.5, took)
            if solver.iteration > 1:
                steady += took
            capped = (LOCKED_ITERATIONS if locked or cbv is not None
                      else LIMITED_ITERATIONS if limited else 0)
            if not cfg.iterations and capped and solver.iteration >= capped:
                break  # no exploitability to stop by: a locked, safe or depth-limited solve stops here
            stoppable = cbv is None and not cfg.iterations and not locked and not limited
            if solver.iteration % 50 == 0 and stoppable:
                if solver.exploitability()[1] <= cfg.target_pct:
                    break
        if root_actor is None:  # a decision's solve (a street's start is counted apart)
            self.stats.searches += 1
            self.stats.iterations += solver.iteration
        if solver.iteration > 2 and mem > 0 and not limited:
            obs = steady / (solver.iteration - 1) / mem
            obs = min(max(obs, 0.25 * RATE_S_PER_BYTE), 8 * RATE_S_PER_BYTE)
            self.rate = 0.8 * self.rate + 0.2 * obs
        return solver, stack


def _subgame_column(names: list[str], amounts: list[int], action: Action) -> int:
    """The subgame action a real action of the base policy maps to (a raise: the nearest
    size in log scale; a fold where none is offered: check)."""
    kinds = [nm.split(" ")[0] for nm in names]
    if action.kind == ActionKind.FOLD and "fold" in kinds:
        return kinds.index("fold")
    raises = [k for k, kd in enumerate(kinds) if kd in ("bet", "raise", "allin")]
    if action.kind == ActionKind.RAISE and raises:
        x = math.log(max(int(action.amount), 1))
        return min(raises, key=lambda k: abs(math.log(max(amounts[k], 1)) - x))
    for want in ("check", "call"):
        if want in kinds:
            return kinds.index(want)
    return 0


def _public_key(view: PlayerView, n_events: int | None = None) -> tuple[Any, ...]:
    """The searcher and the public events of ``view`` (its first ``n_events`` events)."""
    from pokerlab.holdem.events import HoleDealt

    ev = view.events if n_events is None else view.events[:n_events]
    return (view.player, tuple(e for e in ev if not isinstance(e, HoleDealt)))


_WARM = False


def _warm_up() -> None:
    """Load the solver's kernels once per process (a tiny river solve), so the first
    decision's think time is spent thinking."""
    global _WARM
    if _WARM:
        return
    from pokerlab.subgame.resolve import counterfactual_values
    from pokerlab.subgame.solver import SolveConfig, SpotSolver, estimate_size
    from pokerlab.subgame.tree import Root, make_spot, tree_config

    spot = make_spot(board="AhKd7c4s2h", pot=10, stack=20, oop="AA,KK,QQ", ip="AK,JJ", tree=tree_config(),
                     root=Root(to_act=1, acted=1))
    estimate_size(spot, isomorphism=False)
    s = SpotSolver(spot, SolveConfig(isomorphism=False), threads=1)
    s.set_gadget(0, np.ones(1326))
    s.step()
    counterfactual_values(s, (), 0)
    spot = make_spot(board="AhKd7c4s", pot=10, stack=20, oop="AA", ip="KK", tree=tree_config())
    SpotSolver(spot, SolveConfig(isomorphism=False), threads=1).step()
    _WARM = True


def _pruned(r: np.ndarray, keep: int) -> np.ndarray:
    out = np.where(r >= PRUNE * float(r.max()), r, 0.0)
    if keep >= 0:
        out[keep] = r[keep]
    return out


def _floored(r: np.ndarray, floor: float, board: Any) -> np.ndarray:
    """``r`` with every combo that misses the board raised to ``floor`` times its largest
    weight (the opponent's modelled range: see ``SearchConfig.floor``)."""
    from pokerlab.cards.cards import combos_blocked_by

    top = float(r.max())
    if top <= 0:
        return r
    return np.where(combos_blocked_by(board), 0.0, np.maximum(r, floor * top))


def make_search_agent(spec: str, *, build: Any, config: Any = None, seed: int = 0) -> SearchAgent:
    """The agent of a ``search`` spec; ``build(spec, ...)`` makes its base agent."""
    cfg, base_spec = parse_search_spec(spec)
    if base_spec.lower().startswith("search"):
        raise AgentError("search: the base agent cannot itself search")
    base = build(base_spec, game="hunl", config=config, seed=seed)
    if not hasattr(base, "action_probabilities") and not hasattr(base, "action_probabilities_all_hands"):
        raise AgentError(f"search: base agent {base_spec!r} does not say how it plays each hand "
                         "(it needs action probabilities to track ranges)")
    model = None
    if cfg.model:
        model = build(cfg.model, game="hunl", config=config, seed=seed ^ 0x0DE1)
        if not hasattr(model, "action_probabilities") and \
                not hasattr(model, "action_probabilities_all_hands"):
            raise AgentError(f"search: opponent model {cfg.model!r} does not say how it plays "
                             "each hand (it needs action probabilities to track a range)")
    if cfg.learn:
        return LearningSearchAgent(base, cfg, name=spec.strip(), seed=seed, model=model)
    if cfg.tilt:
        return TiltSearchAgent(base, cfg, name=spec.strip(), seed=seed, model=model)
    return SearchAgent(base, cfg, name=spec.strip(), seed=seed, model=model)


class TiltSearchAgent(SearchAgent):
    """``search`` (``tilt=1``, the default): the search agent with the frequency model
    :class:`~pokerlab.agents.tilt_model.TiltModel` learned in the match.  After every hand
    (``observe``) the opponent's decisions are counted per situation and the tilt refitted;
    the opponent's range is tracked through the tilted model and, unless ``tilt_lock=0``
    or ``safe=1``, its confident situations are locked to it in every subgame.  A match
    starts from the base again (``start_match``); until the opponent has deviated from the
    base, it plays as :class:`SearchAgent` does (the tilt is 0 exactly when nothing is
    observed)."""

    def start_match(self) -> None:
        """Forget the opponent: the model is the base (or ``model=``) again."""
        self.tilt_model.start_match()

    def kernel_side(self) -> None:
        """No match fast path: the agent learns between hands."""
        return None

    def observe(self, state: Any, player: int) -> None:
        """The end of a hand (``state`` finished, this agent in seat ``player``): count the
        opponent's decisions, and refit the tilt when one is due (every 5 hands at first,
        then less often: :meth:`~pokerlab.agents.tilt_model.TiltModel.due`)."""
        self.tilt_model.observe_hand(state, 1 - int(player))
        if self.tilt_model.due():
            self.tilt_model.refit()
            self.stats.model_refits += 1

    def counters(self) -> dict[str, Any]:
        out = super().counters()
        out["model_refits"] = self.stats.model_refits
        return out


LEARN_STRENGTH = 1.0
"""Prior strength (pseudo-observations per node and bucket) of the learned opponent model,
as ``pokerlab opponent model`` (docs/exploitation.md)."""


class LearningSearchAgent(SearchAgent):
    """``search(learn=N,...)``: the search agent with an opponent model learned during the
    match.  The opponent's actions of every finished hand are counted in the prior's tree
    (:func:`~pokerlab.agents.adapt_hunl.observe_hand`: the real actions through the one
    action map, hole cards where they were shown); every ``N`` hands the model becomes the
    Dirichlet posterior mean around the prior (the ``model=`` policy, else the base policy;
    :func:`~pokerlab.agents.adapt_hunl.posterior`, strength :data:`LEARN_STRENGTH`), and the
    ranges (and with ``lock=1`` the opponent's locked subgame decisions) follow it.  A
    match starts from the prior again (``start_match``); until the first refit it plays as
    :class:`SearchAgent` does."""

    def __init__(self, base: Any, config: SearchConfig, *, name: str = "search",
                 seed: int = 0, model: Any = None) -> None:
        super().__init__(base, config, name=name, seed=seed, model=model)
        prior = self.model
        if not getattr(prior, "indexed", False) or \
                getattr(getattr(prior, "policy", None), "storage", "dense") != "dense":
            raise AgentError(f"search: learn={config.learn} needs an opponent model over a "
                             "dense indexed (blueprint) policy to learn into; "
                             f"{getattr(prior, 'name', prior)!r} is not one")
        self.prior = prior
        self._initial = (self.model, self.beliefs.opponent_model)
        self.start_match()

    def start_match(self) -> None:
        """Forget the opponent: the model is the prior again."""
        from pokerlab.agents.adapt_hunl import HUNLObservations

        self.obs = HUNLObservations.empty("opponent", self.prior)
        self.hands = 0
        self.model, self.beliefs.opponent_model = self._initial

    def kernel_side(self) -> None:
        """No match fast path: the agent learns between hands."""
        return None

    def observe(self, state: Any, player: int) -> None:
        """The end of a hand (``state`` finished, this agent in seat ``player``): count
        the opponent's actions and refit the model when ``learn`` hands have passed."""
        from pokerlab.agents.adapt_hunl import observe_opponent

        observe_opponent(self.obs, self.prior, state, player)
        self.hands += 1
        if self.hands % self.config.learn == 0:
            self.refit()

    def refit(self) -> None:
        """The model becomes the posterior of the counts so far (a copy of the prior's
        agent with its own policy; the prior is never changed)."""
        import copy

        from pokerlab.agents.adapt_hunl import posterior, with_policy

        pol = copy.copy(self.prior.policy)
        pol.probs = np.ascontiguousarray(posterior(self.prior, self.obs, LEARN_STRENGTH),
                                         dtype=np.float32)
        self.model = with_policy(self.prior, pol, f"{getattr(self.prior, 'name', 'model')}-learned")
        self.beliefs.opponent_model = self.model
        self.stats.model_refits += 1
