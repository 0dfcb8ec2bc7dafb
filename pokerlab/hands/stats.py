"""Player statistics as SQL over the hand database (definitions in ``docs/hands.md``).

Every statistic is one aggregate over ``hand_players`` (joined with ``hands`` for the
filters), computed by DuckDB; nothing loops over hands in Python.  Conventions follow
PokerTracker 4 / Hold'em Manager: percentages are of the hands (or opportunities) the
definition names, the aggression factor is postflop (bets + raises) / calls.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from pokerlab.errors import ConfigError

if TYPE_CHECKING:
    from pokerlab.hands.db import HandDB

STREETS = ("preflop", "flop", "turn", "river")


@dataclass(frozen=True, kw_only=True)
class HandFilter:
    """Which hands and players the statistics cover (all fields optional)."""

    players: tuple[str, ...] = ()
    table_size: int | None = None
    """Players dealt in, e.g. 2 for heads-up only."""
    stakes: str | None = None
    """``"SB/BB"`` (e.g. ``"50/100"``) or just the big blind (``"100"``)."""
    since: dt.datetime | None = None
    until: dt.datetime | None = None
    """Played-at range (inclusive / exclusive); hands without a date are then left out."""

    def __post_init__(self) -> None:
        if self.table_size is not None and not 2 <= self.table_size <= 9:
            raise ConfigError(f"table size {self.table_size} is not in 2..9")
        if self.stakes is not None:
            parse_stakes(self.stakes)

    def join(self) -> str:
        """The join with ``hands h`` the condition needs (only the date filters do)."""
        if self.since is None and self.until is None:
            return ""
        return "JOIN hands h USING (hand_id)"

    def where(self) -> tuple[str, list[Any]]:
        """SQL condition over ``hand_players p`` (and ``hands h``, see :meth:`join`)."""
        conds = ["TRUE"]
        params: list[Any] = []
        if self.players:
            conds.append(f"p.player IN ({', '.join('?' for _ in self.players)})")
            params.extend(self.players)
        if self.table_size is not None:
            conds.append("p.table_size = ?")
            params.append(self.table_size)
        if self.stakes is not None:
            sb, bb = parse_stakes(self.stakes)
            conds.append("p.big_blind = ?")
            params.append(bb)
            if sb is not None:
                conds.append("p.small_blind = ?")
                params.append(sb)
        if self.since is not None:
            conds.append("h.played_at >= ?")
            params.append(self.since)
        if self.until is not None:
            conds.append("h.played_at < ?")
            params.append(self.until)
        return " AND ".join(conds), params


def parse_stakes(text: str) -> tuple[int | None, int]:
    """``"50/100"`` -> (50, 100); ``"100"`` -> (None, 100). Raises :class:`ConfigError`."""
    m = re.fullmatch(r"\s*(?:(\d+)\s*/\s*)?(\d+)\s*", text)
    if not m:
        raise ConfigError(f"bad stakes {text!r}: expected SB/BB such as '50/100', or the big blind")
    return (int(m[1]) if m[1] else None), int(m[2])


@dataclass(kw_only=True)
class PlayerStats:
    """The statistics of one player (or one pooled group). Percentages are 0..100."""

    player: str
    hands: int
    vpip: float | None
    pfr: float | None
    three_bet: float | None
    af: float | None
    afq: float | None
    wtsd: float | None
    wsd: float | None
    cbet: float | None
    fold_to_cbet: float | None
    allin_rate: float | None
    showdown_rate: float | None
    avg_raise_pot_ratio: float | None
    bet_per_street: dict[str, float | None]
    bb_per_100: float | None
    bb_per_100_se: float | None
    net_bb: float | None
    table_size: int
    """The most common number of players in this player's hands (for the style thresholds)."""
    style: str = ""
    counts: dict[str, int] = field(default_factory=dict)
    net_currency: dict[str, float] = field(default_factory=dict)
    """Net won in money per currency, over the hands whose currency is known."""

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        for k, v in list(d.items()):
            if isinstance(v, float):
                d[k] = _round(v)
        d["bet_per_street"] = {k: _round(v) for k, v in self.bet_per_street.items()}
        d["net_currency"] = {k: _round(v) for k, v in self.net_currency.items()}
        return d


