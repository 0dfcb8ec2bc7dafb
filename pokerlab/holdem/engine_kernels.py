"""The heads-up no-limit hold'em rules on a flat ``int64`` array, stepped by numba kernels.

A hand is one array ``st`` of :data:`NS` int64 (layout: the ``S_*`` constants).  Kernels
deal, act and evaluate on it without Python objects; :func:`random_playouts` plays whole
hands with the seeded random agent.  The rules are those of
:mod:`pokerlab.holdem.engine` (its plain-Python twin; parity is tested state by state),
with player 0 = big blind and player 1 = button/small blind.

Kernel API (all ``@njit``; return codes: 0 ok, negative = illegal, see ``ERR_*``)::

    init_state(st, stack0, stack1, sb, bb, ante)
    deal_hole(st, c0, c1, c2, c3)          # player 0 gets c0 c1, player 1 c2 c3
    cards_due(st) -> int                   # 3/1/1 while a board deal is due
    deal_board(st, cards, n)
    legal(st, out)                         # out[0..4] = can_fold, call, can_raise, min, max
    act_fold(st) / act_call(st) / act_raise(st, to)
    payoffs(st, tables, out)               # chips won per player at a terminal state
    random_playouts(tables, n, seed, weights, stack0, stack1, sb, bb, ante, pay)

``array_from_state(HoldemState)`` (plain Python) converts an object state to the array,
so a hand can be set up with the object API and continued in kernels.

Phases (``st[S_PHASE]``) are those of :class:`pokerlab.holdem.engine.Phase`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from pokerlab.cards.evaluator_kernels import strength_from
from pokerlab.rng import below_nb

# ---------------------------------------------------------------- layout
S_STACK = 0  # 2: chips behind
S_BET = 2  # 2: this street's bets
S_START = 4  # 2: starting stacks
S_POT = 6  # collected pot (previous streets and antes)
S_STREET = 7
S_PHASE = 8
S_ACTOR = 9
S_PENDING = 10  # 2
S_LAST_RAISE = 12
S_OPENER = 13
S_FOLDED = 14
S_SB = 15
S_BB = 16
S_ANTE = 17
S_HOLE = 18  # 4: p0 c0 c1, p1 c0 c1
S_BOARD = 22  # 5
S_NBOARD = 27
S_NRAISES = 28
S_RUNOUT = 29  # 1 once the showdown has begun (all-in run-out or river)
S_SHOW_FIRST = 30  # player who shows first at the showdown (PokerKit's order)
NS = 32

PH_DEAL_HOLE = 0
PH_BETTING = 1
PH_DEAL_BOARD = 2
PH_TERMINAL = 3

ERR_PHASE = -1
ERR_FOLD = -2
ERR_RAISE = -3
ERR_AMOUNT = -4

L_FOLD = 0
L_CALL = 1
L_RAISE = 2
L_MIN = 3
L_MAX = 4


@njit(cache=True)
def init_state(st, stack0, stack1, sb, bb, ante):  # type: ignore[no-untyped-def]
    """A new hand: antes and blinds posted, waiting for hole cards."""
    for i in range(NS):
        st[i] = 0
    st[S_START] = stack0
    st[S_START + 1] = stack1
    st[S_STACK] = stack0 - ante - bb
    st[S_STACK + 1] = stack1 - ante - sb
    st[S_BET] = bb
    st[S_BET + 1] = sb
    st[S_POT] = 2 * ante
    st[S_SB] = sb
    st[S_BB] = bb
    st[S_ANTE] = ante
    st[S_PHASE] = PH_DEAL_HOLE
    st[S_ACTOR] = -1
    st[S_OPENER] = -1
    st[S_FOLDED] = -1
    st[S_SHOW_FIRST] = -1
    for i in range(4):
        st[S_HOLE + i] = -1
    for i in range(5):
        st[S_BOARD + i] = -1


@njit(cache=True, inline="always")
def _maxbet(st):  # type: ignore[no-untyped-def]
    return max(st[S_BET], st[S_BET + 1])


@njit(cache=True)
def _end_round(st):  # type: ignore[no-untyped-def]
    st[S_ACTOR] = -1
    st[S_PENDING] = 0
    st[S_PENDING + 1] = 0
    cut = min(st[S_BET], st[S_BET + 1])
    for p in range(2):
        if st[S_BET + p] > cut:
            st[S_STACK + p] += st[S_BET + p] - cut
            st[S_BET + p] = cut
    st[S_POT] += st[S_BET] + st[S_BET + 1]
    st[S_BET] = 0
    st[S_BET + 1] = 0
    live = (1 if st[S_STACK] > 0 else 0) + (1 if st[S_STACK + 1] > 0 else 0)
    if st[S_STREET] == 3 or live <= 1:
        st[S_RUNOUT] = 1
        st[S_SHOW_FIRST] = st[S_OPENER] if st[S_OPENER] >= 0 else 0
        if st[S_STREET] == 3:
            st[S_PHASE] = PH_TERMINAL
            return
    st[S_PHASE] = PH_DEAL_BOARD


@njit(cache=True)
def _begin_round(st):  # type: ignore[no-untyped-def]
    st[S_LAST_RAISE] = 0
    st[S_NRAISES] = 0
    first = 1 if st[S_STREET] == 0 else 0
    st[S_OPENER] = first
    tot0 = st[S_BET] + st[S_STACK]
    tot1 = st[S_BET + 1] + st[S_STACK + 1]
    mn = min(tot0, tot1)
    for p in range(2):
        eff = min(st[S_STACK + p], max(0, mn - st[S_BET + p]))
        st[S_PENDING + p] = 1 if (st[S_STACK + p] > 0 and eff > 0) else 0
    st[S_PHASE] = PH_BETTING
    if st[S_PENDING + first] == 1:
        st[S_ACTOR] = first
    elif st[S_PENDING + 1 - first] == 1:
        st[S_ACTOR] = 1 - first
    else:
        _end_round(st)
        return
    only = st[S_PENDING] != st[S_PENDING + 1]
    if only and st[S_BET + st[S_ACTOR]] >= _maxbet(st):
        _end_round(st)


@njit(cache=True)
def deal_hole(st, c0, c1, c2, c3):  # type: ignore[no-untyped-def]
    if st[S_PHASE] != PH_DEAL_HOLE:
        return ERR_PHASE
    st[S_HOLE] = c0
    st[S_HOLE + 1] = c1
    st[S_HOLE + 2] = c2
    st[S_HOLE + 3] = c3
    _begin_round(st)
    return 0


@njit(cache=True)
def cards_due(st):  # type: ignore[no-untyped-def]
    ph = st[S_PHASE]
    if ph == PH_DEAL_HOLE:
        return 2
    if ph == PH_DEAL_BOARD:
        return 3 if st[S_NBOARD] == 0 else 1
    return 0


@njit(cache=True)
def deal_board(st, cards, n):  # type: ignore[no-untyped-def]
    """Deal ``n`` (== cards_due) cards from ``cards[0:n]`` to the board."""
    if st[S_PHASE] != PH_DEAL_BOARD or n != cards_due(st):
        return ERR_PHASE
    for i in range(n):
        st[S_BOARD + st[S_NBOARD]] = cards[i]
        st[S_NBOARD] += 1
    st[S_STREET] += 1
    if st[S_RUNOUT] == 1:
        if st[S_STREET] == 3:
            st[S_PHASE] = PH_TERMINAL
        return 0
    _begin_round(st)
    return 0


@njit(cache=True, inline="always")
def _can_raise(st, p):  # type: ignore[no-untyped-def]
    stack = st[S_STACK + p]
    mb = _maxbet(st)
    need = mb - st[S_BET + p]
    call_amt = min(stack, need)
    if call_amt < st[S_LAST_RAISE]:
        return False
    if stack <= need:
        return False
    o = 1 - p
    return st[S_STACK + o] + st[S_BET + o] > mb


@njit(cache=True)
def legal(st, out):  # type: ignore[no-untyped-def]
    """Fill ``out[0..4]`` = can_fold, call amount, can_raise, min raise-to, max raise-to.

    Returns the actor, or -1 (and zeros) when nobody is to act."""
    for i in range(5):
        out[i] = 0
    if st[S_PHASE] != PH_BETTING:
        return -1
    p = st[S_ACTOR]
    mb = _maxbet(st)
    out[L_FOLD] = 1 if st[S_BET + p] < mb else 0
    out[L_CALL] = min(st[S_STACK + p], mb - st[S_BET + p])
    if _can_raise(st, p):
        out[L_RAISE] = 1
        allin = st[S_STACK + p] + st[S_BET + p]
        out[L_MIN] = min(allin, mb + max(st[S_LAST_RAISE], st[S_BB]))
        out[L_MAX] = allin
    return p


@njit(cache=True)
def act_fold(st):  # type: ignore[no-untyped-def]
    if st[S_PHASE] != PH_BETTING:
        return ERR_PHASE
    p = st[S_ACTOR]
    if st[S_BET + p] >= _maxbet(st):
        return ERR_FOLD
    st[S_FOLDED] = p
    st[S_ACTOR] = -1
    st[S_PENDING] = 0
    st[S_PENDING + 1] = 0
    st[S_PHASE] = PH_TERMINAL
    return 0


@njit(cache=True)
def act_call(st):  # type: ignore[no-untyped-def]
    if st[S_PHASE] != PH_BETTING:
        return ERR_PHASE
    p = st[S_ACTOR]
    amount = min(st[S_STACK + p], _maxbet(st) - st[S_BET + p])
    st[S_BET + p] += amount
    st[S_STACK + p] -= amount
    st[S_PENDING + p] = 0
    o = 1 - p
    if st[S_PENDING + o] == 1:
        st[S_ACTOR] = o
    else:
        _end_round(st)
    return 0


@njit(cache=True)
def act_raise(st, to):  # type: ignore[no-untyped-def]
    if st[S_PHASE] != PH_BETTING:
        return ERR_PHASE
    p = st[S_ACTOR]
    if not _can_raise(st, p):
        return ERR_RAISE
    mb = _maxbet(st)
    allin = st[S_STACK + p] + st[S_BET + p]
    lo = min(allin, mb + max(st[S_LAST_RAISE], st[S_BB]))
    if to < lo or to > allin:
        return ERR_AMOUNT
    st[S_STACK + p] -= to - st[S_BET + p]
    st[S_BET + p] = to
    st[S_LAST_RAISE] = max(st[S_LAST_RAISE], to - mb)
    st[S_NRAISES] += 1
    st[S_OPENER] = p
    o = 1 - p
    st[S_PENDING + p] = 0
    st[S_PENDING + o] = 1 if st[S_STACK + o] > 0 else 0
    st[S_ACTOR] = o
    return 0


@njit(cache=True)
def showdown_outcome(st, tables):  # type: ignore[no-untyped-def]
    """+1 if player 0 has the better 7-card hand, -1 if player 1, 0 for a split."""
    key_t = tables.key
    bit_t = tables.bit
    nf = tables.noflush
    offs = tables.offs[tables.obase[7]:]
    fl = tables.flush
    kb = 0
    bb = 0
    for i in range(5):
        c = st[S_BOARD + i]
        kb += key_t[c]
        bb |= bit_t[c]
    a, b = st[S_HOLE], st[S_HOLE + 1]
    s0 = strength_from(nf, offs, fl, kb + key_t[a] + key_t[b], bb | bit_t[a] | bit_t[b])
    a, b = st[S_HOLE + 2], st[S_HOLE + 3]
    s1 = strength_from(nf, offs, fl, kb + key_t[a] + key_t[b], bb | bit_t[a] | bit_t[b])
    if s0 > s1:
        return 1
    if s0 < s1:
        return -1
    return 0


@njit(cache=True)
def payoffs_given(st, outcome, out):  # type: ignore[no-untyped-def]
    """Chips won per player at a terminal state; ``outcome`` judges a showdown (see
    :func:`showdown_outcome`) and is ignored after a fold."""
    c0 = st[S_START] - st[S_STACK]
    c1 = st[S_START + 1] - st[S_STACK + 1]
    f = st[S_FOLDED]
    if f >= 0:
        cf = c0 if f == 0 else c1
        out[f] = -cf
        out[1 - f] = cf
        return
    pot = st[S_POT]
    if outcome > 0:
        w0 = pot
    elif outcome < 0:
        w0 = 0
    else:
        w0 = pot - pot // 2
    out[0] = w0 - c0
    out[1] = (pot - w0) - c1


@njit(cache=True)
def payoffs(st, tables, out):  # type: ignore[no-untyped-def]
    if st[S_PHASE] != PH_TERMINAL:
        return ERR_PHASE
    o = 0
    if st[S_FOLDED] < 0:
        o = showdown_outcome(st, tables)
    payoffs_given(st, o, out)
    return 0


# ------------------------------------------- random agent (RNG: pokerlab.rng, SplitMix64)
@njit(cache=True)
def choose_action(st, lg, rs, weights, act):  # type: ignore[no-untyped-def]
    """Random agent (twin: ``agents.choose``): act[0] = kind (0/1/2), act[1] = raise-to."""
    w0 = weights[0] if lg[L_FOLD] == 1 else 0
    w1 = weights[1]
    w2 = 0
    w3 = 0
    w4 = 0
    if lg[L_RAISE] == 1:
        w2 = weights[2]
        w3 = weights[3]
        w4 = weights[4]
    r = below_nb(rs, w0 + w1 + w2 + w3 + w4)
    if r < w0:
        act[0] = 0
        act[1] = 0
    elif r < w0 + w1:
        act[0] = 1
        act[1] = 0
    elif r < w0 + w1 + w2:
        act[0] = 2
        act[1] = lg[L_MIN]
    elif r < w0 + w1 + w2 + w3:
        act[0] = 2
        act[1] = lg[L_MAX]
    else:
        act[0] = 2
        act[1] = lg[L_MIN] + below_nb(rs, lg[L_MAX] - lg[L_MIN] + 1)


@njit(cache=True)
def deal_nine(rs, deck, out):  # type: ignore[no-untyped-def]
    """Nine distinct cards by a partial Fisher-Yates shuffle (twin:
    :func:`pokerlab.holdem.deal.deal_cards`)."""
    for i in range(52):
        deck[i] = i
    for i in range(9):
        j = i + below_nb(rs, 52 - i)
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
        out[i] = deck[i]


@njit(cache=True)
def play_random_hand(st, tables, rs, weights, stack0, stack1, sb, bb, ante, scratch,
                     out):  # type: ignore[no-untyped-def]
    """Play one hand with the random agent; ``out[0:2]`` payoffs; returns #actions."""
    deck = scratch[0:52]
    cards = scratch[52:61]
    lg = scratch[61:66]
    act = scratch[66:68]
    init_state(st, stack0, stack1, sb, bb, ante)
    deal_nine(rs, deck, cards)
    deal_hole(st, cards[0], cards[1], cards[2], cards[3])
    pos = 4
    nact = 0
    while st[S_PHASE] != PH_TERMINAL:
        if st[S_PHASE] == PH_DEAL_BOARD:
            n = cards_due(st)
            deal_board(st, cards[pos:pos + n], n)
            pos += n
        else:
            legal(st, lg)
            choose_action(st, lg, rs, weights, act)
            if act[0] == 0:
                act_fold(st)
            elif act[0] == 1:
                act_call(st)
            else:
                act_raise(st, act[1])
            nact += 1
    payoffs(st, tables, out)
    return nact


