"""Numba kernel: replay a whole batch of tokenized no-limit hold'em hands at once.

:func:`replay_batch` is the fast twin of :func:`pokerlab.hands.replay.replay` (the plain
Python reference, which also writes the error messages).  It works on flat arrays: the
actions of every hand encoded as four integers (see :mod:`pokerlab.hands.fastimport`),
and fills flat per-hand, per-player and per-action output columns.  Any hand it does not
accept as a plain legal hand gets a non-zero status and is replayed by the reference
instead (which then either reports why it is illegal or handles the rare case, such as
a showdown settled by PokerKit); the parity test checks both give identical rows.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from pokerlab.hands.replay_codes import (  # noqa: F401 - the kernels' constants, re-exported
    AI_ALLIN,
    AI_AMOUNT,
    AI_CALL,
    AI_CBET,
    AI_FACING,
    AI_IDX,
    AI_KIND,
    AI_LEVEL,
    AI_POT,
    AI_SEAT,
    AI_STREET,
    AI_TO,
    HI_ANTE,
    HI_BB,
    HI_NACT,
    HI_PFA,
    HI_POT,
    HI_RAKE,
    HI_SB,
    HI_SHOWDOWN,
    HI_STATUS,
    HI_STREET,
    HI_SWAP,
    KIND_B,
    KIND_C,
    KIND_F,
    KIND_R,
    KIND_X,
    N_AINT,
    N_HINT,
    N_PBOOL,
    N_PFLT,
    N_PINT,
    NO_CARD,
    OP_CBR,
    OP_CC,
    OP_DB,
    OP_DH,
    OP_F,
    OP_OTHER,
    OP_SM,
    PB_ALLIN,
    PB_CB,
    PB_CBO,
    PB_FCB,
    PB_FCBO,
    PB_PFR,
    PB_SAW1,
    PB_SAW2,
    PB_SAW3,
    PB_TB,
    PB_TBO,
    PB_VPIP,
    PB_WTSD,
    PF_FIN,
    PF_NET,
    PF_RSUM,
    PI_ANTE,
    PI_BLIND,
    PI_C1,
    PI_C2,
    PI_PBETS,
    PI_PCALLS,
    PI_PCHECKS,
    PI_PFOLDS,
    PI_PRAISES,
    PI_PUT0,
    PI_RAISEN,
    PI_START,
    PI_WON,
    RANK_OF,
    SETTLE_FIN_FOLDED,
    SETTLE_FIN_LOW,
    SETTLE_FIN_SUM,
    SETTLE_OK,
    SETTLE_POKERKIT,
    SETTLE_RAKE_FIELD,
    SETTLE_RAKE_POT,
    SETTLE_UNKNOWN,
    SETTLE_WIN_FOLDED,
    SETTLE_WIN_PLAYER,
    SETTLE_WIN_POT,
    SUIT_OF,
    TOK_OK,
    TOK_PYTHON,
    TOK_SKIP,
    UNKNOWN_CARD,
)

_RANK_OF, _SUIT_OF = RANK_OF, SUIT_OF


@njit(cache=True)
def _round_need(active: np.ndarray, stacks: np.ndarray, bets: np.ndarray, need: np.ndarray) -> int:
    """Fill ``need`` with who acts when a betting round begins; returns how many (see
    :func:`pokerlab.hands.replay._round_need`)."""
    n = stacks.shape[0]
    first = -1
    second = -1
    for j in range(n):
        if active[j]:
            t = bets[j] + stacks[j]
            if t > first:
                second = first
                first = t
            elif t > second:
                second = t
    if second < 0:
        second = 0
    cnt = 0
    for j in range(n):
        need[j] = active[j] and stacks[j] > 0 and min(stacks[j], second - bets[j]) > 0
        if need[j]:
            cnt += 1
    return cnt



@njit(cache=True)
def settle(
    start: np.ndarray,
    stacks: np.ndarray,
    contrib: np.ndarray,
    active: np.ndarray,
    known_cards: bool,
    fin_in: np.ndarray,
    has_fin: bool,
    win_in: np.ndarray,
    has_win: bool,
    rake_in: int,
    fin: np.ndarray,
) -> tuple[int, float, float, float, int]:
    """Finishing stacks (into ``fin``) and rake of a replayed hand.

    ``stacks`` are the chips behind, ``contrib`` the chips each player put in, ``rake_in``
    the file's rake (-1: not given).  Returns ``(status, rake, x, y, player)`` where
    ``x``/``y``/``player`` name the amounts of a failed check.  Winnings may or may not
    include an uncalled bet returned (PokerStars' "collected" does not; some PHH writers
    do): when their sum exceeds the contested pot but not the pot with the uncalled bet,
    and the player who made that bet wins at least it, they are taken to include it.
    """
    n = start.shape[0]
    n_active = 0
    winner = -1
    pot_total = 0
    top = 0
    for j in range(n):
        pot_total += contrib[j]
        if active[j]:
            n_active += 1
            winner = j
        if contrib[j] > contrib[top]:
            top = j
    second = 0
    for j in range(n):
        if j != top and contrib[j] > second:
            second = contrib[j]
    uncalled = contrib[top] - second
    pot = pot_total - uncalled
    if rake_in > pot:
        return SETTLE_RAKE_POT, 0.0, float(rake_in), float(pot), -1
    if has_fin:
        tot_f = 0.0
        tot_s = 0.0
        for j in range(n):
            fin[j] = fin_in[j]
            tot_f += fin[j]
            tot_s += start[j]
        if tot_f > tot_s:
            return SETTLE_FIN_SUM, 0.0, tot_f, tot_s, -1
        for j in range(n):
            if not active[j] and fin[j] != stacks[j]:
                return SETTLE_FIN_FOLDED, 0.0, float(stacks[j]), fin[j], j
            if active[j] and fin[j] < stacks[j]:
                return SETTLE_FIN_LOW, 0.0, fin[j], float(stacks[j]), j
        rake = tot_s - tot_f
        if rake > pot:
            return SETTLE_RAKE_POT, 0.0, rake, float(pot), -1
        if rake_in >= 0 and rake != rake_in:
            return SETTLE_RAKE_FIELD, 0.0, float(rake_in), rake, -1
        return SETTLE_OK, rake, 0.0, 0.0, -1
    if has_win:
        w_sum = 0.0
        for j in range(n):
            if win_in[j] < 0:
                return SETTLE_WIN_PLAYER, 0.0, win_in[j], 0.0, j
            if not active[j] and win_in[j] > 0:
                return SETTLE_WIN_FOLDED, 0.0, win_in[j], 0.0, j
            w_sum += win_in[j]
        if rake_in >= 0:
            if w_sum + rake_in == pot:
                inclusive = False
            elif uncalled > 0 and w_sum + rake_in == pot_total:
                inclusive = True
            else:
                return SETTLE_RAKE_FIELD, 0.0, float(rake_in), float(pot) - w_sum, -1
        elif w_sum <= pot:
            inclusive = False
        elif w_sum <= pot_total and win_in[top] >= uncalled:
            inclusive = True
        else:
            return SETTLE_WIN_POT, 0.0, w_sum, float(pot), -1
        for j in range(n):
            cap = 0.0
            cj = contrib[j] - (uncalled if j == top else 0)
            for k in range(n):
                ck = contrib[k] - (uncalled if k == top else 0)
                cap += min(cj, ck)
            if inclusive and j == top:
                cap += uncalled
            if win_in[j] > cap:
                return SETTLE_WIN_PLAYER, 0.0, win_in[j], cap, j
            fin[j] = stacks[j] + win_in[j]
        if not inclusive:
            fin[top] += uncalled
        rake = (pot_total if inclusive else pot) - w_sum
        return SETTLE_OK, rake, 0.0, 0.0, -1
    rake = 0.0 if rake_in < 0 else float(rake_in)
    if n_active == 1:
        for j in range(n):
            fin[j] = stacks[j]
        fin[winner] += pot_total - rake
        return SETTLE_OK, rake, 0.0, 0.0, -1
    if known_cards and rake_in <= 0:
        return SETTLE_POKERKIT, 0.0, 0.0, 0.0, -1
    return SETTLE_UNKNOWN, rake, 0.0, 0.0, -1


@njit(cache=True, inline="always")
def _take_hole(seen: np.ndarray, pint: np.ndarray, row: int, c1: int, c2: int) -> bool:
    """Mark hole cards ``c1``/``c2`` seen (codes >= 52: unknown, not marked) and write them
    to ``pint[row]``; False (``pint`` untouched) when a known one was seen before."""
    for c in (c1, c2):
        if c < 52:
            if seen[c]:
                return False
            seen[c] = True
    pint[row, PI_C1] = c1
    pint[row, PI_C2] = c2
    return True


@njit(cache=True)
def _replay_one(  # noqa: C901 - mirrors pokerlab.hands.replay.replay step by step
    h: int,
    n: int,
    po: int,
    ao: int,
    a_end: int,
    starting: np.ndarray,
    antes_in: np.ndarray,
    blinds_in: np.ndarray,
    min_bet_in: int,
    fin_in: np.ndarray,
    has_fin: bool,
    win_in: np.ndarray,
    has_win: bool,
    rake_in: int,
    acts: np.ndarray,
    hint: np.ndarray,
    pint: np.ndarray,
    pbool: np.ndarray,
    pflt: np.ndarray,
    aint: np.ndarray,
    avalid: np.ndarray,
) -> int:
    """Replay hand ``h``; returns 0 when accepted, else a non-zero code (reference decides)."""
    if n < 2 or n > 9:
        return 1
    for j in range(n):
        if starting[po + j] <= 0 or blinds_in[po + j] < 0 or antes_in[po + j] < 0:
            return 2
    b0 = blinds_in[po]
    b1 = blinds_in[po + 1]
    sb = min(b0, b1)
    bb = max(b0, b1)
    if bb <= 0:
        return 3
    blinds = np.empty(n, np.int64)
    antes = np.empty(n, np.int64)
    for j in range(n):
        if n == 2:
            blinds[j] = blinds_in[po + n - 1 - j]
            antes[j] = antes_in[po + n - 1 - j]
        else:
            blinds[j] = blinds_in[po + j]
            antes[j] = antes_in[po + j]
    min_bet = min_bet_in if min_bet_in > 0 else bb
    stacks = np.empty(n, np.int64)
    contrib = np.zeros(n, np.int64)
    put = np.zeros((4, n), np.int64)
    pot = 0
    ante_max = 0
    for j in range(n):
        stacks[j] = starting[po + j]
        ante_max = max(ante_max, antes_in[po + j])
    for j in range(n):
        a = antes[j]
        if a > 0:
            a = min(a, stacks[j])
            stacks[j] -= a
            contrib[j] += a
            pint[po + j, PI_ANTE] = a
            pot += a
    bets = np.zeros(n, np.int64)
    last_blind = -1
    for j in range(n):
        b = blinds[j]
        if b > 0:
            last_blind = j
            b = min(b, stacks[j])
            stacks[j] -= b
            bets[j] = b
            contrib[j] += b
            put[0, j] = b
            pot += b
    for j in range(n):
        pint[po + j, PI_BLIND] = bets[j]
        pint[po + j, PI_START] = starting[po + j]
        pint[po + j, PI_C1] = NO_CARD
        pint[po + j, PI_C2] = NO_CARD
    max_bet = 0
    for j in range(n):
        max_bet = max(max_bet, bets[j])
    comp = 0
    short_n = 0
    short_sum = 0
    level = 0
    acted = np.zeros(n, np.bool_)
    active = np.ones(n, np.bool_)
    n_active = n
    street = 0
    need = np.zeros(n, np.bool_)
    cnt = _round_need(active, stacks, bets, need)
    # heads-up: the player after the larger blind acts first (PokerKit; PHH lists the
    # blinds in either order, the small blind is the button)
    swapped = n == 2 and blinds[1] > blinds[0]
    if n == 2:
        first = 0 if swapped else 1
    else:
        first = (last_blind + 1) % n
    if cnt <= 1:
        ok = True
        for j in range(n):
            if need[j] and bets[j] < max_bet:
                ok = False
        if ok:
            need[:] = False
    actor = -1
    for k in range(n):
        j = (first + k) % n
        if need[j]:
            actor = j
            break
    for j in range(n):
        pbool[po + j, PB_SAW1] = False
    seen = np.zeros(53, np.bool_)
    pfa = -1
    cbet_made = False
    idx = 0
    n_board = 0
    out = ao
    for t in range(ao, a_end):
        op = acts[t, 0]
        i = acts[t, 1]
        val = acts[t, 2]
        cards = acts[t, 3]
        if op == OP_DB:
            if actor != -1 or n_active < 2 or street == 3:
                return 10
            want = 3 if street == 0 else 1
            if val != want:
                return 11
            for k in range(want):
                c = (cards >> (6 * k)) & 63
                if c >= 52 or seen[c]:
                    return 12
                seen[c] = True
            n_board += 1
            street += 1
            bets[:] = 0
            max_bet = 0
            comp = 0
            short_n = 0
            short_sum = 0
            level = 0
            acted[:] = False
            for j in range(n):
                if street == 1:
                    pbool[po + j, PB_SAW1] = active[j]
                elif street == 2:
                    pbool[po + j, PB_SAW2] = active[j]
                else:
                    pbool[po + j, PB_SAW3] = active[j]
            cnt = _round_need(active, stacks, bets, need)
            actor = -1
            if cnt >= 2:
                for j in range(n):
                    if need[j]:
                        actor = j
                        break
            else:
                need[:] = False
            continue
        if op == OP_DH:
            if i < 0 or i >= n or pint[po + i, PI_C1] != NO_CARD or street != 0 or idx != 0:
                return 20
            if not _take_hole(seen, pint, po + i, cards >> 6, cards & 63):
                return 21
            continue
        if op == OP_SM:
            # a show after an uncontested win (the winner only) is allowed: no showdown
            if i < 0 or i >= n or actor != -1 or not active[i]:
                return 30
            if cards >= 0:
                c1 = cards >> 6
                c2 = cards & 63
                k1 = pint[po + i, PI_C1]
                k2 = pint[po + i, PI_C2]
                if k1 == NO_CARD or k1 == UNKNOWN_CARD or k2 == UNKNOWN_CARD:
                    if k1 >= 0 and k1 < 52:
                        seen[k1] = False
                    if k2 >= 0 and k2 < 52:
                        seen[k2] = False
                    if not _take_hole(seen, pint, po + i, c1, c2):
                        return 31
                elif k1 != c1 or k2 != c2:
                    return 32
            continue
        if op != OP_F and op != OP_CC and op != OP_CBR:
            return 40
        if actor == -1 or i != actor:
            return 41
        to_call = max_bet - bets[i]
        pot_before = pot
        facing = max_bet
        lvl = level
        stack = stacks[i]
        aggressive = False
        full = False
        size = 0
        if op == OP_F:
            kind = KIND_F
            amount = 0
            active[i] = False
            n_active -= 1
        elif op == OP_CC:
            amount = to_call if to_call < stack else stack
            kind = KIND_C if amount > 0 else KIND_X
        else:
            x = val
            cap = bets[i] + stack
            if x <= max_bet or x > cap or stack <= to_call:
                return 42
            call_amt = to_call if to_call < stack else stack
            if call_amt < comp or (short_n > 0 and short_sum < comp and acted[i]):
                return 45
            size = x - max_bet
            min_size = comp if comp > min_bet else min_bet
            if size < min_size and x != cap:
                return 43
            other = False
            for j in range(n):
                if j != i and active[j] and stacks[j] + bets[j] > max_bet:
                    other = True
                    break
            if not other:
                return 44
            kind = KIND_B if max_bet == 0 else KIND_R
            amount = x - bets[i]
            full = size >= comp
            if size > comp:
                comp = size
            max_bet = x
            level += 1
            aggressive = True
            pint[po + i, PI_RAISEN] += 1
            pflt[po + i, PF_RSUM] += size / (pot_before + to_call)
        if amount > 0:
            stacks[i] = stack - amount
            bets[i] += amount
            contrib[i] += amount
            put[street, i] += amount
            pot += amount
        is_allin = amount > 0 and stacks[i] == 0
        if is_allin:
            pbool[po + i, PB_ALLIN] = True
        acted[i] = True
        need[i] = False
        if aggressive:
            for j in range(n):
                need[j] = j != i and active[j] and stacks[j] > 0
            if full:
                acted[:] = False
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
            if kind == KIND_R:
                pbool[po + i, PB_VPIP] = True
                pbool[po + i, PB_PFR] = True
                pfa = i
                if lvl == 1:
                    pbool[po + i, PB_TB] = True
            elif kind == KIND_C:
                pbool[po + i, PB_VPIP] = True
            if lvl == 1:
                pbool[po + i, PB_TBO] = True
        else:
            if kind == KIND_B:
                pint[po + i, PI_PBETS] += 1
            elif kind == KIND_R:
                pint[po + i, PI_PRAISES] += 1
            elif kind == KIND_C:
                pint[po + i, PI_PCALLS] += 1
            elif kind == KIND_X:
                pint[po + i, PI_PCHECKS] += 1
            else:
                pint[po + i, PI_PFOLDS] += 1
            if street == 1:
                if i == pfa and lvl == 0 and not cbet_made:
                    pbool[po + i, PB_CBO] = True
                    if kind == KIND_B:
                        pbool[po + i, PB_CB] = True
                        cbet_made = True
                        is_cbet = True
                elif cbet_made and lvl == 1 and not pbool[po + i, PB_FCBO]:
                    pbool[po + i, PB_FCBO] = True
                    if kind == KIND_F:
                        pbool[po + i, PB_FCB] = True
        aint[out, AI_IDX] = idx
        aint[out, AI_STREET] = street
        aint[out, AI_SEAT] = i
        aint[out, AI_KIND] = kind
        aint[out, AI_AMOUNT] = amount
        aint[out, AI_TO] = bets[i]
        aint[out, AI_POT] = pot_before
        aint[out, AI_CALL] = to_call
        aint[out, AI_FACING] = facing
        aint[out, AI_LEVEL] = lvl
        aint[out, AI_ALLIN] = 1 if is_allin else 0
        aint[out, AI_CBET] = 1 if is_cbet else 0
        avalid[out] = True
        out += 1
        idx += 1
        actor = -1
        if n_active >= 2:
            for k in range(1, n):
                j = (i + k) % n
                if need[j]:
                    actor = j
                    break

    if actor != -1:
        return 50
    if n_active >= 2 and street < 3:
        cnt = 0
        for j in range(n):
            if active[j] and stacks[j] > 0:
                cnt += 1
        if cnt >= 2:
            return 51
    showdown = n_active >= 2
    fin = np.empty(n, np.float64)
    known_cards = True
    for j in range(n):
        if active[j]:
            c1 = pint[po + j, PI_C1]
            c2 = pint[po + j, PI_C2]
            if c1 == NO_CARD or c1 == UNKNOWN_CARD or c2 == UNKNOWN_CARD:
                known_cards = False
    start = starting[po : po + n]
    st, rake, _x, _y, _p = settle(
        start,
        stacks,
        contrib,
        active,
        known_cards,
        fin_in[po : po + n],
        has_fin,
        win_in[po : po + n],
        has_win,
        rake_in,
        fin,
    )
    if st != SETTLE_OK and st != SETTLE_UNKNOWN:
        return st
    known = st == SETTLE_OK
    for j in range(n):
        wtsd = showdown and active[j]
        pbool[po + j, PB_WTSD] = wtsd
        for s in range(4):
            pint[po + j, PI_PUT0 + s] = put[s, j]
        if known:
            pflt[po + j, PF_FIN] = fin[j]
            pflt[po + j, PF_NET] = fin[j] - starting[po + j]
            pint[po + j, PI_WON] = 1 if (wtsd and fin[j] > stacks[j]) else 0
        else:
            pflt[po + j, PF_FIN] = np.nan
            pflt[po + j, PF_NET] = np.nan
            pint[po + j, PI_WON] = -1
    hint[h, HI_SB] = sb
    hint[h, HI_BB] = bb
    hint[h, HI_ANTE] = ante_max
    hint[h, HI_POT] = pot
    hint[h, HI_SHOWDOWN] = 1 if showdown else 0
    hint[h, HI_PFA] = pfa
    hint[h, HI_STREET] = street
    hint[h, HI_NACT] = idx
    hint[h, HI_RAKE] = int(rake)
    hint[h, HI_SWAP] = 1 if swapped else 0
    if rake != int(rake):
        return 80  # fractional rake: the reference stores it
    return 0


@njit(cache=True)
def replay_batch(
    n_players: np.ndarray,
    p_off: np.ndarray,
    a_off: np.ndarray,
    starting: np.ndarray,
    antes: np.ndarray,
    blinds: np.ndarray,
    min_bet: np.ndarray,
    fin: np.ndarray,
    has_fin: np.ndarray,
    win: np.ndarray,
    has_win: np.ndarray,
    rake: np.ndarray,
    acts: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Replay ``H`` hands: ``p_off``/``a_off`` (length H+1) delimit each hand's players/actions.

    Returns ``(hint, pint, pbool, pflt, aint, avalid)``; ``hint[:, HI_STATUS]`` is 0 for
    the hands accepted here, and only their player/action rows are meaningful
    (``avalid`` marks the action rows written).
    """
    H = n_players.shape[0]
    P = starting.shape[0]
    A = acts.shape[0]
    hint = np.zeros((H, N_HINT), np.int64)
    pint = np.zeros((P, N_PINT), np.int64)
    pbool = np.zeros((P, N_PBOOL), np.bool_)
    pflt = np.zeros((P, N_PFLT), np.float64)
    aint = np.zeros((A, N_AINT), np.int64)
    avalid = np.zeros(A, np.bool_)
    for h in range(H):
        st = _replay_one(
            h,
            n_players[h],
            p_off[h],
            a_off[h],
            a_off[h + 1],
            starting,
            antes,
            blinds,
            min_bet[h],
            fin,
            has_fin[h],
            win,
            has_win[h],
            rake[h],
            acts,
            hint,
            pint,
            pbool,
            pflt,
            aint,
            avalid,
        )
        hint[h, HI_STATUS] = st
        if st != 0:
            for t in range(a_off[h], a_off[h + 1]):
                avalid[t] = False
    return hint, pint, pbool, pflt, aint, avalid


