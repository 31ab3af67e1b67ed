"""Every ``halali`` subcommand with bad input: a missing file, a malformed file, a bad number, an engine
that does not exist, one that dies mid-game and one that answers nonsense, wherever each applies.

docs/cli.md promises one line on stderr, ``halali: error: ...``, status 2, never a traceback; an
engine that fails in the middle of a match only loses that match (docs/ai.md), so there the command
ends normally and says so. The subcommands come from the parser itself: every option that takes a
number is given a word, every subcommand an unknown option, and a subcommand the table below does
not name fails the test until its own bad input is added. Everything runs in this process (the
parser and the commands are the same code the ``halali`` script calls), so the sweep takes seconds.
"""

from __future__ import annotations

import argparse
import io
import re
import shlex
import signal
import socket
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from fake_engines import command
from halali.cli import build_parser, main

ENGINES = ("missing", "mute", "crash", "garbage")
POSITION = "tttpsnt/bdtttlp/ptttfef/wtd1dnl/pfettdd/tpfstfp/pbfddwp blue - - - - 0 - -"
FAST = ["--movetime", "20"]


def subcommands() -> dict[tuple[str, ...], argparse.ArgumentParser]:
    """Every subcommand path (``("hare", "arena")`` for a nested one) and its parser."""
    found: dict[tuple[str, ...], argparse.ArgumentParser] = {}

    def walk(parser: argparse.ArgumentParser, path: tuple[str, ...]) -> None:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs and path:
            found[path] = parser
        for action in subs:
            for name, sub in action.choices.items():
                walk(sub, (*path, name))

    walk(build_parser(), ())
    return found


def numeric(parser: argparse.ArgumentParser) -> Iterator[tuple[str, list[str]]]:
    """(option, the arguments that give it a word instead of a number) for each numeric argument."""
    positionals = [a for a in parser._actions if not a.option_strings]
    for action in parser._actions:
        if action.type not in (int, float):
            continue
        if action.option_strings:
            yield action.option_strings[0], [action.option_strings[0], "many"]
        else:
            before = positionals[:positionals.index(action)]
            yield action.dest, ["x"] * len(before) + ["many"]


@dataclass
class Files:
    """The inputs the cases point at: made once per test run (``make``), or only named (``named``) to
    list the cases when the tests are collected."""

    root: Path
    engines: dict[str, str]

    @classmethod
    def named(cls, root: Path) -> Files:
        return cls(root, {kind: kind for kind in ENGINES})

    @classmethod
    def make(cls, root: Path) -> Files:
        (root / "malformed.txt").write_text("garbage {{{ this is no record, no position and no JSON\n")
        return cls(root, {kind: command(root, kind, limit=4) for kind in ENGINES})

    @property
    def missing(self) -> str:
        return str(self.root / "no-such-file")

    @property
    def malformed(self) -> str:
        return str(self.root / "malformed.txt")

    @property
    def blocked(self) -> str:
        """A folder that cannot be made: its parent is a file."""
        return str(self.root / "malformed.txt" / "sub")


def free_port() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return str(s.getsockname()[1])


# Each subcommand's own bad input: (what, arguments). All of them must end in one line of error and
# status 2; LOST below are the ones where an engine fails mid-match and so loses it.
Cases = list[tuple[str, list[str]]]


