"""Deep CFR's fast SGD path: flat-buffer Adam, the gathered forward, the folded full-batch
losses; each against the plain torch formulation it replaces."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from pokerlab.deepcfr import DeepCFRConfig, DeepCFRSolver, resolve_game  # noqa: E402
from pokerlab.deepcfr.network import DeepCFRNet, NumpyForward  # noqa: E402
from pokerlab.deepcfr.optim import FlatAdam  # noqa: E402
from pokerlab.deepcfr.solver import aggregate_rows, make_net, train_network  # noqa: E402


def test_flat_adam_equals_torch_adam_with_norm_clipping() -> None:
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(5, 7), torch.nn.ReLU(), torch.nn.Linear(7, 3))
    twin = copy.deepcopy(net)
    x, y = torch.randn(40, 5), torch.randn(40, 3)
    ref = torch.optim.Adam(net.parameters(), lr=1e-2)
    flat = FlatAdam(twin, lr=1e-2, max_norm=0.5)
    clipped = 0
    for i in range(60):
        scale = 10.0 if i % 2 else 0.01  # alternately clipped and not
        loss = ((net(x) - y) ** 2).sum() * scale
        ref.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]
        norm = torch.nn.utils.clip_grad_norm_(net.parameters(), 0.5)
        clipped += int(float(norm) > 0.5)
        ref.step()
        ((twin(x) - y) ** 2).sum().mul(scale).backward()  # type: ignore[no-untyped-call]
        flat.step()
    assert 20 <= clipped < 60
    flat.release()
    for a, b in zip(net.parameters(), twin.parameters(), strict=True):
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), atol=2e-6)
        assert b.grad is None
    # released: every parameter has its own storage again
    ptrs = {p.untyped_storage().data_ptr() for p in twin.parameters()}
    assert len(ptrs) == len(list(twin.parameters()))


def _net() -> DeepCFRNet:
    torch.manual_seed(3)
    return DeepCFRNet(card_groups=(2, 3), num_bets=6, num_actions=3, dim=16)


def test_trunk_normalisation_is_the_bessel_std_and_matches_numpy_forward() -> None:
    net = _net()
    rng = np.random.default_rng(0)
    cards = torch.from_numpy(rng.integers(-1, 52, size=(7, 5)))
    bets = torch.from_numpy(rng.uniform(-1, 2, size=(7, 6)).astype(np.float32))
    with torch.no_grad():
        out = net(cards, bets)
        x, y = net.card_branch(cards), net.bet_branch(bets)
        z = torch.relu(net.comb1(torch.cat([x, y], dim=1)))
        z = torch.relu(net.comb2(z) + z)
        z = torch.relu(net.comb3(z) + z)
        ref = net.action_head((z - z.mean(1, keepdim=True)) / (z.std(1, keepdim=True) + 1e-5))
    np.testing.assert_allclose(out.numpy(), ref.numpy(), rtol=1e-5, atol=1e-5)
    fwd = NumpyForward(net)
    for i in range(7):
        np.testing.assert_allclose(fwd(cards[i].numpy(), bets[i].numpy()), out[i].numpy(),
                                   rtol=1e-4, atol=1e-4)


def test_forward_gathered_equals_forward_on_the_gathered_rows() -> None:
    net = _net()
    rng = np.random.default_rng(1)
    cu = torch.from_numpy(rng.integers(-1, 52, size=(4, 5)))
    bu = torch.from_numpy(rng.uniform(-1, 2, size=(3, 6)).astype(np.float32))
    ci = torch.from_numpy(rng.integers(0, 4, size=25))
    bi = torch.from_numpy(rng.integers(0, 3, size=25))
    a = net.forward_gathered(cu, ci, bu, bi)
    b = net(cu[ci], bu[bi])
    np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-5, atol=1e-5)
    a.square().sum().backward()  # type: ignore[no-untyped-call]
    ga = [p.grad.clone() for p in net.parameters()]  # type: ignore[union-attr]
    net.zero_grad()
    b.square().sum().backward()  # type: ignore[no-untyped-call]
    for g, p in zip(ga, net.parameters(), strict=True):
        np.testing.assert_allclose(g.numpy(), p.grad.numpy(),  # type: ignore[union-attr]
                                   rtol=1e-4, atol=1e-5)


def _reference_fit(net: DeepCFRNet, rows: dict[str, np.ndarray], kind: str, steps: int,
                   lr: float) -> None:
    """The formulation the fast path replaces: forward on every row, masked loss, weighted
    mean, clip_grad_norm_, torch's Adam, cosine rate."""
    cards = torch.from_numpy(rows["cards"].astype(np.int64))
    bets = torch.from_numpy(rows["bets"].astype(np.float32))
    target = torch.from_numpy(rows["target"])
    mask = torch.from_numpy(rows["mask"])
    w = rows["weight"]
    wt = torch.from_numpy((w * (len(w) / w.sum())).astype(np.float32))
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    for step in range(steps):
        for g in opt.param_groups:
            g["lr"] = lr * 0.5 * (1.0 + np.cos(np.pi * step / steps))
        out = net(cards, bets)
        if kind == "adv":
            per = torch.where(mask, (out - target) ** 2, torch.zeros_like(out)).sum(1)
        else:
            logp = torch.log_softmax(out.masked_fill(~mask, -1e9), 1)
            per = -(target * torch.where(mask, logp, torch.zeros_like(logp))).sum(1)
        opt.zero_grad()
        (wt * per).mean().backward()  # type: ignore[no-untyped-call]
        torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
        opt.step()


