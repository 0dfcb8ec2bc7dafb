"""Deep CFR (Brown, Lerer, Gross, Sandholm 2019) on any game of the protocol.

One :class:`DeepCFRSolver` holds the advantage memories and networks of both players and
the strategy memory.  :meth:`DeepCFRSolver.run_iteration` does one CFR iteration: for each
player in turn, ``K`` external-sampling traversals (possibly on Ray workers), then the
player's advantage network is trained from scratch on its memory.  At the end
:meth:`DeepCFRSolver.train_strategy_network` fits the average-strategy network.
"""

from __future__ import annotations

import copy
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
from pokerlab.deepcfr.optim import FlatAdam
from pokerlab.deepcfr.reservoir import ReservoirMemory
from pokerlab.deepcfr.traversal import (
    InfoStrategy,
    SampleLists,
    StrategyFn,
    regret_matching,
    traversal_rng,
    traverse,
)
from pokerlab.errors import ConfigError, PokerlabError, PolicyFileError
from pokerlab.io import atomic_write_bytes, atomic_write_json, sha256_bytes

CHECKPOINT_VERSION = 2  # 2: sha256 of every file in state.json
CHECKPOINT_FILES = ("memories.safetensors", "nets.safetensors", "config.json")


def _state_digest(state: dict[str, Any]) -> str:
    body = {k: v for k, v in state.items() if k != "sha256"}
    return sha256_bytes(json.dumps(body, sort_keys=True).encode())


def _read_checked_state(d: Path) -> dict[str, Any]:
    """``state.json`` of a checkpoint, its own checksum verified."""
    path = d / "state.json"
    if not d.exists():
        raise PolicyFileError(f"Deep CFR checkpoint {str(d)!r} does not exist")
    if not path.is_file():
        raise PolicyFileError(f"{str(d)!r} is not a Deep CFR checkpoint (no state.json)")
    try:
        state = json.loads(path.read_bytes())
    except (OSError, ValueError) as exc:
        raise PolicyFileError(f"cannot read Deep CFR checkpoint {str(path)!r}: "
                              f"{' '.join(str(exc).split())}") from exc
    if not isinstance(state, dict):
        raise PolicyFileError(f"Deep CFR checkpoint {str(path)!r} is not a JSON object")
    if state.get("version") != CHECKPOINT_VERSION:
        raise PolicyFileError(f"checkpoint {str(d)!r} has version {state.get('version')!r}, "
                              f"this pokerlab reads version {CHECKPOINT_VERSION} (checksummed)")
    if state.get("sha256") != _state_digest(state) or not isinstance(state.get("files"), dict):
        raise PolicyFileError(f"Deep CFR checkpoint {str(path)!r} fails its checksum")
    return state


def _read_checked_file(d: Path, name: str, digest: Any) -> bytes:
    path = d / name
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise PolicyFileError(f"cannot read Deep CFR checkpoint file {str(path)!r}: "
                              f"{exc.strerror or exc}") from exc
    got = sha256_bytes(data)
    if got != digest:
        raise PolicyFileError(f"Deep CFR checkpoint file {str(path)!r} fails its checksum "
                              f"(stored {digest!r}, computed {got!r}): truncated or altered")
    return data


OPENSPIEL_ALIASES = ("kuhn_poker", "leduc_poker")


def resolve_game(name: str) -> Any:
    """The game of a run: :func:`pokerlab.games.load_game` (``kuhn``, ``leduc``,
    ``flop_holdem``, game strings, ACPC definitions), except OpenSpiel's ``kuhn_poker`` /
    ``leduc_poker``, kept as aliases to compare with OpenSpiel on its own game objects."""
    from pokerlab.games import load_game

    if name in OPENSPIEL_ALIASES:
        import pyspiel

        return pyspiel.load_game(name)
    return load_game(name)


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


