"""Generated online-style hand histories, for tests and benchmarks (no third-party files).

:func:`random_hands` lets PokerKit play random legal no-limit hold'em hands (2-9 players,
antes, straddles, short stacks and all-ins, side pots, walks, both heads-up blind orders)
and records each as a :class:`GeneratedHand`: the PHH fields in integer units and
PokerKit's own finishing stacks.  :func:`to_pokerstars` writes hands as PokerStars text
(cash in dollars, tournaments and play chips, shows after uncontested wins, both forms of
the river line, rake) and :func:`to_phh_decimal` as PHH with decimal amounts
(``currency_symbol = '$'``, winnings with and without the returned uncalled bet, ``rake``
fields and implied rake).  The rake each hand takes is recorded so that tests can check
``stored finishing stack == PokerKit's - rake charged to that player``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

_RANK_NAMES = {"2": "Deuces", "3": "Threes", "4": "Fours", "5": "Fives", "6": "Sixes",
               "7": "Sevens", "8": "Eights", "9": "Nines", "T": "Tens", "J": "Jacks",
               "Q": "Queens", "K": "Kings", "A": "Aces"}


@dataclass(kw_only=True)
class GeneratedHand:
    """One random hand: PHH fields in integer units, PokerKit's result, and options."""

    antes: list[int]
    blinds: list[int]
    stacks: list[int]
    actions: list[str]
    final: list[int]
    """PokerKit's finishing stacks (no rake)."""
    names: list[str]
    cents: bool = True
    tournament: bool = False
    rake: int = 0
    rake_player: int = -1
    show_after_win: bool = False
    options: dict[str, bool] = field(default_factory=dict)

    @property
    def n(self) -> int:
        return len(self.stacks)

    def expected_finish(self) -> list[int]:
        """Finishing stacks after the rake (what an importer must store)."""
        out = list(self.final)
        if self.rake_player >= 0:
            out[self.rake_player] -= self.rake
        return out


def _play(rng: random.Random, n: int, antes: int, blinds: tuple[int, ...], stacks: list[int],
          walk: bool) -> tuple[list[str], list[int]]:
    from pokerkit import Automation, NoLimitTexasHoldem
    from pokerkit.notation import HandHistory

    auto = (
        Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING, Automation.HOLE_DEALING, Automation.BOARD_DEALING,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING,
    )
    game = NoLimitTexasHoldem(auto, True, antes, blinds, max(blinds[:2]))
    st = game(stacks, n)
    while st.status:
        opts = []
        if st.can_fold() and st.checking_or_calling_amount:
            opts += ["f"] * (6 if walk else 1)
        if st.can_check_or_call():
            opts += ["c", "c"]
        if st.can_complete_bet_or_raise_to() and not walk:
            opts.append("r")
        o = rng.choice(opts)
        if o == "f":
            st.fold()
        elif o == "c":
            st.check_or_call()
        else:
            lo = st.min_completion_betting_or_raising_to_amount
            hi = st.max_completion_betting_or_raising_to_amount
            assert lo is not None and hi is not None
            st.complete_bet_or_raise_to(
                rng.choice([lo, hi, rng.randint(lo, hi), rng.randint(lo, hi)])
            )
    hh = HandHistory.from_game_state(game, st)
    return [str(a) for a in hh.actions], [int(s) for s in st.stacks]


