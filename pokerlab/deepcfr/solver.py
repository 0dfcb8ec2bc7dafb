"""Deep CFR (Brown, Lerer, Gross, Sandholm 2019) on any game of the protocol.

One :class:`DeepCFRSolver` holds the advantage memories and networks of both players and
the strategy memory.  :meth:`DeepCFRSolver.run_iteration` does one CFR iteration: for each
player in turn, ``K`` external-sampling traversals (possibly on Ray workers), then the
player's advantage network is trained from scratch on its memory.  At the end
:meth:`DeepCFRSolver.train_strategy_network` fits the average-strategy network.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import torch

from pokerlab.deepcfr.config import DeepCFRConfig
from pokerlab.deepcfr.encoding import PokerEncoder, encoder_for, game_name
from pokerlab.deepcfr.network import DeepCFRNet, NumpyForward
from pokerlab.deepcfr.reservoir import ReservoirMemory
from pokerlab.deepcfr.traversal import (
    InfoStrategy,
    SampleLists,
    StrategyFn,
    regret_matching,
    traversal_rng,
    traverse,
)
from pokerlab.errors import ConfigError, PolicyFileError
from pokerlab.io import atomic_path, atomic_write_json

CHECKPOINT_VERSION = 1


def load_game(name: str) -> Any:
    """A game by name: pokerlab's registry (``kuhn``, ``leduc``, ``flop_holdem``, ...),
    else OpenSpiel's ``kuhn_poker`` / ``leduc_poker`` (used to compare with OpenSpiel)."""
    from pokerlab.games import UnknownGameError
    from pokerlab.games import load_game as _load

    if name in ("kuhn_poker", "leduc_poker"):
        import pyspiel

        return pyspiel.load_game(name)
    try:
        return _load(name)
    except UnknownGameError as exc:
        raise ConfigError(f"unknown game {name!r} for Deep CFR: {exc}") from exc


def resolve_device(device: str) -> torch.device:
    if device == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if device == "cuda" and not torch.cuda.is_available():
        raise ConfigError("device 'cuda' requested but torch sees no CUDA device")
    return torch.device(device)


def net_seed(seed: int, *parts: int) -> int:
    return int(np.random.SeedSequence([int(seed), *map(int, parts)]).generate_state(1)[0])


def make_net(encoder: PokerEncoder, dim: int, seed: int) -> DeepCFRNet:
    gen_state = torch.random.get_rng_state()
    torch.manual_seed(seed)
    try:
        net = DeepCFRNet(card_groups=encoder.card_groups, num_bets=encoder.num_bets,
                         num_actions=encoder.num_actions, dim=dim)
    finally:
        torch.random.set_rng_state(gen_state)
    return net


def net_strategy_fn(
    net: DeepCFRNet | None, encoder: PokerEncoder, num_actions: int,
    cache: dict[tuple[int, str], InfoStrategy] | None = None,
) -> StrategyFn:
    """Regret matching on ``net``'s advantages (uniform when ``net`` is None), memoised by
    information-set key (the network is fixed while traversals run)."""
    memo: dict[tuple[int, str], InfoStrategy] = {} if cache is None else cache
    forward = NumpyForward(net) if net is not None else None

    def fn(state: Any, player: int) -> InfoStrategy:
        key = (player, state.information_state_string(player))
        hit = memo.get(key)
        if hit is not None:
            return hit
        cards, bets = encoder.encode(state, player)
        mask = np.zeros(num_actions, dtype=np.bool_)
        mask[state.legal_actions()] = True
        if forward is None:
            strategy = mask.astype(np.float32) / mask.sum()
        else:
            strategy = regret_matching(forward(cards, bets).astype(np.float64), mask)
        res = (cards, bets, strategy, mask)
        memo[key] = res
        return res

    return fn


def run_traversals(
    game: Any, encoder: PokerEncoder, nets: list[DeepCFRNet | None], traverser: int,
    iteration: int, ks: range, seed: int,
) -> dict[str, np.ndarray]:
    """Traversals ``ks`` of ``traverser`` at ``iteration`` with the current advantage nets
    (the same function runs locally and in Ray workers)."""
    na = encoder.num_actions
    fns = [net_strategy_fn(n, encoder, na) for n in nets]

    def strategy_fn(state: Any, player: int) -> InfoStrategy:
        return fns[player](state, player)

    out = SampleLists()
    root = game.new_initial_state()
    for k in ks:
        rng = traversal_rng(seed, iteration, traverser, k)
        traverse(root.clone(), traverser, strategy_fn, rng, out)
    return out.to_arrays(encoder.num_card_slots, encoder.num_bets, na)


