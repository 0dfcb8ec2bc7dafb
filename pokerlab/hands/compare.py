"""The thesis's comparison of agent play with human play, reproduced over import groups.

:func:`write_compare_report` (``pokerlab hands report --compare GROUP...``) takes groups of
hands imported with ``pokerlab hands import --group NAME`` (the shipped human hands, match
logs of agents) and writes into one folder:

* ``compare.png`` -- the thesis's two panels side by side: *human characteristics* (the
  human groups) and *agent characteristics* (the other groups), each a bar group per
  statistic (entered-hand share, all-in share, showdown share, average raise / pot) with
  the thesis's own reported number as a hatched reference bar;
* ``compare_bets.png`` -- the amount bet per street (big blinds, summed over the players
  of a hand) per group;
* ``index.html`` -- the per-game table (every group, plus the thesis's numbers as
  reference rows), the style class of each group (its players pooled), the per-player HUD
  table of every group, and the definitions; ``compare.json`` -- the same numbers.

Per-game statistics come from :func:`pokerlab.hands.stats.game_stats` (one SQL query
each; the thesis's and pokerlab's definitions where they differ); the table shows both and
the bars use the thesis's.
"""

from __future__ import annotations

import datetime as dt
import html
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pokerlab.errors import ConfigError
from pokerlab.hands.stats import STREETS, HandFilter, PlayerStats, game_stats, player_stats
from pokerlab.hands.style import StyleThresholds, classify_all
from pokerlab.io import atomic_path, atomic_write_json, atomic_write_text

if TYPE_CHECKING:
    from pokerlab.hands.db import HandDB

THESIS_REFERENCE: dict[str, dict[str, float | str | None]] = {
    "human": {"entered_share": 0.25, "allin_share": 0.065, "showdown_share": 0.125,
              "raise_pot_ratio": 1.30, "style": None},
    "agent": {"entered_share": 1.0, "allin_share": 1.0 / 3.0, "showdown_share": 0.03,
              "raise_pot_ratio": 5.16, "style": "loose-aggressive"},
}
"""The thesis's reported numbers: humans (about 50,000 online 4-9-player hands) and its
agent (about 1,000 self-play games): entered 25% / 100%, all-in 6.5% / about 1/3,
showdown about 1 in 8 / 3%, average raise relative to the pot 130% / 516%; the agent
classed loose-aggressive."""

BAR_STATS = (
    ("entered_share", "entered hand"),
    ("allin_share", "all-in"),
    ("showdown_share", "showdown"),
    ("raise_pot_ratio", "raise / pot"),
)
HUMAN_HINTS = ("human", "pluribus", "people")


def is_human_group(name: str) -> bool:
    """Default panel of a group: human when its name contains human / pluribus / people."""
    low = name.lower()
    return any(h in low for h in HUMAN_HINTS)


def group_names(db: HandDB) -> list[str]:
    return [str(r[0]) for r in db.query(
        "SELECT DISTINCT grp FROM hands WHERE grp IS NOT NULL ORDER BY grp")]


def group_players(db: HandDB, group: str) -> list[str]:
    rows = db.query("SELECT DISTINCT p.player FROM hand_players p JOIN hands h USING (hand_id) "
                    "WHERE h.grp = ? ORDER BY p.player", [group])
    return [str(r[0]) for r in rows]


def _thesis_value(gs: dict[str, Any], key: str) -> float | None:
    v = gs.get(key)
    if isinstance(v, dict):
        v = v.get("thesis")
    return None if v is None else float(v)


def compare_groups(db: HandDB, groups: list[str], *, human: list[str] | None = None,
                   thresholds: StyleThresholds | None = None) -> dict[str, Any]:
    """Per-game statistics, pooled style and per-player statistics of every group."""
    if not groups:
        raise ConfigError("--compare needs at least one group")
    known = set(group_names(db))
    for g in groups:
        if g not in known:
            raise ConfigError(f"no hands imported with group {g!r}; groups in the database: "
                              f"{', '.join(sorted(known)) or 'none'} (import with --group)")
    human_set = set(human) if human is not None else {g for g in groups if is_human_group(g)}
    for g in human_set:
        if g not in groups:
            raise ConfigError(f"human group {g!r} is not one of the compared groups")
    th = thresholds or StyleThresholds()
    out: list[dict[str, Any]] = []
    for g in groups:
        gs = game_stats(db, group=g)
        players = group_players(db, g)
        filt = HandFilter(players=tuple(players))
        per_player = classify_all(player_stats(db, filt=filt), th)
        pooled = classify_all(player_stats(db, filt=filt, group=g), th)
        out.append({"group": g, "kind": "human" if g in human_set else "agent",
                    "game_stats": gs, "style": pooled[0].style if pooled else "unknown",
                    "pooled": pooled[0].to_json() if pooled else None,
                    "players": [s.to_json() for s in per_player],
                    "_player_stats": per_player})
    return {"groups": out, "thesis_reference": THESIS_REFERENCE}


