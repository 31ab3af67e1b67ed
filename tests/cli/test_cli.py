"""The ``halali`` command's rules subcommands: new, legal, apply, perft, --rules and bad input."""

from __future__ import annotations

import argparse
import io
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from halali.cli import COMMAND_MODULES, CORE_COMMANDS, build_parser, main
from halali.games.forest import Position, parse_position, perft

FOX = "7/7/7/3F3/7/7/t5N blue - - - - 0 - -"
OVER = "7/7/7/3F3/7/7/6N blue - - - 0 0 - -"


Runner = Callable[..., tuple[int, str, str]]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Runner:
    """Run ``halali.cli.main`` in this process: (exit status, stdout, stderr)."""

    def run(args: list[str], stdin: str | None = None) -> tuple[int, str, str]:
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        status = main(args)
        out, err = capsys.readouterr()
        return status, out, err

    return run


def _one_error_line(err: str, *words: str) -> None:
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("halali: error: ")
    assert "Traceback" not in err
    for word in words:
        assert word in lines[0], lines[0]


def test_new_with_a_seed_prints_that_deal(cli: Runner) -> None:
    status, out, _ = cli(["new", "--seed", "17"])
    assert status == 0
    assert out == Position.deal(seed=17).fen() + "\n"
    assert cli(["new", "--seed", "17"])[1] == out
    assert cli(["new", "--seed", "18"])[1] != out
    fresh = parse_position(out.strip())
    assert len(fresh.hidden) == 48 and fresh.knows_deal()


def test_new_without_a_seed_deals_from_the_secure_source(cli: Runner) -> None:
    a = cli(["new"])[1]
    b = cli(["new"])[1]
    assert parse_position(a.strip()).fen() == a.strip()
    assert a != b  # two secure deals coincide with probability far below 1e-40


def test_legal_prints_the_sorted_actions_on_one_line(cli: Runner) -> None:
    status, out, _ = cli(["legal", FOX])
    assert status == 0
    expected = sorted(["?a1", "d4-a4", "d4-b4", "d4-c4", "d4-d1", "d4-d2", "d4-d3", "d4-d5", "d4-d6", "d4-d7",
                       "d4-e4", "d4-f4", "d4-g4"])
    assert out == " ".join(expected) + "\n"
    # The position may also come as separate words (an unquoted shell argument).
    assert cli(["legal", *FOX.split()])[1] == out


def test_legal_reads_positions_from_stdin_one_line_each(cli: Runner) -> None:
    pos = Position.deal(seed=3)
    status, out, err = cli(["legal"], stdin=f"{FOX}\n\n{OVER}\n{pos.fen()}\n")
    assert status == 0 and err == ""
    lines = out.split("\n")
    assert lines[0].startswith("?a1 d4-a4")
    assert lines[1] == ""  # an empty input line
    assert lines[2] == ""  # a finished game: no legal action
    assert lines[3] == " ".join(sorted(pos.action_str(a) for a in pos.legal_actions()))
    assert len(lines[3].split()) == 48


def test_legal_batch_answers_every_line_and_reports_a_bad_one(cli: Runner) -> None:
    status, out, err = cli(["legal"], stdin=f"{FOX}\nnot a position\n{FOX}\n")
    assert status == 2
    lines = out.split("\n")
    assert lines[0] == lines[2] != ""
    assert lines[1] == ""
    _one_error_line(err, "line 2", "9 fields")


def test_apply_prints_the_position_after_the_actions(cli: Runner) -> None:
    status, out, _ = cli(["apply", FOX, "d4-d6", "g1-g2"])
    assert status == 0
    assert out == "7/3F3/7/7/7/6N/t6 blue d4d6 g1g2 - - 2 - -\n"


def test_apply_batch_reads_position_semicolon_actions(cli: Runner) -> None:
    deal = Position.deal(seed=9)
    expected = deal.copy()
    expected.play("?a1")
    expected.play("?g7")
    stdin = f"{FOX} ; d4-d6 g1-g2\n{deal.fen()} ; ?a1 ?g7\n{FOX} ;\n"
    status, out, err = cli(["apply"], stdin=stdin)
    assert status == 0, err
    assert out.split("\n")[:3] == ["7/3F3/7/7/7/6N/t6 blue d4d6 g1g2 - - 2 - -", expected.fen(), FOX]


def test_apply_batch_reports_illegal_actions_by_line(cli: Runner) -> None:
    stdin = f"{FOX} ; d4-d6\n{FOX} ; d4-e5\n{FOX}\n"
    status, out, err = cli(["apply"], stdin=stdin)
    assert status == 2
    lines = out.split("\n")
    assert lines[0] != "" and lines[1] == "" and lines[2] == ""
    errors = err.splitlines()
    assert len(errors) == 2
    assert "line 2" in errors[0] and "straight line" in errors[0]
    assert "line 3" in errors[1] and "POSITION ; ACTION" in errors[1]


