"""``pokerlab.commands.option_groups``: options declared once, shared by several commands
(``spot tree|solve|report``' spot template, ``holdem deal|selfplay``' table)."""

from __future__ import annotations

import inspect
import json
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from pokerlab.cli import app
from pokerlab.commands._common import friendly
from pokerlab.commands._validate import option_flags
from pokerlab.commands.option_groups import option_group, with_option_groups

runner = CliRunner()


def _table(stack: float = typer.Option(10.0, "--stack", help="Stack in bb."),
           ante: float = typer.Option(0.0, "--ante", help="Ante in bb.")) -> dict[str, Any]:
    return {"stack": stack, "ante": ante, "pot": 1.5 + 2 * ante}


def _app() -> typer.Typer:
    small = typer.Typer()

    @small.callback()
    def _root() -> None:
        """Test root."""

    @small.command("deal")
    @with_option_groups
    def deal(seed: int = typer.Option(0, "--seed"), game: dict[str, Any] = option_group(_table),
             as_json: bool = typer.Option(False, "--json")) -> None:
        typer.echo(json.dumps({"seed": seed, "game": game, "json": as_json}))

    return small


def test_group_options_take_the_parameter_place_and_come_back_as_one_value() -> None:
    small = _app()
    fn = small.registered_commands[0].callback
    assert fn is not None
    assert list(inspect.signature(fn).parameters) == ["seed", "stack", "ante", "as_json"]
    assert option_flags(friendly(fn, "deal")) == {"seed": "--seed", "stack": "--stack",
                                                  "ante": "--ante", "as_json": "--json"}
    res = runner.invoke(small, ["deal", "--ante", "0.25", "--seed", "7", "--stack", "25"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout) == {"seed": 7, "json": False,
                                      "game": {"stack": 25.0, "ante": 0.25, "pot": 2.0}}
    res = runner.invoke(small, ["deal", "--json"])
    assert json.loads(res.stdout)["game"] == {"stack": 10.0, "ante": 0.0, "pot": 1.5}
    assert "--stack" in runner.invoke(small, ["deal", "--help"]).output


def test_a_name_in_the_group_and_the_command_is_refused() -> None:
    def clash(seed: int = typer.Option(0, "--seed"), stack: float = typer.Option(1.0, "--stack"),
              game: dict[str, Any] = option_group(_table)) -> None:
        pass

    with pytest.raises(ValueError, match="duplicate parameter name"):
        with_option_groups(clash)


def test_spot_commands_validate_and_use_the_template_options() -> None:
    # the validation layer sees each option of the group by its flag
    res = runner.invoke(app, ["spot", "tree", "--board", "Td9d6h", "--pot", "nan", "--stack", "100",
                              "--oop", "AA", "--ip", "KK"])
    assert res.exit_code == 2 and "--pot" in res.output
    res = runner.invoke(app, ["spot", "report", "--stack", "100", "--oop", "AA", "--ip", "KK"])
    assert res.exit_code == 2 and "a report needs --pot" in res.output
    res = runner.invoke(app, ["spot", "solve", "--board", "Td9d6h", "--stack", "100", "--ip", "KK"])
    assert res.exit_code == 2 and "a spot needs --pot, --oop" in res.output
    res = runner.invoke(app, ["spot", "tree", "--board", "Td9d6h", "--pot", "10", "--stack", "100",
                              "--oop", "AA", "--ip", "KK", "--bets", "50%", "--raises", "none",
                              "--allin-threshold", "0", "--json"])
    assert res.exit_code == 0, res.output
    obj = json.loads(res.stdout)
    assert obj["pot"] == 10 and obj["stack"] == 100 and obj["hands"] == [6, 6]
    assert obj["root_actions"] == ["check", "bet 5"]  # 50% of the 10-chip pot


def test_holdem_table_options() -> None:
    res = runner.invoke(app, ["holdem", "deal", "--seed", "1", "--stack", "50", "--sb", "5",
                              "--bb", "10", "--json"])
    assert res.exit_code == 0, res.output
    cfg = json.loads(res.stdout)["config"]
    assert cfg == {"stacks": [500, 500], "small_blind": 5, "big_blind": 10, "ante": 0}
    res = runner.invoke(app, ["holdem", "deal", "--weights", "1,2,3"])
    assert res.exit_code == 2 and "weights must be 5 non-negative integers" in res.output
