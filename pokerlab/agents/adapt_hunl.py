"""The adaptive agent on heads-up no-limit hold'em: ``adapt`` over a blueprint.

Specs (:func:`parse_hunl_spec`): ``adapt`` (the shipped blueprint for the match's stack),
``adapt:POLICY`` (``POLICY``: ``blueprint``, ``blueprint-N`` or ``policy:PATH`` of a dense
indexed blueprint policy), ``adapt(base=POLICY,strength=S,refit=N,p=P,iterations=K,eps=X,
slice=C,spread=even|prior,warm=W)``.  See docs/exploitation.md ("The adaptive agent on
HUNL").

**Play.**  The agent plays its base policy (a
:class:`~pokerlab.agents.policy_agent.HUNLPolicyAgent`, exactly: same seeds, same actions)
until it has a response, then, hand by hand, the response's policy agent (same betting
tree, card buckets and action translation) while its safety budget allows, else the base.

**What it sees.**  After each hand (the ``end_hand(view)`` call that matches, the league
and the play tables make at the end of every hand; ``start_match()`` when a run of hands
starts) what its seat saw: :func:`pokerlab.holdem.view.final_view`, the hand's typed
events, its result, and the opponent's cards only when a ``Shown`` event shows them (a
showdown or an all-in run-out; ``view.opponent_hole``), never after a fold or a muck.

**The model** (:func:`observe_hand`, the one function that also reads hand histories in
:func:`pokerlab.opponents.hunl_model.observe_histories`): every opponent action is
translated to the base's betting tree by the one ``ActionMap`` and counted per (tree node,
card bucket) when its cards were shown, per node when not; the model is the Dirichlet
posterior :func:`posterior` (strength ``s`` pseudo-observations toward the base policy,
node counts spread evenly over the node's buckets, or with ``spread=prior`` by Bayes with
the base as the likelihood).

**The response** is recomputed after ``refit``, ``2 refit``, ``4 refit``, ... hands (the
interval capped at ``16 refit``): a blueprint MCCFR run from scratch with the base
policy's configuration and every opponent row locked to the model with weight ``p``
(:func:`pokerlab.opponents.hunl_model.adapt_trainer`, ``locked_trainer`` of a model in
memory), ``iterations`` iterations run ``slice`` at a time, one slice at the end of each
hand (so no hand end waits for more than one slice); the agent switches to the new policy
when the run is complete.  ``warm=W > 0`` starts the run at the base instead of from
scratch (regrets and average-strategy sums proportional to the base's probabilities).
Each run's seed comes from the seed of the hand that started it and the run's number, so
a match is reproducible from its seed.  The trainer is an application above this layer:
the agent is handed it (``responder=``) by the registry (:mod:`pokerlab.registry`, the
composition root); it names no module.

**Safety** ("risk what you've won", Ganzfried & Sandholm 2015, on *realised* chips): a
budget starts at ``eps`` big blinds and moves by the chips the agent wins or loses in every
hand, whatever it played; a hand is played with the response only when the budget is
positive at its start, else with the base.  HUNL has no exact best response, so the budget
counts realised winnings, *luck included*: this is not the small-game agent's guarantee
(which moves its budget by exact worst-case values).  Against an opponent it cannot beat,
it plays the response only while it is ahead by luck, and its losses with the response
are bounded by what it won before plus ``eps``, in chips, not in expectation.

Measure with ``--workers 1``: every worker process's run of hands learns on its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from pokerlab.agents.base import AgentBase, PlayerView
from pokerlab.checks import check_counts, check_finite_at_least
from pokerlab.errors import AgentError, ConfigError
from pokerlab.games.spec import check_keys, parse_named_call

__all__ = ["HUNLAdaptAgent", "HUNLAdaptConfig", "HUNLObservations", "Responder",
           "make_hunl_adapt_agent", "observe_hand", "observe_opponent", "parse_hunl_spec",
           "posterior", "with_policy"]

# ------------------------------------------------------------------------ observations
@dataclass
class HUNLObservations:
    """Counts of one player's abstract actions: ``known`` in the policy layout (per node,
    bucket, action), ``public`` per tree edge (cards unknown)."""

    player: str
    known: np.ndarray
    public: np.ndarray
    hands: int = 0
    decisions: int = 0
    off_tree: int = 0

    @classmethod
    def empty(cls, player: str, agent: Any) -> HUNLObservations:
        """No counts yet, in the layout of ``agent``'s (indexed) policy."""
        return cls(player=player, known=np.zeros(agent.policy.probs.shape[0]),
                   public=np.zeros(int(agent.tree.child_action.shape[0])))

    @property
    def total(self) -> float:
        """Every counted decision's weight (known and public)."""
        return float(self.known.sum() + self.public.sum())

    def to_json(self) -> dict[str, Any]:
        ki = np.flatnonzero(self.known)
        pi = np.flatnonzero(self.public)
        return {"player": self.player, "hands": self.hands, "decisions": self.decisions,
                "off_tree": self.off_tree,
                "known": [[int(i), float(self.known[i])] for i in ki],
                "public": [[int(i), float(self.public[i])] for i in pi]}

    @classmethod
    def from_json(cls, d: dict[str, Any], num_values: int, num_edges: int) -> HUNLObservations:
        known = np.zeros(num_values)
        public = np.zeros(num_edges)
        for i, c in d.get("known", []):
            known[int(i)] = float(c)
        for i, c in d.get("public", []):
            public[int(i)] = float(c)
        return cls(player=str(d["player"]), known=known, public=public,
                   hands=int(d.get("hands", 0)), decisions=int(d.get("decisions", 0)),
                   off_tree=int(d.get("off_tree", 0)))


