"""The search agent's grouped configuration (pokerlab.agents.search.config): one table of
spec keys, validation per group, flat reads, the spec round trip, the docs table, and the
shared ``name(k=v,...)`` parser (pokerlab.games.spec)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pokerlab.agents.search import (
    KEYS,
    Budget,
    DepthLimit,
    Opponent,
    Safety,
    SearchConfig,
    Tree,
    keys_markdown,
    parse_search_spec,
)
from pokerlab.errors import AgentError, ConfigError
from pokerlab.games.spec import check_keys, parse_call, split_params

DOCS = Path(__file__).resolve().parents[1] / "docs" / "search.md"


def test_keys_are_grouped_once() -> None:
    assert list(KEYS) == ["ms", "iters", "target", "threads", "memory", "street", "bets", "raises",
                          "river_bets", "raise_cap", "safe", "gadget", "floor", "anchor", "verify",
                          "model", "lock", "learn", "tilt", "tilt_obs", "tilt_lock", "depth", "runouts",
                          "bias", "leaves"]
    groups = {"budget": Budget, "tree": Tree, "safety": Safety, "opponent": Opponent,
              "depth_limit": DepthLimit}
    for k in KEYS.values():
        assert k.field in {f.name for f in groups[k.group].__dataclass_fields__.values()}
    sizes = {g: sum(1 for k in KEYS.values() if k.group == g) for g in groups}
    assert sizes == {"budget": 5, "tree": 5, "safety": 5, "opponent": 6, "depth_limit": 4}


def test_groups_and_flat_reads() -> None:
    cfg, base = parse_search_spec("search(ms=250,iters=20,street=turn,bets=33%+75%,safe=1,floor=0.1,"
                                  "tilt=0,depth=0,bias=3):tag")
    assert base == "tag"
    assert cfg.budget == Budget(ms=250.0, iterations=20)
    assert cfg.tree == Tree(street=2, bets="33%,75%")
    assert cfg.safety == Safety(safe=True, floor=0.1)
    assert cfg.opponent == Opponent(tilt=False)
    assert cfg.depth_limit == DepthLimit(bias=3.0)
    flat = (cfg.ms, cfg.iters, cfg.iterations, cfg.street, cfg.safe, cfg.bias)
    assert flat == (250.0, 20, 20, 2, True, 3.0)
    assert SearchConfig.from_keys(ms=250, iters=20) == SearchConfig(budget=Budget(ms=250, iterations=20))
    assert cfg.replace(ms=500).budget.ms == 500.0 and cfg.replace(ms=500).tree == cfg.tree
    with pytest.raises(AttributeError):
        _ = cfg.nonsense
    with pytest.raises(AgentError, match="ms"):
        Budget(ms=0)
    with pytest.raises(AgentError, match="raise_cap"):
        Tree(raise_cap=11)
    with pytest.raises(AgentError, match="choose one"):
        Opponent(tilt=True, learn=5)
    with pytest.raises(AgentError, match="leaves must be one of river, modicum"):
        parse_search_spec("search(street=turn,depth=1,leaves=exact)")
    assert parse_search_spec("search(depth=1,leaves=RIVER)")[0].depth_limit.leaves == "river"
    with pytest.raises(AgentError, match="cannot be safe"):
        SearchConfig(safety=Safety(safe=True), opponent=Opponent(lock=True))
    # a depth-limited search may be safe (its first gadget values the leaves by the continuation)
    assert SearchConfig(safety=Safety(safe=True), depth_limit=DepthLimit(depth=1)).safety.safe


@pytest.mark.parametrize("spec", ["search", "search(ms=100)", "search(iters=50,safe=0)",
                                  "search(iters=50,safe=1,gadget=bp)", "search(street=turn,depth=1)",
                                  "search(iters=50,learn=100,lock=1)",
                                  "search(iters=50,model=policy:tag_model.npz,lock=1)",
                                  "search(ms=300,street=flop,bets=33%+75%,raises=3x,river_bets=50%,"
                                  "raise_cap=2,target=1.5,threads=2,memory=1e9,floor=0.05,anchor=0,"
                                  "verify=0,tilt_obs=10,tilt_lock=0,runouts=4,bias=2):tag"])
def test_spec_round_trip(spec: str) -> None:
    cfg, base = parse_search_spec(spec)
    again, base2 = parse_search_spec(cfg.to_spec(base))
    assert (again, base2) == (cfg, base)
    assert set(cfg.to_json()) == set(KEYS)


def test_spec_errors_list_the_keys_once() -> None:
    with pytest.raises(AgentError) as info:
        parse_search_spec("search(bogus=1)")
    assert str(info.value).endswith("known: " + ", ".join([*KEYS, "base"]))
    for bad, msg in (("search(ms)", "key=value"), ("search(ms=)", "key=value"),
                     ("searchx", "bad search spec"),
                     ("search(ms=1", "expected search"), ("search(ms=1)x", "expected search"),
                     ("search:", "needs a base spec"), ("search(street=preflop)", "street must be"),
                     ("search(iters=1.5)", "iters='1.5' is not an integer")):
        with pytest.raises(AgentError, match=msg.replace("(", r"\(")):
            parse_search_spec(bad)
    # accepted as before: the last of a repeated key wins, upper-case keys, base= overrides
    cfg, base = parse_search_spec("SEARCH(MS=100,ms=200,base=tag):call")
    assert cfg.ms == 200.0 and base == "tag"


def test_docs_table_is_the_key_table() -> None:
    text = DOCS.read_text()
    start = text.index("<!-- search-keys:start -->\n") + len("<!-- search-keys:start -->\n")
    end = text.index("<!-- search-keys:end -->")
    assert text[start:end].strip() == keys_markdown()


def test_shared_spec_parser() -> None:
    c = parse_call("name(a=1, b=x(1,2),c='q,r'):rest", error=ConfigError, what="thing", usage="name(k=v)")
    assert (c.name, c.params, c.suffix) == ("name", (("a", "1"), ("b", "x(1,2)"), ("c", "'q,r'")), "rest")
    assert parse_call("name:base:x", error=ConfigError, what="t", usage="u").suffix == "base:x"
    upper = parse_call("Name(A=1)", error=ConfigError, what="t", usage="u", lower_keys=False)
    assert upper.params == (("A", "1"),)
    assert split_params("a=1,2,b=3", keyed_commas=True) == ["a=1,2", "b=3"]
    assert split_params("a=1,2,b=3") == ["a=1", "2", "b=3"]
    for bad, msg in (("n(a=1", "expected"), ("n(a=1,a=2)", "given twice"), ("n(a)", "not key=value"),
                     ("n(a=1):x", "expected"), ("n(a='1)", "expected"), ("(a=1)", "expected")):
        with pytest.raises(ConfigError, match=msg):
            parse_call(bad, error=ConfigError, what="t", usage="n(k=v)", suffix=False)
    with pytest.raises(ConfigError, match="unknown key 'z'; known: a, b"):
        check_keys(parse_call("n(z=1)", error=ConfigError, what="t", usage="u"), ("a", "b"),
                   error=ConfigError, what="t")
