"""The adaptive agent ``adapt`` (pokerlab/agents/adapt.py): spec, kernel parity, the
restricted Nash LP shared with pokerlab.opponents, safety on Leduc (exact), exploitation,
and its use in matches."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.agents.adapt import (
    AdaptConfig,
    adapt_tree,
    combine_slots,
    parse_spec,
    rnr_slots,
)
from pokerlab.agents.adapt_kernels import (
    constrained_best_response_value,
    constrained_br_value,
)
from pokerlab.errors import AgentError
from pokerlab.evaluation.exploit import best_response, best_response_values, expected_values
from pokerlab.evaluation.matches import play_small_hand, sample_chance, small_hand_end
from pokerlab.registry import build_agent


def _random_slots(cg, rng):
    out = np.zeros(cg.num_slots)
    for i in range(cg.num_infosets):
        lo, hi = int(cg.infoset_offset[i]), int(cg.infoset_offset[i + 1])
        w = rng.random(hi - lo) + 0.05
        out[lo:hi] = w / w.sum()
    return out


# ------------------------------------------------------------------------------ spec
def test_parse_spec_forms() -> None:
    assert parse_spec("adapt") == AdaptConfig()
    assert parse_spec("adapt:policy:x.npz").base == "policy:x.npz"
    c = parse_spec("adapt(base=random, eps=2.5, strength=4, grid=0/0.5/1, pmax=0.5, refit=7)")
    assert (c.base, c.eps, c.strength, c.grid, c.pmax, c.refit) == \
        ("random", 2.5, 4.0, (0.0, 0.5, 1.0), 0.5, 7)
    assert c.ps == (0.0, 0.5)
    assert parse_spec("adapt(eps=inf)").eps == float("inf")


@pytest.mark.parametrize("spec, words", [
    ("adapt(foo=1)", "unknown key 'foo'"),
    ("adapt(eps=x)", "is not a number"),
    ("adapt(eps=-1)", "eps must be >= 0"),
    ("adapt(grid=0/2)", "grid values"),
    ("adapt(refit=0)", "refit must be"),
    ("adapt(eps)", "is not key=value"),
    ("adapt:", "needs a base"),
    ("adaptx", "expected adapt"),
])
def test_parse_spec_errors(spec: str, words: str) -> None:
    with pytest.raises(AgentError, match=words.replace("(", r"\(")):
        parse_spec(spec)


def test_registry_builds_adapt_in_small_games_and_hunl() -> None:
    from pokerlab.agents.adapt_hunl import HUNLAdaptAgent

    ag = build_agent("adapt(base=random,refit=5)", game="kuhn")
    assert ag.name == "adapt(base=random,refit=5)"
    assert ag.budget == 1.0 and ag.hands == 0
    assert isinstance(build_agent("adapt", game="hunl"), HUNLAdaptAgent)  # tests/test_adapt_hunl.py
    with pytest.raises(AgentError, match="small-game option"):
        build_agent("adapt(pmax=0.5)", game="hunl")
    with pytest.raises(AgentError, match="must be a fixed policy"):
        build_agent("adapt:adapt", game="kuhn")


# ------------------------------------------------------------------------------ kernels
@pytest.mark.parametrize("game", ["kuhn", "leduc"])
def test_constrained_br_kernel_matches_twin(game: str) -> None:
    _, tree = adapt_tree(game)
    cg = tree.cg
    rng = np.random.default_rng(3)
    slots = _random_slots(cg, rng)
    br = best_response_values(cg, slots)
    for player in (0, 1):
        # nothing forced: the plain best response
        assert constrained_br_value(cg, slots, player, {}) == pytest.approx(br[player], abs=1e-12)
        assert constrained_best_response_value(cg, slots, player, {}) == \
            pytest.approx(br[player], abs=1e-12)
        mine = [i for i in range(cg.num_infosets) if cg.infoset_player[i] == player]
        for _ in range(3):
            pick = rng.choice(mine, size=min(4, len(mine)), replace=False)
            forced = {int(i): int(cg.infoset_offset[i] + rng.integers(
                cg.infoset_offset[i + 1] - cg.infoset_offset[i])) for i in pick}
            a = constrained_br_value(cg, slots, player, forced)
            b = constrained_best_response_value(cg, slots, player, forced)
            assert a == pytest.approx(b, abs=1e-12)
            assert a <= br[player] + 1e-12


def test_rnr_lp_is_the_one_of_opponents() -> None:
    from pokerlab.opponents.models import load_model
    from pokerlab.opponents.response import model_slots, restricted_response

    game, tree = adapt_tree("kuhn")
    msp = model_slots(tree.cg, load_model("call", game))
    for p in (0.0, 0.5, 1.0):
        r = restricted_response(tree.cg, msp, p)
        np.testing.assert_allclose(rnr_slots(tree.cg, msp, p), r.slot_probs, atol=1e-12)
    # Kuhn, p = 1 against a calling station: the best response never bluffs
    assert restricted_response(tree.cg, msp, 1.0).gain > 0.3


# ------------------------------------------------------------------------------ safety
class _SlotOpponent:
    """Plays the slot probabilities it is given for the hand (pure strategies here)."""

    name = "slots"

    def __init__(self, cg) -> None:
        self.cg = cg
        self.slots = np.zeros(cg.num_slots)
        self.rng = np.random.default_rng(0)

    def reset(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def act_state(self, state, player: int) -> int:
        i = self.cg.infoset_index(state.information_state_string(player))
        lo, hi = int(self.cg.infoset_offset[i]), int(self.cg.infoset_offset[i + 1])
        p = self.slots[lo:hi]
        return int(self.cg.infoset_actions[lo + int(self.rng.choice(hi - lo, p=p / p.sum()))])


def _pure(cg, slots, player, rng):
    from pokerlab.opponents.safe import sample_pure

    return sample_pure(cg, slots, player, rng)


def _br_slots(cg, slots, player):
    out = slots.copy()
    br = best_response(cg, slots, player)
    for key in br.policy.keys():
        i = cg.infoset_index(key)
        lo, hi = int(cg.infoset_offset[i]), int(cg.infoset_offset[i + 1])
        out[lo:hi] = br.policy.probabilities(key)
    return out


def _session(agent, cg, game, opponent_for_hand, hands: int, seed: int = 0):
    """Play ``hands`` hands (agent seat t % 2); per hand the agent's exact expected value
    against the opponent's pure strategy of that hand, and the reference v_seat."""
    rng = np.random.default_rng(seed)
    opp = _SlotOpponent(cg)
    agent.start_match()
    exp, ref = np.zeros(hands), np.zeros(hands)
    for t in range(hands):
        seat = t % 2
        agent.reset(1000 + t)
        mine = agent.strategy(seat).copy()
        opp.slots = opponent_for_hand(t, seat, mine, rng)
        exp[t] = expected_values(cg, combine_slots(cg, mine, opp.slots, seat))[seat]
        ref[t] = agent.reference[seat]
        a_first = (agent, opp) if seat == 0 else (opp, agent)
        play_small_hand(game, a_first[0], a_first[1], 0, 7 * t + 1, 11 * t, 13 * t)
        assert agent.budget >= -1e-9
    return exp, ref


