"""Replay a no-limit hold'em hand history, check that it is legal, and derive its facts.

:func:`replay` walks the PHH action list of a :class:`~pokerlab.hands.model.RawHand`
with the no-limit rules PokerKit uses (blinds/straddles and antes in PHH order, heads-up
order reversed, minimum raise = the last full raise, no re-raise after a short all-in,
board 3+1+1) and raises :class:`~pokerlab.errors.HandHistoryError` naming the first
illegal action.  It returns a :class:`HandFacts`: one row for the hand, one per player
(the per-hand flags the statistics aggregate: VPIP, PFR, 3-bet, c-bet, ...), and one per
betting action (street, amount, pot before it, amount to call, raise level, all-in,
c-bet).  The definitions are in ``docs/hands.md``; :mod:`pokerlab.hands.stats` turns
these columns into statistics with SQL.

Differences from PokerKit's own replay (``HandHistory.state_actions``), on purpose:
PokerKit silently inserts a check or fold when the next listed action belongs to a
different player, and accepts a history that stops mid-hand; here both are errors,
because a statistics database must not invent actions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pokerlab.cards.cards import parse_card
from pokerlab.errors import CardError, HandHistoryError
from pokerlab.hands.model import RawHand

NULL_INT = -(2**62)
"""Stand-in for NULL in integer columns during bulk loading (turned into NULL in SQL)."""

ACTION_COLUMNS = (
    "idx",
    "street",
    "seat",
    "kind",
    "amount",
    "to_amount",
    "pot_before",
    "to_call",
    "facing",
    "level",
    "allin",
    "cbet",
)
"""One row per betting action; ``kind`` is f (fold), x (check), c (call), b (bet), r (raise)."""

PLAYER_COLUMNS = (
    "seat",
    "player",
    "position",
    "starting_stack",
    "finishing_stack",
    "net",
    "hole",
    "blind",
    "ante",
    "vpip",
    "pfr",
    "three_bet_opp",
    "three_bet",
    "saw_flop",
    "saw_turn",
    "saw_river",
    "wtsd",
    "won_sd",
    "allin",
    "cbet_opp",
    "cbet",
    "fold_cbet_opp",
    "fold_cbet",
    "post_bets",
    "post_raises",
    "post_calls",
    "post_checks",
    "post_folds",
    "put_preflop",
    "put_flop",
    "put_turn",
    "put_river",
    "raise_n",
    "raise_pot_sum",
)

_STREET_NAMES = ("preflop", "flop", "turn", "river")
_NAN = float("nan")


@dataclass(slots=True)
class HandFacts:
    """What :func:`replay` derives from one hand."""

    table_size: int
    small_blind: int
    big_blind: int
    ante: int
    board: str
    pot: int
    showdown: bool
    preflop_aggressor: int
    last_street: int
    actions: list[tuple[Any, ...]] = field(default_factory=list)
    players: list[tuple[Any, ...]] = field(default_factory=list)


def position_names(n: int) -> list[str]:
    """Seat labels in PHH order (button last): 2 -> BB, BTN; 6 -> SB, BB, UTG, HJ, CO, BTN."""
    if n == 2:
        return ["BB", "BTN"]
    if n == 3:
        return ["SB", "BB", "BTN"]
    middle = n - 3
    back = ["CO", "HJ", "LJ"]
    names_back = back[: min(middle, 3)]
    front_n = middle - len(names_back)
    front = ["UTG"] + [f"UTG{k}" for k in range(1, front_n)] if front_n else []
    return ["SB", "BB", *front, *reversed(names_back), "BTN"]


_CARD_OF = {r + s: parse_card(r + s) for r in "23456789TJQKA" for s in "cdhs"}


def _cards(text: str, what: str, seen: set[int]) -> list[int | None]:
    if len(text) % 2:
        raise HandHistoryError(f"{what}: bad cards {text!r}")
    out: list[int | None] = []
    for k in range(0, len(text), 2):
        t = text[k : k + 2]
        if t == "??":
            out.append(None)
            continue
        c = _CARD_OF.get(t)
        if c is None:
            try:
                c = parse_card(t)
            except CardError:
                raise HandHistoryError(f"{what}: bad card {t!r}") from None
        if c in seen:
            raise HandHistoryError(f"{what}: card {t!r} dealt twice")
        seen.add(c)
        out.append(c)
    return out


def _round_need(active: list[bool], stacks: list[int], bets: list[int]) -> list[bool]:
    """Who has to act when a betting round begins (PokerKit's rule).

    A player acts if still in, not all-in, and able to lose more chips: his effective
    stack, min(stack, second-largest total of bets + stack among the players still in
    minus his bet), is positive.
    """
    totals = sorted(bets[j] + stacks[j] for j in range(len(stacks)) if active[j])
    second = totals[-2] if len(totals) >= 2 else 0
    return [active[j] and stacks[j] > 0 and min(stacks[j], second - bets[j]) > 0 for j in range(len(stacks))]


def replay(h: RawHand) -> HandFacts:  # noqa: C901 - one pass over the actions, kept together for speed
    """Check one hand for legality and derive its facts; raises :class:`HandHistoryError`."""
    if h.variant != "NT":
        raise HandHistoryError(f"variant {h.variant!r} is not supported (only 'NT', no-limit hold'em)")
    start = h.starting_stacks
    n = len(start)
    if not 2 <= n <= 9:
        raise HandHistoryError(f"{n} players: only 2 to 9 are supported")
    for s in start:
        if s <= 0:
            raise HandHistoryError(f"starting stack {s} is not positive")
    raw_blinds = h.blinds_or_straddles
    antes = h.antes
    if len(raw_blinds) != n or len(antes) != n:
        raise HandHistoryError(f"blinds {raw_blinds!r} / antes {antes!r} do not match {n} players")
    if min(raw_blinds) < 0 or min(antes) < 0:
        raise HandHistoryError(f"negative blind or ante in {raw_blinds!r} / {antes!r}")
    sb = min(raw_blinds[0], raw_blinds[1])
    bb = max(raw_blinds[0], raw_blinds[1])
    if bb <= 0:
        raise HandHistoryError(f"no big blind in {raw_blinds!r}")
    if n == 2:
        blinds = raw_blinds[::-1]
        antes = antes[::-1]
    else:
        blinds = raw_blinds
    min_bet = h.min_bet if h.min_bet else bb
    if min_bet <= 0:
        raise HandHistoryError(f"min_bet {h.min_bet} is not positive")

    stacks = list(start)
    contrib = [0] * n
    put0 = [0] * n
    put1 = [0] * n
    put2 = [0] * n
    put3 = [0] * n
    puts = (put0, put1, put2, put3)
    ante_paid = [0] * n
    pot = 0
    for i in range(n):
        ai = antes[i]
        if ai:
            ai = min(ai, stacks[i])
            stacks[i] -= ai
            contrib[i] += ai
            ante_paid[i] = ai
            pot += ai
    bets = [0] * n
    last_blind = -1
    for i in range(n):
        b = blinds[i]
        if b:
            last_blind = i
            b = min(b, stacks[i])
            stacks[i] -= b
            bets[i] = b
            contrib[i] += b
            put0[i] = b
            pot += b
    blind_paid = list(bets)
    max_bet = max(bets)
    comp = 0  # largest bet/raise increment this round (PokerKit's completion amount)
    short_n = 0  # short all-in raises since the last full one, and their sum
    short_sum = 0
    level = 0
    acted = [False] * n
    active = [True] * n
    n_active = n
    street = 0
    need = _round_need([True] * n, stacks, bets)
    first = 1 if n == 2 else (last_blind + 1) % n
    if sum(need) <= 1 and all(bets[j] >= max_bet for j in range(n) if need[j]):
        need = [False] * n
    actor = -1
    for k in range(n):
        j = (first + k) % n
        if need[j]:
            actor = j
            break

    vpip = [False] * n
    pfr = [False] * n
    tb_opp = [False] * n
    tb = [False] * n
    saw = [[True] * n, [False] * n, [False] * n, [False] * n]
    allin = [False] * n
    cb_opp = [False] * n
    cb = [False] * n
    fcb_opp = [False] * n
    fcb = [False] * n
    p_bets = [0] * n
    p_raises = [0] * n
    p_calls = [0] * n
    p_checks = [0] * n
    p_folds = [0] * n
    raise_n = [0] * n
    raise_sum = [0.0] * n
    hole: list[str | None] = [None] * n
    seen: set[int] = set()
    board: list[str] = []
    pfa = -1
    cbet_made = False
    rows: list[tuple[Any, ...]] = []
    idx = 0

    for a in h.actions:
        if "#" in a:
            a = a[: a.index("#")]
        w = a.split()
        if not w:
            continue
        w0 = w[0]
        if w0 == "d":
            if len(w) == 3 and w[1] == "db":
                if actor != -1:
                    raise HandHistoryError(f"action {a!r}: board dealt while p{actor + 1} is to act")
                if n_active < 2:
                    raise HandHistoryError(f"action {a!r}: board dealt after the hand ended")
                if street == 3:
                    raise HandHistoryError(f"action {a!r}: board dealt after the river")
                cards = w[2]
                want = 6 if street == 0 else 2
                if len(cards) != want:
                    raise HandHistoryError(
                        f"action {a!r}: the {_STREET_NAMES[street + 1]} has {want // 2} card(s)"
                    )
                _cards(cards, f"action {a!r}", seen)
                board.append(cards)
                street += 1
                bets = [0] * n
                max_bet = 0
                comp = 0
                short_n = 0
                short_sum = 0
                level = 0
                acted = [False] * n
                saw[street] = list(active)
                need = _round_need(active, stacks, bets)
                actor = -1
                if sum(need) >= 2:
                    for j in range(n):
                        if need[j]:
                            actor = j
                            break
                else:
                    need = [False] * n
            elif len(w) == 4 and w[1] == "dh":
                try:
                    j = int(w[2][1:]) - 1
                except ValueError:
                    j = -1
                if w[2][:1] != "p" or not 0 <= j < n:
                    raise HandHistoryError(f"action {a!r}: no player {w[2]!r}")
                if hole[j] is not None:
                    raise HandHistoryError(f"action {a!r}: p{j + 1} already has hole cards")
                if street or idx:
                    raise HandHistoryError(f"action {a!r}: hole cards dealt after the betting began")
                if len(w[3]) != 4:
                    raise HandHistoryError(f"action {a!r}: hold'em hole cards are two cards")
                _cards(w[3], f"action {a!r}", seen)
                hole[j] = w[3]
            else:
                raise HandHistoryError(f"action {a!r}: unknown dealer action")
            continue

        if w0[:1] != "p" or len(w) < 2:
            raise HandHistoryError(f"action {a!r}: not a PHH action")
        try:
            i = int(w0[1:]) - 1
        except ValueError:
            i = -1
        if not 0 <= i < n:
            raise HandHistoryError(f"action {a!r}: no player {w0!r} in a {n}-player hand")
        op = w[1]
        if op == "sm":
            if actor != -1:
                raise HandHistoryError(f"action {a!r}: showdown while p{actor + 1} is to act")
            if not active[i]:
                raise HandHistoryError(f"action {a!r}: p{i + 1} folded and cannot show")
            if n_active < 2:
                raise HandHistoryError(f"action {a!r}: no showdown in a hand won uncontested")
            if len(w) == 3 and w[2] != "-" and w[2].strip("?"):
                shown = w[2]
                if hole[i] is None or "?" in (hole[i] or ""):
                    known = hole[i]
                    if known is not None:
                        for k in range(0, len(known), 2):
                            if known[k : k + 2] != "??":
                                seen.discard(parse_card(known[k : k + 2]))
                    if len(shown) != 4:
                        raise HandHistoryError(f"action {a!r}: hold'em hole cards are two cards")
                    _cards(shown, f"action {a!r}", seen)
                    hole[i] = shown
                elif shown != hole[i]:
                    raise HandHistoryError(f"action {a!r}: p{i + 1} was dealt {hole[i]}, not {shown}")
            elif len(w) > 3:
                raise HandHistoryError(f"action {a!r}: malformed show/muck")
            continue
        if actor == -1:
            raise HandHistoryError(f"action {a!r}: no player is to act (betting round is over)")
        if i != actor:
            raise HandHistoryError(f"action {a!r}: it is p{actor + 1}'s turn, not p{i + 1}'s")
        to_call = max_bet - bets[i]
        pot_before = pot
        facing = max_bet
        lvl = level
        stack = stacks[i]
        aggressive = False
        full = False
        size = 0
        if op == "f" and len(w) == 2:
            kind = "f"
            amount = 0
            active[i] = False
            n_active -= 1
        elif op == "cc" and len(w) == 2:
            amount = to_call if to_call < stack else stack
            kind = "c" if amount else "x"
        elif op == "cbr" and len(w) == 3:
            try:
                x = int(w[2])
            except ValueError:
                try:
                    xf = float(w[2])
                except ValueError:
                    raise HandHistoryError(f"action {a!r}: bad amount {w[2]!r}") from None
                if not xf.is_integer():
                    raise HandHistoryError(f"action {a!r}: amount {w[2]!r} is not whole chips") from None
                x = int(xf)
            cap = bets[i] + stack
            if x <= max_bet:
                raise HandHistoryError(f"action {a!r}: raise to {x} is not above the current bet {max_bet}")
            if x > cap:
                raise HandHistoryError(f"action {a!r}: raise to {x} is more than p{i + 1}'s {cap} chips")
            if stack <= to_call:
                raise HandHistoryError(f"action {a!r}: p{i + 1} is covered and can only call or fold")
            call_amt = to_call if to_call < stack else stack
            if call_amt < comp or (short_n and short_sum < comp and acted[i]):
                raise HandHistoryError(
                    f"action {a!r}: p{i + 1} faces only a short all-in raise, so cannot re-raise"
                )
            size = x - max_bet
            min_size = comp if comp > min_bet else min_bet
            if size < min_size and x != cap:
                raise HandHistoryError(
                    f"action {a!r}: raise to {x} is below the minimum {max_bet + min_size}"
                )
            for j in range(n):
                if j != i and active[j] and stacks[j] + bets[j] > max_bet:
                    break
            else:
                raise HandHistoryError(
                    f"action {a!r}: nobody left to bet against (everyone else folded or is all-in)"
                )
            kind = "b" if max_bet == 0 else "r"
            amount = x - bets[i]
            full = size >= comp
            if size > comp:
                comp = size
            max_bet = x
            level += 1
            aggressive = True
            raise_n[i] += 1
            raise_sum[i] += size / (pot_before + to_call)
        else:
            raise HandHistoryError(f"action {a!r}: unknown player action")

        if amount:
            stacks[i] = stack - amount
            bets[i] += amount
            contrib[i] += amount
            puts[street][i] += amount
            pot += amount
        is_allin = amount > 0 and stacks[i] == 0
        if is_allin:
            allin[i] = True
        acted[i] = True
        need[i] = False
        if aggressive:
            for j in range(n):
                need[j] = j != i and active[j] and stacks[j] > 0
            if full:
                acted = [False] * n
                acted[i] = True
            if stacks[i] > 0:
                short_n = 0
                short_sum = 0
            else:
                short_n += 1
                short_sum += size
            if short_sum >= comp:
                short_n = 0
                short_sum = 0
        is_cbet = False
        if street == 0:
            if kind == "r":
                vpip[i] = True
                pfr[i] = True
                pfa = i
                if lvl == 1:
                    tb[i] = True
            elif kind == "c":
                vpip[i] = True
            if lvl == 1:
                tb_opp[i] = True
        else:
            if kind == "b":
                p_bets[i] += 1
            elif kind == "r":
                p_raises[i] += 1
            elif kind == "c":
                p_calls[i] += 1
            elif kind == "x":
                p_checks[i] += 1
            else:
                p_folds[i] += 1
            if street == 1:
                if i == pfa and lvl == 0 and not cbet_made:
                    cb_opp[i] = True
                    if kind == "b":
                        cb[i] = True
                        cbet_made = True
                        is_cbet = True
                elif cbet_made and lvl == 1 and not fcb_opp[i]:
                    fcb_opp[i] = True
                    if kind == "f":
                        fcb[i] = True
        rows.append(
            (
                idx,
                street,
                i,
                kind,
                amount,
                bets[i],
                pot_before,
                to_call,
                facing,
                lvl,
                is_allin,
                is_cbet,
            )
        )
        idx += 1
        actor = -1
        if n_active >= 2:
            for k in range(1, n):
                j = (i + k) % n
                if need[j]:
                    actor = j
                    break

    if actor != -1:
        raise HandHistoryError(f"the hand stops while p{actor + 1} is still to act")
    if n_active >= 2 and street < 3 and sum(1 for j in range(n) if active[j] and stacks[j] > 0) >= 2:
        raise HandHistoryError(f"the hand stops before the river ({len(board)} board dealings)")

    showdown = n_active >= 2
    # Settle: finishing stacks from the file, else derived where the result is certain.
    fin: list[float] | None
    if h.finishing_stacks is not None:
        fin = h.finishing_stacks
        if sum(fin) > sum(start):
            raise HandHistoryError(
                f"finishing stacks {fin} sum to more than the starting stacks {list(start)}"
            )
        for j in range(n):
            if not active[j] and fin[j] != stacks[j]:
                raise HandHistoryError(
                    f"p{j + 1} folded with {stacks[j]} chips behind, but finishes with {fin[j]}"
                )
            if active[j] and fin[j] < stacks[j]:
                raise HandHistoryError(
                    f"p{j + 1} finishes with {fin[j]}, less than the {stacks[j]} never put in the pot"
                )
    elif h.winnings is not None:
        # Winnings are the chips collected from the pot(s); an uncalled bet comes back on top.
        fin = [float(stacks[j] + h.winnings[j]) for j in range(n)]
        order = sorted(range(n), key=contrib.__getitem__, reverse=True)
        excess = contrib[order[0]] - contrib[order[1]]
        if excess > 0:
            fin[order[0]] += excess
    elif not showdown:
        fin = [float(s) for s in stacks]
        for j in range(n):
            if active[j]:
                fin[j] += pot
    elif all(hole[j] is not None and "?" not in (hole[j] or "") for j in range(n) if active[j]):
        fin = _settle_with_pokerkit(h)
    else:
        fin = None  # a showdown between unknown hands: the result is unknown

    names = h.players if h.players is not None else [f"p{j + 1}" for j in range(n)]
    pos = position_names(n)
    players: list[tuple[Any, ...]] = []
    for j in range(n):
        wtsd = showdown and active[j]
        if fin is None:
            f_j, net, won = _NAN, _NAN, -1
        else:
            f_j = float(fin[j])
            net = f_j - start[j]
            won = int(wtsd and f_j > stacks[j]) if wtsd else 0
        players.append(
            (
                j,
                names[j],
                pos[j],
                start[j],
                f_j,
                net,
                hole[j],
                blind_paid[j],
                ante_paid[j],
                vpip[j],
                pfr[j],
                tb_opp[j],
                tb[j],
                saw[1][j],
                saw[2][j],
                saw[3][j],
                wtsd,
                won,
                allin[j],
                cb_opp[j],
                cb[j],
                fcb_opp[j],
                fcb[j],
                p_bets[j],
                p_raises[j],
                p_calls[j],
                p_checks[j],
                p_folds[j],
                put0[j],
                put1[j],
                put2[j],
                put3[j],
                raise_n[j],
                raise_sum[j],
            )
        )
    return HandFacts(
        table_size=n,
        small_blind=sb,
        big_blind=bb,
        ante=max(h.antes),
        board="".join(board),
        pot=pot,
        showdown=showdown,
        preflop_aggressor=pfa,
        last_street=street,
        actions=rows,
        players=players,
    )


def _settle_with_pokerkit(h: RawHand) -> list[float] | None:
    """Finishing stacks of a showdown hand without them in the file, via PokerKit.

    Needs every showdown player's hole cards; returns ``None`` (result unknown) otherwise.
    """
    try:
        from pokerkit.notation import HandHistory
    except ImportError:  # pragma: no cover - pokerkit is a dependency
        return None
    try:
        hh = HandHistory(
            variant=h.variant,
            antes=list(h.antes),
            blinds_or_straddles=list(h.blinds_or_straddles),
            min_bet=h.min_bet,
            starting_stacks=list(h.starting_stacks),
            actions=list(h.actions),
            ante_trimming_status=True,
        )
        state = None
        for state in hh:  # noqa: B007 - the last state is the result
            pass
        if state is None or state.status:
            return None
        return [float(s) for s in state.stacks]
    except Exception:  # noqa: BLE001 - PokerKit raises many types; unknown result is fine
        return None
