"""``policy:PATH`` (and ``blueprint``): a saved policy over an action abstraction plays real
no-limit hold'em.

The policy file's metadata names its game (``metadata["game"]``, a ``load_game`` string
such as ``hunl(stacks=20000,bets=default,buckets=test)``); the agent loads that
:class:`~pokerlab.games.hunl.HUNLGame` and uses its :class:`ActionMap` for every mapping:

* **In** -- the agent follows the hand on a *real* engine state of its own (the match's
  stacks, every real chip amount) and on the policy's betting tree, one event at a time
  (:class:`_Track`): fed by ``observe_event`` as the hand goes (the match and play loops,
  :func:`~pokerlab.holdem.view.feed_events`), or, for a caller that feeds nothing, caught
  up from the view's new events (a view that does not continue the tracked hand is
  replayed from its start). Either way it is the same walk, so the answer at a view is the
  one a replay of the whole view gives (tests/test_policy_agent_track.py). Each real
  betting action is translated at the real state (:meth:`ActionMap.translate`: fold/call
  to themselves, an on-tree raise to its size, an off-tree raise randomised between the
  two nearest sizes by pseudo-harmonic mapping, or the nearest one; a raise that is not
  all-in and leaves more than :data:`ALLIN_BEHIND` of the effective stack behind is never
  read as the abstract all-in) and the abstract id is followed on the tree (a size the
  node does not offer becomes its largest smaller raise, else its smallest). Randomised
  translations are drawn from the agent's seed and the event's position in the view, so
  replaying the same view gives the same node.
* **Lookup** -- an :class:`~pokerlab.policy.indexed.IndexedPolicy` is read at (tree
  node, card bucket): the node comes from the compiled
  :class:`~pokerlab.abstraction.action_tree.ActionTree` (see **In**),
  the bucket on the current street from the blueprint's hand-strength card spec when the
  policy's metadata has one (``metadata["cards"]``,
  :class:`pokerlab.abstraction.hs_cards.CardSpec`), else from the game's bucket tables.  A
  :class:`~pokerlab.policy.tabular.TabularPolicy` is read with the information-state
  string of an abstract engine state replayed beside the real one (the same translation;
  an abstract size the abstract state does not offer becomes its largest smaller legal
  raise, else its smallest raise, else check/call).
* **Out** -- the policy's probabilities are restricted to the abstract ids that are legal
  at the real state too (:meth:`ActionMap.abstract_actions`) and the chosen id is turned
  into real chips with :meth:`ActionMap.to_real` at the real state (always legal).
* **Off the tree** -- the tree cannot follow the real hand when a real raise has no
  abstract raise left at the node (the street's raise cap of the bet set), or the node
  is not the real actor's decision on the real street (the abstract hand ended, e.g. a
  raise read as all-in was called).  The agent then re-synchronises: at the next real
  decision (its own or the opponent's) the node becomes :meth:`HUNLPolicyAgent.
  nearest_node` of the real state -- the decision node of the same street and actor,
  facing a bet exactly when the real actor is, whose chips committed by either player
  are nearest in log scale -- and following resumes from there (before, an agent off
  its tree checked and called to the end of the hand: about 1% of hands against
  ``tag``).  Tabular policies (no compiled tree) still check or call off their tree.

Sampling (shared with the kernel of :mod:`pokerlab.evaluation.match_kernels`, bit for bit):
weights are the policy row's float32 values as float64 (all ones for an all-zero or
missing row), ``u = (next() >> 11) / 2**53`` from the agent's SplitMix64 stream, and the
first action whose running weight sum exceeds ``u * total`` is played.
"""

from __future__ import annotations

from typing import Any

