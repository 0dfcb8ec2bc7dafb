"""The configs' shared field checks (pokerlab.checks) and the configs that use them."""

from __future__ import annotations

import math
from dataclasses import dataclass

import pytest

from pokerlab.checks import check_counts, check_finite_at_least
from pokerlab.errors import AgentError, ConfigError


@dataclass(frozen=True)
class _Fields:
    a: object = 1
    b: object = 2.5


def test_check_counts_accepts_whole_numbers_and_names_the_first_bad_field() -> None:
    check_counts(_Fields(a=1, b=7), ("a", "b"))
    check_counts(_Fields(a=10**12), ("a",), most=10**12)
    for bad in (0, -3, 2.0, True, "3", None):
        with pytest.raises(ConfigError) as info:
            check_counts(_Fields(a=5, b=bad), ("a", "b"))
        assert str(info.value) == f"b must be a positive integer, got {bad!r}"
    with pytest.raises(AgentError) as agent_info:
        check_counts(_Fields(a=10**12 + 1), ("a",), error=AgentError, prefix="x: ", most=10**12)
    assert str(agent_info.value) == ("x: a must be a positive integer (at most 1000000000000), "
                               "got 1000000000001")


def test_check_finite_at_least_refuses_nan_inf_and_small_values() -> None:
    check_finite_at_least(_Fields(a=0, b=0.0), ("a", "b"))
    check_finite_at_least(_Fields(a=1.5), ("a",), 1.5)
    for bad in (math.nan, math.inf, -math.inf, -0.5):
        with pytest.raises(ConfigError) as info:
            check_finite_at_least(_Fields(b=bad), ("a", "b"), prefix="DCFR ")
        assert str(info.value) == f"DCFR b must be a finite number >= 0, got {bad!r}"
    with pytest.raises(ConfigError, match=r"^a must be a finite number >= 2, got 1.5$"):
        check_finite_at_least(_Fields(a=1.5), ("a",), 2)


def test_the_configs_give_the_shared_messages() -> None:
    from pokerlab.agents.adapt_hunl import HUNLAdaptConfig
    from pokerlab.blueprint.thesis import ThesisConfig
    from pokerlab.subgame.solve_config import SolveConfig

    with pytest.raises(ConfigError, match=r"^DCFR beta must be a finite number >= 0, got nan$"):
        SolveConfig(beta=math.nan)
    assert SolveConfig(alpha=0.0, beta=0.0, gamma=0.0).discounts(3) == (0.5, 0.5, 1.0, False)
    with pytest.raises(ConfigError, match=r"^record_every must be a positive integer, got 0$"):
        ThesisConfig(record_every=0)
    with pytest.raises(AgentError, match=r"^adapt: strength must be a finite number >= 0, "
                                         r"got inf$"):
        HUNLAdaptConfig(strength=math.inf)
    with pytest.raises(AgentError, match=r"^adapt: slice must be a positive integer \(at most "
                                         r"1000000000000\), got 0$"):
        HUNLAdaptConfig(slice=0)
    assert HUNLAdaptConfig(refit=10**12).refit == 10**12


def test_deepcfr_config_refuses_a_bool_count() -> None:
    from pokerlab.deepcfr.config import DeepCFRConfig

    with pytest.raises(ConfigError, match=r"^batch must be a positive integer, got True$"):
        DeepCFRConfig(game="kuhn", batch=True)
    with pytest.raises(ConfigError, match=r"^dim must be a positive integer, got 0$"):
        DeepCFRConfig(game="kuhn", dim=0)
    assert DeepCFRConfig(game="kuhn", iterations=1).iterations == 1