def _round(v: float | None, nd: int = 4) -> float | None:
    if v is None or (isinstance(v, float) and not math.isfinite(v)):
        return None
    return round(v, nd)


_STATS_SQL = """
WITH sel AS (
    SELECT p.* FROM hand_players p {join}
    WHERE {where}
)
SELECT {group} AS grp,
    count(*) AS hands,
    100.0 * avg(vpip::INT) AS vpip,
    100.0 * avg(pfr::INT) AS pfr,
    100.0 * sum(three_bet::INT) / nullif(sum(three_bet_opp::INT), 0) AS three_bet,
    (sum(post_bets) + sum(post_raises)) / nullif(sum(post_calls), 0)::DOUBLE AS af,
    100.0 * (sum(post_bets) + sum(post_raises)) / nullif(
        sum(post_bets) + sum(post_raises) + sum(post_calls) + sum(post_folds), 0) AS afq,
    100.0 * sum(wtsd::INT) FILTER (WHERE saw_flop) / nullif(sum(saw_flop::INT), 0) AS wtsd,
    100.0 * sum(won_sd::INT) FILTER (WHERE wtsd)
        / nullif(count(won_sd) FILTER (WHERE wtsd), 0) AS wsd,
    100.0 * sum(cbet::INT) / nullif(sum(cbet_opp::INT), 0) AS cbet,
    100.0 * sum(fold_cbet::INT) / nullif(sum(fold_cbet_opp::INT), 0) AS fold_to_cbet,
    100.0 * avg(allin::INT) AS allin_rate,
    100.0 * avg(wtsd::INT) AS showdown_rate,
    sum(raise_pot_sum) / nullif(sum(raise_n), 0) AS avg_raise_pot_ratio,
    avg(put_preflop / big_blind) AS bet_preflop,
    avg(put_flop / big_blind) FILTER (WHERE saw_flop) AS bet_flop,
    avg(put_turn / big_blind) FILTER (WHERE saw_turn) AS bet_turn,
    avg(put_river / big_blind) FILTER (WHERE saw_river) AS bet_river,
    100.0 * avg(net / big_blind) AS bb_per_100,
    100.0 * stddev_samp(net / big_blind) / sqrt(count(net)) AS bb_per_100_se,
    sum(net / big_blind) AS net_bb,
    mode(table_size) AS common_size,
    sum(three_bet_opp::INT) AS n_three_bet_opp,
    sum(saw_flop::INT) AS n_saw_flop,
    sum(wtsd::INT) AS n_wtsd,
    sum(cbet_opp::INT) AS n_cbet_opp,
    sum(fold_cbet_opp::INT) AS n_fold_cbet_opp,
    sum(post_bets + post_raises) AS n_post_aggressive,
    sum(post_calls) AS n_post_calls,
    sum(raise_n) AS n_bets_raises
FROM sel
GROUP BY {group}
ORDER BY hands DESC, grp
"""