from pokerlab.abstraction.action_map import CALL, RAISE0, fit_raise
from pokerlab.abstraction.cursor import ALLIN_BEHIND, Cursor, PolicyTree
from pokerlab.abstraction.hs_cards import (  # noqa: F401 - the bucketers' names, as before
    Bucketer,
    HandStrengthBucketer,
    PreflopClassBucketer,
    TableBucketer,
)
from pokerlab.agents.base import AgentBase, AgentError, PlayerView
from pokerlab.holdem.engine import (
    Action,
    ActionKind,
    HoldemConfig,
    HoldemState,
    Phase,
)
from pokerlab.holdem.events import (
    ACTION_TYPES,
    ActionEvent,
    BoardDealt,
    Event,
    HoleDealt,
    event_to_action,
)
from pokerlab.rng import SplitMix64, pick


def uniform_from(rng: SplitMix64) -> float:
    """A float in [0, 1) from the top 53 bits of the next SplitMix64 value."""
    return rng.uniform()


def sample_index(weights: list[float], u: float) -> int:
    """The sampling rule of the module docstring (``weights`` non-negative, not all 0)."""
    total = 0.0
    for w in weights:
        total += w
    return pick(list(enumerate(weights)), u * total)


class _Track:
    """The agent's position in one hand as seen by ``player`` after the first
    ``len(events)`` events: its :class:`~pokerlab.abstraction.cursor.Cursor` (the real
    engine state and, for indexed policies, the tree node) and, for tabular policies, the
    abstract engine state (``ab``, ``ids``, ``ok``)."""

    __slots__ = ("ab", "config", "cur", "events", "hole", "ids", "ok", "player")

    def __init__(self, player: int, hole: tuple[int, ...], config: HoldemConfig,
                 walk: PolicyTree, abstract: HoldemConfig | None) -> None:
        self.player = player
        self.hole = hole
        self.config = config
        self.events: list[Event] = []
        self.cur = walk.start(config, player, hole)
        self.ab: HoldemState | None = None
        if abstract is not None:
            self.ab = HoldemState(config=abstract)
            for p in (0, 1):
                self.ab.deal_hole(list(hole) if p == player else None)
        self.ids: list[int] = []
        self.ok = True

    @property
    def real(self) -> HoldemState:
        return self.cur.real

    @property
    def node(self) -> int:
        return self.cur.node

    def copy(self) -> _Track:
        t = _Track.__new__(_Track)
        t.player, t.hole, t.config = self.player, self.hole, self.config
        t.events = list(self.events)
        t.cur = self.cur.copy()
        t.ok = self.ok
        t.ab = None if self.ab is None else self.ab.clone()
        t.ids = list(self.ids)
        return t

    def continued_by(self, view: PlayerView) -> bool:
        """``view`` is this hand at or after the events tracked so far."""
        n = len(self.events)
        return (view.player == self.player and view.hole == self.hole
                and view.config == self.config and len(view.events) >= n
                and view.events[:n] == tuple(self.events))


