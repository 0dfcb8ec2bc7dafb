"""Deep CFR: checksummed checkpoints, warm start, the average-strategy fit, evaluation by
capability."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from pokerlab.deepcfr import DeepCFRConfig, DeepCFRSolver, resolve_game  # noqa: E402
from pokerlab.deepcfr.solver import aggregate_rows, make_net, train_network  # noqa: E402
from pokerlab.errors import PolicyFileError  # noqa: E402


def _kuhn(**kw: Any) -> DeepCFRConfig:
    base: dict[str, Any] = dict(game="kuhn", iterations=2, traversals=20, memory=2000,
                                sgd_steps=10, batch=64, policy_sgd_steps=10, dim=8, seed=5)
    base.update(kw)
    return DeepCFRConfig(**base)


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory: pytest.TempPathFactory) -> Path:
    solver = DeepCFRSolver(game=resolve_game("kuhn"), config=_kuhn(sdcfr=True))
    solver.train()
    solver.train_strategy_network()
    return solver.save(tmp_path_factory.mktemp("ck") / "run")


def _copy(src: Path, dst: Path) -> Path:
    dst.mkdir()
    for f in src.iterdir():
        (dst / f.name).write_bytes(f.read_bytes())
    return dst


# ---------------------------------------------------------------- checksums
def test_checkpoint_round_trip_and_checksums_recorded(checkpoint: Path) -> None:
    state = json.loads((checkpoint / "state.json").read_text())
    assert state["version"] == 2 and len(state["sha256"]) == 64
    assert set(state["files"]) == {"memories.safetensors", "nets.safetensors", "config.json"}
    solver = DeepCFRSolver.load(checkpoint)
    assert solver.iteration == 2 and solver.strategy_net is not None
    assert [len(x) for x in solver.sd_nets] == [2, 2]


@pytest.mark.parametrize("name", ["nets.safetensors", "memories.safetensors", "config.json",
                                  "state.json"])
def test_one_flipped_byte_is_detected(checkpoint: Path, tmp_path: Path, name: str) -> None:
    ck = _copy(checkpoint, tmp_path / "ck")
    data = bytearray((ck / name).read_bytes())
    # a byte inside the payload; in the JSON files a digit (the seed, the iteration), so
    # the file still parses and only the checksum can tell
    if name.endswith(".safetensors"):
        pos = len(data) // 2
        data[pos] ^= 0x01
    else:
        m = re.search(rb'"(seed|iteration)":\s*(\d)', bytes(data))
        assert m is not None
        pos = m.start(2)
        data[pos] = ord("7") if data[pos] != ord("7") else ord("8")
    (ck / name).write_bytes(bytes(data))
    with pytest.raises(PolicyFileError, match="checksum"):
        DeepCFRSolver.load(ck)


def test_truncated_checkpoint_is_detected(checkpoint: Path, tmp_path: Path) -> None:
    ck = _copy(checkpoint, tmp_path / "ck")
    data = (ck / "memories.safetensors").read_bytes()
    (ck / "memories.safetensors").write_bytes(data[: len(data) // 3])
    with pytest.raises(PolicyFileError, match="truncated or altered"):
        DeepCFRSolver.load(ck)


def test_cli_eval_on_damaged_checkpoints_exits_2_with_one_line(
    checkpoint: Path, tmp_path: Path
) -> None:
    from typer.testing import CliRunner

    from pokerlab.commands.deepcfr_cmd import app

    runner = CliRunner()
    r = runner.invoke(app, ["eval", str(checkpoint), "--json"])
    assert r.exit_code == 0, r.output
    ev = json.loads(r.stdout)
    assert ev["big_blind"] == 1.0 and ev["exploitability_mbb"] == pytest.approx(
        1000 * ev["exploitability"])
    trunc = _copy(checkpoint, tmp_path / "trunc")
    data = (trunc / "nets.safetensors").read_bytes()
    (trunc / "nets.safetensors").write_bytes(data[:100])
    flipped = _copy(checkpoint, tmp_path / "flip")
    buf = bytearray((flipped / "nets.safetensors").read_bytes())
    buf[-5] ^= 0x01
    (flipped / "nets.safetensors").write_bytes(bytes(buf))
    garbage = _copy(checkpoint, tmp_path / "garbage")
    (garbage / "state.json").write_text("{not json")
    for ck, word in ((trunc, "checksum"), (flipped, "checksum"), (garbage, "cannot read")):
        r = runner.invoke(app, ["eval", str(ck)])
        assert r.exit_code == 2, r.output
        lines = [ln for ln in r.output.splitlines() if ln.strip()]
        assert len(lines) == 1 and lines[0].startswith("error: ") and word in lines[0], lines
        assert "Traceback" not in r.output


def test_reservoir_add_batch_equals_repeated_add() -> None:
    from pokerlab.deepcfr.reservoir import ReservoirMemory

    rng = np.random.default_rng(3)
    n = 70
    cards = rng.integers(0, 52, size=(n, 2)).astype(np.int16)
    bets = rng.random((n, 3)).astype(np.float32)
    target = rng.random((n, 2)).astype(np.float32)
    mask = rng.random((n, 2)) < 0.5
    it = np.arange(n, dtype=np.float32)
    a = ReservoirMemory(capacity=25, num_card_slots=2, num_bets=3, num_actions=2, seed=9)
    b = ReservoirMemory(capacity=25, num_card_slots=2, num_bets=3, num_actions=2, seed=9)
    for lo, hi in ((0, 10), (10, 40), (40, 70)):  # fills, crosses capacity, replaces
        a.add_batch(cards[lo:hi], bets[lo:hi], target[lo:hi], mask[lo:hi], it[lo:hi])
        for i in range(lo, hi):
            b.add(cards[i], bets[i], target[i], mask[i], float(it[i]))
    assert a.size == b.size == 25 and a.seen == b.seen == 70
    for k, v in a.arrays().items():
        np.testing.assert_array_equal(v, b.arrays()[k])


# ---------------------------------------------------------------- warm start
def test_warm_start_continues_the_previous_network() -> None:
    game = resolve_game("kuhn")
    # a vanishing learning rate: a warm-started network stays at iteration 1's weights,
    # a network trained from scratch is a fresh initialisation
    warm = DeepCFRSolver(game=game, config=_kuhn(warm_start=True, lr=1e-12, sdcfr=True))
    cold = DeepCFRSolver(game=game, config=_kuhn(warm_start=False, lr=1e-12, sdcfr=True))
    warm.train()
    cold.train()
    for p in range(2):
        (t1, w1), (t2, w2) = warm.sd_nets[p]
        assert (t1, t2) == (1, 2) and w1 is not w2
        for k, v in w1.state_dict().items():
            np.testing.assert_allclose(v.numpy(), w2.state_dict()[k].numpy(), atol=1e-8)
        (_, c1), (_, c2) = cold.sd_nets[p]
        diff = max(float((v - c2.state_dict()[k]).abs().max())
                   for k, v in c1.state_dict().items())
        assert diff > 1e-2
        # iteration 1 is the same in both runs (nothing to continue from yet)
        for k, v in w1.state_dict().items():
            assert torch.equal(v, c1.state_dict()[k])


def test_warm_start_cli_flag_reaches_the_config(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from pokerlab.commands.deepcfr_cmd import app

    ck = tmp_path / "ck"
    r = CliRunner().invoke(app, [
        "train", "kuhn", "--iterations", "2", "--traversals", "10", "--sgd-steps", "5",
        "--policy-sgd-steps", "5", "--batch-size", "32", "--dim", "8", "--memory", "500",
        "--warm-start", "--checkpoint", str(ck), "--json"])
    assert r.exit_code == 0, r.output
    cfg = json.loads((ck / "config.json").read_text())
    assert cfg["warm_start"] is True and cfg["merge_rows"] is True and cfg["lr_decay"] is True


# ---------------------------------------------------------------- the average-strategy fit
def _memory_with_duplicates(seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    n, keys = 400, 9
    k = rng.integers(0, keys, size=n)
    cards = np.stack([k % 3 * 4, np.full(n, -1)], axis=1).astype(np.int16)
    bets = np.stack([(k // 3) * 0.5 - 0.5, np.full(n, -1.0)], axis=1).astype(np.float32)
    mask = np.ones((n, 2), dtype=np.bool_)
    target = rng.dirichlet([1.0, 1.0], size=n).astype(np.float32)
    return {"cards": cards, "bets": bets, "target": target, "mask": mask,
            "iteration": rng.integers(1, 11, size=n).astype(np.float32)}


def test_merged_rows_give_the_same_gradients_as_the_raw_memory() -> None:
    from pokerlab.deepcfr.network import DeepCFRNet

    data = _memory_with_duplicates(0)
    rows = aggregate_rows(data)
    assert len(rows["weight"]) == 9
    assert rows["weight"].sum() == pytest.approx(data["iteration"].sum())
    torch.manual_seed(0)
    net = DeepCFRNet(card_groups=(1, 1), num_bets=2, num_actions=2, dim=8)

    def grads(cards: np.ndarray, bets: np.ndarray, target: np.ndarray, w: np.ndarray,
              kind: str) -> list[Any]:
        net.zero_grad()
        out = net(torch.from_numpy(cards.astype(np.int64)), torch.from_numpy(bets))
        t = torch.from_numpy(target)
        ww = torch.from_numpy(w / w.sum())
        if kind == "adv":
            per = ((out - t) ** 2).sum(1)
        else:
            per = -(t * torch.log_softmax(out.double(), 1)).sum(1)
        (ww * per).sum().backward()  # type: ignore[no-untyped-call]
        return [p.grad.clone() for p in net.parameters() if p.grad is not None]

    for kind in ("adv", "strategy"):
        g_raw = grads(data["cards"], data["bets"], data["target"],
                      data["iteration"].astype(np.float64), kind)
        g_merged = grads(rows["cards"], rows["bets"], rows["target"], rows["weight"], kind)
        for a, b in zip(g_raw, g_merged, strict=True):
            np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-4, atol=1e-6)


def test_policy_fit_converges_to_the_weighted_average_targets() -> None:
    """The fix of the rising curve: with merged rows (full batch) and a cosine rate the
    average-strategy network reproduces the memory's Linear-CFR average at every stored
    information set, and two fits with different seeds agree (no fitting noise left)."""
    game = resolve_game("kuhn")
    solver = DeepCFRSolver(game=game, config=_kuhn(iterations=4, traversals=40,
                                                   policy_sgd_steps=1500, dim=16))
    solver.train()
    data = solver.strategy_memory.arrays()
    rows = aggregate_rows(data)
    assert 8 <= len(rows["weight"]) <= 12  # at most Kuhn's 12 information sets
    probs = []
    for seed in (1, 2):
        net = make_net(solver.encoder, 16, seed)
        train_network(net, data, kind="strategy", steps=1500, batch=64, lr=3e-3,
                      grad_clip=1.0, seed=seed, device=torch.device("cpu"))
        with torch.no_grad():
            out = net(torch.from_numpy(rows["cards"].astype(np.int64)),
                      torch.from_numpy(rows["bets"]))
        probs.append(torch.softmax(out.masked_fill(~torch.from_numpy(rows["mask"]), -1e9),
                                   1).numpy())
    target = np.where(rows["mask"], rows["target"], 0.0)
    for p in probs:
        assert np.abs(p - target).max() < 0.02, np.abs(p - target).max()
    assert np.abs(probs[0] - probs[1]).max() < 0.02


# ---------------------------------------------------------------- evaluation by capability
def test_evaluation_is_chosen_by_capability_not_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    import pokerlab.evaluation as core
    import pokerlab.evaluation.fhp_br as fhp_br
    from pokerlab.deepcfr import evaluate
    from pokerlab.games.flop_holdem import FlopHoldem

    calls: list[str] = []

    def fake_range(game: Any, policy: Any, **kw: Any) -> float:
        calls.append("range")
        return 1.0

    def fake_tree(game: Any, policy: Any) -> float:
        calls.append("tree")
        return 2.0

    monkeypatch.setattr(fhp_br, "exploitability", fake_range)
    monkeypatch.setattr(core, "exploitability", fake_tree)

    class Renamed(FlopHoldem):  # the capability under another name
        name = "my_holdem"

    class NamedLikeFHP:  # the name without the capability
        name = "flop_holdem"

    assert evaluate.has_public_betting(Renamed()) and not evaluate.has_public_betting(
        NamedLikeFHP())
    assert evaluate.exploitability(Renamed(), None) == 1.0
    assert evaluate.exploitability(NamedLikeFHP(), None) == 2.0
    assert evaluate.exploitability(resolve_game("kuhn"), None) == 2.0
    assert calls == ["range", "tree", "tree"]
    assert evaluate.big_blind(Renamed()) == 2.0 and evaluate.big_blind(resolve_game("leduc")) == 1.0
