"""Games from ACPC definitions work in the applications without special cases: exact LBR,
matches (exact value) and opponent exploitation give the built-in games' numbers."""

from __future__ import annotations

import pytest

from pokerlab.games import load_game

KUHN = "gamedef:pokerlab/data/games/kuhn.game"
LEDUC = "gamedef:pokerlab/data/games/leduc.game"


@pytest.mark.parametrize("gamedef,builtin", [(KUHN, "kuhn"), (LEDUC, "leduc")])
def test_exact_lbr_equals_builtin(gamedef, builtin):
    from pokerlab.agents.small import SmallRandomAgent
    from pokerlab.evaluation.lbr_small import exact_lbr

    for actions in ("fc", "fcpa"):
        a = exact_lbr(load_game(gamedef), SmallRandomAgent(), actions=actions)
        b = exact_lbr(load_game(builtin), SmallRandomAgent(), actions=actions)
        assert a.mbb == pytest.approx(b.mbb, abs=1e-9)
        assert a.mbb > 0


def test_match_exact_value_on_gamedef():
    from pokerlab.arena.matches import play_match

    r = play_match("random", "random", game=KUHN, hands=400, seed=1)
    assert r.exact_mbb == pytest.approx(0.0, abs=1e-9)
    assert abs(r.mean_mbb - r.exact_mbb) <= 3 * r.ci95_mbb


@pytest.mark.parametrize("spec,gain", [("fold", 1.0), ("call", 1 / 3), ("random", 11 / 24)])
def test_exploitation_on_gamedef_kuhn(spec, gain):
    from pokerlab.opponents.models import load_model
    from pokerlab.opponents.response import best_response_to_model, restricted_response

    g = load_game(KUHN)
    m = load_model(spec, g)
    assert best_response_to_model(g, m).gain == pytest.approx(gain, abs=1e-9)
    assert restricted_response(g, m, 0.0).exploitability < 1e-9
