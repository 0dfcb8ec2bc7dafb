"""Matches: confidence intervals that cover, seeds that make parallel runs equal, exact
small-game values, PHH that PokerKit replays, the kernel fast path equal to the engine."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from pokerlab.agents.base import AgentError
from pokerlab.arena.matches import exact_small_mbb, play_match
from pokerlab.errors import ConfigError
from pokerlab.evaluation import expected_values
from pokerlab.evaluation.matches import hand_cards, hand_seed


def test_random_vs_random_duplicate_is_zero_within_ci() -> None:
    r = play_match("random", "random", hands=400, duplicate=True, seed=3, workers=1)
    assert r.hands == 400
    assert abs(r.mean_mbb) <= r.ci95_mbb
    js = r.to_json()
    assert js["bb_per_100"] == pytest.approx(r.mean_mbb / 10)
    seats = js["per_seat"]
    assert seats["bb"]["hands"] + seats["button"]["hands"] == 400
    assert (seats["bb"]["mean_mbb"] + seats["button"]["mean_mbb"]) / 2 == pytest.approx(
        r.mean_mbb)


def test_duplicate_deals_the_same_cards_with_seats_swapped() -> None:
    # deal k is hands 2k and 2k+1; A sits in seat i % 2
    assert hand_cards(7, 3) == hand_cards(7, 3)
    assert hand_cards(7, 3) != hand_cards(7, 4)
    assert hand_seed(7, 3, 1) != hand_seed(7, 3, 2)


def test_call_vs_raise_known_results() -> None:
    # Neither ever folds: every hand is a showdown, so with duplicate deals the two seats
    # cancel exactly, hand pair by hand pair.
    r = play_match("call", "raise", hands=200, duplicate=True, seed=1, workers=1)
    pairs = r.chips.reshape(-1, 2).sum(axis=1)
    assert np.all(pairs == 0) and r.mean_mbb == 0.0
    # raise against the random agent (which folds to bets) wins clearly
    r2 = play_match("raise", "random", hands=400, duplicate=True, seed=2, workers=1)
    assert r2.mean_mbb - r2.ci95_mbb > 0
    # and the calling station loses to a tight-aggressive player
    r3 = play_match("tag", "call", hands=200, duplicate=True, seed=4, workers=1)
    assert r3.mean_mbb - r3.ci95_mbb > 0


def test_parallel_processes_give_the_serial_totals() -> None:
    a = play_match("random", "raise", hands=60, duplicate=True, seed=9, workers=1)
    b = play_match("random", "raise", hands=60, duplicate=True, seed=9, workers=2)
    assert b.workers == 2
    assert np.array_equal(a.chips, b.chips)


@pytest.mark.slow
def test_local_two_worker_ray_gives_the_local_totals() -> None:
    pytest.importorskip("ray")
    a = play_match("random", "tag", hands=40, seed=5, workers=1)
    b = play_match("random", "tag", hands=40, seed=5, workers=2, ray_address="local")
    assert np.array_equal(a.chips, b.chips)


def test_phh_output_replays_in_pokerkit(tmp_path: Path) -> None:
    pytest.importorskip("pokerkit")
    from pokerlab.hands.hand_files import iter_paths
    from pokerlab.holdem.phh import pokerkit_replay_file, read_phhs

    out = tmp_path / "m.phhs"
    r = play_match("random", "tag", hands=30, duplicate=True, seed=1, out=out, workers=1)
    states = read_phhs(out)
    assert len(states) == 30
    replay = pokerkit_replay_file(out)
    for i, (st, fin) in enumerate(zip(states, replay, strict=True)):
        assert tuple(st.final_stacks()) == tuple(fin)
        a_seat = i % 2
        assert st.payoffs()[a_seat] == r.chips[i]
    raw = list(iter_paths([out]))
    assert len(raw) == 30 and all(h.players is not None for h in raw)  # type: ignore[union-attr]
    cfg = json.loads((tmp_path / "m.phhs.json").read_text())
    assert cfg["agents"] == ["random", "tag"] and cfg["seed"] == 1


def test_acpc_log_output(tmp_path: Path) -> None:
    pytest.importorskip("pokerkit")
    from pokerlab.hands.acpc_log import read_acpc_log

    out = tmp_path / "m.log"
    play_match("raise", "random", hands=10, seed=1, out=out, workers=1)
    assert len(read_acpc_log(out)) == 10


def test_bad_match_input() -> None:
    with pytest.raises(ConfigError, match="even number of hands"):
        play_match("random", "call", hands=3, duplicate=True)
    with pytest.raises(AgentError, match="unknown agent"):
        play_match("random", "shark")
    with pytest.raises(ConfigError, match="hands must be a positive integer"):
        play_match("random", "call", hands=0)


# --------------------------------------------------------------------- small games
@pytest.fixture(scope="module")
def solved(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    from pokerlab.games import load_game
    from pokerlab.policy import save_policy
    from pokerlab.solvers.driver import solve

    root = tmp_path_factory.mktemp("pol")
    out = {}
    for game, iters in (("kuhn", 200), ("leduc", 30)):
        res = solve(load_game(game), algo="cfr", iterations=iters)
        p = root / f"{game}.npz"
        save_policy(res.policy, p)
        out[game] = str(p)
    return out


@pytest.mark.parametrize("game", ["kuhn", "leduc"])
def test_small_game_exact_value_equals_expected_values(game: str,
                                                       solved: dict[str, str]) -> None:
    from pokerlab.agents.small import SeatPolicy
    from pokerlab.games import load_game
    from pokerlab.policy import UniformRandomPolicy, load_policy

    pol = load_policy(solved[game])
    g = load_game(game)
    v0 = expected_values(g, SeatPolicy(pol, UniformRandomPolicy()))[0]
    v1 = expected_values(g, SeatPolicy(UniformRandomPolicy(), pol))[1]
    exact = exact_small_mbb(game, f"policy:{solved[game]}", "random")
    assert exact == pytest.approx(1000 * (v0 + v1) / 2, abs=1e-9)
    assert exact > 0  # a CFR policy beats uniform random
    assert exact_small_mbb(game, "random", "random") == pytest.approx(0.0, abs=1e-9)


@pytest.mark.parametrize(("game", "hands"), [("kuhn", 1000), ("leduc", 300)])
def test_small_game_sampled_mean_covers_the_exact_value(game: str, hands: int,
                                                        solved: dict[str, str]) -> None:
    spec = f"policy:{solved[game]}"
    inside = 0
    exact = None
    for seed in range(20):
        r = play_match(spec, "random", game=game, hands=hands, seed=seed, workers=1)
        exact = r.exact_mbb
        assert exact is not None
        inside += abs(r.mean_mbb - exact) <= r.ci95_mbb
    assert inside >= 19


# --------------------------------------------------------------------- fast path
def _synthetic_agents(tmp_path: Path, storage: str = "dense") -> tuple[object, object]:
    """Two indexed-policy agents over one tree, with random postflop bucket tables."""
    from pokerlab.abstraction.action_map import BetSetAbstraction
    from pokerlab.abstraction.action_tree import compile_tree
    from pokerlab.abstraction.bets import preset
    from pokerlab.abstraction.buckets import BucketConfig, CardAbstraction
    from pokerlab.abstraction.indexer import street_indexer
    from pokerlab.agents.policy_agent import HUNLPolicyAgent
    from pokerlab.games.hunl import HUNLGame
    from pokerlab.holdem.engine import HoldemConfig
    from pokerlab.policy.indexed import IndexedPolicy

    cfg = HoldemConfig.from_bb(20)
    bets = preset("small")
    counts = (169, 7, 5, 1)
    bc = BucketConfig(buckets=counts, methods=("lossless", "ehs", "ehs", "ehs"), max_street=2)
    tree = compile_tree(bets, cfg)
    lay = tree.layout(counts)
    agents = []
    for seed in (1, 2):
        rng = np.random.default_rng(seed)
        tables = [np.arange(169, dtype=np.uint16)] + [
            rng.integers(0, counts[s], street_indexer(s).size).astype(np.uint16)
            for s in (1, 2)]
        cards = CardAbstraction(config=bc, tables=tables)
        game = HUNLGame(cfg, BetSetAbstraction(bets=bets), cards)
        probs = rng.random(lay.num_values).astype(np.float32)
        probs[rng.random(lay.num_values) < 0.2] = 0.0
        pol = IndexedPolicy.from_tree(tree, counts, probs, metadata={"game": "synthetic"})
        if storage == "csr":
            keep = rng.random(lay.num_infosets) < 0.5
            pol = pol.to_csr(keep=keep)
        agents.append(HUNLPolicyAgent(pol, game, name=f"p{seed}"))
    return agents[0], agents[1]


@pytest.mark.parametrize("storage", ["dense", "csr"])
def test_kernel_equals_the_engine_and_agent_path(tmp_path: Path, storage: str) -> None:
    from pokerlab.evaluation.match_kernels import eligible, run_kernel
    from pokerlab.evaluation.matches import play_hunl_hand

    a, b = _synthetic_agents(tmp_path, storage)
    cfg = a.game.config  # type: ignore[attr-defined]
    assert eligible(a, b, cfg)
    for duplicate in (False, True):
        n = 120
        fast = run_kernel(a, b, 0, n, duplicate, 17)
        slow = np.zeros(n)
        for i in range(n):
            k = i // 2 if duplicate else i
            st = play_hunl_hand(a, b, cfg, i % 2, hand_cards(17, k), hand_seed(17, k, 1),
                                hand_seed(17, k, 2))
            slow[i] = st.payoffs()[i % 2]
        assert np.array_equal(fast, slow)
        assert np.count_nonzero(fast) > n // 2


def test_kernel_equals_the_engine_with_hand_strength_buckets() -> None:
    """Blueprint-style policies: buckets from the hand-strength card spec in the metadata."""
    from pokerlab.abstraction.action_map import BetSetAbstraction
    from pokerlab.abstraction.action_tree import compile_tree
    from pokerlab.abstraction.bets import preset
    from pokerlab.agents.policy_agent import HUNLPolicyAgent
    from pokerlab.blueprint.cards import CardSpec
    from pokerlab.evaluation.match_kernels import eligible, run_kernel
    from pokerlab.evaluation.matches import play_hunl_hand
    from pokerlab.games.hunl import HUNLGame
    from pokerlab.holdem.engine import HoldemConfig
    from pokerlab.policy.indexed import IndexedPolicy

    cfg = HoldemConfig.from_bb(30)
    bets = preset("small")
    tree = compile_tree(bets, cfg)
    counts = (169, 6, 5, 4)
    spec = CardSpec(buckets=counts, sample=500).with_thresholds()
    lay = tree.layout(counts)
    agents = []
    for seed in (1, 2):
        probs = np.random.default_rng(seed).random(lay.num_values).astype(np.float32)
        pol = IndexedPolicy.from_tree(tree, counts, probs,
                                      metadata={"game": "x", "cards": spec.to_json()})
        agents.append(HUNLPolicyAgent(pol, HUNLGame(cfg, BetSetAbstraction(bets=bets)),
                                      name=f"p{seed}"))
    a, b = agents
    assert a.card_spec is not None and eligible(a, b, cfg)
    n = 100
    fast = run_kernel(a, b, 0, n, True, 5)
    slow = np.array([play_hunl_hand(a, b, cfg, i % 2, hand_cards(5, i // 2),
                                    hand_seed(5, i // 2, 1), hand_seed(5, i // 2, 2)
                                    ).payoffs()[i % 2] for i in range(n)], dtype=np.float64)
    assert np.array_equal(fast, slow)


def _indexed_policy(path: Path, seed: int) -> str:
    from pokerlab.abstraction.action_tree import compile_tree
    from pokerlab.games import load_game
    from pokerlab.policy.indexed import IndexedPolicy, save_indexed_policy

    g = load_game("hunl(stack=20,bets=small,buckets=test)")
    tree = compile_tree(g.action_map.bets, g.config)
    buckets = g.bucket_config.buckets
    probs = np.random.default_rng(seed).random(tree.layout(buckets).num_values)
    pol = IndexedPolicy.from_tree(tree, buckets, probs.astype(np.float32),
                                  metadata={"game": g.game_string()})
    save_indexed_policy(pol, path)
    return f"policy:{path}"


def test_fast_path_is_used_for_policy_files(tmp_path: Path) -> None:
    pa = _indexed_policy(tmp_path / "a.npz", 1)
    pb = _indexed_policy(tmp_path / "b.npz", 2)
    r1 = play_match(pa, pb, hands=100, stack_bb=20, seed=3, duplicate=True, workers=1)
    r0 = play_match(pa, pb, hands=100, stack_bb=20, seed=3, duplicate=True, workers=1,
                    fast=False)
    assert r1.fast_path and not r0.fast_path
    assert np.array_equal(r0.chips, r1.chips)
    # worker chunks (processes, Ray tasks) use the kernel too, with the same hands
    from pokerlab.arena.matches import MatchConfig, _Chunk, _play_chunk

    mc = MatchConfig(agents=(pa, pb), hands=100, duplicate=True, seed=3, stack_bb=20)
    part, _ = _play_chunk(_Chunk(config=mc, start=40, stop=80, want_text=False))
    assert np.array_equal(part, r1.chips[40:80])
    # other stacks than the policy's: no fast path, translated play
    r2 = play_match(pa, pb, hands=20, stack_bb=30, seed=3, workers=1)
    assert not r2.fast_path and r2.hands == 20


# --------------------------------------------------------------------- CLI
def test_match_command_json(tmp_path: Path, solved: dict[str, str]) -> None:
    from pokerlab.cli import app

    runner = CliRunner()
    res = runner.invoke(app, ["match", "random", "call", "--hands", "20", "--seed", "2",
                              "--duplicate", "--json"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    for key in ("game", "agents", "hands", "mean_mbb", "ci95_mbb", "sd_mbb", "bb_per_100",
                "seconds"):
        assert key in d
    assert d["agents"] == ["random", "call"] and d["hands"] == 20
    res = runner.invoke(app, ["match", f"policy:{solved['kuhn']}", "random", "--game", "kuhn",
                              "--hands", "50", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["exact_mbb"] > 0
    res = runner.invoke(app, ["match", "random", "shark"])
    assert res.exit_code == 2 and res.output.startswith("error: ") and "unknown agent 'shark'" in res.output
    res = runner.invoke(app, ["match", "random", "call", "--out", str(tmp_path / "x.txt")])
    assert res.exit_code == 2 and "--out" in res.output
