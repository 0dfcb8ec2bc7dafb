"""The solver page's limits and request checks (:mod:`pokerlab.play.solver_page`): the
page's config, its one error type, the field checks, and the spot of a request's fields
(the JSON body itself: :mod:`pokerlab.play.page_http`)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from pokerlab.play.page_http import PageError


class SolverPageError(PageError):
    """A request the solver page cannot accept; ``status`` is the HTTP status."""


@dataclass(frozen=True, kw_only=True)
class SolverPageConfig:
    """The solver page's limits."""

    max_memory: int = 2_000_000_000
    """Bytes one spot may need (the solver's estimate), as ``pokerlab spot --max-memory``."""
    max_total_memory: int = 4_000_000_000
    """Bytes all the solves held in memory may need together (finished ones are dropped,
    least recently used first, to make room)."""
    max_running: int = 2
    """Solves running at once over all sessions."""
    max_running_per_client: int = 1
    """Solves one visitor (client address, as the play socket's limits) may run at once."""
    max_sessions: int = 16
    """Solve sessions (running or finished, kept for walking the tree) held at once."""
    max_sessions_per_client: int = 4
    """Solve sessions one visitor may hold: a new one first drops that visitor's oldest
    finished one."""
    idle_seconds: float = 1800.0
    """A finished solve nobody has looked at for this long is dropped."""
    unwatched_seconds: float = 75.0
    """A running solve whose status nobody has polled for this long (its page was closed)
    is stopped (a little over a minute: a hidden tab's timers may fire once a minute)."""
    max_iterations: int = 10_000
    min_target_pct: float = 0.01
    """The smallest target exploitability (% of the pot) a solve may ask for."""
    max_seconds: float = 900.0
    """Wall-clock limit of one solve."""
    max_tree_nodes: int = 5_000_000
    """Betting nodes a spot may have (the tree is counted, never built, to check this)."""
    max_estimate_memory: int = 64_000_000_000
    """The tree estimate reports spots up to this many bytes; past it, it answers "more
    than" (the count stops there)."""
    rate_per_second: float = 10.0
    rate_burst: int = 40
    """Requests to ``/api/solver/...`` per second and burst per visitor (token bucket, as
    the play socket's messages)."""
    max_body_bytes: int = 65_536
    max_range_chars: int = 4_000
    max_path: int = 64
    threads: int | None = None
    """Threads per solve (None: the solver's default)."""
    check_every: int = 10
    """Exploitability is measured every this many iterations (and at least every second or
    so when iterations are slow and the measure is cheap)."""
    default_target_pct: float = 0.3
    default_iterations: int = 1000
    max_upload_bytes: int = 512_000_000
    """Bytes of a saved solve the page may load back (also at most :attr:`max_memory`: a
    file's arrays are the solve's memory)."""
    chart_stacks: tuple[float, ...] = (100.0, 200.0)
    """The stacks (bb) of the shipped blueprints the preflop charts view offers."""
    max_report_flops: int = 49
    """Flops one flop report (the page's ``pokerlab spot report``) may solve: the page offers
    the 25 and 49 flop sets; a larger set or a list of boards is accepted up to this."""
    max_report_seconds: float = 3600.0
    """Wall-clock limit of one flop report (checked between flops)."""

    @staticmethod
    def from_server(cfg: Any) -> SolverPageConfig:
        """The page's limits from the play server's config (``solver_max_memory`` ...,
        where it has them) and the defaults."""
        base = SolverPageConfig()
        kw = {}
        for name in ("max_memory", "max_total_memory", "max_running", "max_running_per_client",
                     "max_sessions", "max_sessions_per_client", "max_seconds", "unwatched_seconds",
                     "max_iterations", "min_target_pct", "max_tree_nodes", "rate_per_second",
                     "rate_burst", "threads", "max_upload_bytes", "max_report_flops",
                     "max_report_seconds"):
            v = getattr(cfg, "solver_" + name, None)
            if v is not None:
                kw[name] = v
        return SolverPageConfig(**{**base.__dict__, **kw})


# ------------------------------------------------------------------------ validation

_NUM = (int, float)
# field -> (types, required, max length of a string)
SPOT_FIELDS: dict[str, tuple[tuple[type, ...], bool, int]] = {
    "board": ((str,), True, 40),
    "pot": (_NUM, True, 0),
    "stack": (_NUM, True, 0),
    "oop": ((str,), True, 0),
    "ip": ((str,), True, 0),
    "bets": ((str,), False, 200),
    "raises": ((str,), False, 200),
    "flop_bets": ((str,), False, 200),
    "turn_bets": ((str,), False, 200),
    "river_bets": ((str,), False, 200),
    "flop_raises": ((str,), False, 200),
    "turn_raises": ((str,), False, 200),
    "river_raises": ((str,), False, 200),
    "donk": ((str,), False, 200),
    "allin_threshold": (_NUM, False, 0),
    "force_allin": (_NUM, False, 0),
    "raise_cap": ((int,), False, 0),
    "compress": ((bool,), False, 0),
}
SOLVE_FIELDS: dict[str, tuple[tuple[type, ...], bool, int]] = {
    **SPOT_FIELDS,
    "session": ((str,), False, 64),
    "target_pct": (_NUM, False, 0),
    "iterations": ((int,), False, 0),
    "replace": ((bool,), False, 0),
}
LOCK_FIELDS: dict[str, tuple[tuple[type, ...], bool, int]] = {
    "path": ((list,), False, 0),
    "hands": ((str,), True, 40),
    "mix": ((dict,), True, 0),
    "target_pct": (_NUM, False, 0),
    "iterations": ((int,), False, 0),
}
PATH_FIELDS: dict[str, tuple[tuple[type, ...], bool, int]] = {"path": ((list,), False, 0)}
REPORT_FIELDS: dict[str, tuple[tuple[type, ...], bool, int]] = {
    **SPOT_FIELDS,
    "board": ((str,), False, 40),  # the form's board: each flop of the set replaces it
    "flops": ((str,), False, 2000),
    "texture": ((str,), False, 200),
    "target_pct": (_NUM, False, 0),
    "iterations": ((int,), False, 0),
}


