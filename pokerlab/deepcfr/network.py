"""The Deep CFR network of Brown, Lerer, Gross and Sandholm (ICML 2019), in PyTorch.

Input: the cards of each card group (hole, flop, turn, river, ... as card ids, ``-1`` for
"no card yet") and one bet feature per betting position (``-1`` when no action happened
there, else the bet size as a fraction of the pot).

* every card group is embedded as the sum over its cards of a rank, a suit and a card
  embedding (so a group is permutation-invariant);
* card branch: 3 fully connected layers on the concatenated group embeddings;
* bet branch: the features ``(size clamped at 0, happened bit)`` per position, 2 fully
  connected layers, the second with a skip connection;
* trunk: 3 fully connected layers on the concatenation (the last two with skip
  connections), then the features are normalised (zero mean, unit variance per sample)
  and a linear head gives one output per distinct action.

At ``dim=64`` with two card groups, 8 betting positions and 3 actions the network has
about 50 thousand parameters; :func:`count_parameters` gives the exact number for any
size (the paper quotes 98,948 for its poker network).
"""

from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn


class CardEmbedding(nn.Module):
    def __init__(self, dim: int) -> None:
        super().__init__()
        self.rank = nn.Embedding(13, dim)
        self.suit = nn.Embedding(4, dim)
        self.card = nn.Embedding(52, dim)

    def forward(self, cards: torch.Tensor) -> torch.Tensor:
        b, n = cards.shape
        x = cards.reshape(-1).long()
        valid = x.ge(0).to(self.card.weight.dtype)
        x = x.clamp(min=0)
        # card(x) + rank(x // 4) + suit(x % 4) as one lookup in a 52-row table (same values
        # and gradients, one gather instead of three).
        table = (self.card.weight + self.rank.weight.repeat_interleave(4, dim=0)
                 + self.suit.weight.repeat(13, 1))
        embs = table[x] * valid.unsqueeze(1)
        return embs.view(b, n, -1).sum(1)


