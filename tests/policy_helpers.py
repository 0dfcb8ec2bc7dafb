"""Helpers shared by the agent tests (not a test module)."""

from __future__ import annotations

from pathlib import Path

import numpy as np


def random_indexed_policy(path: Path, seed: int, game: str) -> str:
    """Save an indexed policy of random rows over ``game``'s tree at ``path``; its agent spec."""
    from pokerlab.abstraction.action_tree import compile_tree
    from pokerlab.games import load_game
    from pokerlab.policy.indexed import IndexedPolicy, save_indexed_policy

    g = load_game(game)
    tree = compile_tree(g.action_map.bets, g.config)
    buckets = g.bucket_config.buckets
    lay = tree.layout(buckets)
    probs = np.random.default_rng(seed).random(lay.num_values).astype(np.float32)
    pol = IndexedPolicy.from_tree(tree, buckets, probs, metadata={"game": g.game_string()})
    save_indexed_policy(pol, path)
    return f"policy:{path}"