def player_stats(
    db: HandDB,
    *,
    filt: HandFilter | None = None,
    group: str | None = None,
    min_hands: int = 1,
) -> list[PlayerStats]:
    """Statistics per player (or, with ``group``, of all selected players pooled under that name).

    Styles are left empty; :func:`pokerlab.hands.style.classify_all` fills them in.
    """
    filt = filt or HandFilter()
    where, params = filt.where()
    sql = _STATS_SQL.format(
        where=where, join=filt.join(), group="grp_label" if group is not None else "player"
    )
    if group is not None:
        sql = sql.replace("SELECT p.* FROM", "SELECT p.*, ? AS grp_label FROM", 1)
        params = [group, *params]
    rows = db.query(sql, params)
    money: dict[str, dict[str, float]] = {}
    label = "?" if group is not None else "p.player"
    cur_sql = (
        f"SELECT {label}, h.currency, sum(p.net * h.unit) FROM hand_players p "
        f"JOIN hands h USING (hand_id) WHERE {where} AND h.currency IS NOT NULL "
        "AND p.net IS NOT NULL GROUP BY ALL"
    )
    cur_params = [group, *params[1:]] if group is not None else params
    for who, cur, amount in db.query(cur_sql, cur_params):
        money.setdefault(str(who), {})[str(cur)] = float(amount)
    out: list[PlayerStats] = []
    for r in rows:
        (
            name,
            hands,
            vpip,
            pfr,
            tb,
            af,
            afq,
            wtsd,
            wsd,
            cbet,
            fcb,
            allin,
            sdr,
            rpr,
            b0,
            b1,
            b2,
            b3,
            bb100,
            se,
            net,
            size,
            n_tbo,
            n_flop,
            n_wtsd,
            n_cbo,
            n_fcbo,
            n_agg,
            n_calls,
            n_br,
        ) = r
        if hands < min_hands:
            continue
        out.append(
            PlayerStats(
                player=str(name),
                hands=int(hands),
                vpip=vpip,
                pfr=pfr,
                three_bet=tb,
                af=af,
                afq=afq,
                wtsd=wtsd,
                wsd=wsd,
                cbet=cbet,
                fold_to_cbet=fcb,
                allin_rate=allin,
                showdown_rate=sdr,
                avg_raise_pot_ratio=rpr,
                bet_per_street={"preflop": b0, "flop": b1, "turn": b2, "river": b3},
                bb_per_100=bb100,
                bb_per_100_se=se,
                net_bb=net,
                table_size=int(size),
                net_currency=money.get(str(name), {}),
                counts={
                    "three_bet_opportunities": int(n_tbo),
                    "saw_flop": int(n_flop),
                    "went_to_showdown": int(n_wtsd),
                    "cbet_opportunities": int(n_cbo),
                    "fold_to_cbet_opportunities": int(n_fcbo),
                    "postflop_bets_raises": int(n_agg),
                    "postflop_calls": int(n_calls),
                    "bets_raises": int(n_br),
                },
            )
        )
    return out


def winnings_curves(
    db: HandDB,
    *,
    filt: HandFilter | None = None,
    players: list[str] | None = None,
    max_points: int = 2000,
) -> dict[str, tuple[list[int], list[float]]]:
    """Cumulative net winnings (big blinds) over each player's hands, in import order.

    Thinned in SQL to at most ``max_points`` points per player.
    """
    filt = filt or HandFilter()
    where, params = filt.where()
    extra = ""
    if players:
        extra = f" AND p.player IN ({', '.join('?' for _ in players)})"
        params = [*params, *players]
    sql = f"""
    WITH c AS (
        SELECT p.player, row_number() OVER w AS k,
               sum(coalesce(p.net, 0) / p.big_blind) OVER w AS cum,
               count(*) OVER (PARTITION BY p.player) AS n
        FROM hand_players p {filt.join()}
        WHERE {where}{extra}
        WINDOW w AS (PARTITION BY p.player ORDER BY p.seq ROWS UNBOUNDED PRECEDING)
    )
    SELECT player, list(k ORDER BY k), list(cum ORDER BY k) FROM c
    WHERE k = n OR k % greatest(1, (n // {int(max_points)})) = 0
    GROUP BY player ORDER BY player
    """
    return {str(p): (list(ks), list(cs)) for p, ks, cs in db.query(sql, params)}


# -- per-game (table-level) statistics --------------------------------------------------------