# -- tokenizer ---------------------------------------------------------------------------------

@njit(cache=True)
def _is_space(b: int) -> bool:
    # the ASCII characters str.split() splits on
    return b == 32 or (9 <= b <= 13) or (28 <= b <= 31)


@njit(cache=True)
def _card_at(buf: np.ndarray, i: int, rank_of: np.ndarray, suit_of: np.ndarray) -> int:
    """Card code of the two bytes at ``i`` (``??`` -> UNKNOWN_CARD), -1 if not a card."""
    r = buf[i]
    s = buf[i + 1]
    if r == 63 and s == 63:  # '??'
        return UNKNOWN_CARD
    if r >= 128 or s >= 128:
        return -1
    ri = rank_of[r]
    si = suit_of[s]
    if ri < 0 or si < 0:
        return -1
    return ri * 4 + si


@njit(cache=True)
def _digits(buf: np.ndarray, a: int, b: int, max_len: int) -> int:
    """Value of buf[a:b] when it is 1..max_len ASCII digits, else -1."""
    if b <= a or b - a > max_len:
        return -1
    v = 0
    for i in range(a, b):
        c = buf[i]
        if c < 48 or c > 57:
            return -1
        v = v * 10 + (c - 48)
    return v


@njit(cache=True)
def tokenize_actions(  # noqa: C901 - the PHH action grammar, byte by byte
    buf: np.ndarray, starts: np.ndarray, ends: np.ndarray, rank_of: np.ndarray,
    suit_of: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Tokenize ASCII action strings ``buf[starts[k]:ends[k]]`` into ``(op, player, value,
    cards)`` rows, exactly as :func:`pokerlab.hands.fastimport.tokenize` does; anything
    this kernel is not sure of (unusual digits, non-ASCII, odd forms) gets ``TOK_PYTHON``.
    """
    n = starts.shape[0]
    tok = np.zeros((n, 4), np.int64)
    status = np.zeros(n, np.int8)
    ws = np.zeros(5, np.int64)
    we = np.zeros(5, np.int64)
    for k in range(n):
        a = starts[k]
        e = ends[k]
        for i in range(a, e):  # comment
            if buf[i] == 35:
                e = i
                break
        nw = 0
        i = a
        bad = False
        while i < e:
            c = buf[i]
            if c >= 128:
                bad = True
                break
            if _is_space(c):
                i += 1
                continue
            j = i
            while j < e and not _is_space(buf[j]):
                if buf[j] >= 128:
                    bad = True
                j += 1
            if nw < 5:
                ws[nw] = i
                we[nw] = j
            nw += 1
            i = j
        if bad:
            status[k] = TOK_PYTHON
            continue
        if nw == 0:
            status[k] = TOK_SKIP
            continue
        if nw > 4:
            tok[k, 0] = OP_OTHER
            tok[k, 1] = -1
            continue
        w0a = ws[0]
        w0l = we[0] - ws[0]
        # dealer actions
        if w0l == 1 and buf[w0a] == 100:  # 'd'
            w1l = we[1] - ws[1] if nw >= 2 else 0
            if nw == 3 and w1l == 2 and buf[ws[1]] == 100 and buf[ws[1] + 1] == 98:  # db
                ln = we[2] - ws[2]
                if ln != 2 and ln != 6:
                    tok[k, 0] = OP_OTHER
                    tok[k, 1] = -1
                    continue
                packed = 0
                ok = True
                for q in range(ln // 2):
                    cc = _card_at(buf, ws[2] + 2 * q, rank_of, suit_of)
                    if cc < 0 or cc >= 52:
                        ok = False
                        break
                    packed |= cc << (6 * q)
                if not ok:
                    tok[k, 0] = OP_OTHER
                    tok[k, 1] = -1
                    continue
                tok[k, 0] = OP_DB
                tok[k, 1] = -1
                tok[k, 2] = ln // 2
                tok[k, 3] = packed
                continue
            if nw == 4 and w1l == 2 and buf[ws[1]] == 100 and buf[ws[1] + 1] == 104:  # dh
                if buf[ws[2]] != 112:  # 'p'
                    tok[k, 0] = OP_OTHER
                    tok[k, 1] = -1
                    continue
                pn = _digits(buf, ws[2] + 1, we[2], 6)
                if pn < 0:
                    status[k] = TOK_PYTHON
                    continue
                if we[3] - ws[3] != 4:
                    tok[k, 0] = OP_OTHER
                    tok[k, 1] = -1
                    continue
                c1 = _card_at(buf, ws[3], rank_of, suit_of)
                c2 = _card_at(buf, ws[3] + 2, rank_of, suit_of)
                if pn - 1 < 0 or c1 < 0 or c2 < 0:
                    tok[k, 0] = OP_OTHER
                    tok[k, 1] = -1
                    continue
                tok[k, 0] = OP_DH
                tok[k, 1] = pn - 1
                tok[k, 3] = (c1 << 6) | c2
                continue
            tok[k, 0] = OP_OTHER
            tok[k, 1] = -1
            continue
        if nw < 2:
            tok[k, 0] = OP_OTHER
            tok[k, 1] = -1
            continue
        if buf[w0a] != 112:  # not 'p...'
            tok[k, 0] = OP_OTHER
            tok[k, 1] = -1
            continue
        pn = _digits(buf, w0a + 1, we[0], 6)
        if pn < 0:
            status[k] = TOK_PYTHON
            continue
        p = pn - 1
        if p < 0:
            tok[k, 0] = OP_OTHER
            tok[k, 1] = -1
            continue
        o = ws[1]
        ol = we[1] - ws[1]
        if nw == 2:
            if ol == 1 and buf[o] == 102:  # f
                tok[k, 0] = OP_F
            elif ol == 2 and buf[o] == 99 and buf[o + 1] == 99:  # cc
                tok[k, 0] = OP_CC
            elif ol == 2 and buf[o] == 115 and buf[o + 1] == 109:  # sm
                tok[k, 0] = OP_SM
                tok[k, 3] = -1
            else:
                tok[k, 0] = OP_OTHER
                tok[k, 1] = -1
                continue
            tok[k, 1] = p
            continue
        if nw == 3:
            if ol == 3 and buf[o] == 99 and buf[o + 1] == 98 and buf[o + 2] == 114:  # cbr
                x = _digits(buf, ws[2], we[2], 17)
                if x < 0:
                    status[k] = TOK_PYTHON
                    continue
                tok[k, 0] = OP_CBR
                tok[k, 1] = p
                tok[k, 2] = x
                continue
            if ol == 2 and buf[o] == 115 and buf[o + 1] == 109:  # sm cards
                ca = ws[2]
                cl = we[2] - ws[2]
                only_q = True
                has_q = False
                for q in range(ca, ca + cl):
                    if buf[q] == 63:
                        has_q = True
                    else:
                        only_q = False
                if (cl == 1 and buf[ca] == 45) or only_q:  # '-' or all '?'
                    tok[k, 0] = OP_SM
                    tok[k, 1] = p
                    tok[k, 3] = -1
                    continue
                if cl != 4 or has_q:
                    tok[k, 0] = OP_OTHER
                    tok[k, 1] = -1
                    continue
                c1 = _card_at(buf, ca, rank_of, suit_of)
                c2 = _card_at(buf, ca + 2, rank_of, suit_of)
                if c1 < 0 or c2 < 0:
                    tok[k, 0] = OP_OTHER
                    tok[k, 1] = -1
                    continue
                tok[k, 0] = OP_SM
                tok[k, 1] = p
                tok[k, 3] = (c1 << 6) | c2
                continue
        tok[k, 0] = OP_OTHER
        tok[k, 1] = -1
    return tok, status