def observe_hand(obs: HUNLObservations, agent: Any, events: Iterable[Any], config: Any,
                 me: int, cards: tuple[int, ...] | None = None) -> None:
    """Count player ``me``'s abstract actions in one finished hand into ``obs``.

    ``events``: the hand's typed events (:func:`pokerlab.holdem.events.events_of`; hole
    and shown cards are not read from them), ``config``: the hand's table
    (``HoldemConfig``), ``cards``: ``me``'s hole cards when known (else per node only),
    ``agent``: the base :class:`~pokerlab.agents.policy_agent.HUNLPolicyAgent` (tree,
    action map, card buckets).  The real hand is replayed in the engine beside an abstract
    hand of the agent's game: each real action is translated by the ``ActionMap``
    (``translate``; an off-tree raise split between its two neighbouring sizes with the
    translation's probabilities, each fitted to the abstract state), counted, and the
    abstract hand continues with the most likely abstract action.  A hand that leaves the
    tree stops counting there (``off_tree``)."""
    from pokerlab.abstraction.action_map import CALL
    from pokerlab.holdem.engine import UNKNOWN, HoldemState, Phase
    from pokerlab.holdem.events import (
        BoardDealt,
        CheckedOrCalled,
        Folded,
        RaisedTo,
        event_to_action,
    )

    tree = agent.tree
    pol = agent.policy
    hole = tuple(int(c) for c in cards) if cards is not None else ()
    known = len(hole) == 2 and UNKNOWN not in hole
    obs.hands += 1
    real = HoldemState(config=config)
    ab = HoldemState(config=agent.game.config)
    for st in (real, ab):
        st.deal_hole(None)
        st.deal_hole(None)
    node = 0
    on = True
    for ev in events:
        if isinstance(ev, BoardDealt):
            real.deal_board(list(ev.cards))
            if on and ab.phase == Phase.DEAL_BOARD:
                ab.deal_board(list(ev.cards))
            else:
                on = False
            continue
        if not isinstance(ev, (Folded, CheckedOrCalled, RaisedTo)):
            continue
        who = int(ev.player)
        act = event_to_action(ev)
        if on and (ab.phase != Phase.BETTING or ab.actor != who):
            on = False
            if who == me:
                obs.off_tree += 1
        if on:
            probs = agent.map.translate(real, act)
            fitted: dict[int, float] = {}
            for aid, w in probs:
                f = int(agent._fit(ab, int(aid)))
                fitted[f] = fitted.get(f, 0.0) + float(w)
            if who == me:
                obs.decisions += 1
                cs = int(tree.child_start[node])
                k = int(tree.num_children[node])
                base = 0
                if known:
                    b = agent.bucket(int(tree.street[node]), hole, tuple(real.board))
                    base = int(pol.row_start(node, b))
                for f, w in fitted.items():
                    j = int(tree.edge(node, f)) - cs
                    if not 0 <= j < k:  # pragma: no cover - the tree and the map agree
                        continue
                    if known:
                        obs.known[base + j] += w
                    else:
                        obs.public[cs + j] += w
            best = max(fitted.items(), key=lambda kv: kv[1])[0] if fitted else CALL
            ab.apply(agent.map.to_real(ab, best))
            node = int(tree.child(node, best))
        elif who == me:
            obs.off_tree += 1
        real.apply(act)


