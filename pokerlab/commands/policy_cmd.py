"""``pokerlab policy show FILE``: print any saved policy per information set, with a picture.

Tabular policies of a game ``load_game`` knows (``metadata["game"]``) are walked once to
name the actions and to find the information sets the policy itself never reaches (its
own reach probability is 0 there: the player's earlier choices avoid them).  An exact
solver's choice at such a set is arbitrary -- any action is optimal -- so they are marked
``unreached`` instead of being read as advice (e.g. the 8-card LP "folds" the best card
at ``7pb``, a history that card never plays).

Pictures (``--png``, .png or .svg by suffix): push/fold policies as the two 13x13 grids
(SB shove, BB call); other tabular policies as one stacked bar per information set (per
card for Kuhn and 8-card poker), unreached sets hatched grey.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import typer

from pokerlab.commands._common import check_image_path, emit_json, force_option, json_option, png_option
from pokerlab.errors import ConfigError

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)

MAX_WALK_STATES = 2_000_000
"""Games with more histories than this are shown without reach (``reached: null``)."""

MAX_INDEXED_NODES = 2000
"""An indexed policy's text summary covers its first nodes (and first 1000 buckets each)."""

UNREACHED = 1e-12
"""Own reach probability at or below this counts as never reached by the policy."""


@dataclass
class InfosetRow:
    key: str
    player: int | None
    actions: list[int]
    probs: list[float]
    names: list[str] = field(default_factory=list)
    reach: float | None = None  # the player's own reach probability under the policy

    @property
    def reached(self) -> bool | None:
        return None if self.reach is None else self.reach > UNREACHED

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "player": self.player, "reached": self.reached,
                "own_reach": self.reach,
                "actions": [{"action": a, "name": n, "prob": p}
                            for a, n, p in zip(self.actions, self.names, self.probs, strict=True)]}


def tabular_rows(policy: Any) -> tuple[list[InfosetRow], str | None]:
    """One row per information set; walks the game named in the metadata when it can.

    Returns the rows and a note saying why reach is unknown (None when it was computed).
    """
    rows = {k: InfosetRow(key=k, player=None, actions=[int(a) for a in policy.legal_actions(k)],
                          probs=[float(p) for p in policy.probabilities(k)])
            for k in policy.keys()}
    for r in rows.values():
        r.names = [str(a) for a in r.actions]
    game_name = policy.metadata.get("game")
    note: str | None = None
    game = None
    if not isinstance(game_name, str):
        note = "the policy file names no game"
    elif game_name == "pushfold":
        note = "push/fold: every information set is a first decision (reach 1)"
        for r in rows.values():
            r.player = 0 if r.key.startswith("SB") else 1
            r.names = ["fold", "call" if r.player == 1 else "shove"][: len(r.actions)]
            r.reach = 1.0
        return list(rows.values()), None
    else:
        from pokerlab.games import load_game

        try:
            game = load_game(game_name)
        except ConfigError as exc:
            note = f"game {game_name!r} cannot be loaded ({exc})"
    if game is not None:
        note = _walk(game, policy, rows)
    return list(rows.values()), note


def _walk(game: Any, policy: Any, rows: dict[str, InfosetRow]) -> str | None:
    """Fill player, action names and own reach; None on success, else why not."""
    reach: dict[str, float] = {}
    names: dict[str, list[str]] = {}
    player_of: dict[str, int] = {}
    stack: list[tuple[Any, tuple[float, ...]]] = [
        (game.new_initial_state(), (1.0,) * int(game.num_players))]
    seen = 0
    while stack:
        st, own = stack.pop()
        seen += 1
        if seen > MAX_WALK_STATES:
            return f"game {game.name!r} is too large to walk (> {MAX_WALK_STATES:,} states)"
        if st.is_terminal():
            continue
        if st.is_chance_node():
            for a, _p in st.chance_outcomes():
                stack.append((st.child(a), own))
            continue
        p = st.current_player()
        key = st.information_state_string(p)
        row = rows.get(key)
        if row is None:
            return f"the policy has no entry for {key!r} of game {game.name!r}"
        reach[key] = max(reach.get(key, 0.0), own[p])
        if key not in names:
            names[key] = [st.action_to_string(a) for a in row.actions]
            player_of[key] = p
        for a, pr in zip(row.actions, row.probs, strict=True):
            nxt = list(own)
            nxt[p] *= pr
            stack.append((st.child(a), tuple(nxt)))
    for k, r in rows.items():
        if k in reach:
            r.reach, r.names, r.player = reach[k], names[k], player_of[k]
    return None


