"""How a replayed hand ends in chips: the finishing stacks and the rake of
:func:`pokerlab.hands.replay.replay`, by the shared rules of
:func:`pokerlab.hands.replay_kernels.settle` (run as plain Python here), PokerKit for a
showdown whose result the file leaves out, and the messages of a hand whose stated result
is impossible."""

from __future__ import annotations

from typing import Any

import numpy as np

from pokerlab.errors import HandHistoryError
from pokerlab.hands import replay_codes as K
from pokerlab.hands.model import RawHand


def settle_py(*args: Any) -> Any:
    """:func:`pokerlab.hands.replay_kernels.settle` run as plain Python (numba is imported
    here, on first use, not when this module is)."""
    from pokerlab.hands.replay_kernels import settle

    return settle.py_func(*args)


SETTLE_MESSAGES = {
    K.SETTLE_FIN_SUM: "finishing stacks {fin} sum to more than the starting stacks {start}",
    K.SETTLE_FIN_FOLDED: "p{p} folded with {x} chips behind, but finishes with {y}",
    K.SETTLE_FIN_LOW: "p{p} finishes with {x}, less than the {y} never put in the pot",
    K.SETTLE_RAKE_FIELD: "rake {x} does not match the hand: the stacks/winnings leave {y}",
    K.SETTLE_WIN_FOLDED: "p{p} folded but has winnings {x}",
    K.SETTLE_WIN_POT: "winnings sum to {x}, more than the pot of {y} can pay",
    K.SETTLE_WIN_PLAYER: "p{p} wins {x}, more than the {y} the pots can pay him",
    K.SETTLE_RAKE_POT: "rake {x} is more than the pot of {y}",
}


def money(x: float, h: RawHand) -> str:
    """An amount in units as the file wrote it: ``65`` chips, or ``0.65`` with unit 0.01."""
    if h.unit == "1":
        return str(int(x)) if float(x).is_integer() else repr(float(x))
    from decimal import Decimal

    v = Decimal(repr(float(x))) * Decimal(h.unit)
    text = format(v.quantize(Decimal(h.unit)) if v == v.quantize(Decimal(h.unit)) else v, "f")
    return f"{h.currency}{text}" if h.currency and len(h.currency) == 1 else text


def settle_with_pokerkit(h: RawHand) -> list[float] | None:
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


def settle_stacks(h: RawHand, hole: list[str | None], active: list[bool], stacks: list[int],
                  contrib: list[int]) -> tuple[list[float] | None, float]:
    """Finishing stacks (``None``: unknown) and rake, by the shared rules of
    :func:`pokerlab.hands.replay_kernels.settle` (run as plain Python here)."""
    n = len(hole)
    known_cards = all(
        hole[j] is not None and "?" not in (hole[j] or "")
        for j in range(n)
        if active[j]
    )
    fin_out = np.zeros(n, np.float64)
    st, rake, x, y, p = settle_py(
        np.asarray(h.starting_stacks, np.int64),
        np.asarray(stacks, np.int64),
        np.asarray(contrib, np.int64),
        np.asarray(active, np.bool_),
        known_cards,
        np.asarray(h.finishing_stacks if h.finishing_stacks is not None else [0.0] * n, np.float64),
        h.finishing_stacks is not None,
        np.asarray(h.winnings if h.winnings is not None else [0.0] * n, np.float64),
        h.winnings is not None and h.finishing_stacks is None,
        -1 if h.rake is None else int(h.rake),
        fin_out,
    )
    if st == K.SETTLE_OK:
        return [float(v) for v in fin_out], float(rake)
    if st == K.SETTLE_UNKNOWN:
        return None, float(rake)
    if st == K.SETTLE_POKERKIT:
        return settle_with_pokerkit(h), 0.0
    raise HandHistoryError(
        SETTLE_MESSAGES[st].format(
            p=p + 1,
            x=money(x, h),
            y=money(y, h),
            fin=h.finishing_stacks,
            start=list(h.starting_stacks),
        )
    )
