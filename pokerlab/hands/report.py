"""Plots (PNG, matplotlib) and the HTML report of the hand database.

``write_report`` writes into one folder: ``index.html`` (statistics table, style table,
the plots, the definitions), ``style_scatter.png`` (VPIP against aggression with the four
style quadrants), ``bet_per_street.png``, ``rates.png``, ``winnings.png`` (cumulative big
blinds over hands), ``stats.json`` and ``report_config.json`` (the settings used).
"""

from __future__ import annotations

import datetime as dt
import html
import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pokerlab.hands.stats import STREETS, HandFilter, PlayerStats, player_stats, winnings_curves
from pokerlab.hands.style import StyleThresholds, aggression_value, classify_all
from pokerlab.io import atomic_path, atomic_write_json, atomic_write_text

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from pokerlab.hands.db import HandDB


@dataclass(frozen=True, kw_only=True)
class ReportConfig:
    filter: HandFilter = field(default_factory=HandFilter)
    thresholds: StyleThresholds = field(default_factory=StyleThresholds)
    min_hands: int = 100
    """Players with fewer hands are left out of the plots (not of the tables)."""
    max_players: int = 12
    """At most this many players (most hands first) in the plots."""
    title: str = "pokerlab hand-history report"


def _figure(w: float = 8.0, h: float = 5.0) -> Figure:
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.figure import Figure

    return Figure(figsize=(w, h), dpi=100, layout="constrained")


def _save(fig: Figure, path: Path) -> None:
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format="png")


def plot_style_scatter(stats: list[PlayerStats], thresholds: StyleThresholds, path: Path) -> None:
    """VPIP (x) against aggression (y) with the quadrant lines of the thresholds."""
    fig = _figure(8, 6)
    ax = fig.add_subplot()
    xs, ys, names = [], [], []
    for s in stats:
        y = aggression_value(s, thresholds.aggression)
        if s.vpip is None or y is None:
            continue
        xs.append(s.vpip)
        ys.append(y)
        names.append(s.player)
    y_is_af = thresholds.aggression == "af"
    cap = 6.0 if y_is_af else 100.0
    ys_plot = [min(y, cap) if math.isfinite(y) else cap for y in ys]
    sizes = {s.table_size for s in stats} or {6}
    vx = thresholds.vpip_threshold(max(sizes, key=lambda k: sum(1 for s in stats if s.table_size == k)))
    vy = thresholds.aggression_threshold()
    x_hi = max([vx * 2, *[x + 5 for x in xs]])
    y_hi = max([vy * 2, *[y * 1.15 for y in ys_plot]]) if y_is_af else 100.0
    ax.axvline(vx, color="grey", lw=1, ls="--")
    ax.axhline(vy, color="grey", lw=1, ls="--")
    for qx, qy, label in (
        (0.02, 0.97, "tight-aggressive"),
        (0.98, 0.97, "loose-aggressive"),
        (0.02, 0.03, "tight-passive"),
        (0.98, 0.03, "loose-passive"),
    ):
        ax.text(
            qx,
            qy,
            label,
            transform=ax.transAxes,
            ha="left" if qx < 0.5 else "right",
            va="top" if qy > 0.5 else "bottom",
            color="grey",
            fontsize=10,
            style="italic",
        )
    ax.scatter(xs, ys_plot, s=40, color="tab:blue", zorder=3)
    for x, y, n in zip(xs, ys_plot, names, strict=True):
        ax.annotate(n, (x, y), textcoords="offset points", xytext=(5, 4), fontsize=9)
    ax.set_xlim(0, x_hi)
    ax.set_ylim(0, y_hi)
    ax.set_xlabel("VPIP (%)")
    ax.set_ylabel("postflop aggression factor (bets+raises)/calls" if y_is_af else "aggression frequency (%)")
    ax.set_title("Playing styles")
    _save(fig, path)


def _grouped_bars(stats: list[PlayerStats], path: Path, *, size: tuple[float, float],
                  labels: list[str], values: Callable[[PlayerStats], list[float]],
                  ylabel: str, title: str) -> None:
    """One group of bars per label, one bar per player (``values(player)``, a list the
    length of ``labels``), saved to ``path``."""
    fig = _figure(*size)
    ax = fig.add_subplot()
    n = max(1, len(stats))
    width = 0.8 / n
    for k, s in enumerate(stats):
        ax.bar([i + (k - (n - 1) / 2) * width for i in range(len(labels))], values(s), width,
               label=s.player)
    ax.set_xticks(range(len(labels)), labels)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=8, ncols=2)
    _save(fig, path)


