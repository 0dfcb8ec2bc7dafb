"""Batch replay: tokenize hands to integer arrays, replay them in the numba kernel, and
build the database columns as numpy arrays.

Each action string becomes four integers ``(op, player, value, cards)`` (tokenization is
cached per distinct string: most action strings repeat).  Hands the kernel does not
accept (illegal, or an unusual case) are replayed one by one by the reference
:func:`pokerlab.hands.replay.replay`, which gives the same rows or the error message.

The kernels (tokenizer + replay, :func:`run_kernels`) take flat arrays and return flat
arrays, so they can run in this process or in a worker process
(:mod:`pokerlab.hands.kernel_worker`); this module imports numba only when it runs them
itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from pokerlab.cards.cards import RANKS, SUITS
from pokerlab.errors import HandHistoryError
from pokerlab.hands import replay_codes as K
from pokerlab.hands.model import MAX_AMOUNT, RawHand, Rejection, amount_problem
from pokerlab.hands.replay_codes import position_names
from pokerlab.hands.schema import (
    ACTION_STAGE,
    ACTIONS,
    HAND_STAGE,
    HANDS,
    PLAYER_STAGE,
    PLAYERS,
    column_array,
    epoch_micros,
    kernel_indices,
)

_DTYPES = {"i": np.int64, "f": np.float64, "b": np.bool_}
_KI = {a: kernel_indices(a) for a in ("hint", "pint", "pbool", "pflt", "aint")}

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
        v = int(text[1:])
    except ValueError:
        return -1
    return v - 1 if v <= 999_999 else -1  # no such player: the reference reports it


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
            if not -(2**62) < x < 2**62:
                return _OTHER  # the reference replay reports it
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


def _tokenize_batch(action_lists: list[list[str]]) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Tokens of every action of a batch (the numba tokenizer, with :func:`tokenize` for
    the actions it leaves to Python), the offsets of each hand's tokens, and each hand's
    board text.  Empty and comment-only actions produce no token."""
    H = len(action_lists)
    counts = np.fromiter(map(len, action_lists), dtype=np.int64, count=H)
    flat_actions = [a for lst in action_lists for a in lst]
    n = len(flat_actions)
    joined = "\n".join(flat_actions)
    if joined.isascii():
        buf = np.frombuffer(joined.encode("ascii"), dtype=np.uint8)
        lens = np.fromiter(map(len, flat_actions), dtype=np.int64, count=n)
        ends = np.cumsum(lens + 1) - 1
        starts = ends - lens
        from pokerlab.hands.replay_kernels import tokenize_actions

        tok, status = tokenize_actions(buf, starts, ends, K.RANK_OF, K.SUIT_OF)
        keep = status == K.TOK_OK
        for k in np.flatnonzero(status == K.TOK_PYTHON).tolist():
            t = tokenize(flat_actions[k])
            if t:
                tok[k] = t
                keep[k] = True
    else:  # rare: the plain-Python tokenizer, cached per distinct string
        tokens = _TOKENS
        if len(tokens) > _MAX_CACHE:
            tokens.clear()
        tok = np.zeros((n, 4), np.int64)
        keep = np.zeros(n, np.bool_)
        for k, a in enumerate(flat_actions):
            cached = tokens.get(a)
            if cached is None:
                cached = tokens[a] = tokenize(a)
            if cached:
                tok[k] = cached
                keep[k] = True
    hand_of = np.repeat(np.arange(H, dtype=np.int64), counts)
    kept = np.bincount(hand_of[keep], minlength=H) if n else np.zeros(H, np.int64)
    a_off = np.zeros(H + 1, dtype=np.int64)
    np.cumsum(kept, out=a_off[1:])
    boards = [""] * H
    for k in np.flatnonzero(keep & (tok[:, 0] == K.OP_DB)).tolist():
        boards[int(hand_of[k])] += flat_actions[k].split()[2]
    return tok[keep], a_off, boards


