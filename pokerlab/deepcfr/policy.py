"""Deep CFR results as pokerlab :class:`~pokerlab.policy.base.Policy` objects."""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from pokerlab.deepcfr.encoding import PokerEncoder
from pokerlab.deepcfr.network import DeepCFRNet
from pokerlab.deepcfr.traversal import regret_matching_batch
from pokerlab.errors import ConfigError
from pokerlab.games.protocol import decision_states
from pokerlab.policy.base import Policy


def masked_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    z = np.where(mask, logits, -np.inf)
    z = z - z.max(axis=-1, keepdims=True)
    e = np.where(mask, np.exp(z), 0.0)
    return e / e.sum(axis=-1, keepdims=True)


class NeuralPolicy(Policy):
    """The average-strategy network: softmax of its outputs over the legal actions."""

    def __init__(self, *, net: DeepCFRNet, encoder: PokerEncoder) -> None:
        self.net = net.eval()
        self.encoder = encoder
        self.suit_symmetric = encoder.suit_symmetric

    def range_strategies(self, nodes: list[Any], board: tuple[int, ...],
                         valid: np.ndarray) -> np.ndarray:
        """Flop Hold'em: probabilities ``(len(nodes), 1326, 3)`` of every hole-card combo at
        the public betting ``nodes`` (of :mod:`pokerlab.evaluation.fhp_br`) on ``board``.

        Same numbers as :meth:`action_probabilities` state by state, computed with the
        card branch once per hand, the bet branch once per node and the first trunk layer
        split into its card and bet halves."""
        from pokerlab.cards.cards import COMBOS
        from pokerlab.games.flop_holdem import bet_actions, canonical_batch

        enc = self.encoder
        canon = canonical_batch(COMBOS, board)
        cards = np.full((len(COMBOS), enc.num_card_slots), -1, dtype=np.int64)
        cards[:, : canon.shape[1]] = canon
        bets = np.stack([enc.encode_view([[], []], bet_actions(n.betting))[1] for n in nodes])
        mask = np.zeros((len(nodes), 1, enc.num_actions), dtype=np.bool_)
        for i, n in enumerate(nodes):
            mask[i, 0, n.betting.legal()] = True
        net = self.net
        d = net.dim
        live = np.flatnonzero(valid)
        out = np.zeros((len(nodes), len(COMBOS), enc.num_actions), dtype=np.float32)
        with torch.no_grad():
            x = net.card_branch(torch.from_numpy(cards[live]))
            y = net.bet_branch(torch.from_numpy(bets))
            w = net.comb1.weight
            a = x @ w[:, :d].T  # (hands, dim)
            b = torch.addmm(net.comb1.bias, y, w[:, d:].T)  # (nodes, dim)
            w2, b2 = net.comb2.weight.T.contiguous(), net.comb2.bias
            w3, b3 = net.comb3.weight.T.contiguous(), net.comb3.bias
            wh, bh = net.action_head.weight.T.contiguous(), net.action_head.bias
            chunk = 1
            for lo in range(0, len(nodes), chunk):
                hi = min(lo + chunk, len(nodes))
                z = torch.relu_(a[None, :, :] + b[lo:hi, None, :]).reshape(-1, d)
                z = torch.relu_(torch.addmm(b2, z, w2).add_(z))
                z = torch.relu_(torch.addmm(b3, z, w3).add_(z))
                z = z - z.mean(dim=1, keepdim=True)
                z = z / (z.pow(2).sum(dim=1, keepdim=True).div_(d - 1).sqrt_().add_(1e-5))
                res = torch.addmm(bh, z, wh).reshape(hi - lo, len(live), -1).numpy()
                out[lo:hi, live] = res
        probs = masked_softmax(out.astype(np.float64), np.broadcast_to(mask, out.shape))
        return probs * valid[None, :, None]

    def batch_probabilities(
        self, cards: np.ndarray, bets: np.ndarray, mask: np.ndarray
    ) -> np.ndarray:
        with torch.no_grad():
            out = self.net(torch.from_numpy(np.asarray(cards, dtype=np.int64)),
                           torch.from_numpy(np.asarray(bets, dtype=np.float32))).numpy()
        return masked_softmax(out.astype(np.float64), mask)

    def action_probabilities(self, state: Any) -> dict[int, float]:
        player = state.current_player()
        cards, bets = self.encoder.encode(state, player)
        legal = state.legal_actions()
        mask = np.zeros(self.encoder.num_actions, dtype=np.bool_)
        mask[legal] = True
        probs = self.batch_probabilities(cards[None], bets[None], mask[None])[0]
        return {a: float(probs[a]) for a in legal}


