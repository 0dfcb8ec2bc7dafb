"""Opponent models estimated from observations, with a Dirichlet prior.

An observation is one decision of the opponent: ``(information-state key, action)`` when
its private cards are known (a showdown, or a log that shows every card), or
``(public-state key, action)`` when they are not.  The model keeps both count tables
(:class:`ObservedModel`), so data-biased responses can weight each information set by how
much was seen there.

Posterior mean at an information set ``I`` with counts ``n_I(a)`` (``n_I`` in all)::

    model(I, a) = (n_I(a) + s * base(I, a)) / (n_I + s)

with ``s`` the prior strength in pseudo-observations and ``base`` the prior policy (the
equilibrium by default).  Where the public node ``P(I)`` has counts, the base itself is first
pulled toward the public frequencies the same way (a two-level hierarchical prior):
``base(I, a) = (m_P(a) + s * prior(I, a)) / (m_P + s)``.

Model files are JSON with a sha256 checksum (never pickle), written atomically.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pokerlab.errors import ConfigError, PolicyFileError
from pokerlab.games.protocol import State
from pokerlab.io import atomic_path
from pokerlab.policy.base import Policy

MODEL_FORMAT = "pokerlab-opponent-model"
MODEL_VERSION = 1

Counts = dict[str, dict[int, float]]


@dataclass(frozen=True, kw_only=True)
class Observation:
    """One observed decision: ``key`` is an information-state key when ``private`` is true,
    a public-state key otherwise."""

    key: str
    action: int
    private: bool = True


class ObservedModel(Policy):
    """Frequencies of observed actions plus a Dirichlet prior toward ``prior``."""

    def __init__(self, *, prior: Policy, strength: float = 1.0,
                 infoset_counts: Mapping[str, Mapping[int, float]] | None = None,
                 public_counts: Mapping[str, Mapping[int, float]] | None = None,
                 metadata: Mapping[str, Any] | None = None) -> None:
        if not np.isfinite(strength) or strength < 0:
            raise ConfigError(f"prior strength must be finite and >= 0, got {strength!r}")
        self.prior = prior
        self.strength = float(strength)
        self.infoset_counts: Counts = {k: {int(a): float(c) for a, c in v.items()}
                                       for k, v in (infoset_counts or {}).items()}
        self.public_counts: Counts = {k: {int(a): float(c) for a, c in v.items()}
                                      for k, v in (public_counts or {}).items()}
        self.metadata = dict(metadata or {})

    # -------------------------------------------------------------- counting
    def add(self, observations: Iterable[Observation]) -> None:
        for ob in observations:
            table = self.infoset_counts if ob.private else self.public_counts
            row = table.setdefault(ob.key, {})
            row[int(ob.action)] = row.get(int(ob.action), 0.0) + 1.0

    def count(self, key: str) -> float:
        """Observations at information set ``key``."""
        return float(sum(self.infoset_counts.get(key, {}).values()))

    @property
    def num_observations(self) -> int:
        return int(sum(sum(v.values()) for v in self.infoset_counts.values())
                   + sum(sum(v.values()) for v in self.public_counts.values()))

    # -------------------------------------------------------------- policy
    def action_probabilities(self, state: State) -> dict[int, float]:
        legal = state.legal_actions()
        prior = self.prior.action_probabilities(state)
        s = self.strength
        base = {a: float(prior.get(a, 0.0)) for a in legal}
        pub = self.public_counts.get(state.public_state_string())
        if pub:
            m = sum(pub.get(a, 0.0) for a in legal)
            if m + s > 0:
                base = {a: (pub.get(a, 0.0) + s * base[a]) / (m + s) for a in legal}
        row = self.infoset_counts.get(state.information_state_string())
        if row:
            n = sum(row.get(a, 0.0) for a in legal)
            if n + s > 0:
                return {a: (row.get(a, 0.0) + s * base[a]) / (n + s) for a in legal}
        return base

    # -------------------------------------------------------------- files
    def to_json(self) -> dict[str, Any]:
        body = {"strength": self.strength, "metadata": self.metadata,
                "infoset_counts": {k: {str(a): c for a, c in v.items()}
                                   for k, v in sorted(self.infoset_counts.items())},
                "public_counts": {k: {str(a): c for a, c in v.items()}
                                  for k, v in sorted(self.public_counts.items())}}
        text = json.dumps(body, sort_keys=True)
        return {"format": MODEL_FORMAT, "version": MODEL_VERSION,
                "sha256": hashlib.sha256(text.encode()).hexdigest(), "body": body}


def save_observed_model(model: ObservedModel, path: str | Path) -> None:
    """The model as JSON with a real header: ``format``, ``version`` and ``sha256`` come
    first (the body after them, its keys sorted), so the tag is in the file's first bytes."""
    with atomic_path(path) as tmp:
        tmp.write_text(json.dumps(model.to_json(), indent=1))


def is_model_file(path: Path) -> bool:
    """Whether ``path`` is a JSON file carrying the model's format tag, wherever it is
    (with sorted keys the tag comes after the body, at the end of a large file)."""
    from pokerlab.io import file_has_tag

    return file_has_tag(path, MODEL_FORMAT.encode(), first=b"{")