@pytest.mark.parametrize("kind", ["adv", "strategy"])
def test_full_batch_fit_equals_the_reference_formulation(kind: str) -> None:
    game = resolve_game("leduc_poker")
    solver = DeepCFRSolver(game=game, config=DeepCFRConfig(
        game="leduc_poker", iterations=2, traversals=30, memory=100_000, sgd_steps=5,
        batch=2048, policy_sgd_steps=5, dim=16, seed=2))
    solver.train()
    data = (solver.adv_memories[0] if kind == "adv" else solver.strategy_memory).arrays()
    rows = aggregate_rows(data)
    assert 50 < len(rows["weight"]) <= 2048  # the full-batch path
    fast = make_net(solver.encoder, 16, 7)
    ref = copy.deepcopy(fast)
    train_network(fast, data, kind=kind, steps=20, batch=2048, lr=1e-3, grad_clip=1.0,
                  seed=0, device=torch.device("cpu"))
    _reference_fit(ref, rows, kind, 20, 1e-3)
    moved = 0.0
    for a, b in zip(fast.parameters(), ref.parameters(), strict=True):
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), atol=2e-5)
    for a, b in zip(fast.parameters(), make_net(solver.encoder, 16, 7).parameters(),
                    strict=True):
        moved = max(moved, float((a - b).detach().abs().max()))
    assert moved > 5e-3  # 20 steps at 1e-3 moved the weights: the comparison is not vacuous


def test_solver_reports_cpu_seconds_by_phase() -> None:
    solver = DeepCFRSolver(game=resolve_game("kuhn"), config=DeepCFRConfig(
        game="kuhn", iterations=2, traversals=20, memory=2000, sgd_steps=10, batch=64,
        policy_sgd_steps=10, dim=8, seed=1))
    solver.train()
    split: dict[str, Any] = dict(solver.cpu_split)
    assert split["traversal"] > 0 and split["advantage_sgd"] > 0
    assert split["policy_sgd"] == 0
    solver.train_strategy_network()
    assert solver.cpu_split["policy_sgd"] > 0
    assert sum(solver.cpu_split.values()) <= solver.cpu_seconds + 1e-6


def test_bench_statistics_mean_ci_and_levels() -> None:
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_deepcfr.py"
    spec = importlib.util.spec_from_file_location("bench_deepcfr", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    mean, half = bench.mean_ci([1.0, 2.0, 3.0])
    assert mean == pytest.approx(2.0)
    assert half == pytest.approx(4.302652729911275 / np.sqrt(3))  # t(0.975, 2) * s / sqrt(n)
    curves = [[{"checkpoint": 10.0, "iteration": 3, "seconds": 10.5, "exploitability": e1},
               {"checkpoint": 20.0, "iteration": 7, "seconds": 20.2, "exploitability": e2}]
              for e1, e2 in ((0.6, 0.25), (0.4, 0.35))]
    summ = bench.summarize(curves)
    assert [r["mean"] for r in summ["checkpoints"]] == pytest.approx([0.5, 0.3])
    assert summ["checkpoints"][1]["iterations_mean"] == 7.0
    assert summ["levels"]["0.5"]["seeds_reached"] == 2
    assert summ["levels"]["0.5"]["mean_seconds"] == pytest.approx(15.35)
    assert summ["levels"]["0.3"]["seeds_reached"] == 1
