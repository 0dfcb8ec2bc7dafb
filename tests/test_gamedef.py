"""ACPC game definitions and universal_poker strings -> solvable games (issue 17)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
import typer
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from pokerlab.commands._common import friendly
from pokerlab.errors import ConfigError, PokerlabError
from pokerlab.games import load_game
from pokerlab.games.acpc_cards import HAND_CLASSES, hand_value
from pokerlab.games.acpc_game import AcpcGame
from pokerlab.games.compiled import GameTooLargeError, compile_game
from pokerlab.games.gamedef import (
    INT32_MAX,
    GameDef,
    GameDefError,
    load_gamedef,
    parse_gamedef,
    parse_universal_poker,
    shipped_gamedefs,
)
from pokerlab.solvers.cfr import CFRSolver
from pokerlab.solvers.lp import solve_lp

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import exploitability as os_exploitability  # noqa: E402

from pokerlab.evaluation import exploitability  # noqa: E402
from pokerlab.interop.openspiel import openspiel_game, to_openspiel_policy  # noqa: E402

LEDUC_TEXT = """\
# Leduc
GAMEDEF
limit
numPlayers = 2
numRounds = 2
blind = 1 1
raiseSize = 2 4
firstPlayer = 1 1
maxRaises = 2 2
numSuits = 2
numRanks = 3
numHoleCards = 1
numBoardCards = 0 1
END GAMEDEF
"""

# Definitions checked against OpenSpiel's exploitability: limit and no-limit, 1-3 rounds,
# 1-4 suits (board cards in at most one round: universal_poker's strings are perfect
# recall only then).
OS_GAMES = [
    "gamedef:kuhn",
    "gamedef:leduc",
    "universal_poker(betting=nolimit,numPlayers=2,numRounds=2,blind=1 1,stack=4 4,"
    "firstPlayer=1 1,numSuits=3,numRanks=2,numHoleCards=1,numBoardCards=0 1,"
    "bettingAbstraction=fullgame)",
    "universal_poker(betting=limit,numPlayers=2,numRounds=3,blind=1 1,raiseSize=1 2 2,"
    "firstPlayer=1 1 1,maxRaises=1 1 1,numSuits=3,numRanks=2,numHoleCards=1,"
    "numBoardCards=0 1 0)",
    "universal_poker(betting=nolimit,numPlayers=2,numRounds=1,blind=2 1,stack=4 4,"
    "firstPlayer=2,numSuits=4,numRanks=2,numHoleCards=2,numBoardCards=0,"
    "bettingAbstraction=fullgame)",
    "universal_poker(betting=nolimit,numPlayers=2,numRounds=2,blind=2 1,stack=8 8,"
    "firstPlayer=2 1,numSuits=2,numRanks=4,numHoleCards=1,numBoardCards=0 1)",  # fcpa
]


# ----------------------------------------------------------------------------- parser


def test_parse_leduc_and_defaults() -> None:
    gd = parse_gamedef(LEDUC_TEXT)
    assert gd.betting == "limit" and gd.num_rounds == 2 and gd.blind == (1, 1)
    assert gd.raise_size == (2, 4) and gd.max_raises == (2, 2)
    assert gd.stack == (INT32_MAX, INT32_MAX)  # ACPC default: unlimited
    assert gd == load_gamedef("leduc") == load_gamedef(shipped_gamedefs()["leduc"])
    # ACPC defaults: limit betting, firstPlayer 1, maxRaises 255; case-insensitive, '=' optional
    gd2 = parse_gamedef("gamedef\nNUMPLAYERS 2\nnumrounds = 1\nBlind = 1 1\nraisesize 1\n"
                        "numSuits=1\nnumRanks=3\nnumHoleCards=1\nnumBoardCards=0  # none\n"
                        "end gamedef\n\n# trailing comment\n")
    assert gd2.betting == "limit" and gd2.first_player == (1,) and gd2.max_raises == (255,)
    # values past numPlayers / numRounds are ignored, as ACPC does
    gd3 = parse_universal_poker("universal_poker(betting=limit,numRounds=1,blind=1 1,"
                                "raiseSize=1 1,firstPlayer=1 1,numBoardCards=0 0)")[0]
    assert gd3.raise_size == (1,) and gd3.num_board_cards == (0,)


def test_universal_poker_defaults() -> None:
    gd, ab = parse_universal_poker("universal_poker")
    assert ab == "fcpa" and gd.betting == "nolimit" and gd.stack == (1200, 1200)
    assert gd.blind == (100, 100) and gd.num_ranks == 6 and gd.num_board_cards == (0, 1)
    gd, ab = parse_universal_poker("universal_poker(betting=limit,stack=5 5)")
    assert gd.stack == (INT32_MAX, INT32_MAX) and gd.raise_size == (100, 100)  # as OpenSpiel


@pytest.mark.parametrize("name", sorted(shipped_gamedefs()))
def test_round_trip(name: str) -> None:
    gd = load_gamedef(name)
    assert parse_gamedef(gd.to_acpc()) == gd
    for ab in ("fullgame", "fcpa", "fc"):
        back, ab2 = parse_universal_poker(gd.to_universal_poker(ab))
        assert back == gd
        assert ab2 == ("fcpa" if gd.is_limit and ab == "fullgame" else ab)
        pyspiel.load_game(gd.to_universal_poker(ab))  # OpenSpiel accepts what we write
    # OpenSpiel's own serialisation of the same game parses to the same GameDef
    assert parse_universal_poker(str(pyspiel.load_game(gd.to_universal_poker())))[0] == gd
    other = gd.with_changes(max_raises=(3,) * gd.num_rounds, first_player=(2,) * gd.num_rounds)
    assert parse_gamedef(other.to_acpc()) == other
    assert parse_universal_poker(other.to_universal_poker())[0] == other


def test_limit_stacks_have_no_universal_poker_form() -> None:
    gd = load_gamedef("leduc").with_changes(stack=(50, 50))
    assert parse_gamedef(gd.to_acpc()).stack == (50, 50)
    with pytest.raises(GameDefError, match="ignores stack"):
        gd.to_universal_poker()


BAD_FILES = [
    ("numPlayers = 2\nnumRounds = 1\nblind = 1 1\nraiseSize = 1\nfoo = 3\n", "line 5.*'foo'"),
    ("numPlayers = 2\nnumPlayers = 2\n", r"line 2: numPlayers given twice \(first on line 1\)"),
    ("numPlayers = two\n", "line 1: numPlayers value 'two' is not a non-negative integer"),
    ("numPlayers = -2\n", "line 1: numPlayers value '-2'"),
    ("numPlayers = 2 3\n", "line 1: numPlayers takes at most 1 value"),
    ("limit\nnolimit\n", "line 2: betting type given twice"),
    ("numRounds = 1\n", "numPlayers is missing"),
    ("numPlayers = 2\nnumRounds = 5\n", "line 2: numRounds: invalid number of rounds 5"),
    ("numPlayers = 11\nnumRounds = 1\n", "line 1: numPlayers: invalid number of players 11"),
    ("numPlayers = 2\nnumRounds = 2\nblind = 1 1\nraiseSize = 1\n",
     "line 4: raiseSize: only read 1 value, need 2"),
    ("numPlayers = 2\nnumRounds = 1\nblind = 1 1\nnumSuits = 1\nnumRanks = 3\n"
     "numHoleCards = 1\nnumBoardCards = 0\n", "raiseSize is missing"),
    ("nolimit\nnumPlayers = 2\nnumRounds = 1\nstack = 5 5\nblind = 1 9\nnumSuits = 1\n"
     "numRanks = 3\nnumHoleCards = 1\nnumBoardCards = 0\n",
     r"blind for player 2 \(9\) is greater than its stack \(5\)"),
    ("nolimit\nnumPlayers = 2\nnumRounds = 1\nblind = 1 1\nfirstPlayer = 3\nnumSuits = 1\n"
     "numRanks = 3\nnumHoleCards = 1\nnumBoardCards = 0\n", "invalid first player 3 on round 1"),
    ("nolimit\nnumPlayers = 2\nnumRounds = 1\nblind = 1 1\nnumSuits = 5\n"
     "numRanks = 3\nnumHoleCards = 1\nnumBoardCards = 0\n", "invalid number of suits: 5"),
    ("nolimit\nnumPlayers = 2\nnumRounds = 1\nblind = 1 1\nnumSuits = 4\n"
     "numRanks = 14\nnumHoleCards = 1\nnumBoardCards = 0\n", "invalid number of ranks: 14"),
    ("nolimit\nnumPlayers = 2\nnumRounds = 1\nblind = 1 1\nnumSuits = 4\n"
     "numRanks = 13\nnumHoleCards = 4\nnumBoardCards = 0\n", "invalid number of hole cards: 4"),
    ("nolimit\nnumPlayers = 2\nnumRounds = 2\nblind = 1 1\nnumSuits = 4\n"
     "numRanks = 13\nnumHoleCards = 2\nnumBoardCards = 4 4\n", "too many board cards: 8"),
    ("nolimit\nnumPlayers = 2\nnumRounds = 1\nblind = 1 1\nnumSuits = 1\n"
     "numRanks = 3\nnumHoleCards = 1\nnumBoardCards = 2\n",
     r"too many hole and board cards \(4\) for a deck of 3"),
    (LEDUC_TEXT + "numRanks = 4\n", "line 15: text after END GAMEDEF"),
    ("stack = 99999999999\n", "line 1: stack value 99999999999 does not fit in 32 bits"),
]


@pytest.mark.parametrize(("text", "pattern"), BAD_FILES)
def test_parse_errors_name_line_and_keyword(text: str, pattern: str) -> None:
    with pytest.raises(GameDefError, match=pattern):
        parse_gamedef(text, source="x.game")


@pytest.mark.parametrize(("text", "pattern"), [
    ("universal_poker(foo=1)", "unknown universal_poker parameter 'foo'"),
    ("universal_poker(betting=pot)", "betting should be limit or nolimit, not 'pot'"),
    ("universal_poker(bettingAbstraction=fchpa)", "bettingAbstraction 'fchpa'"),
    ("universal_poker(potSize=100)", "subgame parameter potSize"),
    ("universal_poker(numRanks=x)", "numRanks value 'x'"),
    ("universal_poker(numRanks)", "lacks '=value'"),
    ("universal_poker(numRanks=3,numRanks=4)", "given twice"),
    ("universal_poker(blind=0 0)", "blind of at least one chip"),
    ("universal_poker(numRounds=3)", "firstPlayer: only read 2 values, need 3"),
    ("kuhn_poker()", "not a universal_poker"),
])
def test_universal_poker_errors(text: str, pattern: str) -> None:
    with pytest.raises(GameDefError, match=pattern):
        parse_universal_poker(text)


_TOKENS = ["GAMEDEF", "END GAMEDEF", "limit", "nolimit", "numPlayers", "numRounds", "stack",
           "blind", "raiseSize", "firstPlayer", "maxRaises", "numSuits", "numRanks",
           "numHoleCards", "numBoardCards", "=", "#", " ", "\n", "0", "1", "2", "3", "13",
           "255", "-1", "x", "4294967296", "\t", "é", "\x00", "(", ")", ","]


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(_TOKENS), max_size=40), st.integers(0, len(LEDUC_TEXT)),
       st.integers(0, 30), st.text(max_size=6))
def test_fuzzed_definitions_raise_pokerlab_errors(tokens: list[str], cut: int, drop: int,
                                                  junk: str) -> None:
    texts = [" ".join(tokens), "\n".join(tokens),
             LEDUC_TEXT[:cut] + junk + LEDUC_TEXT[cut + drop:],
             LEDUC_TEXT[:cut] + "\n".join(tokens)]
    for text in texts:
        try:
            gd = parse_gamedef(text)
        except PokerlabError:
            continue
        assert isinstance(gd, GameDef)
        try:  # a definition that parses gives a game or a clear error
            AcpcGame(gd).new_initial_state()
        except PokerlabError:
            pass
    up = "universal_poker(" + ",".join(tokens) + ")"
    for text in (up, up.replace(" = ", "="), "universal_poker(" + junk):
        try:
            parse_universal_poker(text)
        except PokerlabError:
            pass


def test_load_game_errors() -> None:
    with pytest.raises(GameDefError, match="no game definition file 'nope.game'"):
        load_game("gamedef:nope.game")
    with pytest.raises(ConfigError, match="unknown option"):
        load_game("gamedef:kuhn", stack=3)
    with pytest.raises(ConfigError, match="in the string"):
        load_game("universal_poker", betting="limit")
    with pytest.raises(GameDefError, match="two-player"):
        AcpcGame(load_gamedef("kuhn").with_changes(
            num_players=3, blind=(1, 1, 1), stack=()))
    assert load_game("gamedef:leduc", betting_abstraction="fc").betting_abstraction == "fc"


# -------------------------------------------------------------------- hand ranking


def _cards(text: str, num_suits: int) -> list[int]:
    out = []
    for i in range(0, len(text), 2):
        out.append("23456789TJQKA".index(text[i]) * num_suits + "cdhs".index(text[i + 1]))
    return out


def test_hand_value_rules() -> None:
    def v(t: str) -> tuple[int, ...]:
        return hand_value(tuple(sorted(_cards(t, 4))), 4)

    assert v("As2s3s4s5s")[0] == 8 and v("As2s3s4s5s") < v("2s3s4s5s6s")  # wheel is lowest
    assert v("AcAdAhAsKc") > v("KcKdKhKsAc") and v("QcQdQhQsAc") > v("QcQdQhQsKc")
    assert v("AcAd")[0] == 1 and v("AcKd") < v("2c2d")  # fewer than five cards
    assert v("KcQd") > v("KcJd") and v("KcQdJh") > v("KcQdTh")
    assert v("2c2d2h3c3d3h") == (6, 1, 0)  # two trips: full house, top trips
    assert [HAND_CLASSES[v(t)[0]] for t in ("AcKd", "AcAd", "AcAdKcKd", "AcAdAh",
                                            "2c3d4h5s6c", "2c4c6c8cTc", "AcAdAhKcKd",
                                            "AcAdAhAs", "TsJsQsKsAs")] == list(HAND_CLASSES)


def _showdown_game(num_suits: int, num_ranks: int, hole: int, board: int) -> str:
    return (f"universal_poker(betting=limit,numPlayers=2,numRounds=1,blind=1 1,"
            f"raiseSize=1 1,firstPlayer=1 1,numSuits={num_suits},numRanks={num_ranks},"
            f"numHoleCards={hole},numBoardCards={board} {board},bettingAbstraction=fc)")


CRAFTED = [  # p0 hole, p1 hole, board (13 ranks, 4 suits, 2 + 5 cards)
    ("AsKs", "9s8s", "QsJsTs2c3d"), ("As2s", "6d7h", "3s4s5s9cKd"),
    ("AcAd", "KcKd", "AhAsKh2c3d"), ("Ac2d", "Qd3d", "5c5d5h5sKh"),
    ("QhQd", "2h3h", "QcKhKd7h9h"), ("Ah2c", "Kh3c", "Qh9h5h4d2d"),
    ("9c8d", "TcTd", "7h6sTh2c3d"), ("2c3d", "2d3c", "AhKhQhJhTh"),
    ("AcKd", "AdQd", "QcQh5d5s2c"), ("7c2d", "7d3c", "AhAsKdKc9h"),
]


@pytest.mark.parametrize(("suits", "ranks", "hole", "board", "classes"), [
    (4, 13, 2, 5, set(range(9))),
    (2, 6, 2, 3, {0, 1, 2, 4, 5, 8}),    # short deck, 2 suits: no trips, full house, quads
    (3, 5, 3, 1, {0, 1, 2, 3}),          # 4 cards: no straights/flushes, no quads
    (1, 13, 1, 5, {5, 8}),               # one suit: always a flush
])
def test_showdowns_match_universal_poker(suits: int, ranks: int, hole: int, board: int,
                                         classes: set[int]) -> None:
    """Every hand class of these decks, ranked as universal_poker (ACPC) ranks it."""
    text = _showdown_game(suits, ranks, hole, board)
    ours, theirs = load_game(text), pyspiel.load_game(text)
    deck = suits * ranks
    rng = random.Random(suits * 100 + ranks)
    deals = [rng.sample(range(deck), 2 * hole + board) for _ in range(1500)]
    if suits == 4 and ranks == 13:
        deals += [_cards(a + b + c, 4) for a, b, c in CRAFTED]
    seen: set[int] = set()
    outcomes = {1: 0, 0: 0, -1: 0}
    for deal in deals:
        a, b = ours.new_initial_state(), theirs.new_initial_state()
        for c in deal:
            a.apply_action(c)
            b.apply_action(c)
        while not a.is_terminal():
            assert a.legal_actions() == list(b.legal_actions()) == [1]
            a.apply_action(1)
            b.apply_action(1)
        assert b.is_terminal()
        assert a.returns() == list(b.returns()), (deal, a.returns(), b.returns())
        seen |= {a.hand_value(0)[0], a.hand_value(1)[0]}
        outcomes[int(np.sign(a.returns()[0]))] += 1
    assert seen == classes
    assert min(outcomes.values()) > 0  # wins, losses and splits all checked


# ------------------------------------------------------------ playthroughs vs OpenSpiel


@pytest.mark.parametrize(("name", "hands"), [
    ("gamedef:kuhn", 100), ("gamedef:leduc", 200), ("gamedef:leduc5", 100),
    ("gamedef:limit3", 200), ("gamedef:nolimit_short", 200),
    ("gamedef:holdem.nolimit.2p.reverse_blinds", 30), (OS_GAMES[2], 200),
    (OS_GAMES[4], 200),
])
def test_playthroughs_match_universal_poker(name: str, hands: int) -> None:
    ours = load_game(name)
    abstractions = ["fcpa", "fc"] if ours.gamedef.is_limit else ["fullgame", "fcpa", "fc"]
    for ab in abstractions:
        text = ours.gamedef.to_universal_poker(ab)
        game, theirs = load_game(text), pyspiel.load_game(text)
        info = game.info()
        assert info.num_distinct_actions == theirs.num_distinct_actions()
        assert (info.min_utility, info.max_utility) == (theirs.min_utility(),
                                                        theirs.max_utility())
        rng = random.Random(hands)
        for _ in range(hands):
            a, b = game.new_initial_state(), theirs.new_initial_state()
            steps = 0
            while not a.is_terminal():
                assert not b.is_terminal() and a.current_player() == b.current_player()
                if a.is_chance_node():
                    assert a.chance_outcomes() == [(x, p) for x, p in b.chance_outcomes()]
                else:
                    assert a.legal_actions() == list(b.legal_actions())
                    if game.openspiel_strings:
                        for p in (0, 1):
                            assert (a.information_state_string(p)
                                    == b.information_state_string(p))
                    steps += 1
                act = rng.choice(a.legal_actions())
                a.apply_action(act)
                b.apply_action(act)
            assert b.is_terminal() and a.returns() == list(b.returns())
            assert steps <= info.max_game_length


# ------------------------------------------------------------------ solving


@pytest.mark.parametrize(("builtin", "value"), [("kuhn", -1 / 18), ("leduc", -0.085606424078)])
def test_definitions_equal_builtins(builtin: str, value: float) -> None:
    ours, ref = load_game(f"gamedef:{builtin}"), load_game(builtin)
    cg, cr = compile_game(ours), compile_game(ref)
    assert (cg.num_nodes, cg.num_infosets) == (cr.num_nodes, cr.num_infosets)
    assert solve_lp(ours).game_value == pytest.approx(value, abs=1e-9)
    for algo in ("cfr", "cfr+", "dcfr"):
        a, b = CFRSolver(game=ours, config=algo), CFRSolver(game=ref, config=algo)
        curve_a, curve_b = [], []
        for _ in range(25):
            a.run(1)
            b.run(1)
            curve_a.append(a.exploitability())
            curve_b.append(b.exploitability())
        assert curve_a == curve_b  # iteration for iteration, to the last bit
        assert a.game_value() == b.game_value()
    if builtin == "kuhn":
        a.run(3000)
        assert a.game_value() == pytest.approx(value, abs=1e-4)


@pytest.mark.parametrize("name", OS_GAMES)
def test_openspiel_exploitability_of_exported_policy(name: str) -> None:
    game = load_game(name)
    solver = CFRSolver(game=game, config="cfr+")
    solver.run(7)
    policy = solver.average_policy()
    ours = exploitability(game, policy)
    assert ours == pytest.approx(solver.exploitability(), abs=1e-12)
    os_game = openspiel_game(game)
    theirs = os_exploitability.exploitability(os_game, to_openspiel_policy(policy, os_game))
    assert ours > 1e-3 and abs(ours - theirs) < 1e-9


def test_multi_round_boards_are_perfect_recall() -> None:
    game = load_game("gamedef:limit3")
    assert not game.openspiel_strings
    st_ = game.new_initial_state()
    for a in (0, 2, 1, 1, 3, 1, 1, 4):  # deals, check-check, a card, check-check, a card
        st_.apply_action(a)
    assert "[Public: 3d|4c]" in st_.information_state_string(0)
    with pytest.raises(ConfigError, match="imperfect recall"):
        openspiel_game(game)


def test_too_large_suggests_mccfr() -> None:
    game = load_game("gamedef:holdem.nolimit.2p.reverse_blinds")
    with pytest.raises(GameTooLargeError, match=r"about .*e\+.* histories.*os-mccfr"):
        game.check_exact_size()
    assert game.info().big_blind == 100.0
    assert load_game("gamedef:leduc").check_exact_size() < 4e6


# ------------------------------------------------------------------------- CLI


def _cli() -> typer.Typer:
    from pokerlab.commands import game_cmd, solve_cmd

    app = typer.Typer()

    @app.callback()
    def _root() -> None:
        """Test root."""

    for fn in solve_cmd.COMMANDS:
        app.command()(friendly(fn))
    for name, sub, help_ in game_cmd.GROUPS:
        for cmd in sub.registered_commands:
            assert cmd.callback is not None
            cmd.callback = friendly(cmd.callback)
        app.add_typer(sub, name=name, help=help_)
    return app


def test_cli_game_info_and_solve(tmp_path: Path) -> None:
    app, runner = _cli(), CliRunner()
    res = runner.invoke(app, ["game", "info", "gamedef:kuhn", "--json"])
    assert res.exit_code == 0, res.output
    info = json.loads(res.stdout)
    assert (info["histories"], info["information_sets"], info["public_nodes"]) == (58, 12, 9)
    assert info["hands_per_player"] == [3, 3] and info["cfr_memory_bytes"] > 0
    assert info["info"]["num_distinct_actions"] == 3 and info["exact"]
    res = runner.invoke(app, ["game", "info", "gamedef:holdem.nolimit.2p.reverse_blinds",
                              "--json"])
    big = json.loads(res.stdout)
    assert not big["exact"] and big["estimated_histories"] > 1e20
    assert "mccfr" in big["too_large"]
    outs = []
    for name in ("kuhn", "gamedef:kuhn", load_gamedef("kuhn").to_universal_poker()):
        res = runner.invoke(app, ["solve", name, "--algo", "cfr+", "--iterations", "50",
                                  "--json"])
        assert res.exit_code == 0, res.output
        outs.append(json.loads(res.stdout))
    assert outs[0]["exploitability"] == outs[1]["exploitability"] == outs[2]["exploitability"]
    bad = tmp_path / "bad.game"
    bad.write_text("numPlayers = 2\nwhat = 1\n")
    res = runner.invoke(app, ["solve", f"gamedef:{bad}"])
    assert res.exit_code == 2 and "line 2" in res.output and "'what'" in res.output
    res = runner.invoke(app, ["solve", "gamedef:holdem.nolimit.2p.reverse_blinds"])
    assert res.exit_code == 2 and "os-mccfr" in res.output
    res = runner.invoke(app, ["game", "list", "--json"])
    assert {g["name"] for g in json.loads(res.stdout)["games"]} >= {"gamedef:kuhn",
                                                                   "gamedef:leduc"}


def test_bet_set_abstraction() -> None:
    game = load_game("gamedef(path=holdem.nolimit.2p.reverse_blinds,bets=default)")
    assert game.num_distinct_actions() == 6 and game.name == load_game(game.name).name
    st_ = game.new_initial_state()
    for c in range(4):
        st_.apply_action(c)
    assert st_.current_player() == 1  # the small blind (player 2 in the file) opens
    assert st_.legal_actions() == [0, 1, 2, 3, 4]
    assert [st_.action_to_string(a) for a in (2, 3, 4)] == ["Raise to 250", "Raise to 400",
                                                           "Raise to 20000"]
    st_.apply_action(3)  # 4x: raise to 400
    assert st_.spent == [100, 400]
    assert st_.information_state_string(0).endswith("[Sequences: r400]")
    small = load_game("gamedef:nolimit_short", bets="preflop: 2x, a; postflop: 50%, a")
    solver = CFRSolver(game=small, config="cfr+")
    solver.run(50)
    assert exploitability(small, solver.average_policy()) == pytest.approx(
        solver.exploitability(), abs=1e-12)
    with pytest.raises(GameDefError, match="no-limit games only"):
        load_game("gamedef:leduc", bets="default")
    with pytest.raises(ConfigError, match="bet set"):
        openspiel_game(small)


def test_deepcfr_encoder() -> None:
    from pokerlab.deepcfr.encoding import encoder_for

    game = load_game("gamedef:leduc")
    enc = encoder_for(game)
    st_ = game.new_initial_state()
    for a in (0, 3, 2, 1, 4, 1, 2):  # 2c / 3d, raise-call, board 4c, check-raise
        st_.apply_action(a)
    cards, bets = enc.encode(st_, 1)
    assert cards.tolist() == [5, 8]  # 3d, 4c as rank * 4 + suit
    assert bets.tolist() == [1.0, 0.5, -1.0, -1.0, 0.0, pytest.approx(4 / 6), -1.0, -1.0]


def test_illegal_actions() -> None:
    game = load_game("gamedef:nolimit_short")
    st_ = game.new_initial_state()
    for bad in (-1, 8, 2.5):
        with pytest.raises(ConfigError):
            st_.clone().apply_action(bad)  # type: ignore[arg-type]
    st_.apply_action(0)
    st_.apply_action(1)
    assert st_.legal_actions() == [0, 1, 4, 5, 6, 7, 8]  # raise to 4 (2 x blind) .. all-in 8
    for bad in (-1, 2, 3, 9, 2.0):
        with pytest.raises(ConfigError, match="illegal action|integer"):
            st_.clone().apply_action(bad)  # type: ignore[arg-type]
    st_.apply_action(1)  # the button calls; the big blind may not fold
    with pytest.raises(ConfigError, match="illegal action 0"):
        st_.clone().apply_action(0)
    st_.apply_action(1)
    assert st_.is_chance_node() and len(st_.chance_outcomes()) == 6
