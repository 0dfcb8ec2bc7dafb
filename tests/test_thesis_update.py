"""The thesis's own update (``ThesisConfig(update="thesis")``): its worked regret-matching
example over two steps, kernel = twin, the fold rule under it, and the play statistics."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction as Fr

import numpy as np
import pytest

from pokerlab.blueprint import thesis as T
from pokerlab.blueprint import thesis_kernels as K
from pokerlab.blueprint import thesis_run as TR
from pokerlab.errors import ConfigError

SMALL = T.ThesisConfig(stack_bb=20, bets="preflop: 2bb, a, cap 1; postflop: 5bb, a, cap 1",
                       storage="memory", early_pairs=5, early_batch=3, batch=6,
                       prune_min_visits=4, prune_threshold=0.9, record_every=5,
                       update="thesis")
UTIL = [0.0, -5.0, 5.0, 30.0, 10.0]


def _rm(r: list[Fr]) -> list[Fr]:
    pos = [max(x, Fr(0)) for x in r]
    return [x / sum(pos) for x in pos]


@pytest.mark.parametrize("kernel", [True, False])
def test_worked_example_two_steps(kernel: bool) -> None:
    """Step 1 (the thesis's numbers): regrets 5/15/10/-5/-10 play 1/6, 1/2, 1/3, 0, 0; child
    values 0/-5/5/30/10 give v = -5/6 and regrets r + u - v.  Step 2: those regrets play
    7/71, 13/71, 19/71, 31/71, 1/71, the same child values give v = 970/71, and fold (the
    first action) would fall to 35/6 - 970/71 < 0: the fold rule sets it to 0 and moves the
    amount, split equally, to the four other actions."""
    reg = np.array([[5, 15, 10, -5, -10]], dtype=np.float32)
    ssum = np.zeros((1, 5), dtype=np.float32)
    exact = [Fr(5), Fr(15), Fr(10), Fr(-5), Fr(-10)]
    values = []
    for _step in range(2):
        sig = np.zeros(5)
        if kernel:
            K._strategy(reg, 0, 0, 5, sig)
            v = K.apply_thesis_update(reg, ssum, 0, 0, 5, sig, np.array(UTIL), True, 1)
        else:
            sig = np.array(K._strategy_py(reg, 0, 0, 5))
            v = K.apply_thesis_update_py(reg, ssum, 0, 0, 5, list(sig), UTIL, True, 1)
        s_ex = _rm(exact)
        assert np.allclose(sig, [float(x) for x in s_ex], atol=1e-6)
        v_ex = sum(s * Fr(u) for s, u in zip(s_ex, UTIL, strict=True))
        assert v == pytest.approx(float(v_ex), abs=1e-5)
        values.append(v_ex)
        exact = [r + Fr(u) - v_ex for r, u in zip(exact, UTIL, strict=True)]
        if exact[0] < 0:  # the fold rule ("move")
            share = exact[0] / 4
            exact = [Fr(0)] + [r + share for r in exact[1:]]
        assert np.allclose(reg[0], [float(x) for x in exact], atol=1e-4)
    assert values == [Fr(-5, 6), Fr(970, 71)]
    assert _rm([Fr(35, 6), Fr(65, 6), Fr(95, 6), Fr(155, 6), Fr(5, 6)]) == [
        Fr(7, 71), Fr(13, 71), Fr(19, 71), Fr(31, 71), Fr(1, 71)]
    # step 2's fold rule: fold 0, the others each get (35/6 - 970/71) / 4
    moved = (Fr(35, 6) - Fr(970, 71)) / 4
    assert moved < 0
    assert np.allclose(reg[0], [0.0] + [float(r + Fr(u) - Fr(970, 71) + moved) for r, u in
                                        zip([Fr(65, 6), Fr(95, 6), Fr(155, 6), Fr(5, 6)],
                                            UTIL[1:], strict=True)], atol=1e-4)
    assert np.allclose(ssum[0], [1 / 6 + 7 / 71, 1 / 2 + 13 / 71, 1 / 3 + 19 / 71, 31 / 71,
                                 1 / 71], atol=1e-6)


def test_selfplay_kernel_matches_twin() -> None:
    from pokerlab.cards.evaluator import eval_tables

    t = T.build_tree(SMALL)
    A = t.arrays
    wk = T.Working.empty(t, 20.0)
    wp = T.Working.empty(t, 20.0)
    hole = np.array([48, 49, 0, 5], dtype=np.int64)
    sk = np.zeros(3, dtype=np.int64)
    sp = np.zeros(3, dtype=np.int64)
    for b, rule in enumerate((1, 0, 2)):
        K.selfplay_batch_kernel(30, hole, A["kind"], A["actor"], A["child_start"],
                                A["num_children"], A["child_node"], A["child_action"],
                                A["row_of"], A["dec_of"], A["fold_win0"], A["sd_amount"],
                                A["allin_node"], 0.01, wk.reg, wk.ssum, wk.kept, wk.visits,
                                wk.touched, np.uint64(91 + b), rule, eval_tables(), sk)
        K.selfplay_batch_py(30, hole, A, 0.01, wp.reg, wp.ssum, wp.kept, wp.visits,
                            wp.touched, 91 + b, rule, sp)
    assert np.array_equal(sk, sp) and sk[0] == 90
    assert np.array_equal(wk.visits, wp.visits) and int(wk.visits.sum()) > 90
    assert np.array_equal(wk.touched, wp.touched)
    np.testing.assert_allclose(wk.reg, wp.reg, rtol=1e-6, atol=1e-4)
    np.testing.assert_allclose(wk.ssum, wp.ssum, rtol=1e-6, atol=1e-5)
    assert float(np.abs(wk.reg - 20.0).max()) > 1.0


def test_thesis_update_training_rules() -> None:
    """Regrets start at 20, only the played game's decisions are visited (one per game at
    the root per seat), the fold rule keeps fold regrets >= 0 and without it they go
    negative."""
    fold_rows = []
    t = T.build_tree(SMALL)
    a = t.arrays
    for n in t.dec_nodes:
        if int(a["child_action"][int(a["child_start"][n])]) == 0:
            fold_rows.append(int(a["row_of"][n]))
    mins = {}
    for rule in (True, False):
        cfg = replace(SMALL, fold_rule=rule, prune=False)
        r = T.train_thesis(cfg, pairs=40, keep_strategy=True)
        assert r.games == 5 * 3 + 35 * 6 and r.selfplay["games"] == r.games
        assert r.summary()["update"] == "thesis"
        low = np.inf
        for (_p, _c), d in r_store_items(cfg, 40):
            idx = T._row_index(t, d["dec"].astype(np.int64))
            vals = dict(zip(idx.tolist(), d["reg"].tolist(), strict=True))
            low = min([low, *[vals[i] for i in fold_rows if i in vals]])
        mins[rule] = low
        assert r.strategy is not None and r.strategy.shape == (169, t.num_values)
    assert mins[True] >= 0.0
    assert mins[False] < 0.0


def r_store_items(cfg: T.ThesisConfig, pairs: int) -> list[tuple[tuple[int, int], dict]]:
    """Train again and return the memory store's subtrees (the store is internal)."""
    captured: list[T.SubtreeStore] = []
    orig = T.SubtreeStore.__init__

    def grab(self: T.SubtreeStore, *a: object, **k: object) -> None:
        orig(self, *a, **k)  # type: ignore[arg-type]
        captured.append(self)

    T.SubtreeStore.__init__ = grab  # type: ignore[method-assign]
    try:
        T.train_thesis(cfg, pairs=pairs)
    finally:
        T.SubtreeStore.__init__ = orig  # type: ignore[method-assign]
    return list(captured[0].mem.items())


