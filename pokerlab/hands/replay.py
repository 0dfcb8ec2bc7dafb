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
from pokerlab.hands.model import RawHand, amount_problem
from pokerlab.hands.replay_codes import position_names  # noqa: F401 - re-exported
from pokerlab.hands.replay_settle import settle_stacks
from pokerlab.hands.schema import ACTION_ROW, NULL_INT, PLAYER_ROW  # noqa: F401 - re-exported

ACTION_COLUMNS = ACTION_ROW
"""One row per betting action; ``kind`` is f (fold), x (check), c (call), b (bet), r (raise)."""
PLAYER_COLUMNS = PLAYER_ROW
"""One row per player (names from :mod:`pokerlab.hands.schema`)."""

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
    rake: float = 0.0
    """Chips taken from the pot (file's ``rake``, or pot minus winnings)."""
    swapped: bool = False
    """Heads-up with the blinds listed big blind first (p1 is then the button)."""


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


class _Replay:
    """One hand being replayed, phase by phase: :meth:`post` (antes, blinds, straddles),
    :meth:`deal_board` / :meth:`deal_hole`, :meth:`show` (showdown and shows after an
    uncontested win), :meth:`act` (one betting action), :meth:`finish` (the end of the
    hand, settlement and the fact rows)."""

    def __init__(self, h: RawHand) -> None:
        if h.variant != "NT":
            raise HandHistoryError(f"variant {h.variant!r} is not supported (only 'NT', no-limit hold'em)")
        start = h.starting_stacks
        n = len(start)
        if not 2 <= n <= 9:
            raise HandHistoryError(f"{n} players: only 2 to 9 are supported")
        problem = amount_problem(h)
        if problem is not None:
            raise HandHistoryError(problem)
        for s in start:
            if s <= 0:
                raise HandHistoryError(f"starting stack {s} is not positive")
        raw_blinds = h.blinds_or_straddles
        if len(raw_blinds) != n or len(h.antes) != n:
            raise HandHistoryError(f"blinds {raw_blinds!r} / antes {h.antes!r} do not match {n} players")
        if min(raw_blinds) < 0 or min(h.antes) < 0:
            raise HandHistoryError(f"negative blind or ante in {raw_blinds!r} / {h.antes!r}")
        self.h = h
        self.n = n
        self.sb = min(raw_blinds[0], raw_blinds[1])
        self.bb = max(raw_blinds[0], raw_blinds[1])
        if self.bb <= 0:
            raise HandHistoryError(f"no big blind in {raw_blinds!r}")
        self.min_bet = h.min_bet if h.min_bet else self.bb
        if self.min_bet <= 0:
            raise HandHistoryError(f"min_bet {h.min_bet} is not positive")
        self.stacks = list(start)
        self.contrib = [0] * n
        self.puts: tuple[list[int], ...] = ([0] * n, [0] * n, [0] * n, [0] * n)
        self.ante_paid = [0] * n
        self.blind_paid = [0] * n
        self.pot = 0
        self.bets = [0] * n
        self.max_bet = 0
        self.comp = 0  # largest bet/raise increment this round (PokerKit's completion amount)
        self.short_n = 0  # short all-in raises since the last full one, and their sum
        self.short_sum = 0
        self.level = 0
        self.acted = [False] * n
        self.active = [True] * n
        self.n_active = n
        self.street = 0
        self.need = [False] * n
        self.actor = -1
        self.swapped = False
        # per-player facts
        self.vpip = [False] * n
        self.pfr = [False] * n
        self.tb_opp = [False] * n
        self.tb = [False] * n
        self.saw = [[True] * n, [False] * n, [False] * n, [False] * n]
        self.allin = [False] * n
        self.cb_opp = [False] * n
        self.cb = [False] * n
        self.fcb_opp = [False] * n
        self.fcb = [False] * n
        self.p_bets = [0] * n
        self.p_raises = [0] * n
        self.p_calls = [0] * n
        self.p_checks = [0] * n
        self.p_folds = [0] * n
        self.raise_n = [0] * n
        self.raise_sum = [0.0] * n
        self.hole: list[str | None] = [None] * n
        self.seen: set[int] = set()
        self.board: list[str] = []
        self.pfa = -1
        self.cbet_made = False
        self.rows: list[tuple[Any, ...]] = []
        self.idx = 0

    # -- posting ----------------------------------------------------------------------------
    def post(self) -> None:
        """Antes, then blinds and straddles (heads-up reverse-assigned, as PHH and PokerKit)."""
        n, h = self.n, self.h
        raw_blinds = h.blinds_or_straddles
        blinds, antes = (raw_blinds[::-1], h.antes[::-1]) if n == 2 else (raw_blinds, h.antes)
        stacks = self.stacks
        for i in range(n):
            ai = antes[i]
            if ai:
                ai = min(ai, stacks[i])
                stacks[i] -= ai
                self.contrib[i] += ai
                self.ante_paid[i] = ai
                self.pot += ai
        last_blind = -1
        for i in range(n):
            b = blinds[i]
            if b:
                last_blind = i
                b = min(b, stacks[i])
                stacks[i] -= b
                self.bets[i] = b
                self.contrib[i] += b
                self.puts[0][i] = b
                self.pot += b
        self.blind_paid = list(self.bets)
        self.max_bet = max(self.bets)
        need = _round_need([True] * n, stacks, self.bets)
        # heads-up the player after the larger blind acts first: blinds may be listed in
        # either order (the small blind is the button)
        self.swapped = n == 2 and blinds[1] > blinds[0]
        first = (0 if self.swapped else 1) if n == 2 else (last_blind + 1) % n
        if sum(need) <= 1 and all(self.bets[j] >= self.max_bet for j in range(n) if need[j]):
            need = [False] * n
        self.need = need
        self.actor = -1
        for k in range(n):
            j = (first + k) % n
            if need[j]:
                self.actor = j
                break

    # -- dealing ----------------------------------------------------------------------------
    def deal_board(self, a: str, cards: str) -> None:
        n = self.n
        if self.actor != -1:
            raise HandHistoryError(f"action {a!r}: board dealt while p{self.actor + 1} is to act")
        if self.n_active < 2:
            raise HandHistoryError(f"action {a!r}: board dealt after the hand ended")
        if self.street == 3:
            raise HandHistoryError(f"action {a!r}: board dealt after the river")
        want = 6 if self.street == 0 else 2
        if len(cards) != want:
            raise HandHistoryError(
                f"action {a!r}: the {_STREET_NAMES[self.street + 1]} has {want // 2} card(s)"
            )
        _cards(cards, f"action {a!r}", self.seen)
        self.board.append(cards)
        self.street += 1
        self.bets = [0] * n
        self.max_bet = 0
        self.comp = 0
        self.short_n = 0
        self.short_sum = 0
        self.level = 0
        self.acted = [False] * n
        self.saw[self.street] = list(self.active)
        need = _round_need(self.active, self.stacks, self.bets)
        self.actor = -1
        if sum(need) >= 2:
            self.actor = need.index(True)
            self.need = need
        else:
            self.need = [False] * n

    def deal_hole(self, a: str, w: list[str]) -> None:
        try:
            j = int(w[2][1:]) - 1
        except ValueError:
            j = -1
        if w[2][:1] != "p" or not 0 <= j < self.n:
            raise HandHistoryError(f"action {a!r}: no player {w[2]!r}")
        if self.hole[j] is not None:
            raise HandHistoryError(f"action {a!r}: p{j + 1} already has hole cards")
        if self.street or self.idx:
            raise HandHistoryError(f"action {a!r}: hole cards dealt after the betting began")
        if len(w[3]) != 4:
            raise HandHistoryError(f"action {a!r}: hold'em hole cards are two cards")
        _cards(w[3], f"action {a!r}", self.seen)
        self.hole[j] = w[3]

    # -- showdown ---------------------------------------------------------------------------
    def show(self, a: str, i: int, w: list[str]) -> None:
        """``pN sm [cards]``: at a showdown, or the winner showing after an uncontested win."""
        if self.actor != -1:
            raise HandHistoryError(f"action {a!r}: showdown while p{self.actor + 1} is to act")
        if not self.active[i]:
            raise HandHistoryError(f"action {a!r}: p{i + 1} folded and cannot show")
        if len(w) == 3 and w[2] != "-" and w[2].strip("?"):
            shown = w[2]
            known = self.hole[i]
            if known is None or "?" in known:
                if known is not None:
                    for k in range(0, len(known), 2):
                        if known[k : k + 2] != "??":
                            self.seen.discard(parse_card(known[k : k + 2]))
                if len(shown) != 4:
                    raise HandHistoryError(f"action {a!r}: hold'em hole cards are two cards")
                _cards(shown, f"action {a!r}", self.seen)
                self.hole[i] = shown
            elif shown != known:
                raise HandHistoryError(f"action {a!r}: p{i + 1} was dealt {known}, not {shown}")
        elif len(w) > 3:
            raise HandHistoryError(f"action {a!r}: malformed show/muck")

    # -- betting ----------------------------------------------------------------------------
    def act(self, a: str, i: int, op: str, w: list[str]) -> None:  # noqa: C901 - the betting rules
        n = self.n
        if self.actor == -1:
            raise HandHistoryError(f"action {a!r}: no player is to act (betting round is over)")
        if i != self.actor:
            raise HandHistoryError(f"action {a!r}: it is p{self.actor + 1}'s turn, not p{i + 1}'s")
        bets, stacks = self.bets, self.stacks
        max_bet = self.max_bet
        to_call = max_bet - bets[i]
        pot_before = self.pot
        lvl = self.level
        stack = stacks[i]
        aggressive = False
        full = False
        size = 0
        if op == "f" and len(w) == 2:
            kind = "f"
            amount = 0
            self.active[i] = False
            self.n_active -= 1
        elif op == "cc" and len(w) == 2:
            amount = to_call if to_call < stack else stack
            kind = "c" if amount else "x"
        elif op == "cbr" and len(w) == 3:
            x = _amount(a, w[2])
            cap = bets[i] + stack
            if x <= max_bet:
                raise HandHistoryError(f"action {a!r}: raise to {x} is not above the current bet {max_bet}")
            if x > cap:
                raise HandHistoryError(f"action {a!r}: raise to {x} is more than p{i + 1}'s {cap} chips")
            if stack <= to_call:
                raise HandHistoryError(f"action {a!r}: p{i + 1} is covered and can only call or fold")
            call_amt = to_call if to_call < stack else stack
            if call_amt < self.comp or (self.short_n and self.short_sum < self.comp and self.acted[i]):
                raise HandHistoryError(
                    f"action {a!r}: p{i + 1} faces only a short all-in raise, so cannot re-raise"
                )
            size = x - max_bet
            min_size = self.comp if self.comp > self.min_bet else self.min_bet
            if size < min_size and x != cap:
                raise HandHistoryError(
                    f"action {a!r}: raise to {x} is below the minimum {max_bet + min_size}"
                )
            if not any(
                j != i and self.active[j] and stacks[j] + bets[j] > max_bet for j in range(n)
            ):
                raise HandHistoryError(
                    f"action {a!r}: nobody left to bet against (everyone else folded or is all-in)"
                )
            kind = "b" if max_bet == 0 else "r"
            amount = x - bets[i]
            full = size >= self.comp
            if size > self.comp:
                self.comp = size
            self.max_bet = x
            self.level += 1
            aggressive = True
            self.raise_n[i] += 1
            self.raise_sum[i] += size / (pot_before + to_call)
        else:
            raise HandHistoryError(f"action {a!r}: unknown player action")

        if amount:
            stacks[i] = stack - amount
            bets[i] += amount
            self.contrib[i] += amount
            self.puts[self.street][i] += amount
            self.pot += amount
        is_allin = amount > 0 and stacks[i] == 0
        if is_allin:
            self.allin[i] = True
        self.acted[i] = True
        need = self.need
        need[i] = False
        if aggressive:
            for j in range(n):
                need[j] = j != i and self.active[j] and stacks[j] > 0
            if full:
                self.acted = [False] * n
                self.acted[i] = True
            if stacks[i] > 0:
                self.short_n = 0
                self.short_sum = 0
            else:
                self.short_n += 1
                self.short_sum += size
            if self.short_sum >= self.comp:
                self.short_n = 0
                self.short_sum = 0
        is_cbet = self._count(i, kind, lvl)
        self.rows.append(
            (self.idx, self.street, i, kind, amount, bets[i], pot_before, to_call, max_bet, lvl,
             is_allin, is_cbet)
        )
        self.idx += 1
        self.actor = -1
        if self.n_active >= 2:
            for k in range(1, n):
                j = (i + k) % n
                if need[j]:
                    self.actor = j
                    break

    def _count(self, i: int, kind: str, lvl: int) -> bool:
        """Update the per-player flags for one action; returns whether it is a c-bet."""
        if self.street == 0:
            if kind == "r":
                self.vpip[i] = True
                self.pfr[i] = True
                self.pfa = i
                if lvl == 1:
                    self.tb[i] = True
            elif kind == "c":
                self.vpip[i] = True
            if lvl == 1:
                self.tb_opp[i] = True
            return False
        if kind == "b":
            self.p_bets[i] += 1
        elif kind == "r":
            self.p_raises[i] += 1
        elif kind == "c":
            self.p_calls[i] += 1
        elif kind == "x":
            self.p_checks[i] += 1
        else:
            self.p_folds[i] += 1
        if self.street == 1:
            if i == self.pfa and lvl == 0 and not self.cbet_made:
                self.cb_opp[i] = True
                if kind == "b":
                    self.cb[i] = True
                    self.cbet_made = True
                    return True
            elif self.cbet_made and lvl == 1 and not self.fcb_opp[i]:
                self.fcb_opp[i] = True
                if kind == "f":
                    self.fcb[i] = True
        return False

    # -- the end: settlement and facts --------------------------------------------------------
    def finish(self) -> HandFacts:
        n, h = self.n, self.h
        if self.actor != -1:
            raise HandHistoryError(f"the hand stops while p{self.actor + 1} is still to act")
        if (
            self.n_active >= 2
            and self.street < 3
            and sum(1 for j in range(n) if self.active[j] and self.stacks[j] > 0) >= 2
        ):
            raise HandHistoryError(f"the hand stops before the river ({len(self.board)} board dealings)")
        showdown = self.n_active >= 2
        fin, rake = settle_stacks(self.h, self.hole, self.active, self.stacks, self.contrib)
        start = h.starting_stacks
        names = h.players if h.players is not None else [f"p{j + 1}" for j in range(n)]
        pos = position_names(n, swapped=self.swapped)
        players: list[tuple[Any, ...]] = []
        for j in range(n):
            wtsd = showdown and self.active[j]
            if fin is None:
                f_j, net, won = _NAN, _NAN, -1
            else:
                f_j = float(fin[j])
                net = f_j - start[j]
                won = int(wtsd and f_j > self.stacks[j]) if wtsd else 0
            players.append(
                (j, names[j], pos[j], start[j], f_j, net, self.hole[j], self.blind_paid[j],
                 self.ante_paid[j], self.vpip[j], self.pfr[j], self.tb_opp[j], self.tb[j],
                 self.saw[1][j], self.saw[2][j], self.saw[3][j], wtsd, won, self.allin[j],
                 self.cb_opp[j], self.cb[j], self.fcb_opp[j], self.fcb[j], self.p_bets[j],
                 self.p_raises[j], self.p_calls[j], self.p_checks[j], self.p_folds[j],
                 self.puts[0][j], self.puts[1][j], self.puts[2][j], self.puts[3][j],
                 self.raise_n[j], self.raise_sum[j])
            )
        return HandFacts(
            table_size=n,
            small_blind=self.sb,
            big_blind=self.bb,
            ante=max(h.antes),
            board="".join(self.board),
            pot=self.pot,
            showdown=showdown,
            preflop_aggressor=self.pfa,
            last_street=self.street,
            actions=self.rows,
            players=players,
            rake=rake,
            swapped=self.swapped,
        )



def _amount(a: str, text: str) -> int:
    try:
        return int(text)
    except ValueError:
        try:
            xf = float(text)
        except ValueError:
            raise HandHistoryError(f"action {a!r}: bad amount {text!r}") from None
        if not xf.is_integer():
            raise HandHistoryError(f"action {a!r}: amount {text!r} is not whole chips") from None
        return int(xf)


def replay(h: RawHand) -> HandFacts:
    """Check one hand for legality and derive its facts; raises :class:`HandHistoryError`."""
    r = _Replay(h)
    r.post()
    n = r.n
    for a in h.actions:
        if "#" in a:
            a = a[: a.index("#")]
        w = a.split()
        if not w:
            continue
        w0 = w[0]
        if w0 == "d":
            if len(w) == 3 and w[1] == "db":
                r.deal_board(a, w[2])
            elif len(w) == 4 and w[1] == "dh":
                r.deal_hole(a, w)
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
        if w[1] == "sm":
            r.show(a, i, w)
        else:
            r.act(a, i, w[1], w)
    return r.finish()