KernelInputs = tuple[list[list[str]], dict[str, np.ndarray]]
"""What the kernels need for one batch: each hand's action strings and the flat arrays
(``n_players, starting, antes, blinds, min_bet, fin, has_fin, win, has_win, rake``)."""

KernelOutputs = tuple[np.ndarray, ...]
"""``(acts, a_off, boards, hint, pint, pbool, pflt, aint, avalid)`` (``boards``: object
array of each hand's board text)."""

KERNEL_ARRAYS = ("n_players", "starting", "antes", "blinds", "min_bet", "fin", "has_fin",
                 "win", "has_win", "rake")


def run_kernels(action_lists: list[list[str]], arrays: dict[str, np.ndarray]) -> KernelOutputs:
    """Tokenize and replay one batch in this process (imports the numba kernels)."""
    from pokerlab.hands.replay_kernels import replay_batch

    acts, a_off, boards = _tokenize_batch(action_lists)
    npl = arrays["n_players"]
    H = len(npl)
    p_off = np.zeros(H + 1, dtype=np.int64)
    np.cumsum(npl, out=p_off[1:])
    board_arr = np.empty(H, dtype=object)
    board_arr[:] = boards
    if H:
        out = replay_batch(
            npl, p_off, a_off, arrays["starting"], arrays["antes"], arrays["blinds"],
            arrays["min_bet"], arrays["fin"], arrays["has_fin"], arrays["win"],
            arrays["has_win"], arrays["rake"], acts,
        )
    else:
        out = (
            np.zeros((0, K.N_HINT), np.int64),
            np.zeros((0, K.N_PINT), np.int64),
            np.zeros((0, K.N_PBOOL), np.bool_),
            np.zeros((0, K.N_PFLT), np.float64),
            np.zeros((0, K.N_AINT), np.int64),
            np.zeros(0, np.bool_),
        )
    return (acts, a_off, board_arr, *out)


class _Done:
    """The result of kernels already run (the in-process runner)."""

    __slots__ = ("out",)

    def __init__(self, out: KernelOutputs) -> None:
        self.out = out

    def result(self) -> KernelOutputs:
        return self.out

    def ready(self) -> bool:
        return True


class LocalKernels:
    """Runs the kernels in this process, at once."""

    def submit(self, action_lists: list[list[str]], arrays: dict[str, np.ndarray]) -> _Done:
        return _Done(run_kernels(action_lists, arrays))


@dataclass(slots=True, eq=False)
class PendingReplay:
    """A batch whose kernels were submitted: :func:`finish_replay` builds its columns."""

    raws: Sequence[RawHand]
    keys: Sequence[str]
    seqs: Sequence[int]
    fast_idx: list[int]
    slow_idx: list[int]
    npl: np.ndarray
    names: list[str]
    handle: Any

    def ready(self) -> bool:
        """Whether the kernels' outputs are there (``finish_replay`` will not wait)."""
        return bool(self.handle.ready())


def start_replay(
    raws: Sequence[RawHand], keys: Sequence[str], seqs: Sequence[int], kernels: Any = None
) -> PendingReplay:
    """Gather a batch's kernel inputs and submit them to ``kernels`` (``LocalKernels()`` by
    default, or a :class:`pokerlab.hands.kernel_worker.KernelWorker`).

    A hand whose amounts cannot be stored (``model.amount_problem``: an infinite, NaN or
    huge stack) goes to the plain replay, which rejects it; the batch is checked as
    arrays first, hand by hand only when one is out of range."""
    try:
        gathered = _gather(raws, checked=False)
        fine = _in_range(gathered[5])
    except OverflowError:  # an integer beyond 64 bits
        fine = False
    if not fine:
        gathered = _gather(raws, checked=True)
    fast_idx, slow_idx, npl, names, action_lists, arrays = gathered
    handle = (kernels or LocalKernels()).submit(action_lists, arrays)
    return PendingReplay(raws, keys, seqs, fast_idx, slow_idx, npl, names, handle)