def load_observed_model(path: str | Path, game: Any, *, prior: Policy | None = None
                        ) -> ObservedModel:
    """Read a model file; ``prior`` defaults to the game's equilibrium."""
    p = Path(path)
    try:
        obj = json.loads(p.read_text())
    except OSError as exc:
        raise PolicyFileError(f"cannot read opponent model {p}: {exc.strerror}") from None
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise PolicyFileError(f"{p} is not an opponent model file (not JSON)") from None
    if not isinstance(obj, dict) or obj.get("format") != MODEL_FORMAT:
        raise PolicyFileError(f"{p} is not an opponent model file")
    if obj.get("version") != MODEL_VERSION:
        raise PolicyFileError(f"{p}: unsupported model version {obj.get('version')!r}")
    body = obj.get("body")
    if not isinstance(body, dict):
        raise PolicyFileError(f"{p}: malformed opponent model body")
    text = json.dumps(body, sort_keys=True)
    if hashlib.sha256(text.encode()).hexdigest() != obj.get("sha256"):
        raise PolicyFileError(f"{p}: checksum mismatch (file changed or damaged)")
    try:
        ic = {k: {int(a): float(c) for a, c in v.items()} for k, v in body["infoset_counts"].items()}
        pc = {k: {int(a): float(c) for a, c in v.items()} for k, v in body["public_counts"].items()}
        strength = float(body["strength"])
    except (KeyError, TypeError, ValueError, AttributeError):
        raise PolicyFileError(f"{p}: malformed opponent model body") from None
    if prior is None:
        from pokerlab.opponents.equilibrium import equilibrium

        prior = equilibrium(game)
    return ObservedModel(prior=prior, strength=strength, infoset_counts=ic, public_counts=pc,
                         metadata=body.get("metadata") or {})


def read_observations(path: str | Path) -> list[Observation]:
    """JSON lines: ``{"infoset": KEY, "action": A}`` or ``{"public": KEY, "action": A}``."""
    p = Path(path)
    try:
        lines = p.read_text().splitlines()
    except OSError as exc:
        raise ConfigError(f"cannot read observations {p}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{p} is not a text file of observations") from None
    out = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            d = json.loads(line)
            if "infoset" in d:
                out.append(Observation(key=str(d["infoset"]), action=int(d["action"])))
            elif "public" in d:
                out.append(Observation(key=str(d["public"]), action=int(d["action"]),
                                       private=False))
            else:
                raise KeyError("infoset")
        except (json.JSONDecodeError, KeyError, TypeError, ValueError):
            raise ConfigError(
                f"{p}:{n}: expected {{\"infoset\"|\"public\": KEY, \"action\": INT}}, "
                f"got {line[:80]!r}") from None
    if not out:
        raise ConfigError(f"{p} holds no observations")
    return out


def write_observations(observations: Iterable[Observation], path: str | Path) -> None:
    with atomic_path(path) as tmp, open(tmp, "w") as fh:
        for ob in observations:
            fh.write(json.dumps({("infoset" if ob.private else "public"): ob.key,
                                 "action": ob.action}) + "\n")


def sample_observations(game: Any, opponent: Policy, opponent_player: int, probe: Policy,
                        hands: int, *, seed: int = 0, reveal: str = "always"
                        ) -> list[Observation]:
    """Play ``hands`` hands of ``probe`` (the other seat) against ``opponent`` in seat
    ``opponent_player`` and record the opponent's decisions.

    ``reveal="always"``: the opponent's cards are seen after every hand (every decision is
    an information-set observation).  ``reveal="showdown"``: only hands that reach a
    showdown (no fold) reveal them; other decisions are public-node observations.
    """
    if reveal not in ("always", "showdown"):
        raise ConfigError(f"reveal must be 'always' or 'showdown', got {reveal!r}")
    if hands < 0:
        raise ConfigError(f"hands must be >= 0, got {hands}")
    rng = np.random.default_rng(seed)
    out: list[Observation] = []
    for _ in range(hands):
        st = game.new_initial_state()
        pending: list[tuple[str, str, int]] = []
        folded = False
        while not st.is_terminal():
            if st.is_chance_node():
                outs = st.chance_outcomes()
                k = rng.choice(len(outs), p=np.array([q for _, q in outs]))
                st.apply_action(outs[int(k)][0])
                continue
            p = st.current_player()
            pol = opponent if p == opponent_player else probe
            probs = pol.action_probabilities(st)
            legal = st.legal_actions()
            w = np.array([max(0.0, probs.get(a, 0.0)) for a in legal])
            a = legal[int(rng.choice(len(legal), p=w / w.sum()))]
            if p == opponent_player:
                pending.append((st.information_state_string(p), st.public_state_string(), a))
            from pokerlab.opponents.kinds import FOLD, action_kinds

            if action_kinds(st).get(a) == FOLD:
                folded = True
            st.apply_action(a)
        seen = reveal == "always" or not folded
        for key, pub, a in pending:
            out.append(Observation(key=key, action=a) if seen
                       else Observation(key=pub, action=a, private=False))
    return out


def counts_by_key(observations: Iterable[Observation]) -> dict[str, int]:
    c: dict[str, int] = defaultdict(int)
    for ob in observations:
        if ob.private:
            c[ob.key] += 1
    return dict(c)
