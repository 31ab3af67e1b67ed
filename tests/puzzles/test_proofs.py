"""Every proven puzzle of a generation, solved again by an exhaustive search that shares no code with
the compiled one (``puzzle_helpers``): the same first action, value and margin, and every later
action of the player's line the one best action too.

The default run makes a short generation with a small proof budget, so that its positions are ones
the plain search solves in seconds; ``-m slow`` does the same for every proven puzzle shipped with
the package, the early final phase included.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from halali.games.forest import parse_position
from halali.puzzles import judge
from halali.puzzles.model import Puzzle
from puzzle_helpers import solve

pytestmark = pytest.mark.heavy

BUNDLED = Path(__file__).parents[2] / "src/halali/puzzles/bundled.jsonl"


def halali(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "halali.cli", *args], capture_output=True, text=True, timeout=600,
                          check=False)


def check_proof(p: Puzzle) -> None:
    got = solve(p.position, list(p.rules))
    assert (got.best, got.value, got.margin) == (p.solution[0], p.value, p.margin), p.to_json()
    assert p.margin >= judge.PROVEN_MARGIN
    pos = parse_position(p.position, p.game_rules())
    for i, action in enumerate(p.solution):
        if i and i % 2 == 0:  # the player's later actions: each the one best, by the margin
            later = solve(pos.fen(), list(p.rules))
            assert later.best == action and later.margin >= judge.PROVEN_MARGIN, (p.to_json(), i)
        pos.play(action)


def test_every_proven_puzzle_of_a_generation_is_proven_again(tmp_path: Path):
    data = tmp_path / "data"
    run = halali("puzzles", "generate", "--games", "3", "--seed", "102", "--jobs", "1", "--proof-nodes", "300000",
                 "--data", str(data))
    assert run.returncode == 0, run.stderr
    assert "puzzles:" in run.stdout and "proven:" in run.stdout
    out = tmp_path / "puzzles.jsonl"
    run = halali("puzzles", "export", str(out), "--data", str(data))
    assert run.returncode == 0, run.stderr
    puzzles = [Puzzle.from_json(line) for line in out.read_text().splitlines()]
    proven = [p for p in puzzles if p.proven]
    assert proven, "the generation found no proven puzzle"
    for p in proven:
        check_proof(p)
    for p in puzzles:
        if not p.proven:
            assert p.margin >= judge.JUDGED_MARGIN and p.position.count("?") > 0
    # The same file imported into a fresh database: every line read, every puzzle new.
    run = halali("puzzles", "import", str(out), "--data", str(tmp_path / "other"))
    assert run.returncode == 0, run.stderr
    assert f"{len(puzzles)} puzzles read, {len(puzzles)} new" in run.stdout


@pytest.mark.slow
def test_every_shipped_proven_puzzle_is_proven_again():
    proven = [p for p in map(Puzzle.from_json, BUNDLED.read_text().splitlines()) if p.proven]
    assert len(proven) >= 50
    for p in proven:
        check_proof(p)


def test_bad_arguments_are_one_line(tmp_path: Path):
    run = halali("puzzles", "generate", "--games", "0", "--data", str(tmp_path))
    assert run.returncode == 2 and run.stderr.count("\n") == 1 and "--games" in run.stderr
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"position": "x"}\n')
    run = halali("puzzles", "import", str(bad), "--data", str(tmp_path))
    assert run.returncode == 2 and run.stderr.count("\n") == 1 and "line 1" in run.stderr