def observe_opponent(obs: HUNLObservations, agent: Any, view: PlayerView) -> None:
    """Count the opponent's actions in the finished hand ``view`` (a
    :func:`~pokerlab.holdem.view.final_view`: its hole cards only where the showdown
    showed them, ``view.opponent_hole``) into ``obs`` (:func:`observe_hand`)."""
    observe_hand(obs, agent, view.events, view.config, view.opponent, view.opponent_hole)


def with_policy(agent: Any, policy: Any, name: str) -> Any:
    """A copy of the policy agent ``agent`` playing ``policy`` (tree, buckets, action map and
    translation shared; ``agent`` is not changed)."""
    import copy

    if policy.probs.shape != agent.policy.probs.shape:
        raise AgentError(f"agent {name!r}: the policy does not fit the base policy's tree")
    ag = copy.copy(agent)
    ag.policy = policy
    ag.name = name
    return ag


def posterior(agent: Any, obs: HUNLObservations, strength: float,
              spread: str = "even") -> np.ndarray:
    """The Dirichlet posterior mean in the policy layout: row (node ``n``, bucket ``b``) is
    ``(s * base(n, b) + c(n, b) + u(n) w(n, b)) / (s + |c(n, b)| + |u(n) w(n, b)|)``, the
    node's hidden-card counts ``u(n)`` shared among its ``B(n)`` buckets by ``w``:

    * ``spread="even"``: ``w(n, b, a) = 1 / B(n)`` (every bucket alike);
    * ``spread="prior"``: by Bayes with the prior as the likelihood and the buckets equally
      likely, smoothed by one even pseudo-bucket: ``w(n, b, a) = (base(n, b, a) + 1 / B(n))
      / (sum_b' base(n, b', a) + 1)``.  An action the prior takes with strong hands is
      credited to strong hands, so a card-dependent opponent stays card-dependent (the
      even spread makes every bucket of a much-seen node play the node's frequencies)."""
    from pokerlab.abstraction.action_tree import DECISION

    if not np.isfinite(strength) or strength < 0:
        raise ConfigError(f"prior strength must be finite and >= 0, got {strength!r}")
    if spread not in ("even", "prior"):
        raise ConfigError(f"spread must be 'even' or 'prior', got {spread!r}")
    tree = agent.tree
    pol = agent.policy
    out = np.asarray(pol.probs, dtype=np.float64).copy()
    for node in np.flatnonzero(tree.kind == DECISION).tolist():
        k = int(tree.num_children[node])
        nb = int(pol.num_buckets[node])
        lo = int(pol.node_offset[node])
        hi = lo + nb * k
        cs = int(tree.child_start[node])
        c = obs.known[lo:hi].reshape(nb, k)
        u = obs.public[cs:cs + k]
        if c.sum() == 0 and u.sum() == 0:
            continue
        prior = out[lo:hi].reshape(nb, k)
        if spread == "prior":
            hidden = u[None, :] * (prior + 1.0 / nb) / (prior.sum(axis=0, keepdims=True) + 1.0)
        else:
            hidden = u[None, :] / nb
        num = strength * prior + c + hidden
        tot = num.sum(axis=1, keepdims=True)
        rows = np.where(tot > 0, num / np.where(tot > 0, tot, 1.0), prior)
        out[lo:hi] = rows.ravel()
    return out