def test_perft_counts_sequences(cli: Runner) -> None:
    pos = Position.deal(seed=4)
    status, out, _ = cli(["perft", pos.fen(), "2"])
    assert status == 0
    assert out == f"{perft(pos, 2)}\n" == "2256\n"
    assert cli(["perft", FOX, "0"])[1] == "1\n"


def test_rules_options_change_what_is_legal(cli: Runner) -> None:
    stalled = FOX.replace(" 0 - -", " 3 - -")
    assert cli(["legal", stalled])[1].count(" ") == 12
    status, out, _ = cli(["legal", "--rules", "stall_limit=3", stalled])
    assert status == 0 and out == "?a1\n"
    status, out, _ = cli(["apply", "--rules", "green_lock=revealed_only",
                                                "--rules", "no_return_neutrals=true",
                                                "7/7/7/2D4/7/7/t5N blue - - - - 0 - -", "c4-c6"])
    assert out == "7/2D4/7/7/7/7/t5N brown c4c6 - - - 1 - -\n"


@pytest.mark.parametrize(("args", "words"), [
    (["legal", "7/7/7 blue"], ["9 fields"]),
    (["legal", "7/7/7/3X3/7/7/t6 blue - - - - 0 - -"], ["unknown letter 'X'", "d4"]),
    (["apply", FOX, "d4-d6", "d6-d4", "d4-e5"], ["d6-d4", "brown may not", "fox"]),
    (["apply", FOX, "d4-e5"], ["straight line"]),
    (["apply", FOX, "jump"], ["'jump' is not an action"]),
    (["apply", OVER, "d4-d5"], ["the game is over"]),
    (["legal", "--rules", "stall_limit=soon", FOX], ["stall_limit"]),
    (["legal", "--rules", "colour=red", FOX], ["unknown rule option 'colour'"]),
    (["new", "--rules", "green_lock"], ["is not KEY=VALUE"]),
    (["perft", Position.deal(seed=1).public_fen(), "2"], ["knows the deal"]),
    (["perft", FOX, "-1"], ["depth"]),
])
def test_bad_input_gives_one_line_on_stderr_and_status_2(cli: Runner, args: list[str], words: list[str]) -> None:
    status, out, err = cli(args)
    assert status == 2
    assert out == ""
    _one_error_line(err, *words)


def test_bad_arguments_exit_2_with_a_usage_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["perft", FOX, "deep"])
    assert info.value.code == 2
    assert "halali: error:" in capsys.readouterr().err


def test_engine_help_points_to_the_protocol_page(capsys: pytest.CaptureFixture[str]) -> None:
    for args in (["--help"], ["engine", "--help"]):
        with pytest.raises(SystemExit) as info:
            main(args)
        assert info.value.code == 0
        assert "docs/engine-protocol.md" in "".join(capsys.readouterr().out.split()), args  # wrapped or not
    assert (Path(__file__).resolve().parents[2] / "docs" / "engine-protocol.md").is_file()


def _script() -> list[str]:
    script = Path(sys.executable).with_name("halali")
    return [str(script)] if script.exists() else [sys.executable, "-m", "halali.cli"]


def test_the_installed_command_runs_as_a_process() -> None:
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    done = subprocess.run([*_script(), "new", "--seed", "5"], capture_output=True, text=True, env=env,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == Position.deal(seed=5).fen() + "\n"
    done = subprocess.run([*_script(), "apply"], input=f"{FOX} ; d4-d6\n{FOX} ; d4xd7\n", capture_output=True,
                          text=True, env=env, timeout=120, check=False)
    assert done.returncode == 2
    assert done.stdout.split("\n")[:2] == ["7/3F3/7/7/7/7/t5N brown d4d6 - - - 1 - -", ""]
    assert done.stderr.count("\n") == 1 and "line 2" in done.stderr and "nothing to capture" in done.stderr
    assert "Traceback" not in done.stderr


def _commands(parser: argparse.ArgumentParser) -> set[str]:
    return {name for a in parser._actions if isinstance(a, argparse._SubParsersAction) for name in a.choices}


def test_each_command_module_adds_the_commands_the_table_names() -> None:
    """``COMMAND_MODULES`` says which module adds which command, so that a command imports only its
    own: a wrong line would leave a command out of the parser it is given."""
    core = _commands(build_parser("new"))
    assert core == set(CORE_COMMANDS)
    for names in COMMAND_MODULES.values():
        for name in names:
            assert _commands(build_parser(name)) == core | set(names), name
    assert _commands(build_parser()) == core | {n for names in COMMAND_MODULES.values() for n in names}
    assert _commands(build_parser("no-such-command")) == _commands(build_parser())


def test_a_command_imports_no_other_command_s_module() -> None:
    code = "import sys; from halali.cli import build_parser; build_parser('engine'); print(*sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert set(out.stdout.split()) & set(COMMAND_MODULES) == {"halali.cli.engine"}
