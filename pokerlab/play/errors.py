"""The play package's error types (re-exported by :mod:`pokerlab.play.session`)."""

from __future__ import annotations

from pokerlab.errors import PokerlabError


class PlayError(PokerlabError):
    """A move or request the session cannot accept (the message says why)."""

    code = ""
    """A short machine-readable reason sent with the error (``""``: none)."""


class StaleDecision(PlayError):
    """A move for a decision that is not the current one (nothing was applied)."""

    code = "stale"


class ServerFull(PlayError):
    """No room for another session (the whole server, or this client's share)."""

    code = "full"
