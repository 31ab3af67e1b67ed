"""The arena: matches on one deal with roles swapped, forfeits by rule, statistics, the command."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

from fake_engines import command
from halali.cli import main
from halali.engine.arena import MatchPool, Settings, elo, play_match, run_matches, summarize
from halali.games.forest.position import Position
from halali.games.forest.rules import Rules

# A minimal outside engine: it speaks the protocol and answers with whatever BEHAVIOUR says.
FAKE_ENGINE = '''
import sys, time
behaviour = sys.argv[1]
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "halali":
        print("id name fake"); print("halaliok")
    elif words[0] == "isready":
        print("readyok")
    elif words[0] == "position":
        board = words[1]
    elif words[0] == "go":
        if behaviour == "slow":
            time.sleep(1.0)
        if behaviour == "outcome":
            print("bestmove ?a1=T")
        else:
            print("bestmove " + ("c3-c4" if behaviour == "illegal" else "?a1"))
    elif words[0] == "quit":
        break
    sys.stdout.flush()
'''


@pytest.fixture(scope="module")
def fake(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("engines") / "fake_engine.py"
    path.write_text(FAKE_ENGINE)
    return path


def test_matches_replay_to_their_scores_on_one_deal_with_roles_swapped() -> None:
    # Lateness has its own tests; a wide grace keeps a busy machine from making this one a forfeit.
    settings = Settings("2", "1", Rules(), movetime=0.05, seed=40, grace=2.0)
    results = list(run_matches(settings, 2))
    assert [r.index for r in results] == [0, 1]
    for r in results:
        assert r.forfeit is None and r.score in (0.0, 0.5, 1.0)
        points = [0, 0]
        won = 0.0
        for game, record in enumerate(r.games):
            pos = Position.deal(Rules(), seed=settings.seed + r.index)  # the same deal for both games
            for text in record:
                pos.play(text)
            assert pos.is_over()
            a_colour = game  # A is blue (0) in game 1, brown (1) in game 2
            points[0] += pos.score[a_colour]
            points[1] += pos.score[1 - a_colour]
            mine = (pos.score[a_colour], pos.ntiles[a_colour])
            theirs = (pos.score[1 - a_colour], pos.ntiles[1 - a_colour])
            won += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
        assert tuple(points) == r.points
        assert r.won == (won, 2.0 - won)
        if r.points[0] != r.points[1]:
            assert r.score == (1.0 if r.points[0] > r.points[1] else 0.0)


@pytest.mark.parametrize(("behaviour", "kind"), [("illegal", "illegal"), ("slow", "late"), ("outcome", "illegal")])
def test_an_illegal_or_late_answer_loses_the_match(fake: Path, behaviour: str, kind: str) -> None:
    # The slow engine answers after 1 s; a grace of 0.5 s makes that late while a busy machine never
    # makes the in-process random bot that late.
    settings = Settings(f"cmd:{sys.executable} {fake} {behaviour}", "1", Rules(), movetime=0.1, seed=3, grace=0.5)
    result = play_match(settings, 0)
    assert result.forfeit_side == "A" and result.forfeit_kind == kind and result.score == 0.0
    assert result.won == (0.0, 2.0)  # the fake fails in game 1: both games go to the other side
    settings = Settings("1", f"cmd:{sys.executable} {fake} {behaviour}", Rules(), movetime=0.1, seed=3, grace=0.5)
    result = play_match(settings, 0)
    assert result.score == 1.0 and result.won == (2.0, 0.0)


@pytest.mark.parametrize("side", [0, 1])
def test_an_engine_that_dies_loses_the_match_and_keeps_what_was_scored(tmp_path: Path, side: int) -> None:
    crasher = "cmd:" + command(tmp_path, "crash", limit=5, game=2)  # five actions into game 2, it dies
    specs = ["1", "1"]
    specs[side] = crasher
    settings = Settings(specs[0], specs[1], Rules(), movetime=0.05, seed=11, grace=2.0)
    result = play_match(settings, 0)
    assert result.forfeit_kind == "crash" and result.forfeit_side == "AB"[side] and "game 2" in (result.forfeit or "")
    assert result.score == float(side) and len(result.games) == 2
    points, tiles = [0, 0], [0, 0]
    for game, record in enumerate(result.games):  # replayed: what each side had scored when it died
        pos = Position.deal(Rules(), seed=settings.seed)
        for text in record:
            pos.play(text)
        for who, colour in ((0, game), (1, 1 - game)):  # A is blue in game 1, brown in game 2
            points[who] += pos.score[colour]
            tiles[who] += pos.ntiles[colour]
    assert result.points == tuple(points) and result.tiles == tuple(tiles) and sum(points) > 0
    assert result.won[1 - side] >= 1.0 and sum(result.won) == 2.0  # game 2 goes to the other side


def test_a_match_pool_plays_any_pairs_and_keeps_their_order_known() -> None:
    tasks = [(Settings("1", "2", Rules(), movetime=0.02, seed=5, grace=2.0), 0),
             (Settings("2", "greedy", Rules(), movetime=0.02, seed=5, grace=2.0), 1)]
    with MatchPool(2) as pool:
        got = dict(pool.play(tasks))
        again = dict(pool.play(tasks[:1]))  # the same workers serve a second batch
    assert sorted(got) == [0, 1] and got[1].index == 1 and list(again) == [0]
    for result in (*got.values(), *again.values()):
        assert sum(result.won) == 2.0 and len(result.games) == 2
    with pytest.raises(ValueError):
        MatchPool(0)


def test_a_wider_grace_counts_late_answers_without_forfeit(fake: Path) -> None:
    settings = Settings(f"cmd:{sys.executable} {fake} slow", "1", Rules(), movetime=0.1, seed=3, grace=2.0)
    result = play_match(settings, 0)
    assert result.forfeit is None or result.forfeit_kind == "illegal"  # ?a1 is legal only once
    assert result.answers[0] >= 1 and result.late[0] == result.answers[0]  # every 1 s answer counted late


def test_statistics() -> None:
    assert elo(0.5) == 0.0
    assert elo(0.75) == pytest.approx(190.85, abs=0.01)
    assert elo(1.0) == math.inf and elo(0.0) == -math.inf
    s = summarize([1.0, 1.0, 0.5, 0.0])
    assert (s.wins, s.draws, s.losses) == (2, 1, 1)
    assert s.rate == pytest.approx(0.625)
    assert 0.0 <= s.low < s.rate < s.high <= 1.0
    assert s.elo_low < s.elo < s.elo_high
    perfect = summarize([1.0] * 25)  # all won still leaves doubt: at least 87%, not exactly 100%
    assert perfect.high == 1.0 and perfect.low == pytest.approx(0.8668, abs=1e-4)
    even = summarize([1.0, 0.0] * 100)
    assert even.low == pytest.approx(0.4314, abs=1e-3) and even.high == pytest.approx(0.5686, abs=1e-3)


def test_arena_command_with_a_process_pool_and_an_outside_engine(capsys: pytest.CaptureFixture[str]) -> None:
    command = f"{sys.executable} -m halali.cli engine --level 1"
    assert main(["arena", "greedy", "engine", "--engine", command, "--matches", "2", "--movetime", "50",
                 "--jobs", "2", "--seed", "7"]) == 0
    out = capsys.readouterr().out
    assert "matches A won-drawn-lost:" in out and "score rate of A:" in out and "Elo difference" in out
    wdl = out.split("won-drawn-lost: ")[1].split()[0]
    assert sum(int(x) for x in wdl.split("-")) == 2


def test_arena_command_rejects_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "9", "1", "--matches", "1"]) == 2
    assert main(["arena", "engine", "1", "--matches", "1"]) == 2
    assert main(["arena", "2", "1", "--matches", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("halali: error:") == 3


def test_a_results_file_lets_a_long_run_stop_and_continue(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = tmp_path / "run.jsonl"
    base = ["arena", "greedy", "random", "--movetime", "20", "--seed", "11", "--results", str(results)]
    assert main([*base, "--matches", "2"]) == 0
    first = results.read_text().splitlines()
    assert len(first) == 2
    capsys.readouterr()
    with results.open("a") as f:
        f.write('{"settings": {"a": "2", "b"')  # a line cut short by a kill: that match is played again
    assert main([*base, "--matches", "3"]) == 0
    out = capsys.readouterr()
    assert "2 match(es) already in" in out.err
    lines = results.read_text().splitlines()
    assert lines[:2] == first and len(lines) == 4  # the two kept, the cut line, one new match
    wdl = out.out.split("won-drawn-lost: ")[1].split()[0]
    assert sum(int(x) for x in wdl.split("-")) == 3
    again = Settings("2", "1", Rules(), movetime=0.02, seed=11)
    from halali.engine.results import load_results

    assert sorted(r.index for r in load_results(results, again)) == [0, 1, 2]
    loaded = load_results(results, again)[0]
    assert all(len(game) > 0 for game in loaded.games) and loaded.score in (0.0, 0.5, 1.0)
    table = subprocess.run([sys.executable, str(Path(__file__).parents[2] / "benchmarks" / "arena_table.py"),
                            str(results)], capture_output=True, text=True, check=True).stdout.splitlines()
    assert len(table) == 3 and table[2].startswith("| 2 `greedy` vs 1 `random` | 3 | ")
    assert main([*base, "--matches", "200", "--report"]) == 0  # reports on the three, plays none
    out = capsys.readouterr().out
    assert sum(int(x) for x in out.split("won-drawn-lost: ")[1].split()[0].split("-")) == 3
    assert len(results.read_text().splitlines()) == 4
    assert main(["arena", "greedy", "random", "--report", "--matches", "3"]) == 2  # --report needs a file
    assert main(["arena", "greedy", "random", "--movetime", "30", "--seed", "11", "--results", str(results),
                 "--matches", "3"]) == 2
    assert "other settings" in capsys.readouterr().err
    assert len(results.read_text().splitlines()) == 4  # a refused run writes nothing


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the process tree from /proc")
def test_a_killed_arena_leaves_no_worker_playing_on(tmp_path: Path):
    """``--jobs 2`` plays in worker processes; a kill -9 of the arena must end them too."""
    import signal
    import time

    from proc_helpers import alive, process_tree

    arena = subprocess.Popen([sys.executable, "-m", "halali.cli", "arena", "1", "2", "--matches", "200", "--jobs", "2",
                              "--movetime", "50", "--results", str(tmp_path / "r.jsonl")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 300  # a cold numba cache compiles the kernel first
        workers: dict[int, tuple[str, str]] = {}
        while len(workers) < 2 and time.monotonic() < deadline:  # until both workers have started
            time.sleep(0.05)
            workers = {p: v for p, v in process_tree(arena.pid).items() if "--multiprocessing-fork" in v[1]}
        assert len(workers) == 2, process_tree(arena.pid)
        tree = process_tree(arena.pid)
        arena.send_signal(signal.SIGKILL)
        arena.wait(10)
        deadline = time.monotonic() + 15
        while any(alive(p, v[0]) for p, v in tree.items()) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not [v[1] for p, v in tree.items() if alive(p, v[0])]
    finally:
        arena.kill()
        arena.wait(10)
