from __future__ import annotations

from pathlib import Path

import pytest

from pokerlab.errors import ConfigError
from pokerlab.games import (
    CHANCE,
    TERMINAL,
    State,
    UnknownGameError,
    load_game,
    register_game,
    registered_games,
)
from pokerlab.games.compiled import KIND_CHANCE, KIND_TERMINAL, compile_game
from pokerlab.games.public_tree import build_public_tree


def _lockstep(ours, theirs) -> int:  # type: ignore[no-untyped-def]
    """Walk both trees together; compare everything the protocol exposes."""
    count = 0
    stack = [(ours.new_initial_state(), theirs.new_initial_state())]
    while stack:
        a, b = stack.pop()
        count += 1
        assert a.is_terminal() == b.is_terminal()
        if a.is_terminal():
            assert a.returns() == list(b.returns())
            assert a.current_player() == TERMINAL
            continue
        assert a.is_chance_node() == b.is_chance_node()
        if a.is_chance_node():
            assert a.current_player() == CHANCE
            oa, ob = a.chance_outcomes(), b.chance_outcomes()
            assert [x for x, _ in oa] == [x for x, _ in ob]
            assert [p for _, p in oa] == pytest.approx([p for _, p in ob], abs=1e-15)
            assert [a.action_to_string(x) for x, _ in oa] == [
                b.action_to_string(b.current_player(), x) for x, _ in ob]
        else:
            assert a.current_player() == b.current_player()
            assert a.legal_actions() == b.legal_actions()
            for p in (0, 1):
                assert a.information_state_string(p) == b.information_state_string(p)
            assert [a.action_to_string(x) for x in a.legal_actions()] == [
                b.action_to_string(b.current_player(), x) for x in b.legal_actions()]
        for x in a.legal_actions():
            stack.append((a.child(x), b.child(x)))
    return count


@pytest.mark.parametrize(("ours", "theirs", "size"),
                         [("kuhn", "kuhn_poker", 58), ("leduc", "leduc_poker", 9457)])
def test_same_as_openspiel(ours: str, theirs: str, size: int) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    assert _lockstep(load_game(ours), pyspiel.load_game(theirs)) == size


def _play(game: str, actions: list[int]):  # type: ignore[no-untyped-def]
    st = load_game(game).new_initial_state()
    for a in actions:
        st.apply_action(a)
    return st


def test_eight_card_rules() -> None:
    st = load_game("eight_card").new_initial_state()
    assert isinstance(st, State)
    assert st.chance_outcomes() == [(c, 1 / 8) for c in range(8)]
    st.apply_action(7)
    assert [a for a, _ in st.chance_outcomes()] == [0, 1, 2, 3, 4, 5, 6]
    # gambler (player 0) holds 8 (id 7), dealer holds 3 (id 2)
    assert _play("eight_card", [7, 2, 0, 0]).returns() == [1.0, -1.0]   # pass pass: showdown 1
    assert _play("eight_card", [7, 2, 1, 0]).returns() == [1.0, -1.0]   # bet, dealer folds
    assert _play("eight_card", [7, 2, 1, 1]).returns() == [2.0, -2.0]   # bet call
    assert _play("eight_card", [2, 7, 1, 1]).returns() == [-2.0, 2.0]
    assert _play("eight_card", [2, 7, 0, 1, 0]).returns() == [-1.0, 1.0]  # pass bet fold
    assert _play("eight_card", [2, 7, 0, 1, 1]).returns() == [-2.0, 2.0]  # pass bet call
    st = _play("eight_card", [2, 7, 0, 1])
    assert st.information_state_string() == "2pb"
    assert st.information_state_string(1) == "7pb"
    assert st.legal_actions() == [0, 1] and not st.is_terminal()


def test_leduc_rules_spot_checks() -> None:
    # both check twice, public card 2 (rank 1); player 0 holds 0 (rank 0), player 1 holds 3
    # (rank 1): player 1 pairs the board and wins the 1-chip ante
    assert _play("leduc", [0, 3, 1, 1, 2, 1, 1]).returns() == [-1.0, 1.0]
    # equal ranks split
    assert _play("leduc", [0, 1, 1, 1, 4, 1, 1]).returns() == [0.0, 0.0]
    # raise 2 in round 1, raise 4 in round 2, call: pot 2*(1+2+4)
    st = _play("leduc", [4, 0, 2, 1, 2, 2, 2, 1])  # board 2; raise, re-raise, call
    assert st.returns() == [11.0, -11.0]
    st = _play("leduc", [4, 0, 2, 2])
    assert st.legal_actions() == [0, 1]   # two raises: no third
    assert _play("leduc", [4, 0, 2, 2, 0]).returns() == [-3.0, 3.0]  # raiser folds to re-raise


def test_child_leaves_state_unchanged_and_illegal_actions() -> None:
    st = _play("leduc", [0, 1])
    key = st.information_state_string()
    st.child(2)
    assert st.information_state_string() == key
    with pytest.raises(ConfigError, match="illegal leduc action 0"):
        st.apply_action(0)
    with pytest.raises(ConfigError, match="illegal deal 5"):
        _play("kuhn", [5])