class SDCFRPolicy(Policy):
    """The "store all value networks" average strategy: at every information set the
    Linear-CFR-weighted average of the regret-matching strategies of all iterations'
    advantage networks, each weighted by the player's own reach under it.

    The reach weights need the player's earlier decisions, so the policy is tabulated by
    walking the game tree once (:meth:`tabulate`, done lazily); fine for Kuhn and Leduc.
    """

    def __init__(self, *, nets: list[list[tuple[int, DeepCFRNet]]], encoder: PokerEncoder):
        if not nets or not all(nets):
            raise ConfigError("SD-CFR policy needs at least one network per player")
        self.nets = nets
        self.encoder = encoder
        self.table: dict[str, dict[int, float]] | None = None

    def tabulate(self, game: Any) -> dict[str, dict[int, float]]:
        """Walk the tree twice: collect every information set's features, query each stored
        network once on all of them (one batched forward per network), then average."""
        na = self.encoder.num_actions
        index: list[dict[str, int]] = [{}, {}]
        feats: list[list[tuple[np.ndarray, np.ndarray, np.ndarray]]] = [[], []]

        root = game.new_initial_state()
        for state in decision_states(root):
            p = state.current_player()
            key = state.information_state_string(p)
            if key not in index[p]:
                index[p][key] = len(feats[p])
                enc_cards, enc_bets = self.encoder.encode(state, p)
                legal = np.zeros(na, dtype=np.bool_)
                legal[state.legal_actions()] = True
                feats[p].append((enc_cards, enc_bets, legal))
        strategies: list[np.ndarray] = []
        for p in range(2):
            cards = torch.from_numpy(np.stack([f[0] for f in feats[p]]).astype(np.int64))
            bets = torch.from_numpy(np.stack([f[1] for f in feats[p]]).astype(np.float32))
            mask = np.stack([f[2] for f in feats[p]])
            with torch.no_grad():
                vals = np.stack([net(cards, bets).numpy() for _, net in self.nets[p]])
            t_, n_, a_ = vals.shape
            rm = regret_matching_batch(vals.reshape(-1, a_).astype(np.float64),
                                       np.broadcast_to(mask, vals.shape).reshape(-1, a_).copy())
            strategies.append(np.asarray(rm, dtype=np.float64).reshape(t_, n_, a_))
        table: dict[str, dict[int, float]] = {}
        weights = [np.array([t for t, _ in lst], dtype=np.float64) for lst in self.nets]

        def walk(state: Any, reach: list[np.ndarray]) -> None:
            if state.is_terminal():
                return
            if state.is_chance_node():
                for a, _ in state.chance_outcomes():
                    walk(state.child(a), reach)
                return
            p = state.current_player()
            key = state.information_state_string(p)
            strat = strategies[p][:, index[p][key], :]
            legal = state.legal_actions()
            if key not in table:
                w = weights[p] * reach[p]
                avg = (w[:, None] * strat).sum(0)
                tot = avg.sum()
                if tot <= 0:
                    avg = np.zeros_like(avg)
                    avg[legal] = 1.0 / len(legal)
                    tot = 1.0
                table[key] = {a: float(avg[a] / tot) for a in legal}
            for a in legal:
                new = list(reach)
                new[p] = reach[p] * strat[:, a]
                walk(state.child(a), new)

        walk(root, [np.ones(len(w)) for w in weights])
        self.table = table
        return table

    def action_probabilities(self, state: Any) -> dict[int, float]:
        if self.table is None:
            raise ConfigError("SDCFRPolicy.tabulate(game) must run before it is queried")
        key = state.information_state_string(state.current_player())
        if key not in self.table:
            raise ConfigError(f"information set {key!r} not in the SD-CFR table")
        return self.table[key]