class DeepCFRNet(nn.Module):
    """The paper's network; ``card_groups`` gives the number of card slots of each group."""

    def __init__(
        self, *, card_groups: tuple[int, ...], num_bets: int, num_actions: int, dim: int = 64
    ) -> None:
        super().__init__()
        self.card_groups = tuple(int(g) for g in card_groups)
        self.num_bets = int(num_bets)
        self.num_actions = int(num_actions)
        self.dim = int(dim)
        ng = len(self.card_groups)
        self.card_embeddings = nn.ModuleList([CardEmbedding(dim) for _ in range(ng)])
        self.card1 = nn.Linear(dim * ng, dim)
        self.card2 = nn.Linear(dim, dim)
        self.card3 = nn.Linear(dim, dim)
        self.bet1 = nn.Linear(num_bets * 2, dim)
        self.bet2 = nn.Linear(dim, dim)
        self.comb1 = nn.Linear(2 * dim, dim)
        self.comb2 = nn.Linear(dim, dim)
        self.comb3 = nn.Linear(dim, dim)
        self.action_head = nn.Linear(dim, num_actions)

    # The three stages are separate methods so that range-vectorised evaluation can compute
    # the card branch once per (board, hand) and the bet branch once per betting node.
    def card_branch(self, cards: torch.Tensor) -> torch.Tensor:
        embs = []
        start = 0
        for emb, size in zip(self.card_embeddings, self.card_groups, strict=True):
            embs.append(emb(cards[:, start : start + size]))
            start += size
        x = torch.cat(embs, dim=1)
        x = F.relu(self.card1(x))
        x = F.relu(self.card2(x))
        return F.relu(self.card3(x))

    def bet_branch(self, bets: torch.Tensor) -> torch.Tensor:
        size = bets.clamp(0, 1e6)
        occurred = bets.ge(0).to(bets.dtype)
        y = F.relu(self.bet1(torch.cat([size, occurred], dim=1)))
        return F.relu(self.bet2(y) + y)

    def trunk(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return self._head(F.relu(self.comb1(torch.cat([x, y], dim=1))))

    def _head(self, z: torch.Tensor) -> torch.Tensor:
        z = F.relu(self.comb2(z) + z)
        z = F.relu(self.comb3(z) + z)
        # (z - mean) / (std + 1e-5), std with Bessel's correction, written out: the same
        # function as ``z.std(dim=1)`` with a fraction of its CPU cost (and backward)
        zc = z - z.mean(dim=1, keepdim=True)
        std = zc.square().sum(dim=1, keepdim=True).div(self.dim - 1).sqrt()
        return self.action_head(zc / (std + 1e-5))

    def forward(self, cards: torch.Tensor, bets: torch.Tensor) -> torch.Tensor:
        return self.trunk(self.card_branch(cards), self.bet_branch(bets))

    def forward_gathered(self, cards: torch.Tensor, card_index: torch.Tensor,
                         bets: torch.Tensor, bet_index: torch.Tensor) -> torch.Tensor:
        """``forward(cards[card_index], bets[bet_index])`` when many rows share their cards
        or their betting: the card branch runs once per row of ``cards``, the bet branch
        once per row of ``bets``, and the first trunk layer is split into its card and bet
        halves (``W [x; y] = W_x x + W_y y``), each applied before the gather."""
        d = self.dim
        w = self.comb1.weight
        a = self.card_branch(cards) @ w[:, :d].T
        b = torch.addmm(self.comb1.bias, self.bet_branch(bets), w[:, d:].T)
        return self._head(F.relu(a[card_index] + b[bet_index]))


def count_parameters(net: nn.Module) -> int:
    return sum(int(p.numel()) for p in net.parameters())


class NumpyForward:
    """A frozen copy of a :class:`DeepCFRNet` evaluated with numpy, one information set at
    a time (traversals query single states; numpy's per-call overhead is far below
    torch's).  Same function as the network up to float rounding."""

    def __init__(self, net: DeepCFRNet) -> None:
        def w(layer: nn.Linear) -> tuple[np.ndarray, np.ndarray]:
            return (layer.weight.detach().cpu().numpy().T.astype(np.float32).copy(),
                    layer.bias.detach().cpu().numpy().astype(np.float32).copy())

        self.groups = net.card_groups
        self.tables = []
        for emb in net.card_embeddings:
            assert isinstance(emb, CardEmbedding)
            t = (emb.card.weight + emb.rank.weight.repeat_interleave(4, dim=0)
                 + emb.suit.weight.repeat(13, 1))
            self.tables.append(t.detach().cpu().numpy().astype(np.float32))
        self.card1, self.card2, self.card3 = w(net.card1), w(net.card2), w(net.card3)
        self.bet1, self.bet2 = w(net.bet1), w(net.bet2)
        self.comb1, self.comb2, self.comb3 = w(net.comb1), w(net.comb2), w(net.comb3)
        self.head = w(net.action_head)
        self.dim = net.dim

    def __call__(self, cards: np.ndarray, bets: np.ndarray) -> np.ndarray:
        """Outputs for one information set: ``cards`` (slots,), ``bets`` (num_bets,)."""
        parts = []
        start = 0
        for table, size in zip(self.tables, self.groups, strict=True):
            g = cards[start : start + size]
            g = g[g >= 0]
            parts.append(table[g].sum(axis=0) if len(g) else np.zeros(self.dim, np.float32))
            start += size
        x = np.concatenate(parts)
        x = np.maximum(x @ self.card1[0] + self.card1[1], 0)
        x = np.maximum(x @ self.card2[0] + self.card2[1], 0)
        x = np.maximum(x @ self.card3[0] + self.card3[1], 0)
        b = bets.astype(np.float32)
        y = np.concatenate([np.clip(b, 0, 1e6), (b >= 0).astype(np.float32)])
        y = np.maximum(y @ self.bet1[0] + self.bet1[1], 0)
        y = np.maximum(y @ self.bet2[0] + self.bet2[1] + y, 0)
        z = np.maximum(np.concatenate([x, y]) @ self.comb1[0] + self.comb1[1], 0)
        z = np.maximum(z @ self.comb2[0] + self.comb2[1] + z, 0)
        z = np.maximum(z @ self.comb3[0] + self.comb3[1] + z, 0)
        z = (z - z.mean()) / (z.std(ddof=1) + 1e-5)
        return z @ self.head[0] + self.head[1]