GAME_STAT_SQL: dict[str, str] = {
    # share of player-hands entered: pokerlab = VPIP (called or raised preflop, blinds and
    # the big blind's check do not count); thesis = "called the initial bet": called,
    # raised or, in the big blind, checked preflop
    "entered_share": """
        SELECT avg(p.vpip::INT),
               avg((p.vpip OR EXISTS (SELECT 1 FROM actions a WHERE a.hand_id = p.hand_id
                   AND a.seat = p.seat AND a.street = 0 AND a.kind = 'x'))::INT)
        FROM hand_players p JOIN sel USING (hand_id)""",
    # share of hands in which someone moved all-in with a call, bet or raise
    "allin_share": """
        SELECT avg(x::INT), NULL FROM (
            SELECT bool_or(p.allin) AS x FROM hand_players p JOIN sel USING (hand_id)
            GROUP BY p.hand_id)""",
    # share of hands decided at a showdown (two or more players at the end)
    "showdown_share": "SELECT avg(showdown::INT), NULL FROM sel",
    # average bet/raise relative to the pot, over every bet and raise at the table:
    # pokerlab = raise increment / (pot before it + amount to call) (a pot-sized raise
    # is 1.0); thesis = chips the action adds / pot before it
    "raise_pot_ratio": """
        SELECT avg((a.to_amount - a.facing) / (a.pot_before + a.to_call)::DOUBLE),
               avg(a.amount / a.pot_before::DOUBLE)
        FROM actions a JOIN sel USING (hand_id) WHERE a.kind IN ('b', 'r')""",
    # chips put in per street by all players together, per hand, in big blinds (blinds
    # count preflop, antes do not): pokerlab = over all hands (0 where the street was
    # not reached); thesis = over the hands that reached the street
    "bet_per_street_bb": """
        SELECT {all_hands}, {reached}
        FROM (SELECT sum(p.put_preflop) / min(s.big_blind) AS b0,
                     sum(p.put_flop) / min(s.big_blind) AS b1,
                     sum(p.put_turn) / min(s.big_blind) AS b2,
                     sum(p.put_river) / min(s.big_blind) AS b3,
                     min(s.last_street) AS ls
              FROM hand_players p JOIN sel s USING (hand_id) GROUP BY p.hand_id)""",
    # the same in currency (amount x unit), for the hands whose currency is known
    "bet_per_street_currency": """
        SELECT min(currency), count(DISTINCT currency), {all_hands}
        FROM (SELECT sum(p.put_preflop) * min(s.unit) AS b0,
                     sum(p.put_flop) * min(s.unit) AS b1,
                     sum(p.put_turn) * min(s.unit) AS b2,
                     sum(p.put_river) * min(s.unit) AS b3,
                     min(s.currency) AS currency
              FROM hand_players p JOIN sel s USING (hand_id)
              WHERE s.currency IS NOT NULL GROUP BY p.hand_id)""",
}
_ALL = "[avg(b0), avg(b1), avg(b2), avg(b3)]"
_REACHED = (
    "[avg(b0), avg(b1) FILTER (WHERE ls >= 1), avg(b2) FILTER (WHERE ls >= 2), "
    "avg(b3) FILTER (WHERE ls >= 3)]"
)


def game_stats(
    db: HandDB, *, filt: HandFilter | None = None, group: str | None = None
) -> dict[str, Any]:
    """Per-game (table-level) statistics, each one SQL query (definitions: ``docs/hands.md``).

    ``group`` selects the hands imported with that label (``hands import --group``).
    Shares are fractions (0..1).  Statistics with two definitions give both,
    ``{"pokerlab": ..., "thesis": ...}``.
    """
    filt = filt or HandFilter()
    if filt.players:
        raise ConfigError("per-game statistics cover whole tables: do not select players")
    where, params = filt.where()
    where = where.replace("p.", "h.")
    if group is not None:
        where += " AND h.grp = ?"
        params = [*params, group]
    sel = f"WITH sel AS (SELECT h.* FROM hands h WHERE {where}) "
    n = int(db.query(sel + "SELECT count(*) FROM sel", params)[0][0])
    out: dict[str, Any] = {"group": group, "hands": n}

    def one(name: str) -> tuple[Any, ...]:
        sql = GAME_STAT_SQL[name].format(all_hands=_ALL, reached=_REACHED)
        return db.query(sel + sql, params)[0]

    e_pl, e_th = one("entered_share")
    out["entered_share"] = {"pokerlab": _round(e_pl), "thesis": _round(e_th)}
    out["allin_share"] = _round(one("allin_share")[0])
    out["showdown_share"] = _round(one("showdown_share")[0])
    r_pl, r_th = one("raise_pot_ratio")
    out["raise_pot_ratio"] = {"pokerlab": _round(r_pl), "thesis": _round(r_th)}
    b_all, b_reached = one("bet_per_street_bb")
    out["bet_per_street_bb"] = {
        "pokerlab": _streets(b_all),
        "thesis": _streets(b_reached),
    }
    cur, n_cur, c_all = one("bet_per_street_currency")
    out["currency"] = cur if n_cur == 1 else None
    out["bet_per_street_currency"] = _streets(c_all) if n_cur == 1 else None
    return out


def _streets(values: list[float | None] | None) -> dict[str, float | None]:
    vals = values or [None] * 4
    return {s: _round(v) for s, v in zip(STREETS, vals, strict=True)}
