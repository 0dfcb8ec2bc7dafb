"""Play against the agents: a session engine, a web table (FastAPI + WebSocket) and a
terminal table.

* :mod:`pokerlab.play.session` -- :class:`Session`: the person against an agent, any game;
  its game paths :mod:`~pokerlab.play.holdem_table`, :mod:`~pokerlab.play.small_table` and
  :mod:`~pokerlab.play.generic_table` behind one small interface.
* :mod:`pokerlab.play.server` -- the web server (the ``[web]`` extra) and its protocol.
* :mod:`pokerlab.play.tty` -- the same session in a terminal.
* :mod:`pokerlab.play.opponents` -- exact opponents (LP equilibria of Kuhn, Leduc and the
  generic games, push/fold Nash).
* :mod:`pokerlab.play.generic` -- any small two-player protocol game (``gamedef:PATH``,
  ``universal_poker(...)``) at the table, chosen by capability.

See docs/play.md.
"""

from __future__ import annotations

# the game paths register themselves with Session (one class per path, see session.py)
from pokerlab.play import generic_table, holdem_table, small_table  # noqa: E402, F401
from pokerlab.play.session import GAMES, PlayError, Session, SessionConfig

__all__ = ["GAMES", "PlayError", "Session", "SessionConfig"]