def train_network(
    net: DeepCFRNet, data: dict[str, np.ndarray], *, kind: str, steps: int, batch: int,
    lr: float, grad_clip: float, current_iteration: int, seed: int, device: torch.device,
) -> float:
    """Fit ``net`` to a memory: weighted MSE on the legal actions' regrets (``kind="adv"``)
    or weighted cross-entropy on the stored strategies (``kind="strategy"``); sample
    weights are ``t * 2 / T`` (Linear CFR).  Returns the last batch loss."""
    n = len(data["iteration"])
    if n == 0:
        return 0.0
    net.to(device)
    net.train()
    opt = torch.optim.Adam(net.parameters(), lr=lr, foreach=True)
    rng = np.random.default_rng(seed)
    cards_all = torch.from_numpy(data["cards"].astype(np.int64)).to(device)
    bets_all = torch.from_numpy(data["bets"]).to(device)
    target_all = torch.from_numpy(data["target"]).to(device)
    mask_all = torch.from_numpy(data["mask"].astype(np.bool_)).to(device)
    w_all = torch.from_numpy(data["iteration"] * (2.0 / current_iteration)).to(device)
    loss_val = 0.0
    for _ in range(steps):
        idx = torch.from_numpy(rng.integers(0, n, size=min(batch, n) if n < batch else batch))
        idx = idx.to(device)
        cards, bets = cards_all[idx], bets_all[idx]
        target, mask, w = target_all[idx], mask_all[idx], w_all[idx]
        out = net(cards, bets)
        if kind == "adv":
            err = torch.where(mask, (out - target) ** 2, torch.zeros_like(out))
            loss = (w * err.sum(dim=1)).mean()
        else:
            logits = out.masked_fill(~mask, -1e9)
            logp = torch.log_softmax(logits, dim=1)
            loss = -(w * (target * torch.where(mask, logp, torch.zeros_like(logp))).sum(1)).mean()
        opt.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]
        torch.nn.utils.clip_grad_norm_(net.parameters(), grad_clip)
        opt.step()
        loss_val = float(loss.detach())
    net.eval()
    net.to("cpu")
    return loss_val


class Executor:
    """Runs the traversals of one player and iteration; the base class runs them here."""

    def run(
        self, solver: DeepCFRSolver, traverser: int, iteration: int
    ) -> list[dict[str, np.ndarray]]:
        cfg = solver.config
        return [run_traversals(solver.game, solver.encoder, solver.adv_nets, traverser,
                               iteration, range(cfg.traversals), cfg.seed)]

    def close(self) -> None:
        pass