def aggregate_rows(data: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Merge the memory rows of the same information set (equal cards, bets and legal mask)
    into one row: target = the iteration-weighted mean of their targets, weight = the sum
    of their iterations.

    Exact for both training losses: a weighted sum of squared errors (or of cross-entropies,
    which are linear in the target) over rows with equal inputs equals the summed weight
    times the loss at the weighted-mean target, plus a constant.  So the minimiser (and
    every full-batch gradient) is unchanged, while the rows shrink from "every sample ever
    stored" to "every information set ever stored" (Leduc: a few hundred)."""
    n = len(data["iteration"])
    a = data["target"].shape[1] if data["target"].ndim == 2 else 0
    if n == 0:
        return {"cards": data["cards"][:0], "bets": data["bets"][:0],
                "mask": data["mask"][:0], "target": data["target"][:0].astype(np.float32),
                "weight": np.zeros(0)}
    parts = [np.ascontiguousarray(data["cards"].astype(np.int16)).view(np.uint8).reshape(n, -1),
             np.ascontiguousarray(data["bets"].astype(np.float32)).view(np.uint8).reshape(n, -1),
             np.ascontiguousarray(data["mask"].astype(np.uint8)).reshape(n, -1)]
    key = np.ascontiguousarray(np.concatenate(parts, axis=1))
    keyv = key.view(np.dtype((np.void, key.shape[1]))).ravel()
    _, first, inv = np.unique(keyv, return_index=True, return_inverse=True)
    inv = inv.ravel()
    w = data["iteration"].astype(np.float64)
    weight = np.bincount(inv, weights=w, minlength=len(first))
    target = np.empty((len(first), a), dtype=np.float64)
    tw = data["target"].astype(np.float64) * w[:, None]
    for j in range(a):
        target[:, j] = np.bincount(inv, weights=tw[:, j], minlength=len(first))
    target /= np.maximum(weight, 1e-300)[:, None]
    return {"cards": data["cards"][first], "bets": data["bets"][first],
            "mask": data["mask"][first], "target": target.astype(np.float32), "weight": weight}


_NET_NAMES = {"adv": "advantage", "strat": "average-strategy"}


def train_network(
    net: DeepCFRNet, data: dict[str, np.ndarray], *, kind: str, steps: int, batch: int,
    lr: float, grad_clip: float, seed: int, device: torch.device, lr_decay: bool = True,
    merge: bool = True, current_iteration: int = 1,
) -> float:
    """Fit ``net`` to a memory: MSE on the legal actions' regrets (``kind="adv"``) or
    cross-entropy on the stored strategies (``kind="strategy"``), every sample weighted by
    its iteration ``t`` (Linear CFR).  Returns the last batch loss.

    * ``merge``: rows of the same information set are merged first (:func:`aggregate_rows`,
      exact).  When the merged rows fit in one ``batch`` every step is a full-batch step on
      the exact weighted loss (no sampling noise at all); otherwise batches are drawn with
      probability proportional to the weights (an unbiased estimate of the same loss with
      less variance than weighting uniformly drawn samples).
    * ``lr_decay``: the learning rate follows a cosine from ``lr`` to 0 over the steps, so
      the fit settles at the end instead of jittering at a constant rate.
    * ``merge=False, lr_decay=False`` is the original recipe: uniform batches weighted by
      ``t * 2 / current_iteration``, constant rate.
    """
    n_raw = len(data["iteration"])
    if n_raw == 0 or steps == 0:
        net.eval()
        return 0.0
    if merge:
        rows = aggregate_rows(data)
    else:
        rows = dict(data)
        rows["weight"] = data["iteration"].astype(np.float64) * (2.0 / current_iteration)
    n = len(rows["weight"])
    net.to(device)
    net.train()
    # one flat buffer for all parameters: clipping + Adam in a handful of vector operations
    opt = FlatAdam(net, lr=lr, max_norm=grad_clip)
    rng = np.random.default_rng(seed)
    cards_all = torch.from_numpy(rows["cards"].astype(np.int64)).to(device)
    bets_all = torch.from_numpy(rows["bets"].astype(np.float32)).to(device)
    target_all = torch.from_numpy(rows["target"].astype(np.float32)).to(device)
    mask_all = torch.from_numpy(rows["mask"].astype(np.bool_)).to(device)
    weight = rows["weight"].astype(np.float64)
    full = merge and n <= batch
    if merge:
        # full batch: weights normalised to mean 1; sampled batches: drawn by weight, unweighted
        w_full = torch.from_numpy((weight * (n / weight.sum())).astype(np.float32)).to(device)
        cdf = np.cumsum(weight)
        cdf /= cdf[-1]
    else:
        w_full = torch.from_numpy(weight.astype(np.float32)).to(device)
    if full:
        # every step sees the same rows: run the card branch once per distinct card row and
        # the bet branch once per distinct betting row (Leduc: tens instead of hundreds),
        # then gather (DeepCFRNet.forward_gathered); the same function and gradients
        cu, cinv = torch.unique(cards_all, dim=0, return_inverse=True)
        bu, binv = torch.unique(bets_all, dim=0, return_inverse=True)
        # the loss's constants folded once: mean_i w_i * loss_i as one weighted sum
        maskf = mask_all.to(torch.float32)
        if kind == "adv":
            scale = (w_full / n).sqrt()[:, None] * maskf
        else:
            wtarget = (w_full / n)[:, None] * target_all * maskf
            illegal = (maskf - 1.0) * 1e9
    loss = torch.zeros(())
    w: torch.Tensor | None
    for step in range(steps):
        if lr_decay:
            opt.lr = lr * 0.5 * (1.0 + float(np.cos(np.pi * step / steps)))
        if full:
            out = net.forward_gathered(cu, cinv, bu, binv)
            if kind == "adv":
                loss = ((out - target_all) * scale).square().sum()
            else:
                loss = -(wtarget * torch.log_softmax(out + illegal, dim=1)).sum()
        else:
            if merge:
                pick = np.searchsorted(cdf, rng.random(batch), side="right")
                idx = torch.from_numpy(np.minimum(pick, n - 1)).to(device)
            else:
                idx = torch.from_numpy(rng.integers(0, n, size=batch)).to(device)
            cards, bets = cards_all[idx], bets_all[idx]
            target, mask = target_all[idx], mask_all[idx]
            w = None if merge else w_full[idx]
            out = net(cards, bets)
            if kind == "adv":
                per_row = torch.where(mask, (out - target) ** 2,
                                      torch.zeros_like(out)).sum(dim=1)
            else:
                logits = out.masked_fill(~mask, -1e9)
                logp = torch.log_softmax(logits, dim=1)
                per_row = -(target * torch.where(mask, logp, torch.zeros_like(logp))).sum(1)
            loss = (w * per_row).mean() if w is not None else per_row.mean()
        loss.backward()  # type: ignore[no-untyped-call]
        try:
            opt.step()
        except RuntimeError as exc:  # a step too large for float32 (lr near 1e308)
            if "overflow" not in str(exc):
                raise
            raise ConfigError(f"training diverged: the {_NET_NAMES.get(kind, kind)} network's "
                              f"optimizer step overflowed with learning rate {lr:g}; lower --learning-rate "
                              "(this iteration was not saved)") from None
    opt.release()
    loss_val = float(loss.detach())
    if not (np.isfinite(loss_val)
            and all(bool(torch.isfinite(q).all()) for q in net.parameters())):
        raise ConfigError(f"training diverged: the {_NET_NAMES.get(kind, kind)} network's loss "
                          f"or weights became non-finite (inf/nan) with learning rate {lr:g}; "
                          "lower "
                          "--learning-rate (this iteration was not saved)")
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
        # this process's CPU seconds by phase (traversals include merging their samples
        # into the memories; not checkpointed)
        self.cpu_split = {"traversal": 0.0, "advantage_sgd": 0.0, "policy_sgd": 0.0}

    # ------------------------------------------------------------ the algorithm
    def run_iteration(self, executor: Executor | None = None) -> None:
        ex = executor if executor is not None else Executor()
        start = time.perf_counter()
        cpu_start = time.process_time()
        t = self.iteration + 1
        cfg = self.config
        for p in range(self.num_players):
            c0 = time.process_time()
            for res in ex.run(self, p, t):
                self._absorb(res, p, t)
            c1 = time.process_time()
            self.cpu_split["traversal"] += c1 - c0
            prev = self.adv_nets[p]
            if cfg.warm_start and prev is not None:
                net = copy.deepcopy(prev)  # the ablation: continue from iteration t-1
            else:
                net = make_net(self.encoder, cfg.dim, net_seed(cfg.seed, 1, t, p))
            loss = train_network(
                net, self.adv_memories[p].arrays(), kind="adv", steps=cfg.sgd_steps,
                batch=cfg.batch, lr=cfg.lr, grad_clip=cfg.grad_clip, current_iteration=t,
                seed=net_seed(cfg.seed, 2, t, p), device=self.device,
                lr_decay=cfg.lr_decay, merge=cfg.merge_rows)
            self.adv_nets[p] = net
            self.cpu_split["advantage_sgd"] += time.process_time() - c1
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
                      seed=net_seed(cfg.seed, 4, self.iteration), device=self.device,
                      lr_decay=cfg.lr_decay, merge=cfg.merge_rows)
        self.strategy_net = net
        self.seconds += time.perf_counter() - start
        self.cpu_seconds += time.process_time() - cpu_start
        self.cpu_split["policy_sgd"] += time.process_time() - cpu_start
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
        d = Path(directory)
        d.mkdir(parents=True, exist_ok=True)
        arrays: dict[str, np.ndarray] = {}
        metas: dict[str, Any] = {}
        for name, mem in self._memories().items():
            a, m = mem.state_dict()
            for k, v in a.items():
                arrays[f"{name}.{k}"] = v
            metas[name] = m
        from safetensors.numpy import save as save_np_bytes
        from safetensors.torch import save as save_torch_bytes

        mem_bytes = save_np_bytes(arrays)
        tensors: dict[str, torch.Tensor] = {}
        for p, net in enumerate(self.adv_nets):
            if net is not None:
                for k, v in net.state_dict().items():
                    tensors[f"adv{p}.{k}"] = v.detach().clone()  # own storage: nets may be shared
        if self.strategy_net is not None:
            for k, v in self.strategy_net.state_dict().items():
                tensors[f"strategy.{k}"] = v.detach().clone()  # own storage: nets may be shared
        for p, lst in enumerate(self.sd_nets):
            for t, net in lst:
                for k, v in net.state_dict().items():
                    tensors[f"sd{p}.{t}.{k}"] = v.detach().clone()  # own storage: nets may be shared
        net_bytes = save_torch_bytes(tensors)
        config_bytes = (json.dumps(self.config.to_json(), indent=2) + "\n").encode()
        files = {"memories.safetensors": mem_bytes, "nets.safetensors": net_bytes,
                 "config.json": config_bytes}
        for name, data in files.items():
            atomic_write_bytes(d / name, data)
        state = {
            "version": CHECKPOINT_VERSION, "game": game_name(self.game),
            "iteration": self.iteration, "nodes": self.nodes, "seconds": self.seconds,
            "cpu_seconds": self.cpu_seconds,
            "memories": metas, "history": self.history, "losses": self.losses,
            "has_strategy_net": self.strategy_net is not None,
            "sd_iterations": [[t for t, _ in lst] for lst in self.sd_nets],
            "files": {name: sha256_bytes(data) for name, data in files.items()},
        }
        state["sha256"] = _state_digest(state)
        atomic_write_json(d / "state.json", state)  # last: it vouches for the others
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
        from safetensors import SafetensorError
        from safetensors.numpy import load as load_np_bytes
        from safetensors.torch import load as load_torch_bytes

        d = Path(directory)
        state = _read_checked_state(d)
        blobs = {name: _read_checked_file(d, name, digest)
                 for name, digest in state["files"].items()}
        if set(blobs) != set(CHECKPOINT_FILES):
            raise PolicyFileError(f"checkpoint {str(d)!r} lists files {sorted(blobs)}, "
                                  f"expected {list(CHECKPOINT_FILES)}")
        try:
            cfg_obj = json.loads(blobs["config.json"])
            config = DeepCFRConfig.from_json(cfg_obj)
            if config_changes:
                config = config.replace(**config_changes)
            g = game if game is not None else resolve_game(config.game)
            solver = cls(game=g, config=config)
            arrays = load_np_bytes(blobs["memories.safetensors"])
            for name, mem in solver._memories().items():
                sub = {k.split(".", 1)[1]: v for k, v in arrays.items()
                       if k.startswith(name + ".")}
                mem.load_state_dict(sub, state["memories"][name])
            tensors = load_torch_bytes(blobs["nets.safetensors"])
        except (KeyError, TypeError, ValueError, json.JSONDecodeError,
                SafetensorError) as exc:
            if isinstance(exc, PokerlabError):
                raise
            raise PolicyFileError(f"Deep CFR checkpoint {str(d)!r} is damaged: {exc}") from exc

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
