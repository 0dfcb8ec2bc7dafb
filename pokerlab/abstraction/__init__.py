"""Abstractions of heads-up no-limit hold'em: bet sets, action translation, the lossless
hand indexer, card buckets and the action map (see docs/abstraction.md).

* :mod:`pokerlab.abstraction.bets` -- bet sets as data and text, presets, chip amounts.
* :mod:`pokerlab.abstraction.hs_cards` -- hand-strength buckets and the policy agents' bucketers.
* :mod:`pokerlab.abstraction.indexer` -- Waugh's suit-isomorphism indexer per street.
* :mod:`pokerlab.abstraction.buckets` -- EHS / EHS^2 / potential-aware buckets, cached.
* :mod:`pokerlab.abstraction.action_map` -- :class:`ActionMap`: real <-> abstract actions,
  and the nearest / pseudo-harmonic translation of off-tree sizes.
* :mod:`pokerlab.abstraction.tree_count` -- the betting-tree counter (:func:`tree_size`).

The HUNL game over these abstractions is :mod:`pokerlab.games.hunl`.

Submodules are imported on demand (the indexer and buckets compile numba kernels).
"""
