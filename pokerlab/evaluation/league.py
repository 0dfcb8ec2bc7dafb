"""A league table: every pair of agents head to head, plus an LBR column per agent.

The table, its JSON, picture and page live here; the runner that plays it from agent specs
is :func:`pokerlab.arena.run_league` (above the agents layer).  Every pair plays a
duplicate match (``hands`` hands, the deals and seeds of
:func:`pokerlab.evaluation.matches.run_match`).  Where at least one of the two agents
exposes its action probabilities the pair's AIVAT estimate (:mod:`pokerlab.evaluation.aivat`)
is reported too and used for the table (``value_mbb``); otherwise the plain duplicate
mean.  On the small games the table holds the exact values instead (their sampled means
are kept next to them).  With ``lbr`` every agent also gets its LBR value (HUNL: sampled
``fc`` LBR on all rounds; small games: exact).

Outputs (:func:`write_league`): ``league.json`` (the :meth:`League.to_json` object),
``league.png`` (heat-map of row-vs-column mbb/hand, the LBR column appended) and
``league.html`` (the table with CIs and the picture), plus ``league_config.json``.
"""

from __future__ import annotations

import html
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from pokerlab.errors import ConfigError


@dataclass(frozen=True, kw_only=True)
class LeagueConfig:
    """What a league run was asked to do (saved as ``league_config.json``)."""

    agents: tuple[str, ...]
    game: str = "hunl"
    hands: int = 200
    seed: int = 0
    stack_bb: float = 200.0
    lbr: bool = False
    lbr_hands: int = 100
    lbr_actions: str = "fc"
    target_ci_mbb: float | None = None
    """When set (hunl), a pair whose 95% CI half-width after ``hands`` hands is wider
    plays again with enough hands for this half-width by the first run's SD (at most
    ``max_hands``), the first run's hands being the first hands of the second."""
    max_hands: int = 2_000_000

    def __post_init__(self) -> None:
        if len(self.agents) < 2:
            raise ConfigError(f"a league needs at least two agents, got {list(self.agents)!r}")
        if len(set(self.agents)) != len(self.agents):
            raise ConfigError(f"league agents must differ, got {list(self.agents)!r}")
        if isinstance(self.hands, bool) or not isinstance(self.hands, int) or self.hands < 2 \
                or self.hands % 2:
            raise ConfigError(f"league hands must be an even number >= 2, got {self.hands!r}")
        if self.lbr_hands < 1:
            raise ConfigError(f"lbr hands must be >= 1, got {self.lbr_hands!r}")
        if self.target_ci_mbb is not None and not (
                isinstance(self.target_ci_mbb, (int, float)) and self.target_ci_mbb > 0
                and math.isfinite(self.target_ci_mbb)):
            raise ConfigError(f"the target CI must be a positive number of mbb/hand, got "
                              f"{self.target_ci_mbb!r}")
        if isinstance(self.max_hands, bool) or not isinstance(self.max_hands, int) \
                or self.max_hands < self.hands or self.max_hands % 2:
            raise ConfigError(f"max hands must be an even number >= hands ({self.hands}), "
                              f"got {self.max_hands!r}")


@dataclass(frozen=True, kw_only=True)
class Pairing:
    a: str
    b: str
    mean_mbb: float
    ci95_mbb: float
    value_mbb: float
    value_ci95_mbb: float
    method: str
    aivat: dict[str, Any] | None = None
    exact_mbb: float | None = None
    hands: int | None = None
    """Duplicate hands the pair played (``None``: the league's ``hands``)."""


@dataclass(frozen=True, kw_only=True)
class League:
    config: LeagueConfig
    pairings: list[Pairing]
    lbr: dict[str, dict[str, Any]] = field(default_factory=dict)
    seconds: float = 0.0

    def matrix(self) -> tuple[np.ndarray, np.ndarray]:
        """(value, ci): ``value[i, j]`` is agent i's mean against agent j (mbb/hand)."""
        names = list(self.config.agents)
        n = len(names)
        val = np.full((n, n), np.nan)
        ci = np.full((n, n), np.nan)
        for p in self.pairings:
            i, j = names.index(p.a), names.index(p.b)
            val[i, j], val[j, i] = p.value_mbb, -p.value_mbb + 0.0
            ci[i, j] = ci[j, i] = p.value_ci95_mbb
        return val, ci

    def to_json(self) -> dict[str, Any]:
        val, ci = self.matrix()
        names = list(self.config.agents)

        def num(x: float) -> float | None:
            return float(x) if math.isfinite(x) else None

        avg = [float(np.nanmean(val[i])) for i in range(len(names))]
        order = sorted(range(len(names)), key=lambda i: -avg[i])
        return {
            "config": asdict(self.config) | {"agents": names},
            "agents": names,
            "unit": "mbb/hand" if self.config.game == "hunl" else "mchips/hand",
            "matrix_mbb": [[num(x) for x in row] for row in val],
            "ci95_mbb": [[num(x) for x in row] for row in ci],
            "pairings": [asdict(p) for p in self.pairings],
            "average_mbb": dict(zip(names, avg, strict=True)),
            "ranking": [names[i] for i in order],
            "lbr": self.lbr,
            "seconds": self.seconds,
        }


