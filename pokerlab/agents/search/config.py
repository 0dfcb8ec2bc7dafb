"""The search agent's configuration: five frozen groups (:class:`Budget`, :class:`Tree`,
:class:`Safety`, :class:`Opponent`, :class:`DepthLimit`), each validating its own fields,
in one frozen :class:`SearchConfig` that checks what crosses groups.

The spec keys of ``search(k=v,...)`` are written once, in :data:`KEYS`: each key's group,
field, kind and help.  Parsing (:func:`parse_search_spec`), the error listing the known
keys, :meth:`SearchConfig.to_json` / :meth:`SearchConfig.to_spec` and the key table of
docs/search.md (:func:`keys_markdown`) all come from it."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from pokerlab.errors import AgentError, PokerlabError
from pokerlab.games.spec import check_keys, parse_call

STREET_NAMES = {"flop": 1, "turn": 2, "river": 3}


@dataclass(frozen=True, kw_only=True)
class Budget:
    """How long each decision thinks: ``ms`` per decision, or a fixed number of
    ``iterations`` (reproducible play: no time checks); stop early at ``target_pct`` % of
    the pot; solver ``threads``; ``max_memory`` bytes per subgame."""

    ms: float = 1000.0
    iterations: int = 0
    target_pct: float = 0.5
    threads: int = 1
    max_memory: float = 2e9

    def __post_init__(self) -> None:
        if not (math.isfinite(self.ms) and 1 <= self.ms <= 600_000):
            raise AgentError(f"search: ms (think budget per decision) must be 1..600000 milliseconds, "
                             f"got {self.ms!r}")
        if not (math.isfinite(self.target_pct) and self.target_pct >= 0):
            raise AgentError(f"search: target must be >= 0 (% of pot), got {self.target_pct!r}")
        if not (isinstance(self.iterations, int) and 0 <= self.iterations <= 1_000_000):
            raise AgentError(f"search: iters must be 0 (by time) .. 1000000, got {self.iterations!r}")
        if not (isinstance(self.threads, int) and 1 <= self.threads <= 64):
            raise AgentError(f"search: threads must be 1..64, got {self.threads!r}")


@dataclass(frozen=True, kw_only=True)
class Tree:
    """The subgames: the first ``street`` searched (1 flop, 2 turn, 3 river), the sizes
    (postflop-solver notation; ``river_bets`` on the river) and ``raise_cap`` bets and
    raises per street."""

    street: int = 3
    bets: str = "50%,100%"
    raises: str = "2.5x"
    river_bets: str = "33%,75%,150%"
    raise_cap: int = 3

    def __post_init__(self) -> None:
        if self.street not in (1, 2, 3):
            raise AgentError(f"search: street must be flop, turn or river, got {self.street!r}")
        if not (isinstance(self.raise_cap, int) and 0 <= self.raise_cap <= 10):
            raise AgentError(f"search: raise_cap must be 0..10, got {self.raise_cap!r}")
        self.build()  # sizes are checked here, once

    def build(self) -> Any:
        """The subgame's :func:`~pokerlab.subgame.spot.tree_config`."""
        from pokerlab.subgame.spot import tree_config

        try:
            return tree_config(bets=self.bets, raises=self.raises, river_bets=self.river_bets,
                               raise_cap=self.raise_cap)
        except PokerlabError as exc:
            raise AgentError(f"search: bad subgame sizes: {exc}") from None


@dataclass(frozen=True, kw_only=True)
class Safety:
    """Safe re-solving: ``safe`` always; ``gadget`` br / bp; ``floor`` of the modelled
    opponent range; ``anchor`` (read the opponent's actions in a street solve); ``verify``
    (safe until the learned model has seen enough)."""

    safe: bool = False  # measured: +211 +- 93 mbb/hand against the blueprint, safe=1 +7 +- 89
    gadget: str = "br"
    floor: float = 0.0
    anchor: bool = True
    verify: bool = True

    def __post_init__(self) -> None:
        if self.gadget not in ("br", "bp"):
            raise AgentError(f"search: gadget must be br (best response to the blueprint) or bp "
                             f"(the blueprint's own values), got {self.gadget!r}")
        if not (math.isfinite(self.floor) and 0 <= self.floor <= 1):
            raise AgentError(f"search: floor must be 0..1 (share of the range's largest weight), "
                             f"got {self.floor!r}")


