"""Opponent models: an opponent model is a :class:`~pokerlab.policy.Policy`.

Built-in models (for every small game, push/fold and anything whose actions read as
fold / check / call / bet / raise):

* ``random`` -- uniform over the legal actions;
* ``call`` -- always check or call (a calling station);
* ``raise`` -- bet or raise whenever legal, else check/call;
* ``fold`` -- check when it is free, else fold;
* ``mix:W:SPEC1:SPEC2`` -- ``SPEC1`` with probability ``W``, ``SPEC2`` otherwise (per
  decision, so the mixture is again a behavioural policy), e.g. ``mix:0.8:nash:random``;
* ``nash`` (or ``equilibrium``) -- the exact equilibrium from the sequence-form LP;
* a path to a saved policy file.

What an action *means* (fold, check, call, bet, raise) is read from the state with
:func:`action_kinds`; the games' own action names are the capability used
(``Fold``/``Call``/``Raise`` as in OpenSpiel's Leduc and universal_poker, ``Pass``/``Bet``
in Kuhn-like games, ``fold``/``shove``/``call`` in push/fold).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pokerlab.errors import ConfigError
from pokerlab.games.protocol import State
from pokerlab.opponents.equilibrium import equilibrium  # noqa: F401
from pokerlab.opponents.kinds import BET, CALL, CHECK, FOLD, RAISE, action_kinds, facing_bet  # noqa: F401
from pokerlab.policy.base import Policy, UniformRandomPolicy

BUILTIN = ("random", "call", "raise", "fold")


class RuleModel(Policy):
    """A deterministic built-in model (``call``, ``raise`` or ``fold``)."""

    def __init__(self, kind: str) -> None:
        if kind not in ("call", "raise", "fold"):
            raise ConfigError(f"unknown rule model {kind!r}")
        self.kind = kind
        self.name = kind

    def action_probabilities(self, state: State) -> dict[int, float]:
        kinds = action_kinds(state)
        by: dict[str, int] = {k: a for a, k in kinds.items()}
        if self.kind == "call":
            order = (CHECK, CALL, BET, RAISE, FOLD)
        elif self.kind == "raise":
            order = (RAISE, BET, CALL, CHECK, FOLD)
        else:
            order = (CHECK, FOLD, CALL, BET, RAISE)
        for k in order:
            if k in by:
                return {a: (1.0 if a == by[k] else 0.0) for a in kinds}
        raise ConfigError(f"no legal action at {state.information_state_string()!r}")


class MixtureModel(Policy):
    """``w * first + (1 - w) * second`` at every information set."""

    def __init__(self, w: float, first: Policy, second: Policy, name: str = "mix") -> None:
        if not 0.0 <= w <= 1.0:
            raise ConfigError(f"mixture weight must be in [0, 1], got {w!r}")
        self.w = float(w)
        self.first = first
        self.second = second
        self.name = name

    def action_probabilities(self, state: State) -> dict[int, float]:
        a = self.first.action_probabilities(state)
        b = self.second.action_probabilities(state)
        return {k: self.w * a.get(k, 0.0) + (1.0 - self.w) * b.get(k, 0.0)
                for k in set(a) | set(b)}


class NamedUniform(UniformRandomPolicy):
    name = "random"


def load_model(spec: str, game: Any) -> Policy:
    """An opponent model from its spec (see module docs)."""
    spec = spec.strip()
    if not spec:
        raise ConfigError("empty opponent spec")
    if spec == "random":
        return NamedUniform()
    if spec in ("call", "raise", "fold"):
        return RuleModel(spec)
    if spec in ("nash", "equilibrium"):
        return equilibrium(game)
    if spec.startswith("mix:"):
        parts = spec.split(":", 3)
        if len(parts) != 4:
            raise ConfigError(f"mixture spec must be mix:W:SPEC1:SPEC2, got {spec!r}")
        try:
            w = float(parts[1])
        except ValueError:
            raise ConfigError(f"mixture weight {parts[1]!r} in {spec!r} is not a number") from None
        first, second = _split_specs(parts[2] + ":" + parts[3], spec)
        return MixtureModel(w, load_model(first, game), load_model(second, game), name=spec)
    path = spec[len("policy:"):] if spec.startswith("policy:") else spec
    if os.path.exists(path):
        from pokerlab.opponents.estimate import is_model_file, load_observed_model
        from pokerlab.policy.tabular import load_policy

        if is_model_file(Path(path)):
            model = load_observed_model(Path(path), game)
            _same_game(path, getattr(model, "metadata", None), game)
            return model
        pol = load_policy(path)
        _same_game(path, getattr(pol, "metadata", None), game)
        return pol
    raise ConfigError(
        f"unknown opponent {spec!r}: expected one of {', '.join(BUILTIN)}, nash, "
        "mix:W:SPEC1:SPEC2 or the path of a policy/model file")


def _same_game(path: str, metadata: Any, game: Any) -> None:
    """A model or policy file made for another game is refused, naming both games."""
    made = metadata.get("game") if isinstance(metadata, dict) else None
    name = getattr(game, "name", None)
    if isinstance(made, str) and made and isinstance(name, str) and name and \
            made.replace(" ", "") != name.replace(" ", "") and "(" not in made + name:
        from pokerlab.errors import PolicyFileError

        raise PolicyFileError(f"{path!r} was made for {made!r}, not for {name!r}")


def _split_specs(rest: str, spec: str) -> tuple[str, str]:
    """Split ``SPEC1:SPEC2`` where SPEC1 may itself be ``mix:...`` or a path with colons."""
    # try every split point; the first where both halves parse as specs wins
    pieces = rest.split(":")
    for k in range(1, len(pieces)):
        a, b = ":".join(pieces[:k]), ":".join(pieces[k:])
        if _looks_like_spec(a) and _looks_like_spec(b):
            return a, b
    raise ConfigError(f"cannot split {rest!r} of {spec!r} into two opponent specs")


def _looks_like_spec(s: str) -> bool:
    if s in BUILTIN or s in ("nash", "equilibrium"):
        return True
    if s.startswith("mix:"):
        parts = s.split(":")
        if len(parts) < 4:
            return False
        try:
            _split_specs(":".join(parts[2:]), s)
        except ConfigError:
            return False
        return True
    return os.path.exists(s[len("policy:"):] if s.startswith("policy:") else s)