def _in_range(arrays: dict[str, np.ndarray]) -> bool:
    """Whether every amount of a gathered batch is finite and at most ``MAX_AMOUNT``."""
    for name in ("starting", "antes", "blinds", "min_bet", "rake", "fin", "win"):
        a = arrays[name]
        if a.size and not (np.isfinite(a).all() and np.abs(a).max() <= MAX_AMOUNT):
            return False
    return True


def _gather(
    raws: Sequence[RawHand], *, checked: bool
) -> tuple[list[int], list[int], np.ndarray, list[str], list[list[str]], dict[str, np.ndarray]]:
    """The kernel inputs of the hands the kernels take; ``checked``: hands with
    out-of-range amounts are left to the plain replay."""
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
    rakes: list[int] = []
    action_lists: list[list[str]] = []
    names: list[str] = []
    fast_add, slow_add, np_add = fast_idx.append, slow_idx.append, n_players.append
    mb_add, rk_add, hf_add, hw_add = min_bets.append, rakes.append, has_fin.append, has_win.append
    al_add = action_lists.append
    st_ext, an_ext, bl_ext, fi_ext, wi_ext, nm_ext = (
        starting.extend, antes.extend, blinds.extend, fin.extend, win.extend, names.extend
    )
    zeros = [[0.0] * n for n in range(10)]
    for k, h in enumerate(raws):
        stacks = h.starting_stacks
        n = len(stacks)
        f = h.finishing_stacks
        wv = h.winnings
        if not (
            h.variant == "NT"
            and 2 <= n <= 9
            and len(h.antes) == n
            and len(h.blinds_or_straddles) == n
            and (h.min_bet is None or h.min_bet > 0)
            and (f is None or len(f) == n)
            and (wv is None or len(wv) == n)
            and not (checked and amount_problem(h) is not None)
        ):
            slow_add(k)
            continue
        fast_add(k)
        np_add(n)
        st_ext(stacks)
        an_ext(h.antes)
        bl_ext(h.blinds_or_straddles)
        mb_add(h.min_bet or 0)
        rk_add(-1 if h.rake is None else h.rake)
        if f is None:
            fi_ext(zeros[n])
            hf_add(False)
        else:
            fi_ext(f)
            hf_add(True)
        if wv is None or f is not None:
            wi_ext(zeros[n])
            hw_add(False)
        else:
            wi_ext(wv)
            hw_add(True)
        al_add(h.actions)
        p = h.players
        nm_ext(p if p is not None else [f"p{j + 1}" for j in range(n)])
    npl = np.asarray(n_players, dtype=np.int64)
    arrays = {
        "n_players": npl,
        "starting": np.asarray(starting, dtype=np.int64),
        "antes": np.asarray(antes, dtype=np.int64),
        "blinds": np.asarray(blinds, dtype=np.int64),
        "min_bet": np.asarray(min_bets, dtype=np.int64),
        "fin": np.asarray(fin, dtype=np.float64),
        "has_fin": np.asarray(has_fin, dtype=np.bool_),
        "win": np.asarray(win, dtype=np.float64),
        "has_win": np.asarray(has_win, dtype=np.bool_),
        "rake": np.asarray(rakes, dtype=np.int64),
    }
    return fast_idx, slow_idx, npl, names, action_lists, arrays


def replay_many(
    raws: Sequence[RawHand],
    keys: Sequence[str],
    seqs: Sequence[int],
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray], dict[str, np.ndarray], list[Rejection]]:
    """Replay a batch; returns the staged columns of hands, players, actions, and rejections.

    Column names and order are those of :mod:`pokerlab.hands.db` staging
    (``hand_id`` first).  ``keys``/``seqs`` are the hand ids and sequence numbers.
    """
    return finish_replay(start_replay(raws, keys, seqs))


