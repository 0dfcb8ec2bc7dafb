"""Head-to-head matches between two agents, with confidence intervals.

:func:`run_match` plays ``hands`` hands of heads-up no-limit hold'em (or of a small game:
Kuhn, Leduc, 8-card) between agent A and agent B and reports A's result.  The agents come
from an :data:`AgentFactory` passed in, called in every process that plays hands; agent
specs (``"tag"``, ``"policy:PATH"``) are resolved above the agents layer, by
:func:`pokerlab.arena.play_match` (what ``pokerlab match`` runs).

* **Seats.** The engine's player 0 is the big blind and player 1 the button, so the blinds
  rotate by swapping seats: A sits in seat ``i % 2`` in hand ``i``.
* **Seeds.** Every hand has its own seed, derived from ``(seed, deal index)`` by
  SplitMix64; the cards and both agents' :meth:`reset` seeds come from it.  A hand's play
  therefore does not depend on which process plays it or in which order: a parallel run
  (processes, or Ray workers) gives exactly the totals of a serial one.
* **Duplicate** (``duplicate=True``): hands ``2k`` and ``2k + 1`` share deal index ``k``
  (same cards, same seed stream) with the seats swapped, which cancels most of the card
  luck.  The confidence interval is then computed over the pair means (the independent
  units); otherwise over the hands.
* **Result.** ``mean_mbb`` (A's mean in milli-big-blinds per hand), ``ci95_mbb``
  (half-width: 1.96 standard errors), ``sd_mbb`` (per-hand standard deviation),
  ``bb_per_100``, per-seat means, and for the small games ``exact_mbb``: the exact
  expected value of A against B with the seats rotating, i.e. the mean of
  :func:`pokerlab.evaluation.expected_values` over the two seatings (big blind = 1 chip).
* **Hand histories.** ``histories=True`` returns every HUNL hand as a PHH section
  (``MatchResult.histories``; player names ``A-spec``/``B-spec`` per hand, see
  :func:`player_name`); :func:`pokerlab.arena.play_match` writes them (``.phhs``, or ACPC
  ``STATE:`` lines for ``.log``).
* **Learning agents** (``end_hand(view)``: ``adapt``, the learning searchers) see the end
  of every hand as their seat saw it -- HUNL: :func:`pokerlab.holdem.view.final_view`
  (the opponent's cards only where the showdown showed them), small games:
  :class:`SmallHandEnd` -- and ``start_match()`` before each run of hands; every worker
  process's chunk learns on its own (measure with ``workers=1``).  They offer no kernel
  side, so they never take the fast path.
* **Fast path.** When both agents offer a kernel side over the same compiled betting tree
  (``kernel_side()``: ``policy:`` agents of indexed policies), hands are played by the
  numba kernel of :mod:`pokerlab.evaluation.match_kernels` (see there), unless hand
  histories are asked for; in this process, or per chunk in the worker processes / Ray
  tasks.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from dataclasses import replace as _dc_replace
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from pokerlab.errors import AgentError, ConfigError
from pokerlab.games.hand_end import (  # noqa: F401 - re-exported: the small games' hand end
    SmallHandEnd,
    action_name,
    is_fold,
    small_hand_end,
)
from pokerlab.games.heads_up import game_kind  # noqa: F401 - re-exported
from pokerlab.holdem.deal import deal_cards
from pokerlab.holdem.engine import HoldemConfig, HoldemState
from pokerlab.holdem.hand_loop import play_hand
from pokerlab.rng import SplitMix64, pick, stream_seed

Z95 = 1.959963984540054

AgentFactory = Callable[[str, str, "HoldemConfig | None", int], Any]
"""``make(spec, game, config, slot)``: the agent named ``spec`` (the match's label for it)
for seat label ``slot`` (0 = A, 1 = B) of game kind ``game`` (``config``: the HUNL table,
``None`` for small games).  Called in every process that plays hands, so it must pickle
for worker processes and Ray (a module-level function); it may cache, as agents are reset
before every hand."""


def hand_seed(seed: int, index: int, stream: int = 0) -> int:
    """Seed of deal ``index`` (stream 0: cards; 1, 2: agents A and B): SplitMix64 of the
    match seed mixed with the index (:func:`pokerlab.rng.stream_seed`), so hands are
    independent of execution order."""
    return stream_seed(seed, index, stream)


def deal_index(i: int, duplicate: bool) -> int:
    return i // 2 if duplicate else i


@dataclass(frozen=True, kw_only=True)
class MatchConfig:
    """What a match was asked to do (saved as JSON next to hand histories); ``agents``
    are the two agents' specs (names)."""

    agents: tuple[str, str]
    game: str = "hunl"
    hands: int = 1000
    duplicate: bool = False
    seed: int = 0
    stack_bb: float = 200.0
    small_blind: int = 50
    big_blind: int = 100

    def __post_init__(self) -> None:
        if isinstance(self.hands, bool) or not isinstance(self.hands, int) or self.hands < 1:
            raise ConfigError(f"hands must be a positive integer, got {self.hands!r}")
        if self.duplicate and self.hands % 2:
            raise ConfigError(f"--duplicate needs an even number of hands, got {self.hands}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise ConfigError(f"seed must be an integer >= 0, got {self.seed!r}")
        if len(self.agents) != 2:
            raise ConfigError(f"a match needs two agents, got {self.agents!r}")
        if not (self.stack_bb > 1):
            raise ConfigError(f"stack must exceed 1 big blind, got {self.stack_bb!r}")

    def holdem_config(self) -> HoldemConfig:
        return HoldemConfig.from_bb(self.stack_bb, small_blind=self.small_blind,
                                    big_blind=self.big_blind)

    def to_json(self) -> dict[str, Any]:
        return {"agents": list(self.agents), "game": self.game, "hands": self.hands,
                "duplicate": self.duplicate, "seed": self.seed, "stack_bb": self.stack_bb,
                "small_blind": self.small_blind, "big_blind": self.big_blind}


@dataclass(frozen=True, kw_only=True)
class MatchResult:
    """A's result (chips per hand in ``chips``; everything else derived)."""

    config: MatchConfig
    chips: np.ndarray = field(repr=False)
    """A's winnings per hand (chips), in hand order."""
    big_blind: float
    seconds: float
    exact_mbb: float | None = None
    fast_path: bool = False
    workers: int = 1
    histories: tuple[str, ...] = field(default=(), repr=False, compare=False)
    """With ``histories=True``: one PHH section per hand (``[n]`` line, then the hand)."""
    counters: dict[str, dict[str, float]] = field(default_factory=dict, compare=False)
    """Per agent label (``"A"``, ``"B"``): the agent's own counters over the match, summed
    over the worker processes (:func:`agent_counters`); empty for agents without any."""

    @property
    def hands(self) -> int:
        return int(self.chips.size)

    @property
    def mbb(self) -> np.ndarray:
        return self.chips / self.big_blind * 1000.0

    @property
    def mean_mbb(self) -> float:
        return float(self.mbb.mean())

    @property
    def sd_mbb(self) -> float:
        x = self.mbb
        return float(x.std(ddof=1)) if x.size > 1 else 0.0

    @property
    def ci95_mbb(self) -> float:
        x = self.mbb
        if self.config.duplicate:
            x = x.reshape(-1, 2).mean(axis=1)
        if x.size < 2:
            return math.inf
        return float(Z95 * x.std(ddof=1) / math.sqrt(x.size))

    @property
    def bb_per_100(self) -> float:
        return self.mean_mbb / 10.0

    def per_seat(self) -> dict[str, dict[str, float]]:
        """A's mean (mbb/hand) and hands in each seat (HUNL: ``bb`` = player 0, ``button``;
        small games ``p0``, ``p1``)."""
        x = self.mbb
        out: dict[str, dict[str, float]] = {}
        names = ("bb", "button") if self.config.game == "hunl" else ("p0", "p1")
        for seat, name in enumerate(names):
            part = x[seat::2]
            n = int(part.size)
            ci = float(Z95 * part.std(ddof=1) / math.sqrt(n)) if n > 1 else math.inf
            out[name] = {"hands": n, "mean_mbb": float(part.mean()) if n else 0.0,
                         "ci95_mbb": ci}
        return out

    def to_json(self) -> dict[str, Any]:
        def num(v: float) -> float | None:
            return v if math.isfinite(v) else None

        d: dict[str, Any] = {
            "game": self.config.game,
            "agents": list(self.config.agents),
            "hands": self.hands,
            "mean_mbb": self.mean_mbb,
            "ci95_mbb": num(self.ci95_mbb),
            "sd_mbb": self.sd_mbb,
            "bb_per_100": self.bb_per_100,
            "seconds": self.seconds,
            "duplicate": self.config.duplicate,
            "seed": self.config.seed,
            "per_seat": {k: {kk: num(vv) for kk, vv in v.items()}
                         for k, v in self.per_seat().items()},
            "big_blind": self.big_blind,
            "total_chips": float(self.chips.sum()),
            "hands_per_second": self.hands / self.seconds if self.seconds > 0 else None,
            "fast_path": self.fast_path,
        }
        if any(self.counters.values()):
            from pokerlab.think import summarize

            d["counters"] = {k: summarize(v) for k, v in self.counters.items()}
            for k, v in d["counters"].items():  # searching agents' think time, at the top level
                if "think_ms_p50" in v:
                    d.setdefault("think_ms_p50", {})[k] = v["think_ms_p50"]
                    d.setdefault("think_ms_p99", {})[k] = v["think_ms_p99"]
        if self.config.game != "hunl":
            d["exact_mbb"] = self.exact_mbb
        else:
            d["stack_bb"] = self.config.stack_bb
        return d


# ----------------------------------------------------------------------------- HUNL
def play_hunl_hand(agent_a: Any, agent_b: Any, config: HoldemConfig, a_seat: int,
                   cards: Sequence[int], seed_a: int, seed_b: int, *,
                   learn: bool = False) -> HoldemState:
    """One hand: A in seat ``a_seat``, the given 9 cards (hole p0, hole p1, board), both
    agents reset with their seeds first (:func:`play_hand`; with ``learn`` the learning
    agents see its end, as in :func:`run_match`): the one hand loop,
    :func:`pokerlab.holdem.hand_loop.play_hand`."""
    agent_a.reset(seed_a)
    agent_b.reset(seed_b)
    seats = (agent_a, agent_b) if a_seat == 0 else (agent_b, agent_a)
    return play_hand(seats, config, cards, learn=learn)


def hand_cards(seed: int, k: int) -> list[int]:
    return deal_cards(SplitMix64(hand_seed(seed, k, 0)))


@dataclass(frozen=True, kw_only=True)
class _Chunk:
    make: AgentFactory
    config: MatchConfig
    start: int
    stop: int
    want_text: bool
    fast: bool = True
    counters: bool = False


@runtime_checkable
class CountingAgent(Protocol):
    """An agent with numbers of its own: ``counters()``, a dict whose numeric values a
    match sums over its chunks (:class:`~pokerlab.holdem.view.AgentBase`: none; the policy
    agent: ``resyncs``; the searching agents: think time; an outside bot: its own)."""

    def counters(self) -> dict[str, Any]: ...


def agent_counters(agent: Any) -> dict[str, float]:
    """An agent's own counters: the numeric values of its ``counters()``
    (:class:`CountingAgent`); an object without the method has none."""
    if not isinstance(agent, CountingAgent):
        return {}
    try:
        d = agent.counters()
    except Exception:  # noqa: BLE001 - a broken counter is no reason to lose a match
        return {}
    out: dict[str, float] = {}
    if isinstance(d, dict):
        for k, v in d.items():
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                out[str(k)] = float(v)
    return out


def _counter_delta(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    return {k: v - before.get(k, 0.0) for k, v in after.items()}


def _play_chunk(chunk: _Chunk) -> Any:
    """Hands ``start..stop-1``: A's chips per hand, and PHH sections when asked (and, with
    ``chunk.counters``, the agents' counters over the chunk as a third element)."""
    if chunk.counters:
        cfg = chunk.config
        hc = cfg.holdem_config()
        a = chunk.make(cfg.agents[0], cfg.game, hc, 0)
        b = chunk.make(cfg.agents[1], cfg.game, hc, 1)
        ca, cb = agent_counters(a), agent_counters(b)
        got, txt = _play_chunk(_dc_replace(chunk, counters=False))
        return got, txt, {"A": _counter_delta(ca, agent_counters(a)),
                            "B": _counter_delta(cb, agent_counters(b))}
    cfg = chunk.config

    hc = cfg.holdem_config()
    a = chunk.make(cfg.agents[0], cfg.game, hc, 0)
    b = chunk.make(cfg.agents[1], cfg.game, hc, 1)
    n = chunk.stop - chunk.start
    if chunk.fast and not chunk.want_text:
        from pokerlab.evaluation.match_kernels import eligible, run_kernel

        if eligible(a, b, hc):
            return run_kernel(a, b, chunk.start, chunk.stop, cfg.duplicate, cfg.seed), []
    from pokerlab.holdem.view import start_match

    out = np.zeros(n, dtype=np.float64)
    texts: list[str] = []
    start_match((a, b))  # learning agents start afresh with every run of hands
    for j in range(n):
        i = chunk.start + j
        k = deal_index(i, cfg.duplicate)
        a_seat = i % 2
        st = play_hunl_hand(a, b, hc, a_seat, hand_cards(cfg.seed, k),
                            hand_seed(cfg.seed, k, 1), hand_seed(cfg.seed, k, 2),
                            learn=True)  # learners see the end as their seat saw it
        out[j] = st.payoffs()[a_seat]
        if chunk.want_text:
            texts.append(_phh_section(st, i, cfg, a_seat))
    return out, texts


def player_name(label: str, spec: str) -> str:
    """``A-random``, ``B-policy-pa.npz``: the label and the spec (a policy by its file name),
    without the ``:`` and ``|`` that ACPC logs forbid."""
    text = spec
    if spec.lower().startswith("policy:"):
        text = "policy-" + Path(spec.split(":", 1)[1]).name
    return f"{label}-{text}".replace(":", "-").replace("|", "-").replace(" ", "_")


def _phh_section(st: HoldemState, i: int, cfg: MatchConfig, a_seat: int) -> str:
    from pokerlab.holdem.phh import to_hand_history

    names = [player_name("A", cfg.agents[0]), player_name("B", cfg.agents[1])]
    players = names if a_seat == 0 else names[::-1]
    hh = to_hand_history(st, hand=i + 1, players=players)
    return f"[{i + 1}]\n{hh.dumps().strip()}\n"


def hand_ranges(hands: int, parts: int) -> list[tuple[int, int]]:
    """``hands`` split into at most ``parts`` non-empty ranges ``(start, stop)`` with even
    boundaries, so duplicate pairs stay together (matches and AIVAT split alike)."""
    parts = max(1, min(parts, hands))
    bounds = [round(hands * k / parts) // 2 * 2 for k in range(parts + 1)]
    bounds[-1] = hands
    return [(lo, hi) for lo, hi in zip(bounds, bounds[1:], strict=False) if hi > lo]


def _chunks(make: AgentFactory, cfg: MatchConfig, parts: int, want_text: bool,
            fast: bool = True) -> list[_Chunk]:
    return [_Chunk(make=make, config=cfg, start=lo, stop=hi, want_text=want_text, fast=fast)
            for lo, hi in hand_ranges(cfg.hands, parts)]


def _run_chunks(chunks: list[_Chunk], workers: int, ray_address: str | None,
                fn: Callable[[_Chunk], Any],
                progress: Callable[[int, int], None] | None = None) -> list[Any]:
    """The chunks on :func:`pokerlab.executor.map_chunks`: Ray with an address, else
    ``workers`` processes (one: here); ``progress`` counts hands."""
    from pokerlab.executor import default_backend, map_chunks

    return map_chunks(fn, chunks, backend=default_backend(workers, ray_address),
                      workers=workers, ray_address=ray_address, progress=progress,
                      size=lambda c: c.stop - c.start)


# ----------------------------------------------------------------------------- small games
def sample_chance(outs: list[tuple[int, float]], rng: np.random.Generator) -> int:
    """One chance outcome drawn with one uniform number (inverse CDF, the last outcome
    absorbs round-off); shared by matches and AIVAT so both see the same deals."""
    return int(pick(outs, rng.random()))


def _small_big_blind(game_name: str) -> float:
    """The chip unit of mbb for a small game (its ``GameInfo.big_blind``; 1 by default)."""
    from pokerlab.games import load_game

    info = getattr(load_game(game_name), "info", None)
    return float(info().big_blind) if info is not None else 1.0


def _play_small_chunk(chunk: _Chunk) -> tuple[np.ndarray, list[str]]:
    from pokerlab.games import load_game

    cfg = chunk.config
    game = load_game(cfg.game)
    a = chunk.make(cfg.agents[0], cfg.game, None, 0)
    b = chunk.make(cfg.agents[1], cfg.game, None, 1)
    from pokerlab.holdem.view import start_match

    start_match((a, b))  # learning agents start afresh with every run of hands
    n = chunk.stop - chunk.start
    out = np.zeros(n, dtype=np.float64)
    for j in range(n):
        i = chunk.start + j
        k = deal_index(i, cfg.duplicate)
        a_seat = i % 2
        out[j] = play_small_hand(game, a, b, a_seat, hand_seed(cfg.seed, k, 0),
                                 hand_seed(cfg.seed, k, 1), hand_seed(cfg.seed, k, 2))
    return out, []


def play_small_hand(game: Any, agent_a: Any, agent_b: Any, a_seat: int, chance_seed: int,
                    seed_a: int, seed_b: int) -> float:
    """One hand of a small game; returns A's utility.  Agents that learn see the end of
    the hand as their seat saw it (``end_hand(SmallHandEnd)``)."""
    from pokerlab.holdem.view import learns

    agent_a.reset(seed_a)
    agent_b.reset(seed_b)
    seats = (agent_a, agent_b) if a_seat == 0 else (agent_b, agent_a)
    rng = np.random.default_rng(chance_seed)
    st = game.new_initial_state()
    folded = False
    last = ""
    while not st.is_terminal():
        if st.is_chance_node():
            st.apply_action(sample_chance(st.chance_outcomes(), rng))
        else:
            p = st.current_player()
            ag = seats[p]
            act = ag.act_state(st, p)
            if act not in st.legal_actions():
                raise AgentError(f"agent {ag.name!r} chose the illegal action {act!r} "
                                 f"(legal: {st.legal_actions()})")
            name = action_name(st, act)
            folded = folded or is_fold(name, last)
            last = name
            st.apply_action(act)
    for seat, ag in enumerate(seats):  # agents that learn see the end of every hand
        if learns(ag):
            ag.end_hand(small_hand_end(st, seat, showdown=not folded))
    return float(st.returns()[a_seat])


def hand_end_view(state: Any, player: int, *, showdown: bool) -> Any:
    """What ``player`` saw of the finished hand ``state``, the argument of a learning
    agent's ``end_hand``: :func:`pokerlab.holdem.view.final_view` of a hold'em state (the
    showdown read from its events), :class:`SmallHandEnd` of a small game's protocol state
    (``showdown``: the hand ended without a fold; the caller played it and knows).  The
    play tables' end of a hand."""
    if isinstance(state, HoldemState):
        from pokerlab.holdem.view import final_view

        return final_view(state, player)
    return small_hand_end(state, player, showdown=showdown)


def exact_policy_mbb(game_name: str, policy_a: Any, policy_b: Any) -> float:
    """Exact mean of policy A against policy B over both seatings (mbb/hand, big blind =
    1 chip)."""
    from pokerlab.evaluation.exploit import expected_values
    from pokerlab.games import load_game
    from pokerlab.policy.base import SeatPolicy

    game = load_game(game_name)
    v0 = float(expected_values(game, SeatPolicy(policy_a, policy_b))[0])
    v1 = float(expected_values(game, SeatPolicy(policy_b, policy_a))[1])
    return 1000.0 * (v0 + v1) / 2.0


# ----------------------------------------------------------------------------- entry
def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
               else (os.cpu_count() or 1))


def run_match(cfg: MatchConfig, make: AgentFactory, *, histories: bool = False,
              workers: int | None = None, ray_address: str | None = None, fast: bool = True,
              progress: Callable[[int, int], None] | None = None) -> MatchResult:
    """Play the match ``cfg`` (``cfg.game``: a :func:`game_kind`) with the agents ``make``
    builds; see the module docstring.

    ``histories`` returns every HUNL hand as PHH text (``MatchResult.histories``).
    ``workers`` processes (default: the local cores for 2,000 hands or more, else 1;
    1 = in this process; 0 or less is refused); ``ray_address`` (``"local"`` starts a local
    Ray of ``max(2, workers)`` CPUs) runs the same chunks as Ray tasks
    (:mod:`pokerlab.executor`).  ``fast=False`` disables the kernel fast path.
    ``progress(done, total)`` is called as hands finish (the Python path plays in up to 20
    chunks for it, unless an agent learns during the match, ``end_hand``: every chunk
    starts a learning agent afresh, so then there is one chunk per worker).  The small
    games' ``exact_mbb`` is left to the caller
    (:func:`exact_policy_mbb`), which knows the agents' policies.
    """
    kind = cfg.game
    hands = cfg.hands
    # build once here: bad specs and missing files fail before any work starts
    hc = cfg.holdem_config() if kind == "hunl" else None
    a = make(cfg.agents[0], kind, hc, 0)
    b = make(cfg.agents[1], kind, hc, 1)
    if histories and kind != "hunl":
        raise ConfigError(f"hand histories (--out) are written for hunl only, not {kind}")
    if workers is None:  # processes pay off only for longer matches
        nw = default_workers() if hands >= 2000 else 1
    else:
        from pokerlab.executor import check_workers

        check_workers(workers, option="workers")
        nw = int(workers)
    if ray_address is not None:
        from pokerlab.executor import check_ray_address

        check_ray_address(ray_address)
    t0 = time.perf_counter()
    if kind == "hunl" and fast and not histories and ray_address is None:
        from pokerlab.evaluation.match_kernels import fast_match

        chips = fast_match(a, b, cfg)
        if chips is not None:
            return MatchResult(config=cfg, chips=chips, big_blind=float(cfg.big_blind),
                               seconds=time.perf_counter() - t0, fast_path=True, workers=1)
    from pokerlab.holdem.view import learns as _learns

    chunk_fn = _play_chunk if kind == "hunl" else _play_small_chunk
    learns = any(_learns(x) for x in (a, b))
    if ray_address is not None:
        parts = max(2, nw)
    elif progress is not None and not learns:
        parts = max(nw, min(20, hands // 20))
    else:
        parts = nw
    chunks = _chunks(make, cfg, parts, histories, fast)
    if kind == "hunl":
        chunks = [_dc_replace(c, counters=True) for c in chunks]
    results = _run_chunks(chunks, nw, ray_address, chunk_fn, progress)
    counters: dict[str, dict[str, float]] = {"A": {}, "B": {}}
    for r in results:
        if len(r) > 2:
            for label, d in r[2].items():
                for k, v in d.items():
                    counters[label][k] = counters[label].get(k, 0.0) + v
    chips = np.concatenate([r[0] for r in results]) if results else np.zeros(0)
    bb = float(cfg.big_blind) if kind == "hunl" else _small_big_blind(kind)
    return MatchResult(config=cfg, chips=chips, big_blind=bb, seconds=time.perf_counter() - t0,
                       workers=nw, histories=tuple(t for r in results for t in r[1]),
                       counters=counters)