def show_policy(path: Path) -> dict[str, Any]:
    """Everything ``policy show`` prints, as one JSON-able object."""
    from pokerlab.policy import load_any_policy
    from pokerlab.policy.tabular import TabularPolicy

    policy = load_any_policy(path)
    meta = dict(policy.metadata)
    if not isinstance(policy, TabularPolicy):
        return _indexed_summary(policy, path, meta)
    rows, note = tabular_rows(policy)
    rows.sort(key=lambda r: _sort_key(r.key, meta.get("game")))
    unreached = [r.key for r in rows if r.reached is False]
    return {"path": str(path), "kind": "tabular", "game": meta.get("game"), "metadata": meta,
            "num_infosets": len(rows), "num_unreached": len(unreached) if note is None else None,
            "reach_note": note, "key_legend": key_legend(meta.get("game")),
            "infosets": [r.to_json() for r in rows]}


def key_legend(game: Any) -> str | None:
    """What an information-set key of ``game`` says (``None`` where the key spells it
    out itself, as Leduc's ``[Observer: ..][Private: ..]..`` keys do)."""
    name = str(game or "").split("(", 1)[0].strip().lower()
    if name == "kuhn":
        return ("key = the player's card (0 = jack, 1 = queen, 2 = king), then the betting "
                "so far: p = pass (check, or fold to a bet), b = bet (bet, or call a bet); "
                "e.g. '1pb': holding the queen, player 0 passed, player 1 bet")
    if name == "eight_card":
        return ("key = the player's card (0 = lowest .. 7 = highest), then the betting so "
                "far: p = pass (check, or fold to a bet), b = bet (bet, or call a bet); "
                "e.g. '4pb': holding card 4, player 0 passed, player 1 bet")
    return None


def _sort_key(key: str, game: Any) -> tuple[Any, ...]:
    if game in ("kuhn", "eight_card") and key[:1].isdigit():
        i = 0
        while i < len(key) and key[i].isdigit():
            i += 1
        return (len(key) - i, key[i:], int(key[:i]))  # by history, then card
    return (0, key, 0)


def _indexed_summary(policy: Any, path: Path, meta: dict[str, Any]) -> dict[str, Any]:
    import numpy as np

    nodes = []
    for n in range(min(int(policy.num_children.shape[0]), MAX_INDEXED_NODES)):
        k = int(policy.num_children[n])
        b = int(policy.num_buckets[n])
        if k <= 0 or b <= 0:
            continue
        rows = np.array([policy.probabilities(n, j) for j in range(min(b, 1000))],
                        dtype=np.float64)
        nodes.append({"node": n, "buckets": b, "actions": k,
                      "action_ids": [int(a) for a in policy.actions(n)],
                      "mean_probs": [float(x) for x in rows.mean(axis=0)]})
    return {"path": str(path), "kind": "indexed", "game": meta.get("game"), "metadata": meta,
            "num_nodes": len(nodes), "nodes": nodes}


@app.command("show")
def show(
    file: Path = typer.Argument(..., help="A saved policy (.npz), tabular or indexed."),
    png: Path | None = png_option("Draw the policy here (.png or .svg by suffix)."),
    force: bool = force_option(),
    limit: int = typer.Option(0, "--limit", help="Print at most this many rows (0: all)."),
    as_json: bool = json_option(),
) -> None:
    """Print a saved policy per information set; unreached sets are marked."""
    if png is not None:
        check_image_path(png)
    if limit < 0:
        raise ConfigError(f"--limit must be >= 0, got {limit}")
    out = show_policy(file)
    if png is not None:
        draw_policy(out, png)
        out["png"] = str(png)
    if as_json:
        emit_json(out)
        return
    _print(out, limit)


