"""The play tables' registry: the one place that names a game and says what it is.

Every other module of :mod:`pokerlab.play` asks :func:`table_spec` what a game is (played
on the HUNL engine or a game of the Game protocol, in big blinds or chips, which agents it
takes, its stack range) and builds the table class registered for :attr:`TableSpec.table`
(:class:`~pokerlab.play.session.Session` does that); none compares a game's name.

* ``hunl`` -- the hold'em engine against a HUNL agent spec
  (:class:`~pokerlab.play.holdem_table.HoldemSession`);
* ``pushfold`` -- the hold'em engine against the ``pushfold`` agent, every decision of the
  person graded against the equilibrium
  (:class:`~pokerlab.play.pushfold_table.PushFoldSession`);
* ``kuhn``, ``leduc`` -- protocol games with their own card names
  (:mod:`~pokerlab.play.small_table`);
* any other game string -- a small two-player protocol game
  (:class:`~pokerlab.play.generic_table.GenericSession`).
"""

from __future__ import annotations

from dataclasses import dataclass

EQUILIBRIUM_SPECS = ("", "equilibrium", "nash", "lp")
"""Agent specs that mean the game's exact equilibrium (protocol games)."""


@dataclass(frozen=True, kw_only=True)
class TableSpec:
    """What a game is at the play table."""

    game: str
    table: str
    """The key of the table class (``holdem``, ``pushfold``, ``kuhn``, ``leduc``,
    ``generic``; each table class registers itself under one)."""
    engine: bool
    """Played on the hold'em engine: results in big blinds, PHH hand histories."""
    agent: str
    """Which agent it takes: ``hunl`` (a HUNL agent spec), ``game`` (any agent of the game,
    the exact equilibrium by default) or ``own`` (the table's own agent)."""
    stacks: tuple[float, float] | None = None
    """The stack range in big blinds (engine games), ``None``: the game's own."""
    default_stack: float = 100.0
    stack_owner: str = ""
    """How an out-of-range stack's error names the table."""
    equilibrium_name: str = "equilibrium"
    """The name of the exact-equilibrium agent at this table."""

    @property
    def unit(self) -> str:
        """The unit of the results: ``bb`` (engine games) or ``chips``."""
        return "bb" if self.engine else "chips"

    @property
    def hunl_agents(self) -> bool:
        """It plays any HUNL agent spec (a page may choose among the offered ones)."""
        return self.agent == "hunl"

    @property
    def game_agents(self) -> bool:
        """It plays any agent of the game (``--agent``), the exact equilibrium by default."""
        return self.agent == "game"

    @property
    def own_agent(self) -> bool:
        """It plays the table's own agent (the push/fold trainer's), whatever is asked."""
        return self.agent == "own"

    @property
    def solves_equilibrium(self) -> bool:
        """The default agent is the game's exact equilibrium (solved once per game)."""
        return self.game_agents

    @property
    def checked(self) -> bool:
        """A game string loaded through the play table's size checks
        (:func:`pokerlab.play.generic.load_play_game`), not a built-in table."""
        return self.game not in TABLES


TABLES: dict[str, TableSpec] = {
    "hunl": TableSpec(game="hunl", table="holdem", engine=True, agent="hunl",
                      stacks=(2.0, 1000.0), stack_owner="for hunl"),
    "pushfold": TableSpec(game="pushfold", table="pushfold", engine=True, agent="own",
                          stacks=(1.0, 50.0), default_stack=10.0,
                          stack_owner="for the push/fold trainer"),
    "leduc": TableSpec(game="leduc", table="leduc", engine=False, agent="game",
                       equilibrium_name="leduc-equilibrium"),
    "kuhn": TableSpec(game="kuhn", table="kuhn", engine=False, agent="game",
                      equilibrium_name="kuhn-equilibrium"),
}
"""The games with a table of their own (every other game string is a generic one)."""

GAMES = tuple(TABLES)
"""Games with their own table code; every other game string goes the generic way."""


def table_spec(game: str) -> TableSpec:
    """What ``game`` is at the play table (a generic protocol game unless registered)."""
    spec = TABLES.get(game)
    if spec is not None:
        return spec
    return TableSpec(game=game, table="generic", engine=False, agent="game")


def is_equilibrium(agent: str) -> bool:
    """Whether an agent spec asks for the game's exact equilibrium."""
    return agent.strip().lower() in EQUILIBRIUM_SPECS
