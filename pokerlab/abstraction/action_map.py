"""The one boundary between real no-limit betting and an action abstraction.

An :data:`ActionAbstraction` says which betting actions a HUNL game (and every trainer,
agent and opponent model built on it) knows about:

* :class:`Identity` -- every legal chip amount is its own action (the real game).
* :class:`BetSetAbstraction` -- fold, check/call and the sizes of a
  :class:`~pokerlab.abstraction.bets.BetSet`, plus the translation rule (``"nearest"`` or
  ``"pseudo_harmonic"``, Ganzfried & Sandholm 2013) and the seed of its randomisation.

:class:`ActionMap` (``abstraction.action_map()``) is the value object that maps between
the two at a **real** betting state (a :class:`~pokerlab.holdem.engine.HoldemState`, or
anything with the same betting attributes, see :class:`BettingState`):

* :meth:`ActionMap.abstract_actions` -- the legal abstract action ids, ascending.
* :meth:`ActionMap.raise_options` -- ``(abstract id, raise-to chips)`` of the legal raises.
* :meth:`ActionMap.to_real` -- the real :class:`~pokerlab.holdem.engine.Action` of an
  abstract id; always legal (sizes are clamped up to the minimum raise and down to all-in,
  see :func:`~pokerlab.abstraction.bets.resolve_raises`).
* :meth:`ActionMap.translate` -- a real action (any legal chip amount) as abstract ids
  with probabilities (:func:`translation_probs` over the
  pot fractions of this state's abstract raises); :meth:`ActionMap.sample` draws one.

Action ids (the same in both abstractions for fold and check/call):

* ``0`` fold, ``1`` check/call;
* bet sets: ``2 + k`` = the ``k``-th size of the street's list (sizes that land on the
  same chip amount as an earlier size are merged: only the first id is offered);
* identity: ``2 + X`` = bet/raise **to** ``X`` chips (street total, PHH ``cbr X``).

Translation of a real raise when the state offers no abstract raise (the raise cap of
the street is reached, or the bet set has no sizes) maps it to check/call (probability 1):
the abstract game cannot represent it, and calling keeps the hand going.  Fold and
check/call translate to themselves.

Action translation (:func:`translation_probs`, :func:`translate`) maps an opponent's
off-tree bet into the abstract bet set.  Bets are expressed as pot fractions: a bet of
``x`` means a raise increment of ``x`` times the pot after calling (:func:`pot_fraction`).  Two mappings:

* **nearest** (what the thesis does): the tree size closest to ``x`` (absolute difference
  of pot fractions; a tie goes to the smaller size).  Deterministic and exploitable.
* **pseudo-harmonic** (Ganzfried & Sandholm 2013, "Action translation in extensive-form
  games with large action spaces: axioms, paradoxes, and the pseudo-harmonic mapping",
  IJCAI): for tree sizes ``A < B`` and ``A <= x <= B``, map ``x`` to ``A`` with probability

      f_A(x) = ((B - x) * (1 + A)) / ((B - A) * (1 + x))

  and to ``B`` otherwise.  ``f_A(A) = 1``, ``f_A(B) = 0`` and ``f_A`` falls strictly in
  between.  A bet below the smallest tree size maps to that size, a bet above the
  largest to the largest (both with probability 1).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from pokerlab.abstraction.bets import BetSet, parse_bet_set, resolve_raises
from pokerlab.errors import BetSizeError, ConfigError
from pokerlab.holdem.abstract_ids import CALL, FOLD, RAISE0
from pokerlab.holdem.engine import Action, ActionKind, HoldemConfig, IllegalActionError
from pokerlab.rng import pick

# -- action translation: an off-tree size as tree sizes with probabilities ---------------

METHODS = ("nearest", "pseudo_harmonic")


def pseudo_harmonic(x: float, a: float, b: float) -> float:
    """Probability that a bet of ``x`` (pot fractions) maps to the smaller size ``a``."""
    for name, v in (("x", x), ("A", a), ("B", b)):
        if not math.isfinite(v) or v < 0:
            raise BetSizeError(f"pot fraction {name}={v!r} must be finite and >= 0")
    if not a < b:
        raise BetSizeError(f"need A < B, got A={a!r}, B={b!r}")
    if not a <= x <= b:
        raise BetSizeError(f"bet x={x!r} is outside [A, B] = [{a!r}, {b!r}]")
    return ((b - x) * (1.0 + a)) / ((b - a) * (1.0 + x))


def pot_fraction(*, raise_to: float, pot: float, current_bet: float, to_call: float) -> float:
    """A bet/raise as a pot fraction: ``(raise_to - current_bet) / (pot + to_call)``."""
    denom = pot + to_call
    if denom <= 0:
        raise BetSizeError(f"pot + to_call must be positive, got {denom!r}")
    if raise_to < current_bet:
        raise BetSizeError(f"raise to {raise_to!r} is below the current bet {current_bet!r}")
    return (raise_to - current_bet) / denom


def translation_probs(x: float, sizes: Sequence[float], *,
                      method: str = "pseudo_harmonic") -> list[tuple[int, float]]:
    """``(index into sizes, probability)`` pairs (probability > 0) for a bet of ``x``.

    ``sizes`` are the tree's pot fractions in any order (indices refer to that order).
    """
    if method not in METHODS:
        raise BetSizeError(f"unknown translation method {method!r}; expected one of {METHODS}")
    if not sizes:
        raise BetSizeError("cannot translate into an empty set of sizes")
    if not math.isfinite(x) or x < 0:
        raise BetSizeError(f"bet pot fraction {x!r} must be finite and >= 0")
    order = sorted(range(len(sizes)), key=lambda i: (sizes[i], i))
    vals = [float(sizes[i]) for i in order]
    if len(set(vals)) != len(vals):
        raise BetSizeError(f"tree sizes must be distinct, got {list(sizes)!r}")
    if x <= vals[0]:
        return [(order[0], 1.0)]
    if x >= vals[-1]:
        return [(order[-1], 1.0)]
    hi = int(np.searchsorted(np.asarray(vals), x, side="left"))
    lo = hi - 1
    if vals[hi] == x:
        return [(order[hi], 1.0)]
    a, b = vals[lo], vals[hi]
    if method == "nearest":
        return [(order[lo], 1.0)] if x - a <= b - x else [(order[hi], 1.0)]
    p = pseudo_harmonic(x, a, b)
    out = [(order[lo], p), (order[hi], 1.0 - p)]
    return [(i, q) for i, q in out if q > 0]


def translate(x: float, sizes: Sequence[float], *, method: str = "pseudo_harmonic",
              rng: np.random.Generator | None = None) -> int:
    """One index into ``sizes`` for a bet of ``x``, sampled with ``rng`` when randomised."""
    probs = translation_probs(x, sizes, method=method)
    if len(probs) == 1:
        return probs[0][0]
    if rng is None:
        raise BetSizeError("the pseudo-harmonic mapping is randomised: pass rng (seeded)")
    u = float(rng.random())
    return probs[0][0] if u < probs[0][1] else probs[1][0]


class BettingState(Protocol):
    """What :class:`ActionMap` reads from a state (``HoldemState`` provides all of it)."""

    @property
    def config(self) -> HoldemConfig: ...

    @property
    def street(self) -> int: ...

    @property
    def pot(self) -> int: ...

    @property
    def bets(self) -> Any: ...

    @property
    def to_call(self) -> int: ...

    @property
    def can_fold(self) -> bool: ...

    @property
    def can_raise(self) -> bool: ...

    @property
    def min_raise_to(self) -> int: ...

    @property
    def max_raise_to(self) -> int: ...

    @property
    def num_raises(self) -> int: ...


def check_translation(method: str) -> str:
    """The canonical translation name (``pseudo-harmonic`` -> ``pseudo_harmonic``)."""
    m = method.strip().lower().replace("-", "_")
    if m not in METHODS:
        raise ConfigError(f"unknown translation {method!r}; expected one of {', '.join(METHODS)}")
    return m


@dataclass(frozen=True, kw_only=True)
class Identity:
    """Every legal chip amount is an action (no abstraction)."""

    kind: str = field(default="identity", init=False)

    def action_map(self) -> ActionMap:
        return ActionMap(None)

    def spec(self) -> str:
        """The ``load_game`` parameter form (empty: identity is the default)."""
        return ""

    def to_json(self) -> dict[str, Any]:
        return {"kind": "identity"}


@dataclass(frozen=True, kw_only=True)
class BetSetAbstraction:
    """Fold, check/call and the sizes of ``bets``; off-tree bets translated by
    ``translation`` (randomised pseudo-harmonic draws use ``seed``)."""

    bets: BetSet
    translation: str = "pseudo_harmonic"
    seed: int = 0
    kind: str = field(default="bets", init=False)

    def __post_init__(self) -> None:
        if not isinstance(self.bets, BetSet):
            raise ConfigError(f"bets must be a BetSet, got {self.bets!r}")
        object.__setattr__(self, "translation", check_translation(self.translation))
        if isinstance(self.seed, bool) or not isinstance(self.seed, int):
            raise ConfigError(f"seed must be an integer, got {self.seed!r}")

    def action_map(self) -> ActionMap:
        return ActionMap(self.bets, translation=self.translation)

    def rng(self) -> np.random.Generator:
        """A fresh generator for the translation draws (seeded with ``seed``)."""
        return np.random.default_rng(self.seed)

    def spec(self) -> str:
        """The ``load_game`` parameter form, e.g. ``bets=thesis,translation=nearest``."""
        from pokerlab.abstraction.bets import PRESETS

        b = self.bets.name if self.bets.name in PRESETS else self.bets.text()
        out = f"bets={b}"
        if self.translation != "pseudo_harmonic":
            out += f",translation={self.translation}"
        if self.seed:
            out += f",seed={self.seed}"
        return out

    def to_json(self) -> dict[str, Any]:
        return {"kind": "bets", "bets": self.bets.to_json(), "translation": self.translation,
                "seed": self.seed}


ActionAbstraction = Identity | BetSetAbstraction


def abstraction_from_json(obj: dict[str, Any]) -> ActionAbstraction:
    kind = obj.get("kind")
    if kind == "identity":
        return Identity()
    if kind == "bets":
        bets = obj.get("bets")
        if not isinstance(bets, dict):
            raise ConfigError(f"bet-set abstraction JSON needs 'bets', got {obj!r}")
        return BetSetAbstraction(bets=BetSet.from_json(bets),
                                 translation=str(obj.get("translation", "pseudo_harmonic")),
                                 seed=int(obj.get("seed", 0)))
    raise ConfigError(f"unknown action abstraction kind {kind!r}")


def make_abstraction(bets: str | BetSet | None, *, translation: str = "pseudo_harmonic",
                     seed: int = 0) -> ActionAbstraction:
    """``None``/``""``/``"identity"``/``"none"`` -> :class:`Identity`; otherwise a bet set
    (preset name or text form, see :mod:`pokerlab.abstraction.bets`)."""
    if bets is None or (isinstance(bets, str) and bets.strip().lower() in
                        ("", "identity", "none", "all")):
        return Identity()
    bs = bets if isinstance(bets, BetSet) else parse_bet_set(bets, name=_bet_name(bets))
    return BetSetAbstraction(bets=bs, translation=translation, seed=seed)


def _bet_name(text: str) -> str:
    from pokerlab.abstraction.bets import PRESETS

    t = text.strip().lower()
    return t if t in PRESETS else "custom"


class ActionMap:
    """Real <-> abstract actions at real betting states (see the module docstring).

    ``ActionMap(None)`` is the identity map; ``ActionMap(bets, translation=...)`` a bet set.
    Instances are immutable and cheap; equal maps compare equal.
    """

    __slots__ = ("bets", "translation")

    def __init__(self, bets: BetSet | None, *, translation: str = "pseudo_harmonic") -> None:
        if bets is not None and not isinstance(bets, BetSet):
            raise ConfigError(f"bets must be a BetSet or None, got {bets!r}")
        self.bets = bets
        self.translation = check_translation(translation)

    @property
    def is_identity(self) -> bool:
        return self.bets is None

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, ActionMap) and other.bets == self.bets
                and other.translation == self.translation)

    def __hash__(self) -> int:
        return hash((self.bets, self.translation))

    def __repr__(self) -> str:
        if self.bets is None:
            return "ActionMap(identity)"
        return f"ActionMap({self.bets.text()!r}, translation={self.translation!r})"

    # ------------------------------------------------------------------ ids
    def num_distinct_actions(self, config: HoldemConfig) -> int:
        """Upper bound (exclusive) of the ids this map uses under ``config``."""
        if self.bets is None:
            return RAISE0 + max(config.stacks) + 1
        return RAISE0 + self.bets.max_sizes

    def raise_options(self, state: BettingState) -> list[tuple[int, int]]:
        """``(abstract id, raise-to chips)`` of the legal raises here, by amount.  Empty when
        the actor cannot raise (or the street's raise cap is reached)."""
        if not state.can_raise:
            return []
        lo, hi = int(state.min_raise_to), int(state.max_raise_to)
        if self.bets is None:
            return [(RAISE0 + x, x) for x in range(lo, hi + 1)]
        top = int(max(state.bets))
        opts = resolve_raises(self.bets.street(int(state.street)), pot=int(state.pot),
                              current_bet=top, to_call=int(state.to_call), min_raise_to=lo,
                              all_in_to=hi, big_blind=int(state.config.big_blind),
                              raises_so_far=int(state.num_raises))
        return [(RAISE0 + k, amt) for k, amt in opts]

    def abstract_actions(self, state: BettingState) -> list[int]:
        """Legal abstract action ids at a betting state (ascending)."""
        acts = [FOLD] if state.can_fold else []
        acts.append(CALL)
        if self.bets is None:
            if state.can_raise:
                acts.extend(range(RAISE0 + int(state.min_raise_to),
                                  RAISE0 + int(state.max_raise_to) + 1))
            return acts
        acts.extend(sorted(a for a, _ in self.raise_options(state)))
        return acts

    def raise_amount(self, state: BettingState, abstract_id: int) -> int:
        """Raise-to chips of an abstract raise id legal at ``state``."""
        a = int(abstract_id)
        if a >= RAISE0:
            if self.bets is None:
                x = a - RAISE0
                if state.can_raise and state.min_raise_to <= x <= state.max_raise_to:
                    return x
            else:
                for i, amt in self.raise_options(state):
                    if i == a:
                        return amt
        raise IllegalActionError(
            f"action {a} is not a legal raise here "
            f"(legal: {_fmt_ids(self.abstract_actions(state))})")

    def to_real(self, state: BettingState, abstract_id: int) -> Action:
        """The real action of an abstract id (legal at ``state``, else IllegalActionError)."""
        a = int(abstract_id)
        if a == FOLD:
            if not state.can_fold:
                raise IllegalActionError("fold is not legal here (not facing a bet)")
            return Action(kind=ActionKind.FOLD)
        if a == CALL:
            return Action(kind=ActionKind.CHECK_CALL)
        return Action(kind=ActionKind.RAISE, amount=self.raise_amount(state, a))

    def action_name(self, state: BettingState, abstract_id: int) -> str:
        """Readable name: ``fold``, ``check``, ``call``, ``raise 75% to 450``."""
        a = int(abstract_id)
        if a == FOLD:
            return "fold"
        if a == CALL:
            return "check" if state.to_call == 0 else "call"
        amt = self.raise_amount(state, a)
        if self.bets is None:
            return f"raise to {amt}"
        size = self.bets.street(int(state.street)).sizes[a - RAISE0]
        return f"raise {size.text()} to {amt}"

    # ------------------------------------------------------------------ translation
    def translate(self, state: BettingState, real: Action | int, *,
                  allin_behind: float | None = None) -> list[tuple[int, float]]:
        """A real action (an :class:`Action`, or a raise-to amount in chips) at ``state`` as
        ``(abstract id, probability)`` pairs (probabilities > 0, summing to 1).

        ``allin_behind`` (a share, e.g. 0.5): a real raise that is not all-in and leaves
        more than ``allin_behind`` times the effective starting stack behind the raiser is
        never mapped to the abstract all-in (the all-in size leaves the candidates when
        another raise is left).  Pseudo-harmonic mapping in pot fractions otherwise reads
        a 4 BB raise at 100 BB as all-in about one time in five.

        Raises :class:`IllegalActionError` when the real action is not legal at ``state``.
        """
        act = real if isinstance(real, Action) else Action(kind=ActionKind.RAISE,
                                                           amount=int(real))
        if act.kind == ActionKind.FOLD:
            if not state.can_fold:
                raise IllegalActionError("fold is not legal here (not facing a bet)")
            return [(FOLD, 1.0)]
        if act.kind == ActionKind.CHECK_CALL:
            return [(CALL, 1.0)]
        x = int(act.amount)
        if not (state.can_raise and state.min_raise_to <= x <= state.max_raise_to):
            lo, hi = (state.min_raise_to, state.max_raise_to) if state.can_raise else (0, 0)
            raise IllegalActionError(
                f"raise to {x} is not legal here (legal raise-to range {lo}..{hi}"
                f"{'' if state.can_raise else ': no raise allowed'})")
        if self.bets is None:
            return [(RAISE0 + x, 1.0)]
        opts = self.raise_options(state)
        if not opts:
            return [(CALL, 1.0)]
        for i, amt in opts:
            if amt == x:
                return [(i, 1.0)]
        hi = int(state.max_raise_to)
        if allin_behind is not None and x < hi and len(opts) > 1 and opts[-1][1] == hi:
            behind = hi - x
            if behind > allin_behind * min(state.config.stacks):
                opts = opts[:-1]
        top = int(max(state.bets))
        tc = int(state.to_call)
        pot = int(state.pot)
        fr = [pot_fraction(raise_to=amt, pot=pot, current_bet=top, to_call=tc)
              for _, amt in opts]
        fx = pot_fraction(raise_to=x, pot=pot, current_bet=top, to_call=tc)
        probs = translation_probs(fx, fr, method=self.translation)
        return [(opts[i][0], p) for i, p in probs]

    def sample(self, state: BettingState, real: Action | int,
               rng: np.random.Generator | None = None) -> int:
        """One abstract id for a real action, drawn from :meth:`translate` with ``rng``
        (needed only when the translation is randomised)."""
        probs = self.translate(state, real)
        if len(probs) == 1:
            return probs[0][0]
        if rng is None:
            raise BetSizeError("the pseudo-harmonic mapping is randomised: pass rng (seeded)")
        return pick(probs, float(rng.random()))


def fit_raise(aid: int, legal: list[int]) -> int | None:
    """The raise id to play for abstract raise ``aid`` among the ``legal`` ids: itself when
    legal, else the largest smaller raise, else the smallest raise; ``None`` when no raise
    is legal.  (The one rule by which policy agents and opponent models fit a translated
    size to a node or state that does not offer it.)"""
    if aid in legal:
        return aid
    raises = [a for a in legal if a >= RAISE0]
    if not raises:
        return None
    smaller = [a for a in raises if a < aid]
    return max(smaller) if smaller else min(raises)


def _fmt_ids(ids: list[int]) -> str:
    if len(ids) <= 12:
        return str(ids)
    return f"[{ids[0]}, {ids[1]}, {ids[2]}..{ids[-1]}] ({len(ids)} ids)"