def random_hands(count: int, *, seed: int = 0, pokerstars: bool = False) -> list[GeneratedHand]:
    """``count`` random hands (``pokerstars=True``: only setups PokerStars text can hold:
    heads-up blinds in the standard order)."""
    rng = random.Random(seed)
    state = random.getstate()
    random.seed(seed)  # PokerKit shuffles with the global generator
    try:
        out = []
        for k in range(count):
            n = rng.choice([2, 2, 3, 4, 5, 6, 6, 6, 7, 8, 9])
            tournament = rng.random() < 0.25
            cents = not tournament and rng.random() < 0.8
            sb, bb = rng.choice([(5, 10), (25, 50), (50, 100), (1, 2)] if cents else [(10, 20), (50, 100)])
            ante = rng.choice([0, bb // 10]) if tournament else 0
            blinds: tuple[int, ...] = (sb, bb)
            if n >= 4 and not tournament and rng.random() < 0.1:
                blinds = (sb, bb, 2 * bb)
            swapped = n == 2 and not pokerstars and rng.random() < 0.5
            if swapped:
                blinds = (bb, sb)
            stacks = [
                rng.choice([rng.randint(bb, 20 * bb), rng.randint(50 * bb, 150 * bb)]) for _ in range(n)
            ]
            walk = rng.random() < 0.12
            actions, final = _play(rng, n, ante, blinds, stacks, walk)
            g = GeneratedHand(
                antes=[ante] * n,
                blinds=list(blinds) + [0] * (n - len(blinds)),
                stacks=stacks,
                actions=actions,
                final=final,
                names=[f"player{k % 97}_{j}" for j in range(n)],
                cents=cents,
                tournament=tournament,
                options={"walk": walk, "swapped": swapped},
            )
            _add_rake_and_show(g, rng)
            out.append(g)
        return out
    finally:
        random.setstate(state)


def _contrib(g: GeneratedHand) -> tuple[list[int], list[bool], int, int]:
    """Chips each player put in, who is still in, top contributor and uncalled amount."""
    n = g.n
    stacks = list(g.stacks)
    contrib = [0] * n
    posted = g.blinds[::-1] if n == 2 else g.blinds
    antes = g.antes[::-1] if n == 2 else g.antes
    bets = [0] * n
    for j in range(n):
        paid = min(antes[j], stacks[j])
        stacks[j] -= paid
        contrib[j] += paid
    for j in range(n):
        b = min(posted[j], stacks[j])
        stacks[j] -= b
        bets[j] = b
        contrib[j] += b
    active = [True] * n
    for a in g.actions:
        w = a.split()
        if w[0] == "d":
            if w[1] == "db":
                bets = [0] * n
            continue
        j = int(w[0][1:]) - 1
        if w[1] == "f":
            active[j] = False
        elif w[1] == "cc":
            add = min(max(bets) - bets[j], stacks[j])
            stacks[j] -= add
            bets[j] += add
            contrib[j] += add
        elif w[1] == "cbr":
            to = int(w[2])
            add = to - bets[j]
            stacks[j] -= add
            bets[j] = to
            contrib[j] += add
    top = max(range(n), key=contrib.__getitem__)
    second = max(contrib[j] for j in range(n) if j != top)
    return contrib, active, top, contrib[top] - second


def _add_rake_and_show(g: GeneratedHand, rng: random.Random) -> None:
    contrib, active, top, uncalled = _contrib(g)
    pot = sum(contrib) - uncalled
    n_active = sum(active)
    if g.cents and not g.tournament and rng.random() < 0.5 and not g.options["walk"]:
        # rake: 5% of the pot, whole units, taken from the biggest winner
        rake = pot * 5 // 100
        won = [g.final[j] - (g.stacks[j] - contrib[j]) - (uncalled if j == top else 0) for j in range(g.n)]
        j = max(range(g.n), key=won.__getitem__)
        if rake > 0 and won[j] >= rake:
            g.rake, g.rake_player = rake, j
    if n_active == 1 and rng.random() < 0.3:
        winner = active.index(True)
        hole = next((a.split()[3] for a in g.actions if a.startswith(f"d dh p{winner + 1} ")), None)
        if hole and "?" not in hole:
            g.actions.append(f"p{winner + 1} sm {hole}")
            g.show_after_win = True


def _money(x: float, cents: bool) -> str:
    if not cents:
        return str(int(x))
    v = int(x)
    return f"${v // 100}.{v % 100:02d}" if v % 100 else f"${v // 100}"


def to_pokerstars(hands: list[GeneratedHand], *, first_hand: int = 1, river_split: float = 0.5,
                  seed: int = 0) -> str:
    """PokerStars text of the hands (not for heads-up hands with the blinds listed BB first)."""
    rng = random.Random(seed)
    parts = []
    for k, g in enumerate(hands):
        if g.options.get("swapped"):
            raise ValueError("heads-up hands with the big blind listed first have no PokerStars form")
        parts.append(_one_pokerstars(g, first_hand + k, rng, river_split))
    return "\n\n\n".join(parts) + "\n\n\n"


def _one_pokerstars(g: GeneratedHand, number: int, rng: random.Random, river_split: float) -> str:  # noqa: C901
    n = g.n
    m = lambda x: _money(x, g.cents)  # noqa: E731
    sb, bb = g.blinds[0], g.blinds[1]
    # seats: PHH order is left of the button first, button last
    seat_nums = sorted(rng.sample(range(1, 10), n))
    shift = rng.randrange(n)
    seats = seat_nums[shift:] + seat_nums[:shift]  # seats[j] = seat of PHH player j
    button = seats[-1]
    if g.tournament:
        head = (f"PokerStars Hand #{number}: Tournament #{900000 + number}, $1.00+$0.10 USD Hold'em "
                f"No Limit - Level I ({sb}/{bb}) - 2024/03/0{1 + number % 9} 12:00:00 ET")
    elif g.cents:
        head = (f"PokerStars Hand #{number}:  Hold'em No Limit ({m(sb)}/{m(bb)} USD) - "
                f"2024/03/0{1 + number % 9} 12:00:00 ET")
    else:
        head = (f"PokerStars Hand #{number}:  Hold'em No Limit ({sb}/{bb}) - "
                f"2024/03/0{1 + number % 9} 12:00:00 ET")
    lines = [head, f"Table 'Gen {number % 7}' 9-max Seat #{button} is the button"]
    by_seat = sorted(range(n), key=seats.__getitem__)
    for j in by_seat:
        lines.append(f"Seat {seats[j]}: {g.names[j]} ({m(g.stacks[j])} in chips)")
    stacks = list(g.stacks)
    posted = g.blinds[::-1] if n == 2 else g.blinds
    antes = g.antes[::-1] if n == 2 else g.antes
    for j in range(n):
        if antes[j]:
            paid = min(antes[j], stacks[j])
            stacks[j] -= paid
            tail = " and is all-in" if stacks[j] == 0 else ""
            lines.append(f"{g.names[j]}: posts the ante {m(paid)}{tail}")
    bets = [0] * n
    order = [1, 0] if n == 2 else list(range(n))
    labels = {0: "small blind", 1: "big blind", 2: "straddle"}
    for j in order:
        if posted[j]:
            b = min(posted[j], stacks[j])
            stacks[j] -= b
            bets[j] = b
            label = labels[j if n > 2 else (0 if j == 1 else 1)]
            word = "posts straddle" if label == "straddle" else f"posts {label}"
            tail = " and is all-in" if stacks[j] == 0 else ""
            lines.append(f"{g.names[j]}: {word} {m(b)}{tail}")
    lines.append("*** HOLE CARDS ***")
    hero = rng.randrange(n)
    board: list[str] = []
    active = [True] * n
    shown_any = False
    for a in g.actions:
        w = a.split()
        if w[0] == "d":
            if w[1] == "dh":
                j = int(w[2][1:]) - 1
                if j == hero and "?" not in w[3]:
                    lines.append(f"Dealt to {g.names[j]} [{w[3][:2]} {w[3][2:]}]")
            else:
                cards = [w[2][i:i + 2] for i in range(0, len(w[2]), 2)]
                if not board:
                    lines.append(f"*** FLOP *** [{' '.join(cards)}]")
                elif len(board) == 3:
                    lines.append(f"*** TURN *** [{' '.join(board)}] [{cards[0]}]")
                elif rng.random() < river_split:
                    lines.append(f"*** RIVER *** [{' '.join(board[:3])}] [{board[3]}] [{cards[0]}]")
                else:
                    lines.append(f"*** RIVER *** [{' '.join(board)}] [{cards[0]}]")
                board.extend(cards)
                bets = [0] * n
            continue
        j = int(w[0][1:]) - 1
        name = g.names[j]
        if w[1] == "f":
            active[j] = False
            lines.append(f"{name}: folds")
        elif w[1] == "cc":
            to_call = max(bets) - bets[j]
            if to_call == 0:
                lines.append(f"{name}: checks")
            else:
                add = min(to_call, stacks[j])
                stacks[j] -= add
                bets[j] += add
                lines.append(f"{name}: calls {m(add)}" + (" and is all-in" if stacks[j] == 0 else ""))
        elif w[1] == "cbr":
            to = int(w[2])
            add = to - bets[j]
            top_bet = max(bets)
            stacks[j] -= add
            bets[j] = to
            tail = " and is all-in" if stacks[j] == 0 else ""
            if top_bet == 0:
                lines.append(f"{name}: bets {m(add)}{tail}")
            else:
                lines.append(f"{name}: raises {m(to - top_bet)} to {m(to)}{tail}")
        elif w[1] == "sm":
            if sum(active) >= 2 and not shown_any:
                lines.append("*** SHOW DOWN ***")
            shown_any = True
            c = w[2] if len(w) == 3 else "-"
            if "?" in c or c == "-":
                lines.append(f"{name}: mucks hand")
                continue
            lines.append(f"{name}: shows [{c[:2]} {c[2:]}] (a pair of {_RANK_NAMES[c[0]]})")
    contrib, _active, top, uncalled = _contrib(g)
    if uncalled:
        lines.insert(_uncalled_at(lines), f"Uncalled bet ({m(uncalled)}) returned to {g.names[top]}")
    fin = g.expected_finish()
    behind = [g.stacks[j] - contrib[j] for j in range(n)]
    for j in range(n):
        won = fin[j] - behind[j] - (uncalled if j == top else 0)
        if won > 0:
            lines.append(f"{g.names[j]} collected {m(won)} from pot")
    pot = sum(contrib) - uncalled
    lines.append("*** SUMMARY ***")
    lines.append(f"Total pot {m(pot)} | Rake {m(g.rake)}")
    if board:
        lines.append(f"Board [{' '.join(board)}]")
    return "\n".join(lines)


def _uncalled_at(lines: list[str]) -> int:
    """Where the 'Uncalled bet' line goes: before the showdown or shows, else at the end."""
    for k in range(len(lines) - 1, -1, -1):
        if lines[k] == "*** SHOW DOWN ***":
            return k
    k = len(lines)
    while k > 0 and ": shows [" in lines[k - 1]:
        k -= 1
    return k


def to_phh_decimal(hands: list[GeneratedHand], *, seed: int = 0) -> str:
    """PHH text (``.phhs``) with decimal amounts (``$``, cents), walks, shows after folds,
    winnings with or without the uncalled bet, the ``rake`` field or an implied rake."""
    rng = random.Random(seed)
    out = []
    for k, g in enumerate(hands):
        f = 100 if g.cents else 1

        def d(x: float, f: int = f) -> str:
            return f"{x / f:.2f}" if f == 100 else str(int(x))

        acts = []
        for a in g.actions:
            w = a.split()
            acts.append(f"{w[0]} cbr {d(int(w[2]))}" if len(w) == 3 and w[1] == "cbr" else a)
        contrib, _active, top, uncalled = _contrib(g)
        fin = g.expected_finish()
        behind = [g.stacks[j] - contrib[j] for j in range(g.n)]
        lines = [
            f"[{k + 1}]",
            "variant = 'NT'",
            f"antes = [{', '.join(d(x) for x in g.antes)}]",
            f"blinds_or_straddles = [{', '.join(d(x) for x in g.blinds)}]",
            f"min_bet = {d(max(g.blinds[:2]))}",
            f"starting_stacks = [{', '.join(d(x) for x in g.stacks)}]",
            "actions = [" + ", ".join(f"'{a}'" for a in acts) + "]",
            f"players = [{', '.join(repr(x) for x in g.names)}]",
            f"hand = {k + 1}",
        ]
        if g.cents:
            lines.append("currency_symbol = '$'")
        style = rng.choice(["finishing", "winnings_in", "winnings_out"])
        if style == "finishing":
            lines.append(f"finishing_stacks = [{', '.join(d(x) for x in fin)}]")
        else:
            inc = style == "winnings_in"
            win = [fin[j] - behind[j] - (0 if inc or j != top else uncalled) for j in range(g.n)]
            lines.append(f"winnings = [{', '.join(d(x) for x in win)}]")
        # inclusive winnings with a rake are ambiguous without the rake field: write it
        if g.rake and (rng.random() < 0.5 or (style == "winnings_in" and uncalled)):
            lines.append(f"rake = {d(g.rake)}")
        out.append("\n".join(lines))
    return "\n\n".join(out) + "\n"