def check_fields(obj: dict[str, Any], schema: dict[str, tuple[tuple[type, ...], bool, int]],
                 *, max_chars: int) -> dict[str, Any]:
    """Types, presence and lengths of ``obj``'s fields; unknown fields are refused;
    ``null`` and ``""`` count as not given for optional fields."""
    unknown = sorted(k for k in obj if k not in schema)
    if unknown:
        raise SolverPageError(f"unknown field {unknown[0]!r}")
    out: dict[str, Any] = {}
    for name, (types, required, maxlen) in schema.items():
        v = obj.get(name)
        if v is None or v == "":
            if required:
                raise SolverPageError(f"missing field {name!r}")
            continue
        if (isinstance(v, bool) and types != (bool,)) or not isinstance(v, types):
            want = ("a number" if types == _NUM else "an integer" if types == (int,)
                    else "true or false" if types == (bool,) else "a list" if types == (list,)
                    else "an object" if types == (dict,) else "a string")
            raise SolverPageError(f"field {name!r} must be {want}, got {type(v).__name__}")
        if isinstance(v, str):
            cap = maxlen or max_chars
            if len(v) > cap:
                raise SolverPageError(f"field {name!r} is too long: {len(v):,} characters, at most {cap:,}")
            if "\n" in v or "\r" in v:
                v = " ".join(v.split())
        if isinstance(v, float) and not math.isfinite(v):
            raise SolverPageError(f"field {name!r} must be a finite number")
        out[name] = v
    return out


def spot_from_fields(f: dict[str, Any]) -> Any:
    """The :class:`~pokerlab.subgame.Spot` of validated fields (the solver's own one-line
    errors for a bad board, range or size)."""
    from pokerlab.subgame import make_spot, tree_config

    if "raise_cap" in f and not 0 <= f["raise_cap"] <= 100:
        raise SolverPageError("field 'raise_cap' must be between 0 (no cap) and 100")
    names = ("bets", "raises", "flop_bets", "turn_bets", "river_bets", "flop_raises", "turn_raises",
             "river_raises", "donk")
    kw: dict[str, Any] = {k: f[k] for k in names if k in f}
    for k in ("allin_threshold", "force_allin"):
        if k in f:
            kw[k] = float(f[k])
    if "raise_cap" in f:
        kw["raise_cap"] = int(f["raise_cap"])
    tree = tree_config(**kw)
    return make_spot(board=f["board"], pot=f["pot"], stack=f["stack"], oop=f["oop"], ip=f["ip"], tree=tree)


def check_target(f: dict[str, Any], c: SolverPageConfig) -> float:
    """The checked ``target_pct`` of validated fields (% of the pot; the page's default)."""
    target = float(f.get("target_pct", c.default_target_pct))
    if not c.min_target_pct <= target <= 100:
        raise SolverPageError(f"target_pct must be at least {c.min_target_pct:g} and at most 100 "
                              f"(% of the pot), got {target:g}")
    return target


def check_iterations(f: dict[str, Any], c: SolverPageConfig, default: int | None = None) -> int:
    """The checked ``iterations`` of validated fields (``default``: the page's default)."""
    iters = int(f.get("iterations", c.default_iterations if default is None else default))
    if not 1 <= iters <= c.max_iterations:
        raise SolverPageError(f"iterations must be between 1 and {c.max_iterations:,}, got {iters}")
    return iters


def template_from_fields(f: dict[str, Any], *, target: float, iterations: int) -> Any:
    """The :class:`~pokerlab.subgame.aggregate.ReportTemplate` of validated report fields:
    the form's spot without its board.  The template has one raise size list for every
    street (``pokerlab spot report --raises``): different flop, turn and river raises are
    one error."""
    from pokerlab.subgame.aggregate import ReportTemplate

    if "raise_cap" in f and not 0 <= f["raise_cap"] <= 100:
        raise SolverPageError("field 'raise_cap' must be between 0 (no cap) and 100")
    street = [f[k] for k in ("flop_raises", "turn_raises", "river_raises") if k in f]
    raises = [" ".join(str(r).lower().split()) for r in street]
    if len(set(raises)) > 1:
        raise SolverPageError("a flop report takes one raise size list for every street (as 'pokerlab "
                              "spot report --raises'): the flop, turn and river raises differ "
                              f"({', '.join(street)})")
    kw: dict[str, Any] = {k: f[k] for k in ("bets", "flop_bets", "turn_bets", "river_bets", "donk") if k in f}
    if street:
        kw["raises"] = street[0]
    elif "raises" in f:
        kw["raises"] = f["raises"]
    for k in ("allin_threshold", "force_allin"):
        if k in f:
            kw[k] = float(f[k])
    if "raise_cap" in f:
        kw["raise_cap"] = int(f["raise_cap"])
    return ReportTemplate(pot=float(f["pot"]), stack=float(f["stack"]), oop=f["oop"], ip=f["ip"],
                          compress=bool(f.get("compress", False)), target=float(target),
                          iterations=int(iterations), **kw)

