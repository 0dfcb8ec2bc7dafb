"""Warm starts across flops (``pokerlab.subgame.warm``), the adaptive exploitability checks
(``solve_config.next_check``) and both in ``pokerlab spot report``."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from typer.testing import CliRunner

from pokerlab.cards.cards import COMBOS, card_str, parse_cards
from pokerlab.cli import app
from pokerlab.errors import ConfigError
from pokerlab.subgame import SolveConfig, SpotSolver, make_spot, tree_config
from pokerlab.subgame.flops import flop_subset, parse_flop_set
from pokerlab.subgame.solve_config import AFTER_RESTART, FIRST_CHECK, next_check
from pokerlab.subgame.tree import DECISION
from pokerlab.subgame.warm import (
    CHAIN_LENGTH,
    WARM_ITERATION,
    WARM_ITERATION_RDCFR,
    WarmSource,
    card_map,
    flop_chains,
    shape_key,
    warm_start,
)

runner = CliRunner()
OOP = "QQ+,AK,JTs,T9s,98s,A5s"
IP = "JJ-88,AQs+,KQs,QJs,T8s,97s,65s"
TREE = tree_config(bets="50%", raises="none", allin_threshold=0.0, force_allin=0.0)


def _spot(board: str, tree=TREE):  # type: ignore[no-untyped-def]
    return make_spot(board=board, pot=10, stack=20, oop=OOP, ip=IP, tree=tree)


def _cfg() -> SolveConfig:
    return SolveConfig(algo="dcfr")


# ------------------------------------------------------------------------ card maps


def test_card_map_keeps_suits_and_rank_order() -> None:
    src, dst = parse_cards("Td9d6h"), parse_cards("Jd9d6h")
    pi = card_map(src, dst)
    assert pi is not None
    assert sorted(pi.tolist()) == list(range(52))  # a permutation of the deck
    assert [card_str(int(pi[c])) for c in src] == ["Jd", "9d", "6h"]
    # the other ranks keep their order: the jack takes the ten's place, the rest stay
    assert card_str(int(pi[parse_cards("Js")[0]])) == "Ts"
    assert card_str(int(pi[parse_cards("Qc")[0]])) == "Qc"
    assert card_str(int(pi[parse_cards("2h")[0]])) == "2h"
    assert all((int(pi[c]) & 3) == (c & 3) for c in range(52))
    ident = card_map(src, src)
    assert ident is not None and (ident == np.arange(52)).all()
    # another shape: none
    assert card_map(src, parse_cards("Td9h6d")) is None  # the suited pair is T6, not T9
    assert card_map(src, parse_cards("TdTh6d")) is None  # paired
    assert card_map(parse_cards("7c7d2h"), parse_cards("QcQdJh")) is not None
    assert shape_key(parse_cards("7c7d2h")) == shape_key(parse_cards("QcQdJh"))


def test_flop_chains_cover_the_set_once_by_shape() -> None:
    flops = flop_subset(184)
    chains = flop_chains(flops)
    boards = [f.board for c in chains for f in c]
    assert sorted(boards) == sorted(f.board for f in flops)
    assert all(1 <= len(c) <= CHAIN_LENGTH for c in chains)
    assert all(len({shape_key(f.cards) for f in c}) == 1 for c in chains)
    assert len(chains) == 20  # 10 shapes, cut into chains of near-equal length
    assert sorted(map(len, chains))[-3:] == [11, 11, 12]
    assert flop_chains(flops) == chains  # deterministic
    assert flop_chains([]) == []


# ------------------------------------------------------------------------ warm_start


def _solved(board: str, iterations: int = 20) -> SpotSolver:
    s = SpotSolver(_spot(board), _cfg(), threads=1)
    s.steps(iterations)
    return s


def test_warm_start_on_the_same_flop_copies_the_regrets() -> None:
    src = _solved("Td9d6h")
    dst = SpotSolver(_spot("Td9d6h"), _cfg(), threads=1)
    assert warm_start(dst, WarmSource.of(src))
    np.testing.assert_array_equal(dst.regrets, src.regrets)
    assert not dst.ssum.any()  # the average is of the new solve's own iterations
    assert dst.iteration == WARM_ITERATION


def test_warm_start_of_16_bit_regrets_copies_their_scales() -> None:
    cfg = SolveConfig(algo="dcfr", compress=True)
    src = SpotSolver(_spot("Td9d6h"), cfg, threads=1)
    src.steps(10)
    dst = SpotSolver(_spot("Td9d6h"), cfg, threads=1)
    assert warm_start(dst, WarmSource.of(src))
    np.testing.assert_array_equal(dst.regrets, src.regrets)
    np.testing.assert_array_equal(dst.rscale, src.rscale)
    assert src.rscale.any()
    # float32 and 16-bit storage do not mix
    plain = SpotSolver(_spot("Td9d6h"), _cfg(), threads=1)
    assert not warm_start(plain, WarmSource.of(src))


def test_warm_start_of_pdcfr_plus_copies_the_predicted_regrets() -> None:
    cfg = SolveConfig(algo="pdcfr+")
    src = SpotSolver(_spot("Td9d6h"), cfg, threads=1)
    src.steps(10)
    dst = SpotSolver(_spot("Td9d6h"), cfg, threads=1)
    assert warm_start(dst, WarmSource.of(src))
    np.testing.assert_array_equal(dst.regrets, src.regrets)
    np.testing.assert_array_equal(dst.pred, src.pred)
    assert src.pred.any()
    # predicted and plain regrets do not mix
    assert not warm_start(SpotSolver(_spot("Td9d6h"), SolveConfig(algo="dcfr+"), threads=1),
                          WarmSource.of(src))


def _slot_of(solver: SpotSolver, street: int, cards: tuple[int, ...]) -> int:
    """The slot of ``street`` dealt ``cards`` (turn, or turn and river), by search."""
    sc = solver.deal.slot_cards[street]
    for s in range(sc.shape[0]):
        if tuple(int(c) for c in sc[s, :street]) == cards:
            return s
    return -1


def test_warm_start_maps_hands_and_boards_by_the_rank_map() -> None:
    """Every copied regret, against a reference by search: the hand with the mapped cards,
    on the board with the mapped turn (and river)."""
    src = _solved("Td9d6h")
    dst = SpotSolver(_spot("Jd9d6h"), _cfg(), threads=1)
    assert warm_start(dst, WarmSource.of(src))
    pi = card_map(parse_cards("Td9d6h"), parse_cards("Jd9d6h"))
    assert pi is not None
    inv = np.empty(52, dtype=np.int64)
    inv[pi] = np.arange(52)
    rng = np.random.default_rng(5)
    tr = dst.tree
    checked = zeros = 0
    for i in np.flatnonzero(tr.kind == DECISION):
        q, k, st = int(tr.player[i]), int(tr.num_children[i]), int(tr.street[i])
        nd, ns = dst.deal.num_hands[q], src.deal.num_hands[q]
        n_slots = dst.deal.num_slots[st]
        for s in rng.choice(n_slots, size=min(3, n_slots), replace=False):
            cards = tuple(int(inv[c]) for c in dst.deal.slot_cards[st][s, :st])
            ss = _slot_of(src, st, cards)
            assert ss >= 0
            for h in rng.choice(nd, size=min(8, nd), replace=False):
                a, b = (int(inv[c]) for c in COMBOS[dst.deal.combos[q][h]])
                match = [j for j in range(ns)
                         if sorted(int(c) for c in COMBOS[src.deal.combos[q][j]]) == sorted((a, b))]
                for act in range(k):
                    got = dst.regrets[dst.node_base[i] + s * k * nd + act * nd + h]
                    if not match:
                        assert got == 0.0
                        zeros += 1
                        continue
                    want = src.regrets[src.node_base[i] + ss * k * ns + act * ns + match[0]]
                    assert got == want
                    checked += 1
    assert checked > 200 and zeros > 0  # JJ / KJs-style hands are not in the source's range


def test_warm_start_refuses_what_it_cannot_map() -> None:
    src = WarmSource.of(_solved("Td9d6h", 2))
    other_shape = SpotSolver(_spot("Td9h6d"), _cfg(), threads=1)
    assert not warm_start(other_shape, src) and other_shape.iteration == 0
    other_tree = SpotSolver(_spot("Jd9d6h", tree_config(bets="75%", raises="none")), _cfg(), threads=1)
    assert not warm_start(other_tree, src) and not other_tree.regrets.any()
    started = SpotSolver(_spot("Jd9d6h"), _cfg(), threads=1)
    started.steps(1)
    before = started.regrets.copy()
    assert not warm_start(started, src)
    np.testing.assert_array_equal(started.regrets, before)
    turn = SpotSolver(_spot("Jd9d6h2c"), _cfg(), threads=1)
    assert not warm_start(turn, src)


def test_a_warm_neighbour_reaches_the_target_in_fewer_iterations() -> None:
    target = 0.3
    src = SpotSolver(_spot("Td9d6h"), _cfg(), threads=1)
    src.solve(iterations=400, target_pct=target, check_every=1)
    cold = SpotSolver(_spot("Jd9d6h"), _cfg(), threads=1)
    cold.solve(iterations=400, target_pct=target, check_every=1)
    warm = SpotSolver(_spot("Jd9d6h"), _cfg(), threads=1)
    assert warm_start(warm, WarmSource.of(src))
    warm.solve(iterations=400 + WARM_ITERATION, target_pct=target, check_every=1)
    runs = warm.iteration - WARM_ITERATION
    assert warm.exploitability()[1] <= target and cold.exploitability()[1] <= target
    assert runs <= 0.8 * cold.iteration, (runs, cold.iteration)  # measured: 36 against 50
    # the same game: values agree within what the two solves' exploitability allows
    assert warm.values()[0] == pytest.approx(cold.values()[0], abs=2 * target / 100 * 10)


def test_rdcfr_warm_starts_continue_from_its_own_iteration() -> None:
    """rdcfr (the report's default) continues from iteration 60: its average restarts at
    65, and its copied regrets are discounted as 60 iterations' worth; on this small spot
    a warm neighbour still needs fewer iterations than a cold one (measured: 29 against 38;
    on the report's template 63.7 a flop against 68.6 from iteration 10)."""
    cfg = SolveConfig(algo="rdcfr")
    target = 0.5
    src = SpotSolver(_spot("Td9d6h"), cfg, threads=1)
    src.solve(iterations=400, target_pct=target, check_every=1)
    cold = SpotSolver(_spot("Jd9d6h"), cfg, threads=1)
    cold.solve(iterations=400, target_pct=target, check_every=1)
    warm = SpotSolver(_spot("Jd9d6h"), cfg, threads=1)
    assert warm_start(warm, WarmSource.of(src))
    assert warm.iteration == WARM_ITERATION_RDCFR == 60
    warm.solve(iterations=400 + WARM_ITERATION_RDCFR, target_pct=target, check_every=1)
    runs = warm.iteration - WARM_ITERATION_RDCFR
    assert warm.exploitability()[1] <= target
    assert runs < cold.iteration, (runs, cold.iteration)
    # an explicit iteration still wins
    again = SpotSolver(_spot("Jd9d6h"), cfg, threads=1)
    assert warm_start(again, WarmSource.of(src), iteration=7) and again.iteration == 7


# --------------------------------------------------------------- adaptive checks


def test_next_check_follows_the_power_law() -> None:
    assert FIRST_CHECK == 20
    assert next_check([], 0.5) == FIRST_CHECK
    assert next_check([], 0.5, start=10) == 10 + FIRST_CHECK
    assert next_check([(20, 20.0)], 0.5) == 40
    # exploitability 1000 / t^2: 0.5% at t = 44.7; from checks at 20 and 40 (2.5, 0.625)
    assert next_check([(20, 2.5), (40, 0.625)], 0.5) == math.ceil(math.sqrt(2000) * 1.02)
    # a far prediction is capped at twice the last gap (at least FIRST_CHECK), a near one is
    # at least 2 on
    assert next_check([(10, 10.0), (20, 2.5)], 0.5) == 40
    assert next_check([(40, 1.0), (80, 0.9)], 0.5) == 160
    assert next_check([(40, 0.625), (44, 0.51)], 0.5) == 46
    # not falling: FIRST_CHECK on
    assert next_check([(10, 1.0), (20, 1.0)], 0.5) == 40


def test_next_check_fits_only_the_checks_since_the_average_restarted() -> None:
    # rdcfr's average restarts at 17 and 65: the check at 20 is the first of its segment, so
    # the next comes AFTER_RESTART after 17, then the power law through 20 and 27
    assert AFTER_RESTART == 10
    assert next_check([(20, 8.0)], 0.5, 0, 17) == 27
    assert next_check([(20, 8.0), (27, 4.0)], 0.5, 0, 17) == 27 + max(FIRST_CHECK, 14)
    # across the restart at 65 the exploitability jumps (1.5 after 0.6): not a slope
    assert next_check([(40, 0.9), (60, 0.6), (70, 1.5)], 0.5, 0, 65) == 75
    assert next_check([(40, 0.9), (60, 0.6), (80, 0.55)], 0.5, 0, 65) == 100
    # two checks after the restart: their slope (1.0 -> 0.6 from 75 to 85: k = 3.94)
    k = math.log(1.0 / 0.6) / math.log(85 / 75)
    want = math.ceil(85 * (0.6 / 0.5) ** (1 / k) * 1.02)
    assert next_check([(60, 0.6), (75, 1.0), (85, 0.6)], 0.5, 0, 65) == want == 91
    # the rule before restarts were heeded
    assert next_check([(40, 0.9), (60, 0.6), (80, 0.55)], 0.5, 0, first=10) == 112


def test_the_average_restarts_where_its_sums_are_zeroed() -> None:
    r = SolveConfig(algo="rdcfr")
    assert [r.average_restart(0, t) for t in (1, 2, 4, 5, 16, 17, 64, 65, 256, 257)] == \
        [1, 2, 2, 5, 5, 17, 17, 65, 65, 257]
    assert r.average_restart(60, 61) == 61 and r.average_restart(60, 64) == 61
    assert r.average_restart(60, 80) == 65  # a warm start from 60 forgets its first 4
    d = SolveConfig(algo="dcfr")
    assert d.average_restart(0, 100) == 1 and d.average_restart(60, 100) == 61
    assert SolveConfig(algo="cfr").average_restart(0, 50) == 1


def test_auto_checks_stop_at_the_target_with_fewer_checks() -> None:
    a = SpotSolver(_spot("Td9d6h"), _cfg(), threads=1)
    pa = a.solve(iterations=400, target_pct=0.3, check_every="auto")
    b = SpotSolver(_spot("Td9d6h"), _cfg(), threads=1)
    pb = b.solve(iterations=400, target_pct=0.3, check_every=1)  # the first iteration under it
    assert pa <= 0.3 and pb <= 0.3
    assert b.iteration <= a.iteration <= b.iteration + 6
    assert len(a.history) < a.iteration // 10 + 1
    with pytest.raises(ConfigError, match="check_every"):
        a.solve(iterations=500, check_every="often")


# ------------------------------------------------------------------------ report


TEMPLATE = ["--pot", "10", "--stack", "20", "--oop", OOP, "--ip", IP, "--bets", "50%",
            "--raises", "none", "--allin-threshold", "0", "--force-allin", "0", "--target", "0.5"]
BOARDS = "Td9d6h,Jd9d6h,AsKs2s"


def _run(*args: str) -> dict:  # type: ignore[type-arg]
    res = runner.invoke(app, ["spot", *args, "--json"])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)  # type: ignore[no-any-return]


def test_report_warm_starts_a_chain_and_cold_equals_spot_solve() -> None:
    warm = _run("report", *TEMPLATE, "--flops", BOARDS, "--workers", "1")
    rows = {r["board"]: r for r in warm["flops"]}
    assert [r["board"] for r in warm["flops"]] == BOARDS.split(",")  # the set's order
    assert warm["template"]["warm"] is True and warm["template"]["check_every"] == "auto"
    # Td9d6h and Jd9d6h are one shape: one chain, solved from the highest flop down
    assert rows["Jd9d6h"]["warm_from"] is None and rows["Td9d6h"]["warm_from"] == "Jd9d6h"
    assert rows["AsKs2s"]["warm_from"] is None
    assert all(r["target_reached"] for r in rows.values())
    cold = _run("report", *TEMPLATE, "--flops", BOARDS, "--workers", "1", "--cold")
    crow = {r["board"]: r for r in cold["flops"]}
    assert cold["template"]["warm"] is False and all(r["warm_from"] is None for r in crow.values())
    assert rows["Td9d6h"]["iterations"] < crow["Td9d6h"]["iterations"]
    assert rows["Td9d6h"]["ev_oop"] == pytest.approx(crow["Td9d6h"]["ev_oop"], abs=0.1)
    for b in ("Jd9d6h", "AsKs2s"):  # cold in both: the same solve
        assert rows[b]["ev_oop"] == crow[b]["ev_oop"] and rows[b]["iterations"] == crow[b]["iterations"]
    for b, row in crow.items():  # a cold report's row is spot solve's, with the same checks
        one = _run("solve", "--board", b, *TEMPLATE, "--check-every", "auto")
        assert row["iterations"] == one["iterations"]
        assert row["ev_oop"] == pytest.approx(one["ev_oop"], abs=1e-9)
        assert row["exploitability_pct"] == pytest.approx(one["exploitability_pct"], abs=1e-9)
    # two workers: the same chains, the same table
    two = _run("report", *TEMPLATE, "--flops", BOARDS, "--workers", "2")
    assert [{k: v for k, v in r.items() if k != "solve_seconds"} for r in two["flops"]] == \
        [{k: v for k, v in r.items() if k != "solve_seconds"} for r in warm["flops"]]


@pytest.mark.parametrize("value", ["0", "x", "-3", "2.5"])
def test_bad_check_every_is_one_line(value: str) -> None:
    for cmd in (["solve", "--board", "Td9d6h"], ["report", "--flops", "Td9d6h"]):
        res = runner.invoke(app, ["spot", *cmd, *TEMPLATE, "--check-every", value])
        assert res.exit_code == 2, res.output
        assert "--check-every must be 'auto' or a whole number" in res.output
        assert "Traceback" not in res.output


def test_chains_follow_the_nearest_neighbour() -> None:
    flops = parse_flop_set("Td9d6h,Jd9d6h,9d8d6h,AsKs2s,Td9d5h,Kd9d6h,Ad9d6h,2d3d4h")
    chains = flop_chains(flops, max_len=3)
    # one shape (suited top two) of six flops: from the highest, each next the nearest by
    # rank distance, cut into two chains of three; 4h3d2d (suited low two) and the monotone
    # flop are shapes of their own
    assert [[f.board for f in c] for c in chains] == [
        ["Ad9d6h", "Kd9d6h", "Jd9d6h"], ["Td9d6h", "Td9d5h", "9d8d6h"], ["4h3d2d"], ["AsKs2s"]]