# ------------------------------------------------------------------------------- spec
@dataclass(frozen=True, kw_only=True)
class HUNLAdaptConfig:
    """The HUNL adaptive agent's parameters (see the module docs)."""

    base: str = "blueprint"
    strength: float = 1.0
    refit: int = 100
    p: float = 0.5
    iterations: int = 1_000_000
    eps: float = 1.0
    """Big blinds."""
    slice: int = 250_000
    """MCCFR iterations run at the end of one hand (a refit spans several hands)."""
    warm: float = 0.0
    """Start each refit at the base (0: from scratch; see ``adapt_trainer``)."""
    spread: str = "even"
    """How hidden-card counts are shared among a node's buckets (:func:`posterior`)."""

    def __post_init__(self) -> None:
        check_finite_at_least(self, ("strength",), error=AgentError, prefix="adapt: ")
        check_counts(self, ("refit", "iterations", "slice"), error=AgentError, prefix="adapt: ",
                     most=10**12)
        if not (0.0 <= self.p <= 1.0):
            raise AgentError(f"adapt: p must lie in [0, 1], got {self.p!r}")
        if not (self.eps >= 0):
            raise AgentError(f"adapt: eps must be >= 0 big blinds (inf: no budget), got "
                             f"{self.eps!r}")
        if not self.base.strip():
            raise AgentError("adapt: base must be a policy spec")
        if self.spread not in ("even", "prior"):
            raise AgentError(f"adapt: spread must be even or prior, got {self.spread!r}")


_KEYS = ("base", "strength", "refit", "p", "iterations", "eps", "slice", "spread", "warm")
_SMALL_ONLY = ("prior", "grid", "pmax")


def parse_hunl_spec(spec: str) -> HUNLAdaptConfig:
    """``adapt``, ``adapt:POLICY`` or ``adapt(key=value,...)`` (keys: base, strength,
    refit, p, iterations, eps, slice, spread, warm) to its :class:`HUNLAdaptConfig` (the
    syntax: :func:`pokerlab.games.spec.parse_call`)."""
    call = parse_named_call(spec, "adapt", error=AgentError, what="agent spec",
                            usage="adapt, adapt:POLICY or adapt(key=value,...)", suffix=False)
    if call.suffix is not None:
        return HUNLAdaptConfig(base=call.suffix)
    for k, _ in call.params:
        if k in _SMALL_ONLY:
            raise AgentError(f"agent spec {spec!r}: {k!r} is a small-game option; on hunl: "
                             f"{', '.join(_KEYS)}")
    check_keys(call, _KEYS, error=AgentError, what="agent spec", scope=" on hunl")
    kw: dict[str, Any] = {}
    for k, v in call.params:
        try:
            if k in ("base", "spread"):
                kw[k] = v.lower() if k == "spread" else v
            elif k in ("refit", "iterations", "slice"):
                kw[k] = int(float(v)) if float(v).is_integer() else float(v)
            else:
                kw[k] = float(v)
        except (ValueError, OverflowError):
            raise AgentError(f"agent spec {spec!r}: {k}={v!r} is not a number") from None
    return HUNLAdaptConfig(**kw)


