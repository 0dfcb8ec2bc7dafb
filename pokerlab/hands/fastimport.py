"""Batch replay: tokenize hands to integer arrays, replay them in the numba kernel, and
build the database columns as numpy arrays.

Each action string becomes four integers ``(op, player, value, cards)`` (tokenization is
cached per distinct string: most action strings repeat).  Hands the kernel does not
accept (illegal, or an unusual case) are replayed one by one by the reference
:func:`pokerlab.hands.replay.replay`, which gives the same rows or the error message.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from pokerlab.cards.cards import RANKS, SUITS
from pokerlab.errors import HandHistoryError
from pokerlab.hands import replay_kernels as K
from pokerlab.hands.model import RawHand, Rejection
from pokerlab.hands.replay import ACTION_COLUMNS, PLAYER_COLUMNS, position_names, replay

_CARD_CODE = {r + s: ri * 4 + si for ri, r in enumerate(RANKS) for si, s in enumerate(SUITS)}
_CARD_CODE["??"] = K.UNKNOWN_CARD
_CARD_TEXT = [r + s for r in RANKS for s in SUITS] + ["??"]
_OTHER = (K.OP_OTHER, -1, 0, 0)
_SKIP = ()
_TOKENS: dict[str, tuple[int, ...]] = {}
_MAX_CACHE = 2_000_000

_KIND_TEXT = np.array(["f", "x", "c", "b", "r"], dtype=object)

# hole text by (c1 + 1, c2 + 1): index 0 = no card (None)
_HOLE_TABLE = np.empty((54, 54), dtype=object)
for _a in range(-1, 53):
    for _b in range(-1, 53):
        _HOLE_TABLE[_a + 1, _b + 1] = None if _a < 0 or _b < 0 else _CARD_TEXT[_a] + _CARD_TEXT[_b]
_POS_TABLE = np.empty((10, 9), dtype=object)
for _n in range(2, 10):
    for _s, _name in enumerate(position_names(_n)):
        _POS_TABLE[_n, _s] = _name


def _player(text: str) -> int:
    if text[:1] != "p":
        return -1
    try:
        return int(text[1:]) - 1
    except ValueError:
        return -1


def _pair(text: str) -> int:
    if len(text) != 4:
        return -1
    c1 = _CARD_CODE.get(text[:2])
    c2 = _CARD_CODE.get(text[2:])
    if c1 is None or c2 is None:
        return -1
    return (c1 << 6) | c2


def tokenize(action: str) -> tuple[int, ...]:
    """The four-integer code of one PHH action (``()`` for an empty/comment-only one)."""
    a = action
    if "#" in a:
        a = a[: a.index("#")]
    w = a.split()
    if not w:
        return _SKIP
    if w[0] == "d":
        if len(w) == 3 and w[1] == "db":
            cards = w[2]
            if len(cards) not in (2, 6):
                return _OTHER
            packed = 0
            for k in range(len(cards) // 2):
                c = _CARD_CODE.get(cards[2 * k : 2 * k + 2])
                if c is None or c >= 52:
                    return _OTHER
                packed |= c << (6 * k)
            return (K.OP_DB, -1, len(cards) // 2, packed)
        if len(w) == 4 and w[1] == "dh":
            p = _player(w[2])
            pair = _pair(w[3])
            if p < 0 or pair < 0:
                return _OTHER
            return (K.OP_DH, p, 0, pair)
        return _OTHER
    if len(w) < 2:
        return _OTHER
    p = _player(w[0])
    if p < 0:
        return _OTHER
    op = w[1]
    if len(w) == 2:
        if op == "f":
            return (K.OP_F, p, 0, 0)
        if op == "cc":
            return (K.OP_CC, p, 0, 0)
        if op == "sm":
            return (K.OP_SM, p, 0, -1)
        return _OTHER
    if len(w) == 3:
        if op == "cbr":
            try:
                x = int(w[2])
            except ValueError:
                return _OTHER
            return (K.OP_CBR, p, x, 0)
        if op == "sm":
            cards = w[2]
            if cards == "-" or not cards.strip("?"):
                return (K.OP_SM, p, 0, -1)
            pair = _pair(cards)
            if pair < 0 or "?" in cards:
                return _OTHER
            return (K.OP_SM, p, 0, pair)
    return _OTHER


def _simple(h: RawHand) -> bool:
    n = len(h.starting_stacks)
    return (
        h.variant == "NT"
        and 2 <= n <= 9
        and len(h.antes) == n
        and len(h.blinds_or_straddles) == n
        and (h.min_bet is None or h.min_bet > 0)
        and (h.finishing_stacks is None or len(h.finishing_stacks) == n)
        and (h.winnings is None or len(h.winnings) == n)
    )


def replay_many(
    raws: Sequence[RawHand],
    keys: Sequence[str],
    seqs: Sequence[int],
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray], dict[str, np.ndarray], list[Rejection]]:
    """Replay a batch; returns the staged columns of hands, players, actions, and rejections.

    Column names and order are those of :mod:`pokerlab.hands.db` staging
    (``hand_id`` first).  ``keys``/``seqs`` are the hand ids and sequence numbers.
    """
    from pokerlab.hands.db import _ACTION_STAGE, _HAND_STAGE, _PLAYER_STAGE, _column

    tokens = _TOKENS
    if len(tokens) > _MAX_CACHE:
        tokens.clear()
    get = tokens.get
    fast_idx: list[int] = []
    slow_idx: list[int] = []
    n_players: list[int] = []
    starting: list[int] = []
    antes: list[int] = []
    blinds: list[int] = []
    min_bets: list[int] = []
    fin: list[float] = []
    has_fin: list[bool] = []
    win: list[float] = []
    has_win: list[bool] = []
    flat: list[int] = []
    a_off = [0]
    boards: list[str] = []
    names: list[str] = []
    extend = flat.extend
    op_db = K.OP_DB
    for k, h in enumerate(raws):
        if not _simple(h):
            slow_idx.append(k)
            continue
        n = len(h.starting_stacks)
        fast_idx.append(k)
        n_players.append(n)
        starting.extend(h.starting_stacks)
        antes.extend(h.antes)
        blinds.extend(h.blinds_or_straddles)
        min_bets.append(h.min_bet or 0)
        f = h.finishing_stacks
        if f is None:
            fin.extend([0.0] * n)
            has_fin.append(False)
        else:
            fin.extend(f)
            has_fin.append(True)
        wv = h.winnings
        if wv is None or f is not None:
            win.extend([0.0] * n)
            has_win.append(False)
        else:
            win.extend(wv)
            has_win.append(True)
        board = ""
        for a in h.actions:
            t = get(a)
            if t is None:
                t = tokenize(a)
                tokens[a] = t
            if t:
                extend(t)
                if t[0] == op_db:
                    board += a.split()[2]
        a_off.append(len(flat) // 4)
        boards.append(board)
        names.extend(h.players if h.players is not None else [f"p{j + 1}" for j in range(n)])

    H = len(fast_idx)
    npl = np.asarray(n_players, dtype=np.int64)
    p_off = np.zeros(H + 1, dtype=np.int64)
    np.cumsum(npl, out=p_off[1:])
    acts = np.asarray(flat, dtype=np.int64).reshape(-1, 4)
    if H:
        hint, pint, pbool, pflt, aint, avalid = K.replay_batch(
            npl,
            p_off,
            np.asarray(a_off, dtype=np.int64),
            np.asarray(starting, dtype=np.int64),
            np.asarray(antes, dtype=np.int64),
            np.asarray(blinds, dtype=np.int64),
            np.asarray(min_bets, dtype=np.int64),
            np.asarray(fin, dtype=np.float64),
            np.asarray(has_fin, dtype=np.bool_),
            np.asarray(win, dtype=np.float64),
            np.asarray(has_win, dtype=np.bool_),
            acts,
        )
    else:
        hint = np.zeros((0, K.N_HINT), np.int64)
        pint = np.zeros((0, K.N_PINT), np.int64)
        pbool = np.zeros((0, K.N_PBOOL), np.bool_)
        pflt = np.zeros((0, K.N_PFLT), np.float64)
        aint = np.zeros((0, K.N_AINT), np.int64)
        avalid = np.zeros(0, np.bool_)
    ok = hint[:, K.HI_STATUS] == 0
    for k, st in zip(fast_idx, hint[:, K.HI_STATUS], strict=True):
        if st != 0:
            slow_idx.append(k)

    # -- columns of the hands the kernel accepted ------------------------------------------
    fidx = np.asarray(fast_idx, dtype=np.int64)[ok]
    key_arr = np.empty(len(raws), dtype=object)
    key_arr[:] = list(keys)
    seq_arr = np.asarray(seqs, dtype=np.int64)
    hcols: dict[str, np.ndarray] = {}
    hcols["hand_id"] = key_arr[fidx]
    hcols["seq"] = seq_arr[fidx]
    hcols["source"] = _objects([raws[k].source for k in fidx])
    hcols["source_index"] = np.asarray([raws[k].position for k in fidx], dtype=np.int64)
    hcols["variant"] = _objects(["NT"] * len(fidx))
    hcols["table_size"] = npl[ok]
    hcols["small_blind"] = hint[ok, K.HI_SB]
    hcols["big_blind"] = hint[ok, K.HI_BB]
    hcols["ante"] = hint[ok, K.HI_ANTE]
    hcols["hand_name"] = _objects([raws[k].hand for k in fidx])
    hcols["table_name"] = _objects([raws[k].table for k in fidx])
    hcols["venue"] = _objects([raws[k].venue for k in fidx])
    from pokerlab.hands.db import _epoch_micros

    hcols["played_at"] = np.asarray([_epoch_micros(raws[k].played_at) for k in fidx], dtype=np.int64)
    board_arr = np.empty(H, dtype=object)
    board_arr[:] = boards
    hcols["board"] = board_arr[ok]
    hcols["pot"] = hint[ok, K.HI_POT]
    hcols["showdown"] = hint[ok, K.HI_SHOWDOWN].astype(np.bool_)
    hcols["preflop_aggressor"] = hint[ok, K.HI_PFA]
    hcols["last_street"] = hint[ok, K.HI_STREET]
    hcols["n_actions"] = hint[ok, K.HI_NACT]

    pmask = np.repeat(ok, npl)
    hand_of_p = np.repeat(np.arange(H), npl)
    seat = np.arange(len(pmask), dtype=np.int64) - np.repeat(p_off[:-1], npl)
    name_arr = np.empty(len(names), dtype=object)
    name_arr[:] = names
    pc: dict[str, np.ndarray] = {}
    pc["hand_id"] = key_arr[np.asarray(fast_idx, dtype=np.int64)[hand_of_p]][pmask]
    pc["seat"] = seat[pmask]
    pc["player"] = name_arr[pmask]
    pc["position"] = _POS_TABLE[np.repeat(npl, npl), seat][pmask]
    pc["starting_stack"] = pint[pmask, K.PI_START]
    pc["finishing_stack"] = pflt[pmask, K.PF_FIN]
    pc["net"] = pflt[pmask, K.PF_NET]
    pc["hole"] = _HOLE_TABLE[pint[pmask, K.PI_C1] + 1, pint[pmask, K.PI_C2] + 1]
    pc["blind"] = pint[pmask, K.PI_BLIND]
    pc["ante"] = pint[pmask, K.PI_ANTE]
    for name, col in (
        ("vpip", K.PB_VPIP),
        ("pfr", K.PB_PFR),
        ("three_bet_opp", K.PB_TBO),
        ("three_bet", K.PB_TB),
        ("saw_flop", K.PB_SAW1),
        ("saw_turn", K.PB_SAW2),
        ("saw_river", K.PB_SAW3),
        ("wtsd", K.PB_WTSD),
    ):
        pc[name] = pbool[pmask, col]
    pc["won_sd"] = pint[pmask, K.PI_WON]
    for name, col in (
        ("allin", K.PB_ALLIN),
        ("cbet_opp", K.PB_CBO),
        ("cbet", K.PB_CB),
        ("fold_cbet_opp", K.PB_FCBO),
        ("fold_cbet", K.PB_FCB),
    ):
        pc[name] = pbool[pmask, col]
    for name, col in (
        ("post_bets", K.PI_PBETS),
        ("post_raises", K.PI_PRAISES),
        ("post_calls", K.PI_PCALLS),
        ("post_checks", K.PI_PCHECKS),
        ("post_folds", K.PI_PFOLDS),
        ("put_preflop", K.PI_PUT0),
        ("put_flop", K.PI_PUT1),
        ("put_turn", K.PI_PUT2),
        ("put_river", K.PI_PUT3),
        ("raise_n", K.PI_RAISEN),
    ):
        pc[name] = pint[pmask, col]
    pc["raise_pot_sum"] = pflt[pmask, K.PF_RSUM]

    a_off_arr = np.asarray(a_off, dtype=np.int64)
    hand_of_a = np.repeat(np.arange(H), np.diff(a_off_arr))
    ac: dict[str, np.ndarray] = {}
    ac["hand_id"] = (
        key_arr[np.asarray(fast_idx, dtype=np.int64)[hand_of_a]][avalid] if H else np.empty(0, dtype=object)
    )
    for name, col in (("idx", K.AI_IDX), ("street", K.AI_STREET), ("seat", K.AI_SEAT)):
        ac[name] = aint[avalid, col]
    ac["kind"] = _KIND_TEXT[aint[avalid, K.AI_KIND]]
    for name, col in (
        ("amount", K.AI_AMOUNT),
        ("to_amount", K.AI_TO),
        ("pot_before", K.AI_POT),
        ("to_call", K.AI_CALL),
        ("facing", K.AI_FACING),
        ("level", K.AI_LEVEL),
    ):
        ac[name] = aint[avalid, col]
    ac["allin"] = aint[avalid, K.AI_ALLIN].astype(np.bool_)
    ac["cbet"] = aint[avalid, K.AI_CBET].astype(np.bool_)

    # -- the rest through the reference replay ----------------------------------------------
    rejections: list[Rejection] = []
    if slow_idx:
        h_rows: list[tuple[Any, ...]] = []
        p_rows: list[tuple[Any, ...]] = []
        a_rows: list[tuple[Any, ...]] = []
        for k in sorted(slow_idx):
            raw = raws[k]
            try:
                facts = replay(raw)
            except HandHistoryError as exc:
                rejections.append(Rejection(source=raw.source, position=raw.position, message=str(exc)))
                continue
            key = keys[k]
            h_rows.append(hand_row(raw, key, seqs[k], facts))
            p_rows.extend([(key, *p) for p in facts.players])
            a_rows.extend([(key, *a) for a in facts.actions])
        if h_rows:
            _append(hcols, _HAND_STAGE, h_rows, _column)
            _append(pc, _PLAYER_STAGE, p_rows, _column)
            if a_rows:
                _append(ac, _ACTION_STAGE, a_rows, _column)
    assert tuple(hcols) == _HAND_STAGE, tuple(hcols)
    assert tuple(pc) == ("hand_id", *PLAYER_COLUMNS), tuple(pc)
    assert tuple(ac) == ("hand_id", *ACTION_COLUMNS), tuple(ac)
    return hcols, pc, ac, rejections


def hand_row(raw: RawHand, key: str, seq: int, f: Any) -> tuple[Any, ...]:
    """The ``hands`` staging row of a hand replayed by the reference."""
    from pokerlab.hands.db import _epoch_micros

    return (
        key,
        seq,
        raw.source,
        raw.position,
        raw.variant,
        f.table_size,
        f.small_blind,
        f.big_blind,
        f.ante,
        raw.hand,
        raw.table,
        raw.venue,
        _epoch_micros(raw.played_at),
        f.board,
        f.pot,
        f.showdown,
        f.preflop_aggressor,
        f.last_street,
        len(f.actions),
    )


def _objects(values: list[Any]) -> np.ndarray:
    arr = np.empty(len(values), dtype=object)
    arr[:] = values
    return arr


def _append(
    cols: dict[str, np.ndarray], names: Sequence[str], rows: list[tuple[Any, ...]], column: Any
) -> None:
    for name, values in zip(names, zip(*rows, strict=True), strict=True):
        extra = column(name, values)
        cur = cols[name]
        if cur.dtype != extra.dtype:
            extra = extra.astype(cur.dtype)
        cols[name] = np.concatenate([cur, extra])