class HUNLPolicyAgent(AgentBase):
    """A saved abstract-game policy playing real HUNL (see the module docstring).
    ``bucketer``: the card abstraction (default: the policy's hand-strength card spec when
    its metadata has one, else the game's bucket tables)."""

    def __init__(self, policy: Any, game: Any, *, name: str = "policy", seed: int = 0,
                 allin_behind: float | None = ALLIN_BEHIND, bucketer: Bucketer | None = None) -> None:
        from pokerlab.policy.indexed import IndexedPolicy

        self.policy = policy
        self.game = game
        self.name = name
        self.map = game.action_map
        if self.map.is_identity:
            raise AgentError(f"agent {name!r}: the policy's game {game!r} has no bet-set "
                             "abstraction (policy agents play over bet sets)")
        self.indexed = isinstance(policy, IndexedPolicy)
        self.tree: Any = None
        if self.indexed:
            from pokerlab.abstraction.action_tree import compile_tree

            meta = getattr(policy, "metadata", None)
            meta_cfg = meta.get("config") if isinstance(meta, dict) else None
            no_limp = bool(isinstance(meta_cfg, dict) and meta_cfg.get("no_limp"))  # push/fold
            self.tree = compile_tree(self.map.bets, game.config, no_limp=no_limp)
            if (self.tree.num_nodes != policy.num_nodes
                    or not (self.tree.num_children == policy.num_children).all()):
                raise AgentError(f"agent {name!r}: the policy does not fit the betting tree of "
                                 f"its game {game.game_string()} ({policy.num_nodes} vs "
                                 f"{self.tree.num_nodes} nodes)")
        self.card_spec: Any = None
        meta = getattr(policy, "metadata", None)
        cards_meta = meta.get("cards") if isinstance(meta, dict) else None
        if isinstance(cards_meta, dict) and cards_meta.get("method", "hs") == "hs":
            from pokerlab.abstraction.hs_cards import CardSpec

            self.card_spec = CardSpec.from_json(cards_meta).with_thresholds()
        if bucketer is None:
            bucketer = (HandStrengthBucketer(self.card_spec) if self.card_spec is not None
                        else TableBucketer(game.cards))
        self.bucketer: Bucketer = bucketer
        self.seed = seed
        self.rng = SplitMix64(seed)
        self.walk = PolicyTree(self.tree, self.map, allin_behind=allin_behind)
        """The policy's betting tree read against real hold'em (the one cursor walk)."""
        self.replays = 0
        """Views answered by replaying them from the start (a diagnostic counter: views
        that were neither fed nor a continuation of the tracked hand)."""
        self._fed: list[Event] = []
        self._fed_track: _Track | None = None
        self._fed_ok = True
        self._view_track: _Track | None = None
        self._view_base: _Track | None = None

    @property
    def allin_behind(self) -> float | None:
        """See :data:`~pokerlab.abstraction.cursor.ALLIN_BEHIND` (settable)."""
        return self.walk.allin_behind

    @allin_behind.setter
    def allin_behind(self, value: float | None) -> None:
        self.walk.allin_behind = value

    @property
    def resyncs(self) -> int:
        """Re-synchronisations of the tree node so far (a diagnostic counter: each one of
        a hand counted once; settable)."""
        return self.walk.resyncs

    @resyncs.setter
    def resyncs(self, value: int) -> None:
        self.walk.resyncs = value

    def counters(self) -> dict[str, float]:
        """Its match counters: ``resyncs`` (summed over a match's chunks)."""
        return {"resyncs": float(self.walk.resyncs)}

    def reset(self, seed: int) -> None:
        self.seed = seed
        self.rng = SplitMix64(seed)
        self.forget()

    def forget(self) -> None:
        """Drop the tracked hand (the next view is replayed from its start)."""
        self._fed = []
        self._fed_track = None
        self._fed_ok = True
        self._view_track = None
        self._view_base = None

    def observe_event(self, event: Event) -> None:
        """One event of the hand this agent plays, as it happens (see
        :class:`~pokerlab.agents.base.Agent`): the tracked position moves on by it."""
        fed = self._fed
        if isinstance(event, HoleDealt) and fed and (
                not isinstance(fed[0], HoleDealt) or fed[0].player != event.player):
            self._fed_ok = False  # fed both seats' events: answer from views instead
        fed.append(event)
        t = self._fed_track
        if t is not None and self._fed_ok:
            self._advance(t, fed)

    # ------------------------------------------------------------------ match kernel
    def kernel_side(self) -> Any:
        """The match fast path's view of this agent
        (:class:`~pokerlab.policy.kernel_side.KernelSide`), ``None`` unless the
        policy is indexed (then every action is an edge of the compiled tree)."""
        if not self.indexed or not self.bucketer.kernel:
            return None
        from pokerlab.policy.kernel_side import KernelSide, policy_arrays

        return KernelSide(tree=self.tree, config=self.game.config,
                          arrays=policy_arrays(self.policy, self.card_spec, self.game.cards))

    # ------------------------------------------------------------------ card buckets
    def bucket(self, street: int, hole: tuple[int, ...], board: tuple[int, ...]) -> int:
        """The card bucket on ``street`` (the injected :class:`Bucketer`)."""
        return self.bucketer.bucket(street, hole, board)

    # ------------------------------------------------------------------ tracking
    def _tracked(self, view: PlayerView) -> _Track:
        """The tracked hand at ``view`` (do not modify it): the fed one when the agent was
        fed exactly the view's events, else the last view's hand caught up with the new
        events, else a replay of ``view`` from its start.  For an indexed policy the node
        is re-synchronised when the tree cannot follow the real actor (``Off the tree``)."""
        fed = self._fed
        t: _Track | None
        if (self._fed_ok and len(fed) == len(view.events) and fed
                and isinstance(fed[0], HoleDealt) and fed[0].player == view.player
                and fed[0].cards == view.hole):
            t = self._fed_track
            if t is None or t.config != view.config:
                t = self._fed_track = self._new_track(view)
            self._advance(t, fed)
        else:
            t = self._view_track
            if t is None or not t.continued_by(view):
                base = self._view_base
                if base is not None and base.continued_by(view):
                    t = self._view_track = base.copy()  # a sibling of the last view
                else:
                    t = self._view_track = self._new_track(view)
                    self.replays += 1
            if len(view.events) > len(t.events):
                # keep the hand before these events: range queries (LBR, AIVAT) ask about
                # hypothetical next actions one after another, then the real one
                self._view_base = t.copy()
            self._advance(t, view.events)
        if self.indexed:
            t.cur.resync(own=True)
        return t

    def nodes_after(self, view: PlayerView, actions: list[Action]
                    ) -> list[tuple[HoldemState, int]]:
        """Indexed policies: for each hypothetical next action of the player to act at
        ``view`` (the opponent of ``view.player``), the (real state, tree node) that
        :meth:`decision_node` would give at the view extended by that action -- the same
        translation (the action is the view's next event), fit and re-synchronisation --
        without replaying the hand per action (LBR's and AIVAT's range queries after
        each of their raise sizes).  The states are the agent's: read them only."""
        if not self.indexed:
            raise AgentError("nodes_after is for policies over a compiled tree")
        base = self._tracked(view).cur
        idx = len(view.events)
        out: list[tuple[HoldemState, int]] = []
        for act in actions:
            c = base.copy()
            c.play(act, idx, self.seed)
            c.resync(own=True)
            out.append((c.real, c.node))
        return out

    # ------------------------------------------------------------------ branches
    def cursor(self, view: PlayerView) -> Cursor:
        """Indexed policies: a copy of the tracked hand's :class:`~pokerlab.abstraction.
        cursor.Cursor` at ``view``, where walks of :meth:`Cursor.branches` start (LBR's
        compiled betting tree, the continuation's builder)."""
        if not self.indexed:
            raise AgentError("cursor is for policies over a compiled tree")
        return self._tracked(view).cur.copy()

    def _new_track(self, view: PlayerView) -> _Track:
        return _Track(view.player, view.hole, view.config, self.walk,
                      None if self.indexed else self.game.config)

    def _advance(self, t: _Track, events: Any) -> None:
        """Follow ``events[len(t.events):]`` (a view's events or the fed ones) one by one."""
        for idx in range(len(t.events), len(events)):
            ev = events[idx]
            t.events.append(ev)
            if isinstance(ev, BoardDealt):
                t.cur.deal(list(ev.cards))
                if not self.indexed and t.ok:
                    ab = t.ab
                    assert ab is not None
                    if ab.phase == Phase.DEAL_BOARD:
                        ab.deal_board(list(ev.cards))
                    else:
                        t.ok = False
            elif isinstance(ev, ACTION_TYPES):
                if self.indexed:
                    t.cur.play(event_to_action(ev), idx, self.seed)
                else:
                    self._step_engine(t, ev, idx)

    def _step_engine(self, t: _Track, ev: ActionEvent,
                     idx: int) -> None:
        """One real betting action replayed beside the real state on the abstract engine
        state (tabular policies)."""
        real, ab = t.real, t.ab
        assert ab is not None
        act = event_to_action(ev)
        aid = CALL
        if t.ok:
            aid = self._translate(real, act, idx)
        real.apply(act)
        if t.ok:
            if ab.phase != Phase.BETTING or ab.actor != ev.player:
                t.ok = False
            else:
                aid = self._fit(ab, aid)
                ab.apply(self.map.to_real(ab, aid))
                t.ids.append(aid)

    def track(self, view: PlayerView) -> tuple[HoldemState, HoldemState, list[int], bool]:
        """(real state, abstract state, abstract ids applied, on track) at ``view``.

        Indexed policies: the abstract ids are the tree path of :meth:`locate`'s node (after
        a re-synchronisation not the translated history itself) and ``on track`` says that
        node is this player's decision on the current street.  Tabular policies: the
        engine replay of the module docstring.  The states are copies."""
        if self.indexed:
            real, node = self.locate(view)
            ids = self.tree.path(node) if node >= 0 else []
            ab = self._abstract_state(ids)
            ok = node >= 0 and self.walk.decides(node, real)
            return real, ab, ids, ok
        t = self._tracked(view)
        assert t.ab is not None
        ok = t.ok and t.ab.phase == Phase.BETTING and t.ab.actor == view.player
        return t.real.clone(), t.ab.clone(), list(t.ids), ok

    def decision_node(self, view: PlayerView) -> tuple[HoldemState, int, bool]:
        """(real state, tree node, on track) at ``view`` for an indexed policy: what
        :meth:`track` says without building the abstract state (range queries)."""
        real, node = self.locate(view)
        return real, node, node >= 0 and self.walk.decides(node, real)

    def _abstract_state(self, ids: list[int]) -> HoldemState:
        ab = HoldemState(config=self.game.config)
        ab.deal_hole(None)
        ab.deal_hole(None)
        for aid in ids:
            while ab.phase == Phase.DEAL_BOARD:
                ab.deal_board(None)
            ab.apply(self.map.to_real(ab, aid))
        while ab.phase == Phase.DEAL_BOARD:
            ab.deal_board(None)
        return ab

    def locate(self, view: PlayerView) -> tuple[HoldemState, int]:
        """(real state, tree node) at ``view`` for an indexed policy (see ``Off the tree``
        in the module docstring): every real action is translated at the real state and
        followed on the tree; when the tree cannot follow (the node is not the real
        actor's decision on the real street, or a real raise has no abstract raise left
        at the node) the node is re-synchronised to :meth:`nearest_node` of the real state
        at the next real decision.  ``-1`` when no node fits (never for a real decision
        of a tree with decisions on every street).  The real state is a copy."""
        t = self._tracked(view)
        return t.real.clone(), t.node

    def nearest_node(self, real: HoldemState) -> int:
        """:meth:`PolicyTree.nearest_node <pokerlab.abstraction.cursor.PolicyTree.
        nearest_node>` of the policy's tree."""
        return self.walk.nearest_node(real)

    def _translate(self, real: HoldemState, act: Action, idx: int) -> int:
        return self.walk.translate(real, act, idx, self.seed)

    def _fit(self, ab: HoldemState, aid: int) -> int:
        legal = self.map.abstract_actions(ab)
        if aid >= RAISE0:
            fit = fit_raise(aid, legal)
            return CALL if fit is None else fit
        return aid if aid in legal else CALL

    # ------------------------------------------------------------------ policy
    def abstract_weights(self, view: PlayerView) -> tuple[HoldemState, list[int],
                                                         list[float]] | None:
        """(real state, abstract ids legal here, their weights) or None when off-tree.  The
        real state is the tracked one (read it, do not modify it)."""
        t = self._tracked(view)
        real = t.real
        if self.indexed:
            node = t.cur.decision()
            if node < 0:
                return None
            acts = [int(a) for a in self.tree.actions(node)]
            b = self.bucket(int(self.tree.street[node]), view.hole, view.board)
            s = self.policy.row_start(node, b)
            k = len(acts)
            if s < 0:
                w = [1.0] * k
            else:
                w = [float(x) for x in self.policy.probs[s:s + k]]
        else:
            ab = t.ab
            assert ab is not None
            if not (t.ok and ab.phase == Phase.BETTING and ab.actor == view.player):
                return None
            st = self.game.state_from_engine(ab)
            d = self.policy.action_probabilities(st)
            acts = sorted(int(a) for a in d)
            w = [float(d[a]) for a in acts]
        total = 0.0
        for x in w:
            total += x
        if total <= 0:
            w = [1.0] * len(acts)
        legal_real = set(self.map.abstract_actions(real))
        keep = [(a, x) for a, x in zip(acts, w, strict=True) if a in legal_real]
        if not keep or sum(x for _, x in keep) <= 0:
            return None
        return real, [a for a, _ in keep], [x for _, x in keep]

    def action_probabilities(self, view: PlayerView) -> list[tuple[Action, float]]:
        res = self.abstract_weights(view)
        if res is None:
            return [(Action(kind=ActionKind.CHECK_CALL), 1.0)]
        real, acts, w = res
        total = sum(w)
        out: dict[Action, float] = {}
        for a, x in zip(acts, w, strict=True):
            if x > 0:
                act = self.map.to_real(real, a)
                out[act] = out.get(act, 0.0) + x / total
        return list(out.items())

    def act(self, view: PlayerView) -> Action:
        res = self.abstract_weights(view)
        if res is None:
            return Action(kind=ActionKind.CHECK_CALL)
        real, acts, w = res
        i = sample_index(w, uniform_from(self.rng))
        return self.map.to_real(real, acts[i])


