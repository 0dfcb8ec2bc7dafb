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

OP_DH, OP_DB, OP_F, OP_CC, OP_CBR, OP_SM, OP_OTHER = 0, 1, 2, 3, 4, 5, 6
KIND_F, KIND_X, KIND_C, KIND_B, KIND_R = 0, 1, 2, 3, 4
UNKNOWN_CARD = 52
NO_CARD = -1

# player output columns of the int array ``pint`` (one row per player)
PI_START, PI_BLIND, PI_ANTE, PI_PBETS, PI_PRAISES, PI_PCALLS, PI_PCHECKS, PI_PFOLDS = range(8)
PI_PUT0, PI_PUT1, PI_PUT2, PI_PUT3, PI_RAISEN, PI_WON, PI_C1, PI_C2 = range(8, 16)
N_PINT = 16
# player boolean columns of ``pbool``
(
    PB_VPIP,
    PB_PFR,
    PB_TBO,
    PB_TB,
    PB_SAW1,
    PB_SAW2,
    PB_SAW3,
    PB_WTSD,
    PB_ALLIN,
    PB_CBO,
    PB_CB,
    PB_FCBO,
    PB_FCB,
) = range(13)
N_PBOOL = 13
# player float columns of ``pflt``
PF_FIN, PF_NET, PF_RSUM = range(3)
N_PFLT = 3
# hand int columns of ``hint``
HI_STATUS, HI_SB, HI_BB, HI_ANTE, HI_POT, HI_SHOWDOWN, HI_PFA, HI_STREET, HI_NACT = range(9)
N_HINT = 9
# action int columns of ``aint``
AI_IDX, AI_STREET, AI_SEAT, AI_KIND, AI_AMOUNT, AI_TO, AI_POT, AI_CALL, AI_FACING, AI_LEVEL = range(10)
AI_ALLIN, AI_CBET = 10, 11
N_AINT = 12


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
    first = 1 if n == 2 else (last_blind + 1) % n
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
            c1 = cards >> 6
            c2 = cards & 63
            for c in (c1, c2):
                if c < 52:
                    if seen[c]:
                        return 21
                    seen[c] = True
            pint[po + i, PI_C1] = c1
            pint[po + i, PI_C2] = c2
            continue
        if op == OP_SM:
            if i < 0 or i >= n or actor != -1 or not active[i] or n_active < 2:
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
                    for c in (c1, c2):
                        if c < 52:
                            if seen[c]:
                                return 31
                            seen[c] = True
                    pint[po + i, PI_C1] = c1
                    pint[po + i, PI_C2] = c2
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
    known = True
    if has_fin:
        tot_f = 0.0
        tot_s = 0.0
        for j in range(n):
            fin[j] = fin_in[po + j]
            tot_f += fin[j]
            tot_s += starting[po + j]
        if tot_f > tot_s:
            return 60
        for j in range(n):
            if not active[j] and fin[j] != stacks[j]:
                return 61
            if active[j] and fin[j] < stacks[j]:
                return 62
    elif has_win:
        top = 0
        for j in range(n):
            fin[j] = stacks[j] + win_in[po + j]
            if contrib[j] > contrib[top]:
                top = j
        second = -1
        for j in range(n):
            if j != top and (second == -1 or contrib[j] > contrib[second]):
                second = j
        excess = contrib[top] - contrib[second]
        if excess > 0:
            fin[top] += excess
    elif not showdown:
        for j in range(n):
            fin[j] = stacks[j] + (pot if active[j] else 0)
    else:
        for j in range(n):
            if active[j]:
                c1 = pint[po + j, PI_C1]
                c2 = pint[po + j, PI_C2]
                if c1 != NO_CARD and c1 != UNKNOWN_CARD and c2 != UNKNOWN_CARD:
                    return 70  # known cards: the reference settles it with PokerKit
        known = False
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