def test_safety_on_leduc_exact() -> None:
    """A gift, then a punisher: 60 hands of a calling station, then every hand a pure best
    response to the strategy the agent plays.  The agent's exact expected total stays above
    the equilibrium's guarantee minus eps, and the budget never goes negative."""
    agent = build_agent("adapt(refit=20,eps=0.5)", game="leduc")
    game, tree = adapt_tree("leduc")
    cg = tree.cg
    from pokerlab.opponents.models import load_model
    from pokerlab.opponents.response import model_slots

    call = model_slots(cg, load_model("call", game))

    def opponent(t, seat, mine, rng):
        if t < 60:
            return call
        return _pure(cg, _br_slots(cg, mine, 1 - seat), 1 - seat, rng)

    exp, ref = _session(agent, cg, game, opponent, 120)
    gap = exp - ref
    assert gap.sum() >= -agent.config.eps - 1e-9          # safe: RWYWE
    assert gap[:60].sum() > 10.0                          # it did exploit the station
    assert gap[60:].sum() >= -(gap[:60].sum() + agent.config.eps) - 1e-9
    # the punisher finds something: the agent did risk some of its winnings
    assert gap[60:].min() < -1e-6
    ps = [p for _, p, _ in agent.trace[:60]]
    assert max(ps) > 0.0