def test_registry() -> None:
    assert {"kuhn", "leduc", "eight_card"} <= set(registered_games())
    assert load_game("kuhn").name == "kuhn"
    with pytest.raises(UnknownGameError, match="'no_such_game'"):
        load_game("no_such_game")

    class Tiny:
        name = "tiny_test_game"

    register_game("tiny_test_game", Tiny)
    assert isinstance(load_game("tiny_test_game"), Tiny)
    register_game("tiny_test_game", Tiny)  # same factory again: fine
    with pytest.raises(ConfigError, match="already registered"):
        register_game("tiny_test_game", lambda: None)


@pytest.mark.parametrize(("name", "infosets", "nodes"),
                         [("kuhn", 12, 58), ("eight_card", 32, 1 + 8 + 56 * 9),
                          ("leduc", 936, 9457)])
def test_compile_counts(name: str, infosets: int, nodes: int) -> None:
    game = load_game(name)
    cg = compile_game(game)
    assert cg.num_infosets == infosets
    assert cg.num_nodes == nodes
    assert compile_game(game) is cg  # cached per game object
    # children always after their parent; chance probabilities sum to one
    for h in range(cg.num_nodes):
        s, c = cg.child_start[h], cg.child_count[h]
        assert all(cg.children[s:s + c] > h)
        if cg.kind[h] == KIND_CHANCE:
            assert cg.edge_prob[s:s + c].sum() == pytest.approx(1.0)
    tree = build_public_tree(game)
    assert tree.num_infosets == infosets
    assert build_public_tree(game) is tree
    # one chance-weighted utility matrix per terminal public state
    assert tree.utility.shape[0] == int((tree.kind == KIND_TERMINAL).sum())


def test_lazy_registration(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import sys

    import pokerlab.games as games

    monkeypatch.setitem(games._LAZY_MODULES, "lazy_test_game", "lazy_test_game_module")
    with pytest.raises(UnknownGameError, match="lazy_test_game_module"):
        load_game("lazy_test_game")
    (tmp_path / "lazy_test_game_module.py").write_text(
        "from pokerlab.games import register_game\n"
        "class G:\n    name = 'lazy_test_game'\n"
        "register_game('lazy_test_game', G)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert load_game("lazy_test_game").name == "lazy_test_game"
    assert "lazy_test_game" in registered_games()
    sys.modules.pop("lazy_test_game_module", None)
    games._REGISTRY.pop("lazy_test_game", None)


def test_size_estimate_and_limits() -> None:
    from pokerlab.games.compiled import GameTooLargeError, estimate_tree_size

    for name, size in [("kuhn", 58), ("leduc", 9457), ("eight_card", 513)]:
        est = estimate_tree_size(load_game(name), samples=400)
        assert size / 2 < est < size * 2
    with pytest.raises(GameTooLargeError, match="too large for a full-width public tree"):
        build_public_tree(load_game("leduc"), max_nodes=100)
    with pytest.raises(GameTooLargeError, match="too large for exact array compilation"):
        compile_game(load_game("leduc"), max_nodes=100)


def _extent(state, full_chance: bool):  # type: ignore[no-untyped-def]
    """(min return, max return, most player actions, zero-sum everywhere) below ``state``."""
    if state.is_terminal():
        r = state.returns()
        return min(r), max(r), 0, abs(sum(r)) < 1e-9
    if state.is_chance_node():
        outcomes = [a for a, _ in state.chance_outcomes()]
        acts, step = (outcomes if full_chance else outcomes[len(outcomes) // 2:][:1]), 0
    else:
        acts, step = state.legal_actions(), 1
    lo, hi, length, zero = float("inf"), float("-inf"), 0, True
    for a in acts:
        a_lo, a_hi, a_len, a_zero = _extent(state.child(a), full_chance)
        lo, hi, length = min(lo, a_lo), max(hi, a_hi), max(length, a_len + step)
        zero = zero and a_zero
    return lo, hi, length, zero


@pytest.mark.parametrize("name,full", [("kuhn", True), ("eight_card", True), ("leduc", True),
                                       ("flop_holdem", False), ("tictactoe", True)])
def test_game_info_matches_the_tree(name: str, full: bool) -> None:
    from pokerlab.games.protocol import GameInfo, big_blind_of, game_info

    game = load_game(name)
    info = game.info()
    assert isinstance(info, GameInfo) and game_info(game) == info
    assert info.num_players == game.num_players == 2  # a property in every game
    assert info.num_distinct_actions == game.num_distinct_actions()
    lo, hi, length, zero = _extent(game.new_initial_state(), full)
    assert (lo, hi, length, zero) == (info.min_utility, info.max_utility,
                                      info.max_game_length, info.zero_sum)
    assert big_blind_of(game) == (2.0 if name == "flop_holdem" else 1.0)
    assert info.to_json()["big_blind"] == info.big_blind


def test_pushfold_game_info() -> None:
    from pokerlab.pushfold.game import PushFoldConfig, PushFoldGame

    info = PushFoldGame(config=PushFoldConfig(stack=10.0)).info()
    assert (info.num_players, info.num_distinct_actions, info.max_game_length) == (2, 2, 2)
    assert (info.min_utility, info.max_utility, info.big_blind) == (-10.0, 10.0, 1.0)