@dataclass(frozen=True, kw_only=True)
class Opponent:
    """The opponent model: ``model`` (an agent spec; ``""``: the base policy), ``lock``
    (its decisions fixed to the model in every subgame), and how it is learned in the
    match: ``learn`` (Dirichlet refits every N hands) or ``tilt`` (the frequency model;
    default on unless ``learn``) with ``tilt_obs`` / ``tilt_lock``."""

    model: str = ""
    lock: bool = False
    learn: int = 0
    tilt: bool | None = None  # None: on unless learn > 0
    tilt_obs: int = 50
    tilt_lock: float = 2.0

    def __post_init__(self) -> None:
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
        if self.model.strip().lower().startswith("search"):
            raise AgentError("search: the opponent model cannot itself search")
        if any(c in self.model for c in ",()"):
            raise AgentError(f"search: model={self.model!r}: write an agent spec without "
                             "commas or parentheses (tag, call, blueprint-100, policy:PATH)")

    @property
    def kind(self) -> str:
        """Which :class:`~pokerlab.agents.search.opponent.OpponentModel` the agent uses:
        ``learn`` (Dirichlet), ``tilt`` (frequencies) or ``fixed``."""
        return "learn" if self.learn else "tilt" if self.tilt else "fixed"


LEAF_KINDS = ("river", "modicum")
"""How a depth-limited turn subgame values its leaves: ``river`` (the default since
2026-12-08), every river of the leaf solved over strength classes and iterated in step with
the turn solve (:class:`~pokerlab.agents.river_leaves.RiverStepLeaves`; LBR setting (2) from
the turn -264 +- 99 mbb/hand against ``modicum``, docs/search.md); ``modicum``, the base
policy's continuation with the opponent choosing among its biased versions
(:mod:`pokerlab.agents.leaves`).  A flop subgame's leaves are Modicum's either way."""


@dataclass(frozen=True, kw_only=True)
class DepthLimit:
    """``depth=1``: solve to the street's end only; 0: to the end of the hand.  ``leaves``
    (one of :data:`LEAF_KINDS`) values a turn subgame's ends: ``river`` (the default), the
    rivers iterated in step, ``runouts`` of them per turn iteration (a divisor of 48; 0:
    :data:`~pokerlab.agents.river_leaves.SEARCH_RIVERS`); ``modicum``, the base policy's
    continuation, ``runouts`` evaluated per leaf at each refresh of its values, cycling
    through the pool (0: 12 of the 48 rivers; 48 or more: every river each time;
    :func:`pokerlab.agents.leaves.build_leaves`), with the biased versions' multiplier
    ``bias``.  A flop subgame's ends are always Modicum's (``runouts`` 0: 8 of 32 sampled
    (turn, river) runouts)."""

    depth: int = 0
    runouts: int = 0
    bias: float = 5.0
    leaves: str = "river"

    def __post_init__(self) -> None:
        if self.depth not in (0, 1):
            raise AgentError(f"search: depth must be 0 (solve to the end of the hand) or 1 (to the "
                             f"end of the street, Modicum's leaves), got {self.depth!r}")
        if not (isinstance(self.runouts, int) and 0 <= self.runouts <= 10_000):
            raise AgentError(f"search: runouts must be 0 (the default) .. 10000 runouts per leaf refresh, "
                             f"got {self.runouts!r}")
        if not (math.isfinite(self.bias) and 1 <= self.bias <= 1000):
            raise AgentError(f"search: bias must be 1..1000 (the continuation strategies' multiplier), "
                             f"got {self.bias!r}")
        if self.leaves not in LEAF_KINDS:
            raise AgentError(f"search: leaves must be one of {', '.join(LEAF_KINDS)}, got {self.leaves!r}")
        if self.leaves == "river" and self.runouts and 48 % self.runouts:
            raise AgentError("search: with leaves=river (the default), runouts is the rivers iterated per "
                             "turn iteration and must divide 48 (1, 2, 3, 4, 6, 8, 12, 16, 24, 48; "
                             f"leaves=modicum takes any count), got {self.runouts!r}")


@dataclass(frozen=True)
class Key:
    """One spec key: its group (a field of :class:`SearchConfig`), the group's field, its
    kind (how the text is read) and its help."""

    group: str
    field: str
    kind: str  # float, int, bool, street, sizes, text, word
    help: str


