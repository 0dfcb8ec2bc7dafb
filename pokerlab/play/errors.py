"""The play package's error type (re-exported by :mod:`pokerlab.play.session`)."""

from __future__ import annotations

from pokerlab.errors import PokerlabError


class PlayError(PokerlabError):
    """A move or request the session cannot accept (the message says why)."""