# ----------------------------------------------------------------------------- agent
class ResponseTrainer(Protocol):
    """What a refit runs: MCCFR iterations, then the trained policy."""

    def run(self, iterations: int) -> None: ...

    def policy(self) -> Any: ...


Responder = Callable[..., ResponseTrainer]
"""``responder(base_policy, model_probs, p=P, seed=S)``: a fresh trainer of the response."""


@dataclass
class _Refit:
    """A response being trained: its trainer, iterations still to run, when it began."""

    trainer: Any
    left: int
    hand: int
    seed: int


@dataclass
class AdaptHand:
    """One finished hand as the agent saw it."""

    response: bool
    chips: float
    budget: float


class HUNLAdaptAgent(AgentBase):
    """The adaptive agent of heads-up no-limit hold'em (see the module docs)."""

    def __init__(self, base: Any, config: HUNLAdaptConfig, *, name: str = "adapt",
                 seed: int = 0, big_blind: int | None = None,
                 responder: Responder | None = None) -> None:
        if not getattr(base, "indexed", False) or getattr(base.policy, "storage",
                                                          "dense") != "dense":
            raise AgentError(f"agent {name!r}: the base must be a dense indexed (blueprint) "
                             "policy")
        self.name = name
        self.config = config
        self.base = base
        self.big_blind = int(big_blind if big_blind is not None
                             else base.game.config.big_blind)
        self.stack_bb = getattr(base, "stack_bb", None)
        cfg = getattr(base.game, "config", None)
        if self.stack_bb is None and cfg is not None:
            self.stack_bb = float(min(cfg.stacks)) / float(cfg.big_blind)
        self._responder = responder
        self.seed = int(seed)
        self.lifetime = {"refits": 0, "response_hands": 0, "resyncs": 0}
        """Counts over every match this object played (what :meth:`counters` reports)."""
        self.records: list[AdaptHand] = []
        self.start_match()

    # ------------------------------------------------------------------ match boundaries
    def start_match(self) -> None:
        """Forget the opponent: a new match or play session starts."""
        old = getattr(self, "response", None)
        if old is not None:  # its counts stay in the totals
            self.lifetime["resyncs"] += int(getattr(old, "resyncs", 0))
        self.obs = HUNLObservations.empty("opponent", self.base)
        self.response: Any = None
        self.budget = float(self.config.eps) * self.big_blind
        self.won = 0.0
        self.hands = 0
        self.refits = 0
        self.response_hands = 0
        self.records = []
        self._next_refit = self.config.refit
        self._training: _Refit | None = None
        self._playing: Any = self.base
        self._last_seed = self.seed
        self.refit_hands: list[int] = []
        """The hand counts at which each refit started."""

    def reset(self, seed: int) -> None:
        """A new hand: its seed, and which policy plays it (the response only when the
        budget is positive)."""
        self._last_seed = int(seed)
        self.base.reset(seed)
        if self.response is not None:
            self.response.reset(seed)
        self._playing = (self.response if self.response is not None and self.budget > 0
                         else self.base)

    @property
    def playing_response(self) -> bool:
        """This hand is played with the response."""
        return self._playing is not self.base

    def kernel_side(self) -> None:
        """No match fast path: the agent learns between hands."""
        return None

    def counters(self) -> dict[str, float]:
        return {"refits": float(self.lifetime["refits"]),
                "response_hands": float(self.lifetime["response_hands"]),
                "resyncs": float(getattr(self.base, "resyncs", 0) + self.lifetime["resyncs"]
                                 + getattr(self.response, "resyncs", 0))}

    # ------------------------------------------------------------------ playing
    def act(self, view: Any) -> Any:
        return self._playing.act(view)

    def action_probabilities(self, view: Any) -> Any:
        return self._playing.action_probabilities(view)

    # ------------------------------------------------------------------ learning
    def model(self) -> np.ndarray:
        """The opponent model now (the posterior, the base policy's layout)."""
        return posterior(self.base, self.obs, self.config.strength, self.config.spread)

    def end_hand(self, view: PlayerView) -> None:
        """The end of a hand as this agent's seat saw it (a
        :func:`~pokerlab.holdem.view.final_view`): count the opponent's actions, move the
        budget by the chips won, and start or continue a refit."""
        if view.payoff is None:
            raise AgentError(f"agent {self.name!r}: end_hand needs the view of a finished hand")
        observe_opponent(self.obs, self.base, view)
        chips = float(view.payoff)
        used = self.playing_response
        self.won += chips
        self.budget += chips
        self.hands += 1
        self.response_hands += int(used)
        self.lifetime["response_hands"] += int(used)
        self.records.append(AdaptHand(response=used, chips=chips, budget=self.budget))
        self._playing = self.base
        self._train()

    def _train(self) -> None:
        """Start a refit when one is due (none running), then run one slice of it; switch
        to the response when its run is complete."""
        cfg = self.config
        if self._training is None and self.hands >= self._next_refit:
            if self._responder is None:
                raise AgentError(f"agent {self.name!r}: a refit is due but the agent has no "
                                 "response trainer (build it with pokerlab.registry, or "
                                 "pass responder=)")
            seed = (self._last_seed * 1_000_003 + self.refits + 1) % (2**62)
            kw = {"warm": cfg.warm} if cfg.warm > 0 else {}
            tr = self._responder(self.base.policy, self.model(), p=cfg.p, seed=seed, **kw)
            self._training = _Refit(trainer=tr, left=cfg.iterations, hand=self.hands,
                                    seed=seed)
            self.refit_hands.append(self.hands)
            step = min(self.hands, 16 * cfg.refit)
            self._next_refit = self.hands + step
        job = self._training
        if job is None:
            return
        n = min(cfg.slice, job.left)
        job.trainer.run(n)
        job.left -= n
        if job.left <= 0:
            self._training = None
            self.refits += 1
            self.lifetime["refits"] += 1
            if self.response is not None:  # its counts stay in the totals
                self.lifetime["resyncs"] += int(getattr(self.response, "resyncs", 0))
            self.response = self._response_agent(job.trainer.policy())

    def _response_agent(self, policy: Any) -> Any:
        """The base's policy agent with the response's policy (tree, buckets, action map
        and translation shared)."""
        ag = with_policy(self.base, policy, f"{self.name}-response")
        ag.resyncs = 0
        return ag