KEYS: dict[str, Key] = {
    "ms": Key("budget", "ms", "float", "think budget per decision (milliseconds)"),
    "iters": Key("budget", "iterations", "int",
                 "a fixed number of iterations per decision instead of the time budget (0: by time)"),
    "target": Key("budget", "target_pct", "float", "stop early at this exploitability (% of the pot)"),
    "threads": Key("budget", "threads", "int", "solver threads"),
    "memory": Key("budget", "max_memory", "float", "bytes per decision's subgame"),
    "street": Key("tree", "street", "street", "first street searched: flop, turn or river"),
    "bets": Key("tree", "bets", "sizes", "bet sizes of the subgame (sizes joined by +)"),
    "raises": Key("tree", "raises", "sizes", "raise sizes of the subgame"),
    "river_bets": Key("tree", "river_bets", "sizes", "bet sizes on the river"),
    "raise_cap": Key("tree", "raise_cap", "int", "bets and raises per street in the subgame"),
    "safe": Key("safety", "safe", "bool", "always re-solve safely (nested, with the gadget)"),
    "gadget": Key("safety", "gadget", "word",
                  "br: the opponent's best response to the blueprint; bp: the blueprint's own values"),
    "floor": Key("safety", "floor", "float",
                 "every combo keeps this share of the largest weight in a modelled opponent range"),
    "anchor": Key("safety", "anchor", "bool",
                  "safe, the opponent acted first: read its actions in a solve of the street"),
    "verify": Key("safety", "verify", "bool", "safe until the learned model has seen enough"),
    "model": Key("opponent", "model", "text", "agent spec of the opponent model (default: the base)"),
    "lock": Key("opponent", "lock", "bool", "fix the opponent's subgame decisions to the model"),
    "learn": Key("opponent", "learn", "int", "refit a Dirichlet model every N hands (0: no)"),
    "tilt": Key("opponent", "tilt", "bool", "learn the frequency (tilt) model in the match"),
    "tilt_obs": Key("opponent", "tilt_obs", "int", "observations before a situation is trusted"),
    "tilt_lock": Key("opponent", "tilt_lock", "float",
                     "|log multiplier| from which a situation is locked (0: never)"),
    "depth": Key("depth_limit", "depth", "int",
                 "1: solve to the end of the street (leaves valued), 0: the hand"),
    "runouts": Key("depth_limit", "runouts", "int",
                   "turn leaves: rivers per turn iteration (0: 16; leaves=modicum: per leaf refresh, "
                   "0: 12); flop leaves: runouts per refresh (0: 8)"),
    "bias": Key("depth_limit", "bias", "float", "the continuation strategies' multiplier"),
    "leaves": Key("depth_limit", "leaves", "word",
                  "turn leaves: river (the river solved in step) or modicum (the base's continuation)"),
}
"""Every ``search(...)`` key, once (``base=SPEC`` names the base agent and is no config key)."""

SPEC_KEYS = (*KEYS, "base")

_GROUPS: dict[str, type] = {"budget": Budget, "tree": Tree, "safety": Safety, "opponent": Opponent,
                            "depth_limit": DepthLimit}
_FLAT = {k.field: (k.group, k.field) for k in KEYS.values()} | {
    name: (k.group, k.field) for name, k in KEYS.items()}