def test_play_stats_kernel_matches_twin_and_counts() -> None:
    t = T.build_tree(SMALL)
    r = T.train_thesis(replace(SMALL, prune=False), pairs=30, keep_strategy=True)
    assert r.strategy is not None
    k = TR.play_stats(t, r.strategy, games=400, seed=5, big_blind=100)
    p = TR.play_stats(t, r.strategy, games=400, seed=5, big_blind=100, use_kernel=False)
    assert k == p
    assert k["hands"] == 400
    assert k["fold_share"] + k["showdown_share"] == pytest.approx(1.0)
    assert k["reached_street_share"][0] == 1.0
    # preflop: blinds 1.5 bb at least, at most both stacks
    assert 1.5 <= k["bet_per_street_bb"][0] <= 40.0
    # a strategy that always folds first: SB folds every hand, nobody enters, no raise
    fold = np.zeros_like(r.strategy)
    a = t.arrays
    for n in t.dec_nodes:
        fold[:, int(a["row_of"][n])] = 1.0
    f = TR.play_stats(t, fold, games=200, seed=1, big_blind=100)
    assert f["entered_share"] == 0.0 and f["fold_share"] == 1.0 and f["raise_pot_ratio"] is None
    assert f["bet_per_street_bb"] == [1.5, None, None, None]


def test_update_option_is_checked() -> None:
    with pytest.raises(ConfigError, match="update"):
        T.ThesisConfig(update="td")
    assert T.ThesisConfig.from_json({"preset": "thesis"}).update == "mccfr"