def _print(out: dict[str, Any], limit: int) -> None:
    game = out.get("game") or "?"
    meta = out["metadata"]
    extra = ", ".join(f"{k} {meta[k]}" for k in ("algo", "exploitability") if k in meta)
    if out["kind"] == "indexed":
        typer.echo(f"{out['path']}: indexed policy of {game}, {out['num_nodes']} decision nodes"
                   + (f" ({extra})" if extra else ""))
        rows = out["nodes"] if limit == 0 else out["nodes"][:limit]
        for nd in rows:
            probs = "  ".join(f"{a}:{p:.3f}" for a, p in zip(nd["action_ids"], nd["mean_probs"],
                                                               strict=True))
            typer.echo(f"  node {nd['node']:>6}: {nd['buckets']} buckets, mean over buckets "
                       f"(abstract action:prob) {probs}")
        return
    head = f"{out['path']}: {out['num_infosets']} information sets of {game}"
    if out["num_unreached"] is not None:
        head += f", {out['num_unreached']} never reached by the policy itself"
    typer.echo(head + (f" ({extra})" if extra else ""))
    if out.get("key_legend"):
        typer.echo(out["key_legend"])
    if out["reach_note"]:
        typer.echo(f"reach not computed: {out['reach_note']}")
    rows = out["infosets"] if limit == 0 else out["infosets"][:limit]
    width = max((len(r["key"]) for r in rows), default=4)
    for r in rows:
        acts = "  ".join(f"{a['name']} {a['prob']:.3f}" for a in r["actions"])
        mark = "  (unreached: arbitrary)" if r["reached"] is False else ""
        typer.echo(f"  {r['key']:<{width}}  {acts}{mark}")
    if limit and len(out["infosets"]) > limit:
        typer.echo(f"  ... {len(out['infosets']) - limit} more (--limit 0 shows all)")


def draw_policy(out: dict[str, Any], path: Path) -> None:
    """The picture of ``show_policy``'s result (see module docs)."""
    if out["kind"] != "tabular":
        raise ConfigError("pictures are drawn for tabular policies only (this one is "
                          f"{out['kind']}); use --json for its rows")
    if out.get("game") == "pushfold":
        _draw_pushfold(out, path)
        return
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    from pokerlab.io import atomic_path

    rows = out["infosets"]
    if not rows:
        raise ConfigError("the policy has no information sets to draw")
    if len(rows) > 400:
        raise ConfigError(f"{len(rows)} information sets are too many for one picture "
                          "(at most 400); use --json")
    n_act = max(len(r["actions"]) for r in rows)
    fig, ax = plt.subplots(figsize=(8, max(2.5, 0.22 * len(rows) + 1)))
    colours = plt.get_cmap("tab10")(np.arange(n_act))
    labels_done: set[int] = set()
    for i, r in enumerate(rows):
        left = 0.0
        for j, a in enumerate(r["actions"]):
            lab = a["name"] if j not in labels_done else None
            labels_done.add(j)
            ax.barh(i, a["prob"], left=left, color=colours[j],
                    alpha=0.35 if r["reached"] is False else 1.0,
                    hatch="//" if r["reached"] is False else None, label=lab,
                    edgecolor="grey", linewidth=0.3)
            left += a["prob"]
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([r["key"] + ("  (unreached)" if r["reached"] is False else "")
                        for r in rows], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("probability (hatched: never reached by this policy; its choice is arbitrary)")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.08 if len(rows) > 20 else -0.25),
              ncol=n_act, fontsize=8)
    ax.set_title(f"{out.get('game') or 'policy'}: {Path(out['path']).name}")
    fig.tight_layout()
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format=path.suffix.lower().lstrip("."), dpi=100)
    plt.close(fig)


def _draw_pushfold(out: dict[str, Any], path: Path) -> None:
    import numpy as np

    from pokerlab.cards.cards import combo_index, parse_hole
    from pokerlab.cards.ranges import plot_range_grids

    sb = np.zeros(1326)
    bb = np.zeros(1326)
    for r in out["infosets"]:
        seat, hand = r["key"].split()[:2]
        c1, c2 = parse_hole(hand)
        p = next((a["prob"] for a in r["actions"] if a["action"] == 1), 0.0)
        (sb if seat == "SB" else bb)[combo_index(c1, c2)] = p
    plot_range_grids([(sb, "SB shoves", "Reds"), (bb, "BB calls", "Blues")], path, ncols=2,
                     suptitle=Path(out["path"]).name)


GROUPS = [("policy", app, "Show saved policies per information set (text, JSON, picture).")]