class DeepCFRSolver:
    """Deep CFR state: memories, networks, completed iterations, timing history."""

    def __init__(self, *, game: Any, config: DeepCFRConfig, encoder: PokerEncoder | None = None):
        torch.set_num_threads(1)
        self.game = game
        self.config = config
        self.encoder = encoder if encoder is not None else encoder_for(game)
        n_players = int(game.num_players() if callable(game.num_players) else game.num_players)
        if n_players != 2:
            raise ConfigError(f"Deep CFR here is for two-player games, {config.game!r} has "
                              f"{n_players}")
        self.num_players = 2
        self.device = resolve_device(config.device)
        enc = self.encoder
        self.adv_memories = [
            ReservoirMemory(capacity=config.memory, num_card_slots=enc.num_card_slots,
                            num_bets=enc.num_bets, num_actions=enc.num_actions,
                            seed=net_seed(config.seed, 101, p))
            for p in range(2)
        ]
        self.strategy_memory = ReservoirMemory(
            capacity=config.memory, num_card_slots=enc.num_card_slots, num_bets=enc.num_bets,
            num_actions=enc.num_actions, seed=net_seed(config.seed, 102))
        self.adv_nets: list[DeepCFRNet | None] = [None, None]
        self.sd_nets: list[list[tuple[int, DeepCFRNet]]] = [[], []]
        self.strategy_net: DeepCFRNet | None = None
        self.iteration = 0
        self.nodes = 0
        self.seconds = 0.0
        self.cpu_seconds = 0.0  # this process only (Ray workers' time is not included)
        self.history: list[dict[str, Any]] = []
        self.losses: list[float] = []

    # ------------------------------------------------------------ the algorithm
    def run_iteration(self, executor: Executor | None = None) -> None:
        ex = executor if executor is not None else Executor()
        start = time.perf_counter()
        cpu_start = time.process_time()
        t = self.iteration + 1
        cfg = self.config
        for p in range(self.num_players):
            for res in ex.run(self, p, t):
                self._absorb(res, p, t)
            net = make_net(self.encoder, cfg.dim, net_seed(cfg.seed, 1, t, p))
            loss = train_network(
                net, self.adv_memories[p].arrays(), kind="adv", steps=cfg.sgd_steps,
                batch=cfg.batch, lr=cfg.lr, grad_clip=cfg.grad_clip, current_iteration=t,
                seed=net_seed(cfg.seed, 2, t, p), device=self.device)
            self.adv_nets[p] = net
            self.losses.append(loss)
            if cfg.sdcfr:
                self.sd_nets[p].append((t, net))
        self.strategy_net = None  # stale now
        self.iteration = t
        self.seconds += time.perf_counter() - start
        self.cpu_seconds += time.process_time() - cpu_start

    def _absorb(self, res: dict[str, np.ndarray], p: int, t: int) -> None:
        n_adv = len(res["adv_target"])
        self.adv_memories[p].add_batch(res["adv_cards"], res["adv_bets"], res["adv_target"],
                                       res["adv_mask"], np.full(n_adv, t, dtype=np.float32))
        n_st = len(res["strat_target"])
        self.strategy_memory.add_batch(res["strat_cards"], res["strat_bets"],
                                       res["strat_target"], res["strat_mask"],
                                       np.full(n_st, t, dtype=np.float32))
        self.nodes += int(res["nodes"][0])

    def train(
        self, iterations: int | None = None, *, executor: Executor | None = None,
        callback: Callable[[DeepCFRSolver], None] | None = None,
    ) -> None:
        """Run iterations until ``iterations`` (default: the configured number) are done."""
        target = self.config.iterations if iterations is None else iterations
        while self.iteration < target:
            self.run_iteration(executor)
            if callback is not None:
                callback(self)

    def train_strategy_network(self) -> DeepCFRNet:
        cfg = self.config
        start = time.perf_counter()
        cpu_start = time.process_time()
        net = make_net(self.encoder, cfg.dim, net_seed(cfg.seed, 3, self.iteration))
        train_network(net, self.strategy_memory.arrays(), kind="strategy",
                      steps=cfg.policy_sgd_steps, batch=cfg.batch, lr=cfg.lr,
                      grad_clip=cfg.grad_clip, current_iteration=max(self.iteration, 1),
                      seed=net_seed(cfg.seed, 4, self.iteration), device=self.device)
        self.strategy_net = net
        self.seconds += time.perf_counter() - start
        self.cpu_seconds += time.process_time() - cpu_start
        return net

    def policy(self) -> Any:
        """The average strategy as a pokerlab Policy (the strategy network; trained now if
        it is missing or stale)."""
        from pokerlab.deepcfr.policy import NeuralPolicy

        net = self.strategy_net if self.strategy_net is not None else self.train_strategy_network()
        return NeuralPolicy(net=net, encoder=self.encoder)

    def sdcfr_policy(self) -> Any:
        from pokerlab.deepcfr.policy import SDCFRPolicy

        if not self.config.sdcfr:
            raise ConfigError("this run did not keep its advantage networks (sdcfr=False)")
        return SDCFRPolicy(nets=self.sd_nets, encoder=self.encoder)

    # ------------------------------------------------------------ checkpoints
    def save(self, directory: str | Path) -> Path:
        """Write config.json, state.json, memories.safetensors and nets.safetensors."""
        from safetensors.numpy import save_file as save_np
        from safetensors.torch import save_file as save_torch

        d = Path(directory)
        d.mkdir(parents=True, exist_ok=True)
        arrays: dict[str, np.ndarray] = {}
        metas: dict[str, Any] = {}
        for name, mem in self._memories().items():
            a, m = mem.state_dict()
            for k, v in a.items():
                arrays[f"{name}.{k}"] = v
            metas[name] = m
        with atomic_path(d / "memories.safetensors") as tmp:
            save_np(arrays, str(tmp))
        tensors: dict[str, torch.Tensor] = {}
        for p, net in enumerate(self.adv_nets):
            if net is not None:
                for k, v in net.state_dict().items():
                    tensors[f"adv{p}.{k}"] = v.contiguous()
        if self.strategy_net is not None:
            for k, v in self.strategy_net.state_dict().items():
                tensors[f"strategy.{k}"] = v.contiguous()
        for p, lst in enumerate(self.sd_nets):
            for t, net in lst:
                for k, v in net.state_dict().items():
                    tensors[f"sd{p}.{t}.{k}"] = v.contiguous()
        with atomic_path(d / "nets.safetensors") as tmp:
            save_torch(tensors, str(tmp))
        atomic_write_json(d / "config.json", self.config.to_json())
        atomic_write_json(d / "state.json", {
            "version": CHECKPOINT_VERSION, "game": game_name(self.game),
            "iteration": self.iteration, "nodes": self.nodes, "seconds": self.seconds,
            "cpu_seconds": self.cpu_seconds,
            "memories": metas, "history": self.history, "losses": self.losses,
            "has_strategy_net": self.strategy_net is not None,
            "sd_iterations": [[t for t, _ in lst] for lst in self.sd_nets],
        })
        return d

    def _memories(self) -> dict[str, ReservoirMemory]:
        return {"adv0": self.adv_memories[0], "adv1": self.adv_memories[1],
                "strategy": self.strategy_memory}

    @classmethod
    def load(
        cls, directory: str | Path, *, game: Any | None = None,
        config_changes: dict[str, Any] | None = None,
    ) -> DeepCFRSolver:
        """Resume from :meth:`save`'s files (``config_changes`` may raise ``iterations``)."""
        from safetensors.numpy import load_file as load_np
        from safetensors.torch import load_file as load_torch

        d = Path(directory)
        try:
            cfg_obj = json.loads((d / "config.json").read_text())
            state = json.loads((d / "state.json").read_text())
        except (OSError, json.JSONDecodeError) as exc:
            raise PolicyFileError(f"cannot read Deep CFR checkpoint {str(d)!r}: {exc}") from exc
        if state.get("version") != CHECKPOINT_VERSION:
            raise PolicyFileError(f"checkpoint {str(d)!r} has unknown version "
                                  f"{state.get('version')!r}")
        config = DeepCFRConfig.from_json(cfg_obj)
        if config_changes:
            config = config.replace(**config_changes)
        g = game if game is not None else load_game(config.game)
        solver = cls(game=g, config=config)
        arrays = load_np(str(d / "memories.safetensors"))
        for name, mem in solver._memories().items():
            sub = {k.split(".", 1)[1]: v for k, v in arrays.items() if k.startswith(name + ".")}
            mem.load_state_dict(sub, state["memories"][name])
        tensors = load_torch(str(d / "nets.safetensors"))

        def build(prefix: str) -> DeepCFRNet:
            net = make_net(solver.encoder, config.dim, 0)
            sd = {k[len(prefix):]: v for k, v in tensors.items() if k.startswith(prefix)}
            net.load_state_dict(sd)
            net.eval()
            return net

        for p in range(2):
            if any(k.startswith(f"adv{p}.") for k in tensors):
                solver.adv_nets[p] = build(f"adv{p}.")
        if state.get("has_strategy_net"):
            solver.strategy_net = build("strategy.")
        for p, ts in enumerate(state.get("sd_iterations", [[], []])):
            solver.sd_nets[p] = [(int(t), build(f"sd{p}.{t}.")) for t in ts]
        solver.iteration = int(state["iteration"])
        solver.nodes = int(state["nodes"])
        solver.seconds = float(state["seconds"])
        solver.cpu_seconds = float(state.get("cpu_seconds", 0.0))
        solver.history = list(state.get("history", []))
        solver.losses = list(state.get("losses", []))
        return solver
