"""What an agent over an indexed policy hands the match and LBR kernels: its compiled
betting tree, the table it is at and the flat policy/bucket arrays.

The agent side of the kernels lives here, below the agents and the evaluators: the
policy agent builds its :class:`KernelSide` (``kernel_side()``), the kernels of
:mod:`pokerlab.evaluation.match_kernels` and :mod:`pokerlab.evaluation.lbr_kernels` read
it.  Only numpy: the tree and the card abstraction are passed in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class KernelSide:
    """What an agent hands the kernel to be played by it: its compiled betting ``tree``, the
    table ``config`` the tree is at, and the flat policy/bucket ``arrays``
    (:func:`policy_arrays`).  Agents offer it by a ``kernel_side()`` method (``None``: not
    this agent, not now)."""

    tree: Any
    config: Any
    arrays: tuple[Any, ...]


def policy_arrays(pol: Any, spec: Any, cards: Any) -> tuple[Any, ...]:
    """The kernel arrays of an indexed policy ``pol`` with hand-strength card ``spec`` (or
    ``None``: the card-bucket tables of ``cards``)."""
    use = np.zeros(4, dtype=np.int64)
    tabs: list[np.ndarray] = []
    for s in range(4):
        if (spec is None and cards is not None and s < len(cards.tables)
                and cards.num_buckets(s) > 1):
            use[s] = 1
            tabs.append(np.ascontiguousarray(cards.tables[s], dtype=np.uint16))
        else:
            tabs.append(np.zeros(1, dtype=np.uint16))
    if spec is not None:
        mode, thr, pre = 1, np.ascontiguousarray(spec.threshold_array()), spec.buckets[0] == 169
    else:
        mode, thr, pre = 0, np.full((4, 1), 2.0), False
    csr = pol.storage == "csr"
    return (pol.node_offset, pol.probs, pol.row_ptr if csr else np.zeros(1, np.int64),
            pol.row_bucket if csr else np.zeros(1, np.int32), csr, use, mode, thr, pre, *tabs)


def kernel_side(agent: Any) -> KernelSide | None:
    """The agent's :class:`KernelSide`, or ``None`` when it offers none (by capability)."""
    fn = getattr(agent, "kernel_side", None)
    return fn() if callable(fn) else None