def test_exploits_more_than_the_equilibrium_on_leduc() -> None:
    """Against a calling station the adaptive agent's exact expected value per hand (hands
    50-99) beats the equilibrium's exact value against it."""
    agent = build_agent("adapt(refit=25)", game="leduc")
    game, tree = adapt_tree("leduc")
    cg = tree.cg
    from pokerlab.opponents.models import load_model
    from pokerlab.opponents.response import model_slots

    call = model_slots(cg, load_model("call", game))
    exp, ref = _session(agent, cg, game, lambda t, s, m, r: call, 100)
    nash = np.array([expected_values(cg, combine_slots(cg, agent.base_slots, call, s))[s]
                     for s in (0, 1)]).mean()
    assert nash > 0.5  # the equilibrium already wins ~0.70 chips/hand from the station
    assert exp[50:].mean() > nash + 0.1


# ------------------------------------------------------------------------------ matches
def test_match_uses_observe_and_starts_fresh() -> None:
    from pokerlab.arena import play_match
    from pokerlab.arena.matches import spec_agent

    spec = "adapt(base=random,refit=10)"
    r = play_match(spec, "random", game="kuhn", hands=40, duplicate=True, workers=1)
    assert r.exact_mbb is None and r.hands == 40
    ag = spec_agent(spec, "kuhn", None, 0)
    assert ag.hands == 40 and len(ag.trace) == 40
    play_match(spec, "random", game="kuhn", hands=20, workers=1, seed=1)
    assert ag.hands == 20  # a new match forgets the old opponent
    # the model counted the opponent's decisions (public or shown)
    assert ag.public_counts.sum() + ag.infoset_counts.sum() > 20


def test_model_counts_are_the_observed_model() -> None:
    """The agent's model equals ObservedModel on the same observations."""
    from pokerlab.opponents.estimate import Observation, ObservedModel
    from pokerlab.opponents.response import model_slots

    game, tree = adapt_tree("kuhn")
    cg = tree.cg
    agent = build_agent("adapt(strength=3)", game="kuhn")
    prior = agent.prior_slots
    # one hand: p0 bets, p1 (opponent, card 0) passes = folds; public observation
    rng = np.random.default_rng(0)
    st = game.new_initial_state()
    while not st.is_terminal():
        if st.is_chance_node():
            st.apply_action(sample_chance(st.chance_outcomes(), rng))
        else:
            st.apply_action(1 if st.current_player() == 0 else 0)
    pub_key = None
    s2 = game.new_initial_state()
    while not s2.is_terminal():
        if s2.is_chance_node():
            s2.apply_action(sample_chance(s2.chance_outcomes(), np.random.default_rng(0)))
        elif s2.current_player() == 1:
            pub_key = s2.public_state_string()
            s2.apply_action(0)
        else:
            s2.apply_action(1)
    agent.end_hand(small_hand_end(st, 0, showdown=False))  # the opponent folded
    from pokerlab.policy.tabular import TabularPolicy

    rows = []
    for i, key in enumerate(cg.infoset_keys):
        lo, hi = int(cg.infoset_offset[i]), int(cg.infoset_offset[i + 1])
        rows.append((key, cg.infoset_actions[lo:hi], prior[lo:hi]))
    om = ObservedModel(prior=TabularPolicy.from_rows(rows), strength=3.0)
    om.add([Observation(key=str(pub_key), action=0, private=False)])
    np.testing.assert_allclose(agent.model_slots(), model_slots(cg, om), atol=1e-12)