@dataclass(frozen=True, kw_only=True)
class SearchConfig:
    """The search agent's configuration (see the groups).  Each group's value reads flat
    too (``config.ms``, ``config.iters`` and ``config.iterations``): :data:`KEYS`."""

    budget: Budget = field(default_factory=Budget)
    tree: Tree = field(default_factory=Tree)
    safety: Safety = field(default_factory=Safety)
    opponent: Opponent = field(default_factory=Opponent)
    depth_limit: DepthLimit = field(default_factory=DepthLimit)

    def __post_init__(self) -> None:
        if self.opponent.lock and self.safety.safe:
            raise AgentError("search: lock=1 (a best response to the opponent model) cannot be "
                             "safe=1 (no worse than the blueprint against any opponent); choose one")

    @classmethod
    def from_keys(cls, **values: Any) -> SearchConfig:
        """A config from flat values by spec key or field name (``ms=250, iters=20``)."""
        groups: dict[str, dict[str, Any]] = {g: {} for g in _GROUPS}
        for name, value in values.items():
            if name not in _FLAT:
                raise AgentError(f"unknown search option {name!r}; known: {', '.join(SPEC_KEYS)}")
            g, f = _FLAT[name]
            groups[g][f] = value
        return cls(**{g: _GROUPS[g](**kw) for g, kw in groups.items()})

    def __getattr__(self, name: str) -> Any:
        # flat reads (config.ms, config.iters): only called when no attribute has the name
        try:
            g, f = _FLAT[name]
        except KeyError:
            raise AttributeError(name) from None
        return getattr(object.__getattribute__(self, g), f)

    def replace(self, **values: Any) -> SearchConfig:
        """A copy with flat values changed (spec keys or field names)."""
        flat = {k.field: getattr(getattr(self, k.group), k.field) for k in KEYS.values()}
        for name, value in values.items():
            if name not in _FLAT:
                raise AgentError(f"unknown search option {name!r}; known: {', '.join(SPEC_KEYS)}")
            flat[_FLAT[name][1]] = value
        return SearchConfig.from_keys(**flat)

    def to_json(self) -> dict[str, Any]:
        """Every key's value, by spec key."""
        return {name: getattr(getattr(self, k.group), k.field) for name, k in KEYS.items()}

    def to_spec(self, base: str = "blueprint") -> str:
        """The ``search(...)`` spec of this config (the keys that differ from the default)."""
        default = SearchConfig().to_json()
        items = []
        for name, value in self.to_json().items():
            if value == default[name]:
                continue
            kind = KEYS[name].kind
            if kind == "bool":
                text = "1" if value else "0"
            elif kind == "street":
                text = {v: k for k, v in STREET_NAMES.items()}[value]
            elif kind == "sizes":
                text = str(value).replace(",", "+")
            else:
                text = repr(value) if kind == "float" else str(value)
            items.append(f"{name}={text}")
        spec = f"search({','.join(items)})" if items else "search"
        return spec if base == "blueprint" else f"{spec}:{base}"

    @property
    def auto_lock(self) -> bool:
        """Whether the subgames lock the tilt model's confident situations (``tilt=1``,
        ``tilt_lock > 0``, not ``safe`` and not ``lock=1``, which locks every one)."""
        o = self.opponent
        return bool(o.tilt) and o.tilt_lock > 0 and not self.safety.safe and not o.lock

    @property
    def limited(self) -> bool:
        """Depth-limited search (``depth=1``)."""
        return self.depth_limit.depth == 1


def _value(key: str, text: str) -> Any:
    kind = KEYS[key].kind
    if kind in ("float", "int"):
        conv: type = float if kind == "float" else int
        try:
            return conv(text)
        except ValueError:
            what = "an integer" if kind == "int" else "a number"
            raise AgentError(f"search option {key}={text!r} is not {what}") from None
    if kind == "street":
        if text.lower() not in STREET_NAMES:
            raise AgentError(f"search: street must be flop, turn or river, got {text!r}")
        return STREET_NAMES[text.lower()]
    if kind == "bool":
        if text.lower() not in ("0", "1", "true", "false"):
            raise AgentError(f"search: {key} must be 0 or 1, got {text!r}")
        return text.lower() in ("1", "true")
    if kind == "sizes":
        return text.replace("+", ",")
    if kind == "word":
        return text.lower()
    return text


def parse_search_spec(spec: str) -> tuple[SearchConfig, str]:
    """``search``, ``search:POLICY`` or ``search(ms=1000,street=turn,safe=1,bets=50%+100%)``
    (optionally followed by ``:POLICY``; ``base=SPEC`` also names the base) ->
    (config, base agent spec)."""
    call = parse_call(spec, error=AgentError, what="search spec",
                      usage="search, search:POLICY or search(ms=1000,street=turn,safe=1)",
                      repeat_ok=True)
    if call.name.lower() != "search":
        raise AgentError(f"bad search spec {spec!r}: write search, search:POLICY or "
                         "search(ms=1000,street=turn,safe=1)")
    check_keys(call, SPEC_KEYS, error=AgentError, what="search spec")
    base = (call.suffix or "").strip()
    values: dict[str, Any] = {}
    for k, v in call.params:
        if k == "base":
            base = v
        else:
            values[k] = _value(k, v)
    return SearchConfig.from_keys(**values), base or "blueprint"


def keys_markdown() -> str:
    """The table of ``search(...)`` keys for docs/search.md."""
    rows = ["| key | group | default | what |", "|---|---|---|---|"]
    default = SearchConfig().to_json()
    for name, k in KEYS.items():
        d = default[name]
        shown = {True: "1", False: "0"}.get(d, d) if isinstance(d, bool) else d
        if k.kind == "street":
            shown = {v: s for s, v in STREET_NAMES.items()}[d]
        if name == "tilt":
            shown = "1 unless learn"
        rows.append(f"| `{name}` | {k.group} | `{shown}` | {k.help} |")
    rows.append("| `base` | - | `blueprint` | the base agent's spec (also `search(...):BASE`) |")
    return "\n".join(rows)


__all__ = ["KEYS", "STREET_NAMES", "Budget", "DepthLimit", "Key", "Opponent", "Safety", "SearchConfig",
           "Tree", "keys_markdown", "parse_search_spec"]