def cases(f: Files) -> dict[tuple[str, ...], Cases]:
    engine_cases = f.engines
    arena = [(f"engine {kind}", ["arena", "engine", "1", "--engine", cmd, "--matches", "1", *FAST])
             for kind, cmd in engine_cases.items()]
    tournament = [(f"engine {kind}", ["tournament", "--engine", cmd, "--level", "1", "--rounds", "1", *FAST])
                  for kind, cmd in engine_cases.items()]
    db = ["--db", "nonsense://nowhere"]
    bot = ["bot", "--server", "http://127.0.0.1:9", "--token", "hal_x"]  # never reached: the input is bad first
    return {
        ("new",): [("players", ["new", "--game", "hare", "--players", "9"]), ("rules", ["new", "--rules", "x=y"]),
                   ("game", ["new", "--game", "chess"])],
        ("legal",): [("position", ["legal", "not-a-position"]), ("rules", ["legal", "--rules", "stall_limit=x"])],
        ("apply",): [("position", ["apply", "not-a-position", "a1-a2"]), ("action", ["apply", POSITION, "z9-z8"])],
        ("perft",): [("depth", ["perft", POSITION, "-1"]), ("position", ["perft", "x", "1"])],
        ("play",): [("opponent", ["play", "--opponent", "9"]),
                    ("players", ["play", "--game", "hare", "--players", "1"])],
        ("bench",): [("games", ["bench", "--games", "0"]),
                     ("positions missing", ["bench", "--search", "--positions", f.missing]),
                     ("positions malformed", ["bench", "--search", "--positions", f.malformed]),
                     ("baseline missing", ["bench", "--search", "--baseline", engine_cases["missing"]]),
                     ("baseline mute", ["bench", "--search", "--baseline", engine_cases["mute"]])],
        ("replay",): [("missing", ["replay", f.missing]), ("malformed", ["replay", f.malformed])],
        ("verify",): [("missing", ["verify", f.missing]), ("malformed", ["verify", f.malformed])],
        ("analyse",): [("missing", ["analyse", "--record", f.missing, "--luck"]),
                       ("malformed", ["analyse", "--record", f.malformed, "--luck"]),
                       ("position", ["analyse", "not-a-position"])],
        ("analyze",): [("missing", ["analyze", "--record", f.missing, "--luck"])],
        ("engine",): [("level", ["engine", "--level", "9"])],
        ("arena",): [*arena, ("malformed results", ["arena", "1", "2", "--results", f.malformed, *FAST]),
                     ("report missing", ["arena", "1", "2", "--results", f.missing, "--report"]),
                     ("matches", ["arena", "1", "2", "--matches", "0"]), ("level", ["arena", "9", "1"])],
        ("tournament",): [*tournament,
                          ("malformed out", ["tournament", "--level", "1", "--level", "2", "--rounds", "1",
                                             "--out", f.malformed, "--resume"]),
                          ("rounds", ["tournament", "--level", "1", "--level", "2", "--rounds", "0"])],
        ("serve",): [("port", ["serve", "--port", "70000"]), ("db", ["serve", *db, "--port", free_port()]),
                     ("analysis nodes", ["serve", "--analysis-nodes", "0", "--port", free_port()]),
                     ("data", ["serve", "--data", f.blocked, "--port", free_port()])],
        ("worker",): [("redis", ["worker", "--redis", "nonsense"]),
                      ("jobs", ["worker", "--redis", "redis://x", "--jobs", "0"])],
        ("hare", "new"): [("players", ["hare", "new", "--players", "1"])],
        ("hare", "legal"): [("position", ["hare", "legal", "not-a-position"])],
        ("hare", "apply"): [("position", ["hare", "apply", "not-a-position", "x"])],
        ("hare", "play"): [("opponent", ["hare", "play", "--opponent", "x"])],
        ("hare", "arena"): [("bots", ["hare", "arena", "--bots", "x,y"]), ("games", ["hare", "arena", "--games", "0"])],
        ("bot",): [(f"engine {kind}", [*bot, "--", *shlex.split(engine_cases[kind])]) for kind in ("missing", "mute")]
        + [("modes", [*bot, "--modes", "blitz", "--", "e"])],
        ("train",): [("games", ["train", "--games", "0"]),
                     ("out", ["train", "--games", "25", "--out", f.blocked + "/w.json"])],
        ("puzzles", "generate"): [("games", ["puzzles", "generate", "--games", "0"]),
                                  ("db", ["puzzles", "generate", "--games", "1", *db])],
        ("puzzles", "mine"): [("db", ["puzzles", "mine", *db])],
        ("puzzles", "export"): [("folder", ["puzzles", "export", f.blocked + "/x", "--data", str(f.root)]),
                                ("db", ["puzzles", "export", "x", *db])],
        ("puzzles", "import"): [("missing", ["puzzles", "import", f.missing, "--data", str(f.root)]),
                                ("malformed", ["puzzles", "import", f.malformed, "--data", str(f.root)])],
    }


LIMIT = 600  # seconds: bad input is answered at once (once the kernel is compiled); past this it hangs


class StillRunning(BaseException):
    """Raised in a command that should have ended long ago; no ``except Exception`` swallows it."""


LOST = {"engine crash", "engine garbage"}  # the engine loses its match; the command goes on


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Files:
    return Files.make(tmp_path_factory.mktemp("bad-input"))


def run(argv: list[str], root: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    """``halali ARGV`` in this process, in ``root``, with nothing on stdin: (status, stdout, stderr). An
    exception out of ``main`` is what the script would print as a traceback: it fails the test as is."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    monkeypatch.chdir(root)  # whatever a command writes by default stays in the test's folder
    capsys.readouterr()

    def too_long(signum: int, frame: object) -> None:
        raise StillRunning(f"halali {' '.join(argv)} still runs after {LIMIT} s")

    previous = signal.signal(signal.SIGALRM, too_long)
    signal.alarm(LIMIT)
    try:
        status = main(argv)
    except SystemExit as exc:
        status = exc.code if isinstance(exc.code, int) else 2
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    out, err = capsys.readouterr()
    return status, out, err


def one_line_error(status: int, err: str) -> None:
    assert status == 2, err
    assert err.startswith("halali: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err


def test_every_subcommand_has_its_bad_input_here(files: Files) -> None:
    missing = sorted(" ".join(path) for path in subcommands() if path not in cases(files))
    assert not missing, f"add the bad input of these subcommands to cases(): {missing}"


@pytest.mark.parametrize("path", sorted(subcommands()), ids=" ".join)
def test_an_unknown_option_and_every_number_given_a_word(path: tuple[str, ...], files: Files,
                                                         capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    one_line_error(*run([*path, "--no-such-option"], files.root, capsys, monkeypatch)[::2])
    for name, args in numeric(subcommands()[path]):
        status, _, err = run([*path, *args], files.root, capsys, monkeypatch)
        one_line_error(status, err)
        assert "many" in err, (name, err)


def every_case() -> Iterator[tuple[tuple[str, ...], str]]:
    for path, listed in cases(Files.named(Path("/nonexistent"))).items():
        for what, _ in listed:
            yield path, what


@pytest.mark.parametrize(("path", "what"), list(every_case()), ids=lambda x: " ".join(x) if isinstance(x, tuple) else x)
def test_bad_input(path: tuple[str, ...], what: str, files: Files, capsys: pytest.CaptureFixture[str],
                   monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, err = run(dict(cases(files)[path])[what], files.root, capsys, monkeypatch)
    if what in LOST:  # the engine's match is lost by rule, in the arena's report or the crosstable
        assert status == 0 and "Traceback" not in err, err
        assert "match(es) by rule" in out or re.search(r"-\d+f\b", out), out
    else:
        one_line_error(status, err)
