"""Exit codes of commands given what a hostile or careless user gives (issue 29): a usage
error is 2, a finding 1, never 3 (an internal error) or a traceback, and the message names
the file or the option."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ckdsl.cli import cli
from ckdsl.session import GameSetup, save_data, start

R4 = "random,random,random,random"


def invoke(*args: str) -> Result:
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output and "internal error" not in result.output
    return result


@pytest.mark.parametrize("where", ["missing/board.svg", "a-folder"])
def test_watch_to_a_board_file_that_cannot_be_written(tmp_path: Path, where: str) -> None:
    (tmp_path / "a-folder").mkdir()
    svg = tmp_path / where
    result = invoke("watch", "--players", R4, "--delay", "0", "--svg", str(svg))
    assert result.exit_code == 1 and f"{svg}: cannot write the board" in result.output


@pytest.mark.parametrize("scheduler", ["nope", "tcp://nohost", "a b:1"])
def test_a_scheduler_that_is_no_address_is_a_usage_error(scheduler: str) -> None:
    result = invoke("simulate", "--players", R4, "--games", "1", "--scheduler", scheduler)
    assert result.exit_code == 2 and "is not a Dask scheduler" in result.output


def test_l10n_with_a_locales_folder_that_does_not_exist(tmp_path: Path) -> None:
    result = invoke("l10n", "check", "--locales", str(tmp_path / "nope"))
    assert result.exit_code == 2 and "does not exist" in result.output


def test_a_folder_without_scenarios_is_a_finding_not_a_pass(tmp_path: Path) -> None:
    (tmp_path / "variant.yaml").write_text("extends: base\n")  # a variant, no scenario
    result = invoke("scenario", str(tmp_path))
    assert result.exit_code == 1 and "no scenario files (*.yaml) here" in result.output


def test_sweep_into_a_file_is_a_usage_error(tmp_path: Path) -> None:
    out = tmp_path / "results.yaml"
    out.write_text("a file\n")
    result = invoke("sweep", "--set", "points_to_win=10..11", "--games", "2", "--out", str(out))
    assert result.exit_code == 2 and "is a file" in result.output
    assert out.read_text() == "a file\n"


def test_a_save_with_an_answer_of_100000_characters_is_named_not_printed(tmp_path: Path) -> None:
    game = start(GameSetup(players=4, seed=1))
    data = dict(save_data(game, GameSetup(players=4, seed=1)))
    data["answers"] = ["build road " + "x" * 100_000]
    save = tmp_path / "long.json"
    save.write_text(json.dumps(data))
    result = invoke("replay", str(save))
    assert result.exit_code == 1 and "answer 1 ('build road xx" in result.output
    assert "(100,011 characters)" in result.output and len(result.output) < 2_000


def test_serve_where_it_cannot_listen_is_a_usage_error() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        result = invoke("serve", "--players", "human,random,random", "--port", port)
    assert result.exit_code == 2 and "--port" in result.output and "in use" in result.output
    result = invoke("serve", "--players", "human,random,random", "--host", "no-such-host.invalid")
    assert result.exit_code == 2 and "cannot listen on 'no-such-host.invalid'" in result.output


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["watch", "--delay", "nan"], "give a number, not nan"),  # (was exit 3: time.sleep)
        (["watch", "--delay", "inf"], "inf is not in the range"),  # (a table that never moves)
        (["compare", "base", "base", "--margin=inf"], "a positive finite number: 'inf'"),
        (["plan", "{tmp}", "--delta", "nan"], "a finite number other than 0, not nan"),
    ],
)
def test_numbers_that_are_not_finite_are_usage_errors(
    tmp_path: Path, args: list[str], said: str
) -> None:
    result = invoke(*[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert result.exit_code == 2 and said in result.output