# ------------------------------------------------------------------------------ issue 30 item 4
def test_leduc_model_round_trip_and_exploit_br(tmp_path) -> None:
    """A Leduc model written by ``opponent model`` (tens of kB) has its format tag in a real
    header and is read back by ``exploit br`` (the model spec loader)."""
    from pathlib import Path

    from pokerlab.games import load_game
    from pokerlab.opponents.estimate import (
        MODEL_FORMAT,
        ObservedModel,
        is_model_file,
        sample_observations,
        save_observed_model,
    )
    from pokerlab.opponents.models import equilibrium, load_model
    from pokerlab.opponents.response import best_response_to_model

    g = load_game("leduc")
    eq = equilibrium(g)
    obs = sample_observations(g, load_model("mix:0.5:nash:random", g), 1, eq, 1500, seed=2)
    m = ObservedModel(prior=eq, strength=1.0, metadata={"game": "leduc"})
    m.add(obs)
    path = tmp_path / "m.json"
    save_observed_model(m, path)
    raw = path.read_bytes()
    assert len(raw) > 4096
    assert raw.index(MODEL_FORMAT.encode()) < 64  # the header, not the end of the file
    assert is_model_file(Path(path))
    back = load_model(str(path), g)
    assert isinstance(back, ObservedModel)
    assert back.infoset_counts == m.infoset_counts and back.strength == 1.0
    assert best_response_to_model(g, back).gain == \
        pytest.approx(best_response_to_model(g, m).gain, abs=1e-12)


def test_blueprint_info_of_the_shipped_thesis_policy_names_its_preset() -> None:
    import json

    from typer.testing import CliRunner

    from pokerlab.cli import app
    from pokerlab.registry import THESIS_FILES, shipped_policy

    p = shipped_policy(THESIS_FILES)
    if p is None:
        pytest.skip("no thesis policy shipped")
    r = CliRunner().invoke(app, ["blueprint", "info", str(p), "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["preset"] == "thesis" and d["cards"] == "preflop_class"


def test_policy_show_legend_and_br_units(tmp_path) -> None:
    import json

    from typer.testing import CliRunner

    from pokerlab.cli import app
    from pokerlab.commands.policy_cmd import key_legend

    assert "p = pass" in str(key_legend("eight_card")) and "'4pb'" in str(key_legend("eight_card"))
    assert key_legend("leduc") is None
    r = CliRunner().invoke(app, ["exploit", "br", "--game", "kuhn", "--opponent", "call",
                                 "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["gain"] == pytest.approx(1 / 3) and d["gain_mbb"] == pytest.approx(1000 / 3)
    assert d["units"]["gain"].startswith("chips per hand")
    r = CliRunner().invoke(app, ["exploit", "br", "--game", "kuhn", "--opponent", "call"])
    assert "gain: 0.333333 chips/hand" in r.stdout


def test_deepcfr_doc_parameter_counts_come_from_the_code() -> None:
    pytest.importorskip("torch")
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "deepcfr_params.py"
    spec = importlib.util.spec_from_file_location("deepcfr_params", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    rows = mod.counts()
    assert rows[0]["parameters"] == 47_939  # FHP at width 64 (the real count)
    assert mod.doc_numbers(mod.DOC.read_text()) == [r["parameters"] for r in rows]


def test_league_with_adapt_reports_a_sampled_value() -> None:
    import json

    from typer.testing import CliRunner

    from pokerlab.cli import app

    r = CliRunner().invoke(app, ["league", "adapt(base=random,refit=10)", "random", "--game",
                                 "kuhn", "--hands", "40", "--json"])
    assert r.exit_code == 0, r.output
    (pair,) = json.loads(r.stdout)["pairings"]
    assert pair["method"] == "sampled" and pair["exact_mbb"] is None
    assert pair["value_ci95_mbb"] == pytest.approx(pair["ci95_mbb"]) and pair["ci95_mbb"] > 0


@pytest.mark.slow
def test_exact_curve_follows_the_offline_rnr_frontier_on_leduc() -> None:
    """adapt(eps=inf,pmax=P) after 400 hands against a calling station: its final strategy's
    exact (exploitability, gain vs the true opponent) lies within 5% of the offline RNR
    frontier to the true opponent (and never above it)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "adapt_table.py"
    spec = importlib.util.spec_from_file_location("adapt_table", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    rows = [r for r in mod.curve("leduc", 400, (0.1, 0.25)) if r["opponent"] == "call"]
    assert len(rows) == 2
    for r in rows:
        assert r["gain"] <= r["rnr_gain"] + 1e-6
        assert r["gain"] >= 0.95 * r["rnr_gain"]
