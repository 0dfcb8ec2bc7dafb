"""``pokerlab spot report``: one spot template solved over a set of flops (a table of EV,
equity and the first decision's mix per flop and by texture); registered on the ``spot``
group by :mod:`pokerlab.commands.spot_cmd`."""

from __future__ import annotations

import math
import os
import time
from pathlib import Path
from typing import Any

import typer

from pokerlab.commands._common import (
    check_image_path,
    emit_json,
    force_option,
    json_option,
    png_option,
    progress,
)
from pokerlab.commands.option_groups import option_group, with_option_groups
from pokerlab.commands.spot_options import check_memory, parse_check_every, solver_settings, spot_template


@with_option_groups
def report_cmd(flops: str = typer.Option("25", "--flops", help="The flop set: 25, 49, 95, 184 (weighted "
                                         "subsets reproducing the texture frequencies), 1755 (all), or "
                                         "a comma-separated list of boards."),
               template: dict[str, Any] = option_group(spot_template),
               settings: dict[str, Any] = option_group(solver_settings),
               workers: int | None = typer.Option(None, "--workers", help="Flops solved at once "
                                                  "(default: every core)."),
               ray_address: str | None = typer.Option(None, "--ray-address", help="Solve on this Ray "
                                                      "cluster (local, auto, HOST:PORT, ray://HOST)."),
               out: Path | None = typer.Option(None, "--out", help="Report folder: each flop's row is "
                                               "saved as it finishes; run again to resume."),
               cold: bool = typer.Option(False, "--cold", help="Start every flop from scratch, exactly "
                                         "as 'spot solve' (default: a flop starts from the regrets of a "
                                         "solved flop of the same shape, about 30% fewer iterations)."),
               keep_spots: bool = typer.Option(False, "--keep-spots", help="Also save each solved flop "
                                               "(.npz in --out, for 'spot show')."),
               texture: str | None = typer.Option(None, "--texture", help="Only flops of these textures, "
                                                  "e.g. 'monotone', 'two-tone,paired', 'connected,A-high'."),
               png: Path | None = png_option("Charts of the first decision's mix per flop and by texture."),
               force: bool = force_option(),
               as_json: bool = json_option()) -> None:
    """Solve one spot template over a set of flops: a table of EV, equity and the first
    decision's action frequencies per flop."""
    _report(**locals())


def _report(**kw: Any) -> None:
    from pokerlab.errors import ConfigError
    from pokerlab.executor import check_workers, default_backend
    from pokerlab.subgame import aggregate as agg
    from pokerlab.subgame.flops import parse_filter, parse_flop_set

    kw.update(kw.pop("settings"))
    check_memory(kw["max_memory"])
    spot = dict(kw["template"])
    missing = [f"--{k}" for k in ("pot", "stack", "oop", "ip") if spot[k] is None]
    if missing:
        raise ConfigError(f"a report needs {', '.join(missing)}")
    for who in ("oop", "ip"):  # @FILE: the file's range, kept in report.json as its text
        if spot[who].startswith("@"):
            from pokerlab.cards.ranges import load_range, range_to_string

            spot[who] = range_to_string(load_range(spot[who][1:], player=who))
    if not (math.isfinite(kw["target"]) and kw["target"] >= 0):
        raise ConfigError(f"--target must be a percentage of the pot >= 0, got {kw['target']!r}")
    if kw["keep_spots"] and kw["out"] is None:
        raise ConfigError("--keep-spots saves the solved flops in --out: give --out")
    terms = parse_filter(kw["texture"])
    flop_set = parse_flop_set(kw["flops"])
    if terms:
        flop_set = [f for f in flop_set if _texture_ok(f, terms)]
        if not flop_set:
            raise ConfigError(f"no flop of the set has the texture {kw['texture']!r}")
    if kw["png"] is not None:
        check_image_path(kw["png"])
    workers = check_workers(kw["workers"])
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    workers = workers if workers is not None else cores
    backend = default_backend(workers, kw["ray_address"])
    tpl = agg.ReportTemplate(
        **spot, algo=kw["algo"], iterations=kw["iterations"], target=kw["target"],
        isomorphism=not kw["no_isomorphism"], compress=kw["compress"], precision=kw["precision"],
        check_every=str(parse_check_every(kw["check_every"], "auto")), warm=not kw["cold"])
    tpl.solve_config()  # a bad --algo / --precision: before any work
    wall0 = time.perf_counter()
    memory = agg.check_memory(tpl, flop_set, kw["max_memory"])
    as_json = kw["as_json"]
    with progress(f"report {len(flop_set)} flops", enabled=not as_json, total=len(flop_set), unit="flops",
                  fields={"eta": "-"}) as bar:
        res = agg.run_report(tpl, flop_set, folder=kw["out"], backend=backend, workers=workers,
                             ray_address=kw["ray_address"], keep_spots=kw["keep_spots"],
                             progress=lambda d, t, eta: bar(d, t, eta=agg.eta_text(eta)))
    rows = res["flops"]
    if kw["png"] is not None:
        agg.plot_report(rows, kw["png"], title=f"pot {tpl.pot:g} stack {tpl.stack:g}: {len(rows)} flops")
    obj = {"flops": rows, "count": len(rows), "summary": agg.summary(rows), "solved": res["solved"],
           "resumed": res["resumed"], "template": tpl.to_json(), "flop_set": kw["flops"],
           "texture": terms, "max_memory_bytes": max(memory), "backend": backend, "workers": workers,
           "out": None if kw["out"] is None else os.fspath(kw["out"]),
           "seconds": time.perf_counter() - wall0,
           "units": "chips (ev with each player's pot share), equity as a fraction, weight in raw flops "
                    "(of 22,100), exploitability_pct in % of the pot"}
    if as_json:
        emit_json(obj)
        return
    acts: list[str] = []
    for r in rows:
        acts += [a for a in r["root_actions"] if a not in acts]
    typer.echo(f"{'board':8} {'weight':>8} {'ev oop':>8} {'ev ip':>8} {'eq oop':>7} "
               + " ".join(f"{a:>10}" for a in acts))
    for r in sorted(rows, key=lambda r: -r["ev_oop"]):
        typer.echo(f"{r['board']:8} {r['weight']:8.2f} {r['ev_oop']:8.3f} {r['ev_ip']:8.3f} "
                   f"{r['equity_oop'] * 100:6.2f}% "
                   + " ".join(f"{r['root_actions'].get(a, 0.0) * 100:9.1f}%" for a in acts))
    s = obj["summary"]
    typer.echo(f"{'average':8} {s['weight']:8.0f} {s['ev_oop']:8.3f} {s['ev_ip']:8.3f} "
               f"{s['equity_oop'] * 100:6.2f}% "
               + " ".join(f"{s['root_actions'].get(a, 0.0) * 100:9.1f}%" for a in acts))
    typer.echo(f"{res['solved']} flops solved, {res['resumed']} read from {kw['out']}  "
               f"{obj['seconds']:.1f} s" if kw["out"] is not None else
               f"{res['solved']} flops solved  {obj['seconds']:.1f} s")


def _texture_ok(flop: Any, terms: list[str]) -> bool:
    from pokerlab.subgame.flops import matches

    return matches(flop.texture, terms)