def plot_bet_per_street(stats: list[PlayerStats], path: Path) -> None:
    """Grouped bars: average chips put in per street (big blinds), one bar per player."""
    _grouped_bars(stats, path, size=(9, 5), labels=list(STREETS),
                  values=lambda s: [s.bet_per_street.get(st) or 0.0 for st in STREETS],
                  ylabel="average amount put in (big blinds)",
                  title="Amount bet per street (hands that reached the street)")


_RATES = (
    ("vpip", "VPIP"),
    ("pfr", "PFR"),
    ("three_bet", "3-bet"),
    ("cbet", "c-bet"),
    ("wtsd", "WTSD"),
    ("wsd", "W$SD"),
    ("showdown_rate", "showdown"),
    ("allin_rate", "all-in"),
)


def plot_rates(stats: list[PlayerStats], path: Path) -> None:
    """Grouped bars of the percentage statistics per player."""
    _grouped_bars(stats, path, size=(10, 5), labels=[lab for _, lab in _RATES],
                  values=lambda s: [getattr(s, key) or 0.0 for key, _ in _RATES],
                  ylabel="%", title="Frequencies")


def plot_winnings(curves: dict[str, tuple[list[int], list[float]]], path: Path) -> None:
    fig = _figure(9, 5)
    ax = fig.add_subplot()
    for name, (ks, cs) in curves.items():
        ax.plot(ks, cs, lw=1.2, label=name)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel("hands played")
    ax.set_ylabel("cumulative winnings (big blinds)")
    ax.set_title("Winnings over hands")
    if curves:
        ax.legend(fontsize=8, ncols=2)
    _save(fig, path)


def _fmt(v: Any, nd: int = 1) -> str:
    if v is None:
        return "&ndash;"
    if isinstance(v, float):
        if not math.isfinite(v):
            return "&infin;"
        return f"{v:.{nd}f}"
    return html.escape(str(v))


