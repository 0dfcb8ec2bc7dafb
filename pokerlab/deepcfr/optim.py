"""Adam with gradient-norm clipping on one flat parameter buffer.

Deep CFR's networks are small (tens of thousands of parameters) and are trained for
thousands of steps on small batches, so a step of ``torch.optim.Adam`` (even fused) plus
``clip_grad_norm_`` costs mostly per-tensor Python and dispatch overhead: ~20 parameter
tensors, each with its own state.  :class:`FlatAdam` makes every parameter (and its
gradient) a view into one contiguous buffer, so that clipping is one norm and one scale and
the Adam update is five element-wise operations on one vector, whatever the network.

Same arithmetic as ``clip_grad_norm_(params, max_norm)`` followed by
``torch.optim.Adam(params, lr, betas=(0.9, 0.999), eps=1e-8)`` (tested): the total norm
over all gradients, the clip coefficient ``max_norm / (norm + 1e-6)`` clamped at 1, the
bias-corrected moments and ``p -= lr / (1 - b1^t) * m / (sqrt(v) / sqrt(1 - b2^t) + eps)``.
"""

from __future__ import annotations

import math

import torch
from torch import nn


class FlatAdam:
    """Adam over all parameters of ``net``, which are re-seated as views of one buffer.

    Call :meth:`step` after ``loss.backward()``: it clips, updates and zeroes the gradients
    (they accumulate in place into the flat gradient buffer).  :meth:`release` gives every
    parameter its own storage again (the network is then an ordinary module)."""

    def __init__(self, net: nn.Module, *, lr: float, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, max_norm: float | None = None) -> None:
        self.params = [p for p in net.parameters() if p.requires_grad]
        with torch.no_grad():
            self.flat = torch.cat([p.detach().reshape(-1) for p in self.params])
        self.grad = torch.zeros_like(self.flat)
        offset = 0
        for p in self.params:
            k = p.numel()
            p.data = self.flat[offset : offset + k].view_as(p)
            p.grad = self.grad[offset : offset + k].view_as(p)
            offset += k
        self.exp_avg = torch.zeros_like(self.flat)
        self.exp_avg_sq = torch.zeros_like(self.flat)
        self.lr = float(lr)
        self.betas = (float(betas[0]), float(betas[1]))
        self.eps = float(eps)
        self.max_norm = max_norm
        self.steps = 0

    @torch.no_grad()
    def step(self) -> None:
        g = self.grad
        if self.max_norm is not None:
            norm = torch.linalg.vector_norm(g)
            g.mul_(torch.clamp(self.max_norm / (norm + 1e-6), max=1.0))
        self.steps += 1
        b1, b2 = self.betas
        self.exp_avg.lerp_(g, 1.0 - b1)
        self.exp_avg_sq.mul_(b2).addcmul_(g, g, value=1.0 - b2)
        bc1 = 1.0 - b1**self.steps
        bc2 = 1.0 - b2**self.steps
        denom = (self.exp_avg_sq.sqrt() / math.sqrt(bc2)).add_(self.eps)
        self.flat.addcdiv_(self.exp_avg, denom, value=-self.lr / bc1)
        g.zero_()

    def release(self) -> None:
        for p in self.params:
            p.data = p.data.clone()
            p.grad = None
