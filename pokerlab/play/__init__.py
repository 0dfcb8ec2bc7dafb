"""Play against the agents: a session engine, a web table (FastAPI + WebSocket) and a
terminal table.

* :mod:`pokerlab.play.session` -- :class:`Session`: the person against an agent, any game;
  its tables :mod:`~pokerlab.play.holdem_table`, :mod:`~pokerlab.play.pushfold_table`,
  :mod:`~pokerlab.play.small_table` and :mod:`~pokerlab.play.generic_table` behind one
  small interface, chosen by what the game is (:mod:`pokerlab.play.registry`, the one
  place that names games); their events, one family (:class:`~pokerlab.play.session.TableEvent`).
* :mod:`pokerlab.play.server` -- the web server (the ``[web]`` extra) and its protocol.
* :mod:`pokerlab.play.tty` -- the same session in a terminal.
* :mod:`pokerlab.play.opponents` -- exact opponents (LP equilibria of Kuhn, Leduc and the
  generic games, push/fold Nash).
* :mod:`pokerlab.play.generic` -- any small two-player protocol game (``gamedef:PATH``,
  ``universal_poker(...)``) at the table, chosen by capability.

See docs/play.md.
"""

from __future__ import annotations

# the tables register themselves with Session (one class per table, see session.py)
from pokerlab.play import (  # noqa: E402, F401
    generic_table,
    holdem_table,
    pushfold_table,
    small_table,
)
from pokerlab.play.session import GAMES, PlayError, Session, SessionConfig

__all__ = ["GAMES", "PlayError", "Session", "SessionConfig"]
