"""Abstractions of heads-up no-limit hold'em: bet sets, action translation, the lossless
hand indexer, card buckets and the abstract game (see docs/abstraction.md).

* :mod:`pokerlab.abstraction.bets` -- bet sets as data and text, presets, chip amounts.
* :mod:`pokerlab.abstraction.translation` -- nearest and pseudo-harmonic action mapping.
* :mod:`pokerlab.abstraction.indexer` -- Waugh's suit-isomorphism indexer per street.
* :mod:`pokerlab.abstraction.buckets` -- EHS / EHS^2 / potential-aware buckets, cached.
* :mod:`pokerlab.abstraction.game` -- :class:`AbstractGame` and the betting-tree counter.

Submodules are imported on demand (the indexer and buckets compile numba kernels).
"""
