"""The codes and column indices shared by the numba replay (:mod:`replay_kernels`), its
Python driver (:mod:`fastimport`) and the reference replay, without importing numba.

The hand importer builds its columns from these in a process that never loads numba
when the kernels run in a worker process (:mod:`pokerlab.hands.kernel_worker`).  The
kernels read these names as compile-time constants: after changing one, delete the
numba cache of ``replay_kernels`` (docs/conventions.md, numba cache pitfall).
"""

from __future__ import annotations

import numpy as np

from pokerlab.hands.schema import kernel_indices

OP_DH, OP_DB, OP_F, OP_CC, OP_CBR, OP_SM, OP_OTHER = 0, 1, 2, 3, 4, 5, 6
KIND_F, KIND_X, KIND_C, KIND_B, KIND_R = 0, 1, 2, 3, 4
UNKNOWN_CARD = 52
NO_CARD = -1

# Output column indices, generated from the column table (pokerlab.hands.schema).
_PI = kernel_indices("pint")
PI_START, PI_BLIND, PI_ANTE = _PI["starting_stack"], _PI["blind"], _PI["ante"]
PI_PBETS, PI_PRAISES, PI_PCALLS = _PI["post_bets"], _PI["post_raises"], _PI["post_calls"]
PI_PCHECKS, PI_PFOLDS = _PI["post_checks"], _PI["post_folds"]
PI_PUT0, PI_RAISEN, PI_WON = _PI["put_preflop"], _PI["raise_n"], _PI["won_sd"]
PI_C1, PI_C2 = _PI["c1"], _PI["c2"]
N_PINT = len(_PI)
_PB = kernel_indices("pbool")
PB_VPIP, PB_PFR, PB_TBO, PB_TB = _PB["vpip"], _PB["pfr"], _PB["three_bet_opp"], _PB["three_bet"]
PB_SAW1, PB_SAW2, PB_SAW3, PB_WTSD = _PB["saw_flop"], _PB["saw_turn"], _PB["saw_river"], _PB["wtsd"]
PB_ALLIN, PB_CBO, PB_CB = _PB["allin"], _PB["cbet_opp"], _PB["cbet"]
PB_FCBO, PB_FCB = _PB["fold_cbet_opp"], _PB["fold_cbet"]
N_PBOOL = len(_PB)
_PF = kernel_indices("pflt")
PF_FIN, PF_NET, PF_RSUM = _PF["finishing_stack"], _PF["net"], _PF["raise_pot_sum"]
N_PFLT = len(_PF)
_HI = kernel_indices("hint")
HI_STATUS, HI_SWAP, HI_SB, HI_BB = _HI["status"], _HI["swap"], _HI["small_blind"], _HI["big_blind"]
HI_ANTE, HI_POT, HI_SHOWDOWN, HI_PFA = _HI["ante"], _HI["pot"], _HI["showdown"], _HI["preflop_aggressor"]
HI_STREET, HI_NACT, HI_RAKE = _HI["last_street"], _HI["n_actions"], _HI["rake"]
N_HINT = len(_HI)
_AI = kernel_indices("aint")
AI_IDX, AI_STREET, AI_SEAT, AI_KIND = _AI["idx"], _AI["street"], _AI["seat"], _AI["kind"]
AI_AMOUNT, AI_TO, AI_POT, AI_CALL = _AI["amount"], _AI["to_amount"], _AI["pot_before"], _AI["to_call"]
AI_FACING, AI_LEVEL, AI_ALLIN, AI_CBET = _AI["facing"], _AI["level"], _AI["allin"], _AI["cbet"]
N_AINT = len(_AI)


# settle() status codes (the reference turns them into messages)
SETTLE_OK = 0
SETTLE_FIN_SUM = 60  # finishing stacks sum to more than the starting stacks
SETTLE_FIN_FOLDED = 61  # a folded player's finishing stack differs from his chips behind
SETTLE_FIN_LOW = 62  # a player finishes with less than his chips behind
SETTLE_RAKE_FIELD = 63  # the rake field disagrees with the stacks / winnings
SETTLE_WIN_FOLDED = 64  # a folded player has winnings
SETTLE_WIN_POT = 65  # winnings sum to more than the pot can pay
SETTLE_WIN_PLAYER = 66  # one player's winnings exceed what his pots can pay
SETTLE_RAKE_POT = 67  # the rake is larger than the pot
SETTLE_UNKNOWN = 69  # showdown between unknown hands (result unknown)
SETTLE_POKERKIT = 70  # showdown between known hands: settled by PokerKit (reference)


# -- tokenizer ---------------------------------------------------------------------------------

TOK_OK, TOK_SKIP, TOK_PYTHON = 0, 1, 2
"""Status of one action from :func:`tokenize_actions`: a token, nothing (empty or comment
only), or left to the plain-Python twin :func:`pokerlab.hands.fastimport.tokenize`."""

RANK_OF = np.full(128, -1, np.int64)
for _k, _ch in enumerate("23456789TJQKA"):
    RANK_OF[ord(_ch)] = _k
SUIT_OF = np.full(128, -1, np.int64)
for _k, _ch in enumerate("cdhs"):
    SUIT_OF[ord(_ch)] = _k


def position_names(n: int, *, swapped: bool = False) -> list[str]:
    """Seat labels in PHH order (button last): 2 -> BB, BTN; 6 -> SB, BB, UTG, HJ, CO, BTN.

    ``swapped``: a heads-up hand whose blinds are listed big blind first (p1 posts the
    small blind and is the button): BTN, BB.
    """
    if n == 2:
        return ["BTN", "BB"] if swapped else ["BB", "BTN"]
    if n == 3:
        return ["SB", "BB", "BTN"]
    middle = n - 3
    back = ["CO", "HJ", "LJ"]
    names_back = back[: min(middle, 3)]
    front_n = middle - len(names_back)
    front = ["UTG"] + [f"UTG{k}" for k in range(1, front_n)] if front_n else []
    return ["SB", "BB", *front, *reversed(names_back), "BTN"]