def finish_replay(
    pend: PendingReplay,
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray], dict[str, np.ndarray], list[Rejection]]:
    """The staged columns of a batch whose kernels ran (waits for them)."""
    raws, keys, seqs = pend.raws, pend.keys, pend.seqs
    fast_idx, slow_idx, npl, names = pend.fast_idx, list(pend.slow_idx), pend.npl, pend.names
    a_off_arr, board_arr, hint, pint, pbool, pflt, aint, avalid = pend.handle.result()[1:]
    H = len(fast_idx)
    p_off = np.zeros(H + 1, dtype=np.int64)
    np.cumsum(npl, out=p_off[1:])
    status = hint[:, K.HI_STATUS]
    ok = status == 0
    if not ok.all():
        fast_np = np.asarray(fast_idx, dtype=np.int64)
        slow_idx.extend(fast_np[~ok].tolist())

    # -- columns of the hands the kernel accepted ------------------------------------------
    fast_arr = np.asarray(fast_idx, dtype=np.int64)
    fidx = fast_arr[ok]
    fl = fidx.tolist()
    sel = [raws[k] for k in fl]
    key_arr = np.empty(len(raws), dtype=object)
    key_arr[:] = list(keys)
    seq_arr = np.asarray(seqs, dtype=np.int64)
    null_ts = epoch_micros(None)
    computed_h = {
        "hand_id": lambda: key_arr[fidx],
        "seq": lambda: seq_arr[fidx],
        "source": lambda: _objects([h.source for h in sel]),
        "source_index": lambda: np.fromiter([h.position for h in sel], np.int64, len(sel)),
        "variant": lambda: _objects(["NT"] * len(sel)),
        "table_size": lambda: npl[ok],
        "hand_name": lambda: _objects([h.hand for h in sel]),
        "table_name": lambda: _objects([h.table for h in sel]),
        "venue": lambda: _objects([h.venue for h in sel]),
        "played_at": lambda: np.fromiter(
            [null_ts if h.played_at is None else epoch_micros(h.played_at) for h in sel],
            np.int64,
            len(sel),
        ),
        "board": lambda: board_arr[ok],
        "unit": lambda: _units([h.unit for h in sel]),
        "currency": lambda: _objects([h.currency for h in sel]),
        "grp": lambda: _objects([None] * len(sel)),
    }
    hcols: dict[str, np.ndarray] = {}
    for col in HANDS:  # generated from the column table: kernel columns by index
        if col.kernel:
            v = hint[ok, _KI["hint"][col.name]]
            hcols[col.name] = v.astype(_DTYPES[col.dtype]) if col.dtype != "i" else v
        else:
            hcols[col.name] = computed_h[col.name]()

    pmask = np.repeat(ok, npl)
    hand_of_p = np.repeat(np.arange(H), npl)
    seat = np.arange(len(pmask), dtype=np.int64) - np.repeat(p_off[:-1], npl)
    name_arr = np.empty(len(names), dtype=object)
    name_arr[:] = names
    arrays = {"pint": pint, "pbool": pbool, "pflt": pflt}
    pos_n = np.repeat(npl, npl)
    pos_seat = seat
    swap = np.repeat(hint[:, K.HI_SWAP] == 1, npl)
    if swap.any():  # heads-up, big blind listed first: p1 is the button
        pos_seat = np.where(swap, 1 - seat, seat)
    computed = {
        "hand_id": key_arr[fast_arr[hand_of_p]][pmask],
        "seat": seat[pmask],
        "player": name_arr[pmask],
        "position": _POS_TABLE[pos_n, pos_seat][pmask],
        "hole": _HOLE_TABLE[pint[pmask, K.PI_C1] + 1, pint[pmask, K.PI_C2] + 1],
    }
    pc: dict[str, np.ndarray] = {}
    for col in PLAYERS:  # generated from the column table: kernel columns by index
        if col.origin == "copy":
            continue
        if col.kernel:
            pc[col.name] = arrays[col.kernel][pmask, _KI[col.kernel][col.name]]
        else:
            pc[col.name] = computed[col.name]

    hand_of_a = np.repeat(np.arange(H), np.diff(a_off_arr))
    ac: dict[str, np.ndarray] = {}
    for col in ACTIONS:
        if col.name == "hand_id":
            ac["hand_id"] = (
                key_arr[fast_arr[hand_of_a]][avalid] if H else np.empty(0, dtype=object)
            )
        elif col.name == "kind":
            ac["kind"] = _KIND_TEXT[aint[avalid, K.AI_KIND]]
        else:
            v = aint[avalid, _KI["aint"][col.name]]
            ac[col.name] = v.astype(np.bool_) if col.dtype == "b" else v
    # -- the rest through the reference replay ----------------------------------------------
    if slow_idx:
        order = sorted(slow_idx)
        rh, rp, ra, rejections = replay_reference(
            [raws[k] for k in order], [keys[k] for k in order], [seqs[k] for k in order]
        )
        for cols, extra in ((hcols, rh), (pc, rp), (ac, ra)):
            for name, arr in extra.items():
                cur = cols[name]
                cols[name] = np.concatenate([cur, arr.astype(cur.dtype)]) if len(arr) else cur
    else:
        rejections = []
    assert tuple(hcols) == HAND_STAGE, tuple(hcols)
    assert tuple(pc) == PLAYER_STAGE, tuple(pc)
    assert tuple(ac) == ACTION_STAGE, tuple(ac)
    return hcols, pc, ac, rejections


