"""HUNL opponent models from hand histories, and node locking in the blueprint trainer.

**Estimation** (:func:`observe_histories`, :func:`estimate_model`): every heads-up no-limit
hand of the PHH files is replayed in the engine beside an abstract hand of the *base*
policy's game (by default the shipped blueprint, ``pokerlab/data/blueprint_policy.npz``).
Each real action of either player is mapped to the abstract game through the one
:class:`~pokerlab.abstraction.action_map.ActionMap` (``translate``: an off-tree raise is
split between its two neighbouring sizes with the translation's probabilities) and the
:class:`~pokerlab.abstraction.action_tree.ActionTree` node is followed; the abstract hand
continues with the most likely abstract action.  The named player's actions are counted
per (node, card bucket) when its hole cards are in the history (buckets from the base
policy's card spec, as :class:`~pokerlab.agents.policy_agent.HUNLPolicyAgent` computes
them) and per node when they are not.  A hand that leaves the tree (the abstract state
cannot follow the real one) stops counting there.  One hand is read by
:func:`pokerlab.agents.adapt_hunl.observe_hand` from its typed events (``events_of``), the
function the adaptive agent ``adapt`` calls after every hand it plays; it and the
posterior (:func:`posterior`) live with that agent, below this layer, and are re-exported
here.

The model is an :class:`~pokerlab.policy.indexed.IndexedPolicy` over the base tree whose row
(node ``n``, bucket ``b``) is the Dirichlet posterior mean

    ``(s * base(n, b) + c(n, b) + u(n) / B(n)) / (s + |c(n, b)| + |u(n)| / B(n))``

with ``s`` the prior strength in pseudo-observations, ``c`` the counts where the cards are
known and ``u`` the node's counts where they are not, spread evenly over its ``B(n)``
buckets (a deviation: a full model would spread them by the posterior over the hidden
hand).  The counts themselves are kept, sparse, in the policy's metadata
(``opponent_model``), so the file is both an agent (``policy:MODEL``) and the data.

**Node locking** (:func:`locked_trainer`): a :class:`~pokerlab.blueprint.trainer.BlueprintTrainer`
with the base policy's configuration whose opponent, at locked rows, plays the model's
fixed probabilities (see :meth:`BlueprintTrainer.set_lock`).  The tables are shared by the
two seats, so the exploiter in seat 0 meets the model in seat 1 and vice versa.  With
weight ``p`` each iteration is a *model* iteration with probability ``p`` (locked rows play
the model) and a *free* one otherwise, in which the opponent plays the shared table's
current strategy (self-play).  Deviation from the restricted Nash response: the free
opponent is the exploiter's own strategy, not a separate worst-case player with its own
tables, so ``p < 1`` regularises toward self-play rather than guaranteeing a worst case.
:func:`adapt_trainer` is the same run for a model in memory (the adaptive agent's refit).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from pokerlab.agents.adapt_hunl import HUNLObservations, observe_hand, posterior
from pokerlab.errors import ConfigError, HandHistoryError

__all__ = ["HUNLObservations", "LockConfig", "adapt_trainer", "estimate_model",
           "load_model", "lock_rows", "locked_trainer", "observe_histories", "posterior",
           "save_model", "train_locked"]

MODEL_KIND = "hunl-opponent-model"
HISTORY_SUFFIXES = (".phh", ".phhs")


def is_history_input(path: str | Path) -> bool:
    """True for a ``.phh`` / ``.phhs`` file or a folder (HUNL hand histories)."""
    p = Path(path)
    return p.is_dir() or p.suffix.lower() in HISTORY_SUFFIXES


def history_files(paths: Iterable[str | Path]) -> list[Path]:
    """The PHH files of ``paths`` (folders searched recursively, sorted)."""
    out: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            out.extend(sorted(q for q in p.rglob("*") if q.suffix.lower() in HISTORY_SUFFIXES))
        elif p.exists():
            out.append(p)
        else:
            raise HandHistoryError(f"no such hand-history file or folder: {str(p)!r}")
    if not out:
        raise HandHistoryError(f"no .phh/.phhs files in {[str(p) for p in paths]!r}")
    return out


def default_base_path() -> Path:
    """The shipped blueprint policy (the default prior and tree)."""
    from pokerlab.agents.shipped import BLUEPRINT_FILES, shipped_policy

    p = shipped_policy(BLUEPRINT_FILES)
    if p is None:
        raise ConfigError("no shipped blueprint policy; pass --base POLICY")
    return Path(p)


def base_agent(base: str | Path) -> Any:
    """The :class:`HUNLPolicyAgent` of a dense indexed HUNL policy file."""
    from pokerlab.agents.policy_agent import load_policy_agent

    agent = load_policy_agent(str(base), name="base")
    if not agent.indexed or agent.policy.storage != "dense":
        raise ConfigError(f"base policy {str(base)!r} must be a dense indexed (blueprint) "
                          "policy")
    return agent


def _hands(files: Sequence[Path]) -> Iterable[tuple[Any, Any]]:
    """(PokerKit hand history, final engine state) of every hand of the files."""
    from pokerlab.holdem.phh import load_all, state_from_history

    for f in files:
        try:
            text = f.read_text(encoding="utf-8")
        except OSError as exc:
            raise HandHistoryError(f"cannot read {str(f)!r}: {exc}") from None
        except UnicodeDecodeError:
            raise HandHistoryError(f"{str(f)!r} is not a PHH text file (not UTF-8)") from None
        if not text.strip():
            raise HandHistoryError(f"{str(f)!r} is empty: no hand to read")
        try:
            hands = [(hh, state_from_history(hh)) for hh in load_all(text)]
        except HandHistoryError as exc:
            raise HandHistoryError(f"{str(f)!r}: {exc}") from None
        yield from hands


def observe_histories(paths: Iterable[str | Path], player: str, agent: Any) -> HUNLObservations:
    """Count ``player``'s abstract actions in the hands of ``paths`` (see the module doc):
    each hand through :func:`~pokerlab.agents.adapt_hunl.observe_hand` (what the adaptive
    agent calls after every hand it plays), with the player's hole cards when the history
    has them."""
    from pokerlab.holdem.events import events_of

    obs = HUNLObservations.empty(player, agent)
    names_seen: set[str] = set()
    for hh, final in _hands(history_files(paths)):
        names = [str(x) for x in (getattr(hh, "players", None) or [])]
        names_seen.update(names)
        if player not in names:
            continue
        me = names.index(player)
        observe_hand(obs, agent, events_of(final), final.config, me, tuple(final.hole[me]))
    if obs.hands == 0:
        raise HandHistoryError(f"player {player!r} plays no hand in these histories "
                               f"(players seen: {sorted(names_seen)[:10]!r})")
    return obs


def estimate_model(paths: Iterable[str | Path], player: str, *, base: str | Path | None = None,
                   strength: float = 1.0) -> tuple[Any, HUNLObservations]:
    """(model :class:`IndexedPolicy`, observations) of ``player`` in the hands of ``paths``."""
    from pokerlab.policy.indexed import IndexedPolicy

    base_path = Path(base) if base is not None else default_base_path()
    agent = base_agent(base_path)
    obs = observe_histories(paths, player, agent)
    probs = posterior(agent, obs, strength)
    pol = agent.policy
    meta = dict(pol.metadata)
    meta["opponent_model"] = {"kind": MODEL_KIND, "prior_strength": float(strength),
                              "base": str(base_path), **obs.to_json()}
    model = IndexedPolicy(num_children=pol.num_children, child_action=pol.child_action,
                          num_buckets=pol.num_buckets, probs=probs, metadata=meta)
    return model, obs


def save_model(model: Any, path: str | Path) -> None:
    from pokerlab.policy.indexed import save_indexed_policy

    save_indexed_policy(model, path)


def load_model(path: str | Path) -> tuple[Any, HUNLObservations]:
    """(model policy, its observations) from a file written by :func:`save_model`."""
    from pokerlab.policy.indexed import IndexedPolicy, load_any_policy

    pol = load_any_policy(path)
    info = pol.metadata.get("opponent_model") if isinstance(pol.metadata, dict) else None
    if not isinstance(pol, IndexedPolicy) or not isinstance(info, dict) or info.get(
            "kind") != MODEL_KIND:
        raise ConfigError(f"{str(path)!r} is not a HUNL opponent model "
                          "(pokerlab opponent model HISTORIES --player NAME --out MODEL)")
    obs = HUNLObservations.from_json(info, int(pol.probs.shape[0]),
                                     int(pol.child_action.shape[0]))
    return pol, obs


# ---------------------------------------------------------------------- node locking
@dataclass(frozen=True, kw_only=True)
class LockConfig:
    """A locked training run (saved as ``lock.json`` next to the policy)."""

    model: str
    p: float = 1.0
    rows: str = "all"  # all | observed
    iterations: int = 100_000
    seed: int = 0

    def __post_init__(self) -> None:
        if not 0.0 <= self.p <= 1.0:
            raise ConfigError(f"lock weight p must be in [0, 1], got {self.p}")
        if self.rows not in ("all", "observed"):
            raise ConfigError(f"locked rows must be 'all' or 'observed', got {self.rows!r}")
        if self.iterations < 0:
            raise ConfigError(f"iterations must be >= 0, got {self.iterations}")
        if self.seed < 0:
            raise ConfigError(f"seed must be >= 0, got {self.seed}")


def _decision_rows(model: Any) -> Iterator[tuple[int, int, int, int]]:
    """``(first value, actions, buckets, first child edge)`` of each node of a blueprint
    layout (policy or model) that has actions and buckets; its rows start at
    ``first value + b * actions``."""
    for node in range(model.num_nodes):
        k = int(model.num_children[node])
        nb = int(model.num_buckets[node])
        if k and nb:
            yield int(model.node_offset[node]), k, nb, int(model.child_start[node])


def lock_rows(model: Any, obs: HUNLObservations, rows: str = "all") -> np.ndarray:
    """Per-value flags (set at each locked row's first value): every row, or (``observed``)
    the rows with a count where the cards were known or at a node with public counts."""
    flags = np.zeros(model.probs.shape[0], dtype=np.bool_)
    for lo, k, nb, cs in _decision_rows(model):
        pub = obs.public[cs:cs + k].sum() > 0
        for b in range(nb):
            s = lo + b * k
            if rows == "all" or pub or obs.known[s:s + k].sum() > 0:
                flags[s] = True
    return flags


def locked_trainer(cfg: LockConfig) -> tuple[Any, int]:
    """A blueprint trainer (the model's base configuration, ``cfg.seed``) with the model
    locked in; returns (trainer, number of locked rows).  Call ``run`` to train."""
    model, obs = load_model(cfg.model)
    flags = lock_rows(model, obs, cfg.rows)
    tr = _locked(model.metadata, model.probs, flags, cfg.p, cfg.seed, f"model {cfg.model!r}")
    return tr, int(flags.sum())


def _locked(metadata: dict[str, Any], probs: np.ndarray, flags: np.ndarray, p: float,
            seed: int, what: str) -> Any:
    """A fresh blueprint trainer with the configuration in ``metadata`` (a blueprint
    policy's or a model's) and ``probs`` locked at the ``flags`` rows with weight ``p``."""
    from pokerlab.blueprint.config import BlueprintConfig
    from pokerlab.blueprint.trainer import BlueprintTrainer

    bcfg = metadata.get("config") if isinstance(metadata, dict) else None
    if not isinstance(bcfg, dict):
        raise ConfigError(f"{what} has no blueprint config in its metadata")
    tr = BlueprintTrainer(replace(BlueprintConfig.from_json(bcfg), seed=int(seed)))
    if (tr.layout.num_values != probs.shape[0]
            or tr.tree.fingerprint() != metadata.get("tree_fingerprint")):
        raise ConfigError(f"{what} does not fit its blueprint's betting tree")
    tr.set_lock(np.asarray(probs, dtype=np.float64), flags, p)
    return tr


def adapt_trainer(base: Any, probs: np.ndarray, *, p: float, seed: int,
                  warm: float = 0.0) -> Any:
    """The adaptive agent's refit (:mod:`pokerlab.agents.adapt_hunl`): a trainer from
    scratch with the base blueprint policy's configuration and every row of the opponent
    locked to the model ``probs`` (base layout) with weight ``p`` -- :func:`locked_trainer`
    of a model in memory (``rows="all"``).  Call ``run`` to train, ``policy()`` for the
    response: the trained strategy where the run updated the row's regrets, the base
    policy's row where it never did (a short run from scratch leaves many rare (node,
    bucket) rows untouched, and an untouched row's regret matching is uniform: folding a
    third of the time).  ``warm > 0`` starts at the base instead of from scratch: every
    regret ``100 * warm * base`` chips and every average-strategy sum ``warm * base``
    (linear CFR's discounting shrinks both as the run goes)."""
    flags = np.zeros(base.probs.shape[0], dtype=np.bool_)
    for lo, k, nb, _ in _decision_rows(base):
        flags[lo:lo + nb * k:k] = True
    tr = _locked(base.metadata, probs, flags, p, seed, "the adapt base policy")
    if warm > 0:  # start at the base: regrets and average sums proportional to its rows
        bp = np.asarray(base.probs, dtype=np.float64)
        tr.regret[:] = (warm * 100.0 * bp).astype(tr.regret.dtype)
        if tr.avg.size:
            tr.avg[:] = (warm * bp).astype(tr.avg.dtype)
    return _AdaptRun(tr, base)


class _AdaptRun:
    """A locked trainer whose policy falls back to the base at rows it never updated."""

    def __init__(self, trainer: Any, base: Any) -> None:
        self.trainer = trainer
        self.base = base

    @property
    def iterations(self) -> int:
        return int(self.trainer.iterations)

    def run(self, iterations: int) -> None:
        self.trainer.run(iterations)

    def policy(self) -> Any:
        pol = self.trainer.policy()
        probs = np.asarray(pol.probs, dtype=np.float32).copy()
        reg = self.trainer.regret
        base = np.asarray(self.base.probs, dtype=np.float32)
        kept = 0
        for node in range(pol.num_nodes):
            k = int(pol.num_children[node])
            nb = int(pol.num_buckets[node])
            if k == 0 or nb == 0:
                continue
            lo = int(pol.node_offset[node])
            hi = lo + nb * k
            cold = ~np.any(reg[lo:hi].reshape(nb, k) != 0, axis=1)
            if cold.any():
                rows = probs[lo:hi].reshape(nb, k)
                rows[cold] = base[lo:hi].reshape(nb, k)[cold]
                kept += int(cold.sum())
        pol.probs = probs
        pol.metadata["adapt"] = {"base_rows": kept}
        return pol


def train_locked(cfg: LockConfig, out: str | Path, *,
                 progress: Callable[[int, int, dict[str, Any]], None] | None = None
                 ) -> dict[str, Any]:
    """Train the exploiting strategy and write ``out/policy.npz`` (an agent:
    ``policy:out/policy.npz``), ``checkpoint.npz``, ``config.json``, ``lock.json``."""
    from pokerlab.io import atomic_write_json
    from pokerlab.policy.indexed import save_indexed_policy

    tr, nlocked = locked_trainer(cfg)
    tr.run(cfg.iterations, progress=progress)
    folder = Path(out)
    tr.save(folder, policy=False)
    pol = tr.policy()
    pol.metadata["exploit"] = {"kind": "node-lock", **asdict(cfg), "locked_rows": nlocked}
    save_indexed_policy(pol, folder / "policy.npz")
    atomic_write_json(folder / "lock.json", asdict(cfg))
    return {"model": cfg.model, "p": cfg.p, "rows": cfg.rows, "locked_rows": nlocked,
            "iterations": tr.iterations, "seconds": round(tr.seconds, 3),
            "policy_path": str(folder / "policy.npz")}