@njit(cache=True)
def random_playouts(tables, n, seed, weights, stack0, stack1, sb, bb, ante,
                    pay):  # type: ignore[no-untyped-def]
    """Play ``n`` random hands (one SplitMix64 stream from ``seed``); ``pay[i, :]`` gets
    hand ``i``'s payoffs.  Returns the number of player actions taken."""
    st = np.zeros(NS, dtype=np.int64)
    rs = np.zeros(1, dtype=np.uint64)
    rs[0] = np.uint64(seed)
    scratch = np.zeros(72, dtype=np.int64)
    out = np.zeros(2, dtype=np.int64)
    total = 0
    for i in range(n):
        total += play_random_hand(st, tables, rs, weights, stack0, stack1, sb, bb, ante,
                                  scratch, out)
        pay[i, 0] = out[0]
        pay[i, 1] = out[1]
    return total


def array_from_state(state: object) -> np.ndarray:
    """The flat array of a :class:`pokerlab.holdem.engine.HoldemState` (plain Python),
    so that a hand reached through the object API can continue in the kernels."""
    from pokerlab.holdem.engine import HoldemState

    if not isinstance(state, HoldemState):
        raise TypeError(f"expected a HoldemState, got {type(state).__name__}")
    s = state
    c = s.config
    st = np.zeros(NS, dtype=np.int64)
    st[S_STACK:S_STACK + 2] = s.stacks
    st[S_BET:S_BET + 2] = s.bets
    st[S_START:S_START + 2] = c.stacks
    st[S_POT] = s.collected
    st[S_STREET] = s.street
    st[S_PHASE] = int(s.phase)
    st[S_ACTOR] = s.actor
    st[S_PENDING] = int(s.pending[0])
    st[S_PENDING + 1] = int(s.pending[1])
    st[S_LAST_RAISE] = s.last_raise
    st[S_OPENER] = s.opener
    st[S_FOLDED] = s.folded
    st[S_SB] = c.small_blind
    st[S_BB] = c.big_blind
    st[S_ANTE] = c.ante
    for i in range(4):
        h = s.hole[i // 2]
        st[S_HOLE + i] = h[i % 2] if len(h) == 2 else -1
    for i in range(5):
        st[S_BOARD + i] = s.board[i] if i < len(s.board) else -1
    st[S_NBOARD] = len(s.board)
    st[S_NRAISES] = s.num_raises
    st[S_RUNOUT] = 1 if s.showdown_order else 0
    st[S_SHOW_FIRST] = s.showdown_order[0] if s.showdown_order else -1
    return st
