"""LBR with raises over the real betting tree in one kernel (issue 26): deal by deal the
same chips as the Python hand loop (the kernel's twin), with LBR's sizes translated into
the agent's tree, randomised translations, other tables and the 56 bet sizes."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.evaluation.lbr import LBRConfig, parse_action_set, per_deal_holdem
from pokerlab.evaluation.lbr_tree import (
    AGENT_NODE,
    KIND,
    LBR_NODE,
    READY,
    RealTree,
    tree_kernel_deals,
    tree_kernel_ok,
)
from pokerlab.holdem.engine import HoldemConfig


def _agent(spec: str, stack_bb: float):  # type: ignore[no-untyped-def]
    from pokerlab.registry import BLUEPRINT_FILES, make_agent, shipped_policy

    if shipped_policy(BLUEPRINT_FILES) is None:
        pytest.skip("no blueprint shipped")
    return make_agent(spec, config=HoldemConfig.from_bb(stack_bb))


@pytest.mark.parametrize("spec,stack_bb,actions,from_round,deals", [
    ("blueprint-100", 100.0, "fcpa", 1, 120),
    ("blueprint-100", 100.0, "fcpa", 3, 120),
    ("blueprint-100", 100.0, "56", 3, 30),
    ("blueprint-100", 200.0, "fcpa", 1, 60),  # a table the policy was not trained for
    ("blueprint-100", 150.0, "fc", 1, 80),  # fold/call off the agent's own table
    ("blueprint-200", 200.0, "fcpa", 2, 60),
    ("blueprint-100", 100.0, "50%, 150%, a", 1, 40),
])
def test_tree_kernel_equals_python_lbr_deal_by_deal(spec: str, stack_bb: float, actions: str,
                                                    from_round: int, deals: int) -> None:
    agent = _agent(spec, stack_bb)
    cfg = HoldemConfig.from_bb(stack_bb)
    lbr = LBRConfig(actions=actions, hands=deals, seed=13, from_round=from_round)
    assert tree_kernel_ok(agent) is not None
    fast = tree_kernel_deals(agent, cfg, lbr, range(deals))
    assert fast is not None
    slow = per_deal_holdem(agent, cfg, lbr, range(deals), kernel=False)
    np.testing.assert_array_equal(fast, slow)
    assert (fast != 0).mean() > 0.5
    # the default path is the kernel
    np.testing.assert_array_equal(per_deal_holdem(agent, cfg, lbr, range(deals)), fast)


def test_real_tree_holds_randomised_translations_and_is_built_lazily() -> None:
    """LBR's pot-size bets fall between the blueprint's sizes: some edges branch, and the
    hands that take each branch agree with the Python path (the test above); nodes are
    built only when a hand reaches them."""
    agent = _agent("blueprint-100", 100.0)
    cfg = HoldemConfig.from_bb(100)
    lbr = LBRConfig(actions="fcpa", hands=200, seed=2)
    rt = RealTree(agent, cfg, parse_action_set("fcpa"), 1)
    assert rt.num_nodes == 2 and not rt.nodes.a[:2, READY].any()
    fast = tree_kernel_deals(agent, cfg, lbr, range(200), tree=rt)
    assert fast is not None
    n = rt.num_nodes
    nb = rt.edges.a[:rt.edges.n, 1]
    assert (nb > 1).any() and (nb >= 1).all()
    kinds = rt.nodes.a[:n, KIND]
    assert (kinds == LBR_NODE).any() and (kinds == AGENT_NODE).any()
    assert len(rt.tracks) == int((rt.nodes.a[:n, READY] == 0).sum()) > 0
    # the same deals again on the built tree: nothing new, the same chips
    again = tree_kernel_deals(agent, cfg, lbr, range(200), tree=rt)
    assert rt.num_nodes == n
    np.testing.assert_array_equal(again, fast)
    slow = per_deal_holdem(agent, cfg, lbr, range(40), kernel=False)
    np.testing.assert_array_equal(fast[:40], slow)


def test_rule_agents_do_not_take_the_tree_kernel() -> None:
    from pokerlab.registry import make_agent

    assert tree_kernel_ok(make_agent("tag")) is None
    assert tree_kernel_ok(make_agent("call")) is None