def plot_league(league: League, path: Path) -> None:
    """Heat-map (PNG or SVG by suffix) of the league matrix with the LBR column."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.figure import Figure

    from pokerlab.io import atomic_path

    val, _ = league.matrix()
    names = list(league.config.agents)
    cols = list(names)
    data = val
    if league.lbr:
        cols = [*names, "LBR"]
        lb = np.array([[league.lbr.get(n, {}).get("mbb", np.nan)] for n in names])
        data = np.hstack([val, lb])
    n = len(names)
    fig = Figure(figsize=(1.3 * len(cols) + 2.0, 0.7 * n + 1.6))
    ax = fig.add_subplot(1, 1, 1)
    finite = np.abs(val[np.isfinite(val)])
    lim = float(finite.max()) if finite.size else 1.0
    lim = lim if lim > 0 else 1.0
    ax.imshow(np.where(np.isfinite(val), val, 0.0), cmap="RdYlGn", vmin=-lim, vmax=lim,
              extent=(-0.5, n - 0.5, n - 0.5, -0.5))
    ax.set_xlim(-0.5, len(cols) - 0.5)
    for i in range(n):
        for j in range(len(cols)):
            x = data[i, j]
            txt = "" if not math.isfinite(x) else f"{x:+.0f}"
            ax.text(j, i, txt, ha="center", va="center", fontsize=8)
    ax.set_xticks(range(len(cols)))
    ax.set_xticklabels(cols, rotation=30, ha="right")
    ax.set_yticks(range(n))
    ax.set_yticklabels(names)
    unit = "mbb/hand" if league.config.game == "hunl" else "mchips/hand"
    ax.set_title(f"row vs column ({unit})")
    fig.tight_layout()
    fmt = "svg" if path.suffix.lower() == ".svg" else "png"
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format=fmt, dpi=110)


def _hands_text(league: League) -> str:
    hs = sorted({p.hands or league.config.hands for p in league.pairings})
    if not hs:
        return str(league.config.hands)
    return f"{hs[0]:,}" if len(hs) == 1 else f"{hs[0]:,}-{hs[-1]:,}"


def league_html(league: League, picture: str | None) -> str:
    """A self-contained HTML page of the league table."""
    d = league.to_json()
    names = d["agents"]
    esc = html.escape
    head = "".join(f"<th>{esc(n)}</th>" for n in names)
    if league.lbr:
        head += "<th>LBR</th>"
    rows = []
    for i, n in enumerate(names):
        cells = []
        for j in range(len(names)):
            v = d["matrix_mbb"][i][j]
            c = d["ci95_mbb"][i][j]
            if v is None:
                cells.append("<td>&ndash;</td>")
            else:
                ci = "" if c is None else f" &plusmn; {c:.0f}"
                cells.append(f"<td>{v:+.0f}{ci}</td>")
        if league.lbr:
            lb = league.lbr.get(n)
            cells.append("<td>&ndash;</td>" if lb is None else
                         f"<td>{lb['mbb']:+.0f} &plusmn; {lb['ci95_mbb']:.0f}</td>")
        rows.append(f"<tr><th>{esc(n)}</th>{''.join(cells)}<td>{d['average_mbb'][n]:+.0f}</td>"
                    "</tr>")
    pic = f'<p><img src="{esc(picture)}" alt="league heat-map"></p>' if picture else ""
    cfg = league.config
    return (
        "<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>pokerlab league</title>"
        "<style>body{font-family:sans-serif}td,th{padding:4px 8px;border:1px solid #ccc;"
        "text-align:right}table{border-collapse:collapse}</style></head><body>"
        f"<h1>League ({esc(cfg.game)}, {_hands_text(league)} duplicate hands per pair)</h1>"
        f"<p>Row agent's mean against the column agent in {d['unit']} with 95% CI "
        "(AIVAT where an agent exposes its probabilities; exact on small games).</p>"
        f"<table><tr><th></th>{head}<th>average</th></tr>{''.join(rows)}</table>"
        f"<p>Ranking: {esc(', '.join(d['ranking']))}</p>{pic}</body></html>\n")


def write_league(league: League, out: Path) -> list[Path]:
    """Write league.json, league_config.json, league.png and league.html into ``out``."""
    from pokerlab.io import atomic_write_json, atomic_write_text

    if not out.is_dir():
        raise ConfigError(f"--out {str(out)!r} must be an existing folder")
    files = [out / "league.json", out / "league_config.json", out / "league.png",
             out / "league.html"]
    atomic_write_json(files[0], league.to_json())
    atomic_write_json(files[1], asdict(league.config) | {"agents": list(league.config.agents)})
    plot_league(league, files[2])
    atomic_write_text(files[3], league_html(league, "league.png"))
    return files