def load_policy_agent(path: str, *, name: str, config: HoldemConfig | None = None,
                      seed: int = 0) -> HUNLPolicyAgent:
    """The agent of a HUNL policy file (tabular or indexed; its metadata names the game)."""
    from pokerlab.policy.indexed import load_any_policy

    pol = load_any_policy(path)
    game_str = pol.metadata.get("game") if isinstance(pol.metadata, dict) else None
    if not isinstance(game_str, str) or not game_str:
        raise AgentError(f"agent {name!r}: policy file {path!r} does not name its game "
                         "(metadata 'game'); cannot map it onto real no-limit betting")
    if not game_str.strip().lower().startswith("hunl"):
        raise AgentError(f"agent {name!r}: policy file {path!r} is for {game_str!r}, not "
                         "hunl (use --game with that game)")
    game = _policy_game(game_str, pol.metadata)
    return HUNLPolicyAgent(pol, game, name=name, seed=seed)


def _policy_game(game_str: str, metadata: dict[str, Any]) -> Any:
    """The policy's HUNL game; a blueprint game string says ``bets=custom`` and keeps the
    bet-set text in ``metadata["config"]["bets_text"]``."""
    from pokerlab.games import load_game

    cfg = metadata.get("config")
    text = cfg.get("bets_text") if isinstance(cfg, dict) else None
    if "bets=custom" in game_str and isinstance(text, str):
        from pokerlab.abstraction.action_map import BetSetAbstraction
        from pokerlab.abstraction.bets import parse_bet_set
        from pokerlab.games.hunl import HUNLGame

        base = load_game(game_str.replace("bets=custom", "bets=identity"))
        return HUNLGame(base.config, BetSetAbstraction(bets=parse_bet_set(text)),
                        base.bucket_config)  # the card tables (if any) load on first use
    return load_game(game_str)