REPORT_CSS = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; max-width: 1200px; }
table { border-collapse: collapse; margin: 1em 0; font-size: 13px; }
th, td { border: 1px solid #ccc; padding: 3px 7px; text-align: right; }
th { background: #f0f0f0; } td.l, th.l { text-align: left; }
img { max-width: 100%; border: 1px solid #ddd; margin: 0.5em 0; }
.grid { display: grid; grid-template-columns: 1fr 1fr; gap: 1em; }
.small { color: #666; font-size: 12px; }
"""


def stats_table(stats: list[PlayerStats]) -> str:
    head = (
        "player",
        "hands",
        "VPIP",
        "PFR",
        "3-bet",
        "AF",
        "AFq",
        "WTSD",
        "W$SD",
        "c-bet",
        "fold c-bet",
        "all-in",
        "showdown",
        "raise/pot",
        "bb/100",
        "&plusmn; SE",
        "style",
    )
    rows = ["<tr>" + "".join(f"<th{' class=l' if h == 'player' else ''}>{h}</th>" for h in head) + "</tr>"]
    for s in stats:
        cells = [f"<td class=l>{html.escape(s.player)}</td>", f"<td>{s.hands}</td>"]
        for v, nd in (
            (s.vpip, 1),
            (s.pfr, 1),
            (s.three_bet, 1),
            (s.af, 2),
            (s.afq, 1),
            (s.wtsd, 1),
            (s.wsd, 1),
            (s.cbet, 1),
            (s.fold_to_cbet, 1),
            (s.allin_rate, 2),
            (s.showdown_rate, 1),
            (s.avg_raise_pot_ratio, 2),
            (s.bb_per_100, 1),
            (s.bb_per_100_se, 1),
        ):
            cells.append(f"<td>{_fmt(v, nd)}</td>")
        cells.append(f"<td class=l>{html.escape(s.style)}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return "<table>" + "\n".join(rows) + "</table>"


def _street_table(stats: list[PlayerStats]) -> str:
    rows = ["<tr><th class=l>player</th>" + "".join(f"<th>{s}</th>" for s in STREETS) + "</tr>"]
    for s in stats:
        rows.append(
            f"<tr><td class=l>{html.escape(s.player)}</td>"
            + "".join(f"<td>{_fmt(s.bet_per_street.get(st), 2)}</td>" for st in STREETS)
            + "</tr>"
        )
    return "<table>" + "\n".join(rows) + "</table>"


def write_report(db: HandDB, out: str | Path, *, config: ReportConfig | None = None) -> dict[str, Any]:
    """Write the HTML report and its PNGs into ``out``; returns a summary (paths, counts)."""
    cfg = config or ReportConfig()
    out_dir = Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    stats = classify_all(player_stats(db, filt=cfg.filter), cfg.thresholds)
    plotted = [s for s in stats if s.hands >= cfg.min_hands][: cfg.max_players]
    if not plotted:
        plotted = stats[: cfg.max_players]
    curves = winnings_curves(db, filt=cfg.filter, players=[s.player for s in plotted])
    files = {
        "style_scatter": "style_scatter.png",
        "bet_per_street": "bet_per_street.png",
        "rates": "rates.png",
        "winnings": "winnings.png",
    }
    plot_style_scatter(plotted, cfg.thresholds, out_dir / files["style_scatter"])
    plot_bet_per_street(plotted, out_dir / files["bet_per_street"])
    plot_rates(plotted, out_dir / files["rates"])
    plot_winnings(curves, out_dir / files["winnings"])
    n_hands = int(db.query("SELECT count(*) FROM hands")[0][0])
    t = cfg.thresholds
    page = f"""<!doctype html>
<html><head><meta charset="utf-8"><title>{html.escape(cfg.title)}</title>
<style>{REPORT_CSS}</style></head><body>
<h1>{html.escape(cfg.title)}</h1>
<p class=small>{n_hands} hands in {html.escape(str(db.path))}; generated
{dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")} by <code>pokerlab hands report</code>.
Filter: {html.escape(_describe_filter(cfg.filter))}.</p>
<h2>Statistics per player</h2>
{stats_table(stats)}
<p class=small>Percentages; AF = postflop (bets+raises)/calls;
AFq = postflop (bets+raises)/(bets+raises+calls+folds);
WTSD of flops seen; W$SD of showdowns reached;
showdown = share of the player's hands ended at a showdown;
raise/pot = average bet or raise increment over the pot the bettor faced (pot after calling);
bb/100 with its standard error. Exact definitions: docs/hands.md.</p>
<h2>Styles</h2>
<p>Loose when VPIP &ge; {t.vpip_heads_up:g}% heads-up,
{t.vpip_short_handed:g}% with 3&ndash;6 players,
{t.vpip_full_ring:g}% with 7&ndash;9; aggressive when {"AF" if t.aggression == "af" else "AFq"} &ge;
{t.aggression_threshold():g}{"" if t.aggression == "af" else "%"}.</p>
<div class=grid>
<img src="{files["style_scatter"]}" alt="style scatter">
<img src="{files["winnings"]}" alt="winnings over hands">
</div>
<h2>Amount bet per street (big blinds)</h2>
{_street_table(stats)}
<div class=grid>
<img src="{files["bet_per_street"]}" alt="bet per street">
<img src="{files["rates"]}" alt="frequencies">
</div>
</body></html>
"""
    atomic_write_text(out_dir / "index.html", page)
    atomic_write_json(out_dir / "stats.json", [s.to_json() for s in stats])
    atomic_write_json(out_dir / "report_config.json", _config_json(cfg))
    return {
        "out": str(out_dir),
        "html": str(out_dir / "index.html"),
        "pngs": [str(out_dir / f) for f in files.values()],
        "players": len(stats),
        "hands": n_hands,
    }


def _describe_filter(f: HandFilter) -> str:
    parts = []
    if f.players:
        parts.append("players " + ", ".join(f.players))
    if f.table_size is not None:
        parts.append(f"{f.table_size} players at the table")
    if f.stakes is not None:
        parts.append(f"stakes {f.stakes}")
    if f.since is not None:
        parts.append(f"since {f.since:%Y-%m-%d}")
    if f.until is not None:
        parts.append(f"until {f.until:%Y-%m-%d}")
    return "; ".join(parts) or "all hands"


def _config_json(cfg: ReportConfig) -> dict[str, Any]:
    d = asdict(cfg)
    for k in ("since", "until"):
        v = d["filter"].get(k)
        if v is not None:
            d["filter"][k] = v.isoformat()
    d["filter"]["players"] = list(d["filter"]["players"])
    return d