# ----------------------------------------------------------------------------- plots
def _figure(w: float, h: float) -> Any:
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.figure import Figure

    return Figure(figsize=(w, h), dpi=100, layout="constrained")


def _save(fig: Any, path: Path) -> None:
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format=path.suffix.lstrip(".").lower() or "png")


def plot_compare(data: dict[str, Any], path: str | Path) -> None:
    """The two panels (human / agent characteristics) as side-by-side bars."""
    import numpy as np

    fig = _figure(13, 5)
    axes = fig.subplots(1, 2, sharey=True)
    for ax, kind, title in ((axes[0], "human", "Human characteristics"),
                            (axes[1], "agent", "Agent characteristics")):
        groups = [g for g in data["groups"] if g["kind"] == kind]
        series: list[tuple[str, list[float], bool]] = [
            (f"thesis ({kind}s)", [float(THESIS_REFERENCE[kind][k] or 0.0)  # type: ignore[arg-type]
                                   for k, _ in BAR_STATS], True)]
        for g in groups:
            got = [_thesis_value(g["game_stats"], k) for k, _ in BAR_STATS]
            series.append((g["group"], [0.0 if v is None else v for v in got], False))
        x = np.arange(len(BAR_STATS))
        width = 0.8 / max(1, len(series))
        for i, (label, vals, ref) in enumerate(series):
            pct = [100.0 * v for v in vals]
            bars = ax.bar(x - 0.4 + width * (i + 0.5), pct, width, label=label,
                          hatch="//" if ref else None, alpha=0.55 if ref else 0.9,
                          edgecolor="black", linewidth=0.5)
            for b, v in zip(bars, pct, strict=True):
                ax.annotate(f"{v:.1f}" if v < 10 else f"{v:.0f}",
                            (b.get_x() + b.get_width() / 2, v), ha="center",
                            va="bottom", fontsize=7)
        ax.set_xticks(x, [lab for _, lab in BAR_STATS])
        ax.set_title(title)
        ax.set_ylabel("% of games (raise / pot: % of the pot)")
        ax.set_yscale("symlog", linthresh=10)
        ax.grid(axis="y", alpha=0.3)
        ax.legend(fontsize=8)
    _save(fig, Path(path))


def plot_bets(data: dict[str, Any], path: str | Path) -> None:
    """Amount bet per street (big blinds, all players of a hand together) per group."""
    import numpy as np

    fig = _figure(9, 4.5)
    ax = fig.add_subplot()
    groups = data["groups"]
    x = np.arange(len(STREETS))
    width = 0.8 / max(1, len(groups))
    for i, g in enumerate(groups):
        b = g["game_stats"]["bet_per_street_bb"]["thesis"]
        vals = [float(b.get(s) or 0.0) for s in STREETS]
        ax.bar(x - 0.4 + width * (i + 0.5), vals, width, label=g["group"])
    ax.set_xticks(x, list(STREETS))
    ax.set_ylabel("big blinds bet per hand (all players)")
    ax.set_title("Amount bet per street (hands that reached the street)")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8)
    _save(fig, Path(path))


# ----------------------------------------------------------------------------- HTML
def _pct(v: Any) -> str:
    if v is None:
        return "&ndash;"
    f = float(v)
    return "&infin;" if not math.isfinite(f) else f"{100.0 * f:.1f}%"


def _both(v: Any) -> tuple[Any, Any]:
    if isinstance(v, dict):
        return v.get("thesis"), v.get("pokerlab")
    return v, v