_UNIT_FLOAT: dict[str, float] = {}


def _units(units: list[str]) -> np.ndarray:
    """``float(unit)`` of each hand (few distinct units: cached)."""
    cache = _UNIT_FLOAT
    out = np.empty(len(units), dtype=np.float64)
    for i, u in enumerate(units):
        f = cache.get(u)
        if f is None:
            f = cache[u] = float(u)
        out[i] = f
    return out


def replay_reference(
    raws: Sequence[RawHand],
    keys: Sequence[str],
    seqs: Sequence[int],
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray], dict[str, np.ndarray], list[Rejection]]:
    """:func:`replay_many` through the plain-Python reference replay, hand by hand."""
    h_rows: list[tuple[Any, ...]] = []
    p_rows: list[tuple[Any, ...]] = []
    a_rows: list[tuple[Any, ...]] = []
    rejections: list[Rejection] = []
    from pokerlab.hands.replay import replay

    for raw, key, seq in zip(raws, keys, seqs, strict=True):
        try:
            facts = replay(raw)
        except HandHistoryError as exc:
            rejections.append(Rejection(source=raw.source, position=raw.position, message=str(exc)))
            continue
        h_rows.append(hand_row(raw, key, seq, facts))
        p_rows.extend([(key, *p) for p in facts.players])
        a_rows.extend([(key, *a) for a in facts.actions])

    def cols(names: tuple[str, ...], rows: list[tuple[Any, ...]]) -> dict[str, np.ndarray]:
        if not rows:
            return {c: column_array(c, []) for c in names}
        return {c: column_array(c, v) for c, v in zip(names, zip(*rows, strict=True), strict=True)}

    return cols(HAND_STAGE, h_rows), cols(PLAYER_STAGE, p_rows), cols(ACTION_STAGE, a_rows), rejections


def hand_row(raw: RawHand, key: str, seq: int, f: Any) -> tuple[Any, ...]:
    """The ``hands`` staging row of a hand replayed by the reference."""
    values = {
        "hand_id": key,
        "seq": seq,
        "source": raw.source,
        "source_index": raw.position,
        "variant": raw.variant,
        "table_size": f.table_size,
        "small_blind": f.small_blind,
        "big_blind": f.big_blind,
        "ante": f.ante,
        "hand_name": raw.hand,
        "table_name": raw.table,
        "venue": raw.venue,
        "played_at": epoch_micros(raw.played_at),
        "board": f.board,
        "pot": f.pot,
        "showdown": f.showdown,
        "preflop_aggressor": f.preflop_aggressor,
        "last_street": f.last_street,
        "n_actions": len(f.actions),
        "rake": f.rake,
        "unit": float(raw.unit),
        "currency": raw.currency,
        "grp": None,
    }
    return tuple(values[c] for c in HAND_STAGE)


def _objects(values: list[Any]) -> np.ndarray:
    arr = np.empty(len(values), dtype=object)
    arr[:] = values
    return arr
