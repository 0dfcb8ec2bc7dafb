from __future__ import annotations

import numpy as np
import pytest

from pokerlab.errors import ConfigError
from pokerlab.evaluation import tabulate_policy
from pokerlab.games import load_game
from pokerlab.policy import FirstActionPolicy, TabularPolicy, UniformRandomPolicy

pyspiel = pytest.importorskip("pyspiel")

from pokerlab.interop.openspiel import (  # noqa: E402
    from_openspiel_policy,
    openspiel_game,
    to_openspiel_policy,
)


@pytest.mark.parametrize("name", ["kuhn", "leduc"])
def test_roundtrip(name: str) -> None:
    game = load_game(name)
    tab = tabulate_policy(game, FirstActionPolicy())
    osp = to_openspiel_policy(tab, game)
    assert len(osp.state_lookup) == len(tab)
    back = from_openspiel_policy(osp, name)
    assert back.to_dict() == {k: tab.policy_for_key(k) for k in back}
    # a non-tabular policy converts by walking our game
    generic = to_openspiel_policy(UniformRandomPolicy(), game)
    uni = to_openspiel_policy(tabulate_policy(game, UniformRandomPolicy()), game)
    np.testing.assert_allclose(generic.action_probability_array, uni.action_probability_array)
    assert openspiel_game(name).get_type().short_name == f"{name}_poker"


def test_errors() -> None:
    with pytest.raises(ConfigError, match="'eight_card'"):
        to_openspiel_policy(UniformRandomPolicy(), "eight_card")
    with pytest.raises(ConfigError, match="lacks"):
        to_openspiel_policy(TabularPolicy.from_dict({"0": {0: 1.0, 1: 0.0}}), "kuhn")
    partial = TabularPolicy.from_dict({"0": {0: 1.0, 1: 0.0}}, missing="uniform")
    osp = to_openspiel_policy(partial, "kuhn")
    assert osp.action_probability_array[osp.state_lookup["0"]].tolist() == [1.0, 0.0]