def _game_table(data: dict[str, Any]) -> str:
    head = ("group", "panel", "hands", "entered (thesis)", "entered (pokerlab)", "all-in",
            "showdown", "raise/pot (thesis)", "raise/pot (pokerlab)",
            *[f"bet {s} (bb)" for s in STREETS], "style")
    rows = ["<tr>" + "".join(f"<th{' class=l' if i < 2 else ''}>{h}</th>"
                             for i, h in enumerate(head)) + "</tr>"]
    for kind in ("human", "agent"):
        ref = THESIS_REFERENCE[kind]
        cells = [f"<td class=l><i>thesis: {kind}s</i></td>", f"<td class=l>{kind}</td>",
                 "<td>&ndash;</td>", f"<td>{_pct(ref['entered_share'])}</td>", "<td></td>",
                 f"<td>{_pct(ref['allin_share'])}</td>", f"<td>{_pct(ref['showdown_share'])}</td>",
                 f"<td>{_pct(ref['raise_pot_ratio'])}</td>", "<td></td>",
                 *["<td>&ndash;</td>" for _ in STREETS],
                 f"<td class=l>{html.escape(str(ref['style'] or '&ndash;'))}</td>"]
        rows.append("<tr>" + "".join(cells) + "</tr>")
    for g in data["groups"]:
        gs = g["game_stats"]
        e_th, e_pl = _both(gs["entered_share"])
        r_th, r_pl = _both(gs["raise_pot_ratio"])
        bets = gs["bet_per_street_bb"]["thesis"]
        cells = [f"<td class=l>{html.escape(g['group'])}</td>", f"<td class=l>{g['kind']}</td>",
                 f"<td>{gs['hands']}</td>", f"<td>{_pct(e_th)}</td>", f"<td>{_pct(e_pl)}</td>",
                 f"<td>{_pct(gs['allin_share'])}</td>", f"<td>{_pct(gs['showdown_share'])}</td>",
                 f"<td>{_pct(r_th)}</td>", f"<td>{_pct(r_pl)}</td>",
                 *[f"<td>{'&ndash;' if bets.get(s) is None else f'{bets[s]:.2f}'}</td>"
                   for s in STREETS],
                 f"<td class=l>{html.escape(g['style'])}</td>"]
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return "<table>" + "\n".join(rows) + "</table>"


def write_compare_report(db: HandDB, groups: list[str], out: str | Path, *,
                         human: list[str] | None = None,
                         thresholds: StyleThresholds | None = None,
                         title: str = "Agents next to humans: the thesis's comparison"
                         ) -> dict[str, Any]:
    """Write ``index.html``, ``compare.png``, ``compare_bets.png`` and ``compare.json``
    into folder ``out``; returns a summary (paths and the per-group numbers)."""
    from pokerlab.hands.report import REPORT_CSS, stats_table

    data = compare_groups(db, groups, human=human, thresholds=thresholds)
    out_dir = Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    plot_compare(data, out_dir / "compare.png")
    plot_bets(data, out_dir / "compare_bets.png")
    hud = []
    for g in data["groups"]:
        stats: list[PlayerStats] = g["_player_stats"]
        hud.append(f"<h3>{html.escape(g['group'])} ({g['kind']}; pooled style: "
                   f"{html.escape(g['style'])})</h3>\n{stats_table(stats)}")
    page = f"""<!doctype html>
<html><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>{REPORT_CSS}</style></head><body>
<h1>{html.escape(title)}</h1>
<p class=small>Groups {html.escape(', '.join(groups))} of {html.escape(str(db.path))};
generated {dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")} by
<code>pokerlab hands report --compare</code>.</p>
<h2>Per-game statistics</h2>
{_game_table(data)}
<p class=small>Shares of games (hands). Entered (thesis): share of the players dealt in
who put chips in voluntarily preflop (called the initial bet or raised); all-in: games in which
someone put in his last chip; showdown: games decided at a showdown; raise/pot (thesis):
mean raise relative to the pot. Both definitions where pokerlab's differs; exact
definitions in docs/hands.md. Bets per street: big blinds put in by all players of a
hand, over the hands that reached the street. Thesis rows: the numbers the thesis
reports (humans: about 50,000 online 4&ndash;9-player hands; agent: its self-play games).</p>
<img src="compare.png" alt="human and agent characteristics">
<img src="compare_bets.png" alt="bet per street">
<h2>Per-player statistics</h2>
{''.join(hud)}
</body></html>
"""
    atomic_write_text(out_dir / "index.html", page)
    clean = {"groups": [{k: v for k, v in g.items() if not k.startswith("_")}
                        for g in data["groups"]],
             "thesis_reference": THESIS_REFERENCE}
    atomic_write_json(out_dir / "compare.json", clean)
    return {"out": str(out_dir), "html": str(out_dir / "index.html"),
            "pngs": [str(out_dir / "compare.png"), str(out_dir / "compare_bets.png")],
            "groups": [{"group": g["group"], "kind": g["kind"], "style": g["style"],
                        "hands": g["game_stats"]["hands"],
                        "entered_share": _thesis_value(g["game_stats"], "entered_share"),
                        "allin_share": g["game_stats"]["allin_share"],
                        "showdown_share": g["game_stats"]["showdown_share"],
                        "raise_pot_ratio": _thesis_value(g["game_stats"], "raise_pot_ratio")}
                       for g in data["groups"]]}