# ------------------------------------------------------------------------------ build
def make_hunl_adapt_agent(spec: str, *, config: Any, seed: int,
                          build: Callable[..., Any],
                          responder: Responder | None = None) -> HUNLAdaptAgent:
    """The HUNL agent of an ``adapt`` spec (``build``: the registry's ``build_agent``,
    which resolves the base spec at the table ``config``; ``responder``: the response
    trainer, :func:`pokerlab.opponents.hunl_model.adapt_trainer`, which the registry
    passes in)."""
    cfg = parse_hunl_spec(spec)
    low = cfg.base.strip().lower()
    if low.startswith("adapt"):
        raise AgentError(f"adapt: the base {cfg.base!r} must be a fixed policy, not adapt")
    if not (low.startswith(("policy:", "blueprint"))):
        raise AgentError(f"agent {spec!r}: the base must be a blueprint policy "
                         f"(blueprint, blueprint-N or policy:PATH), got {cfg.base!r}")
    base = build(cfg.base, game="hunl", config=config, seed=seed)
    if not getattr(base, "indexed", False):
        raise AgentError(f"agent {spec!r}: the base {cfg.base!r} is not an indexed "
                         "(blueprint) policy")
    bb = getattr(config, "big_blind", None)
    return HUNLAdaptAgent(base, cfg, name=spec.strip(), seed=seed,
                          big_blind=int(bb) if bb is not None else None, responder=responder)
