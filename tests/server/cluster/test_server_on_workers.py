"""A server started with a Redis URL plays its computer players through ``halali worker`` processes.

A person plays a computer at a table served in-process; one real worker takes the jobs. Every one of
the computer's actions and the person's hint must be an answer of that worker: the server's stand-in
(a random legal action when no answer comes) would leave the worker's count short.
"""

from __future__ import annotations

import random
from pathlib import Path

import redis
from worker_procs import workers

from halali.server.bots import BotPool
from halali.server.cluster.jobs import REPLIES, RedisBotPool
from halali.server.testing import person_against_computer, running, server_of, settings_for_tests


def answers(url: str) -> list[tuple[str, str]]:
    """(worker, ok) of every answer on any node's reply stream."""
    r = redis.Redis.from_url(url)
    return [(f[b"worker"].decode(), f[b"ok"].decode())
            for key in r.scan_iter(f"{REPLIES}*") for _id, f in r.xrange(key)]


def test_a_computers_turns_and_a_hint_come_from_a_worker(tmp_path: Path, redis_url: str) -> None:
    rng = random.Random(5)
    with workers(redis_url) as ws:
        ws.start("w1")
        settings = settings_for_tests(tmp_path / "data", redis_url=redis_url, analysis_movetime=0.05)
        with running(settings) as client:
            assert isinstance(server_of(client).ctx.bots, RedisBotPool)
            person, _table, game = person_against_computer(client, rated=False, level=2)
            person.send({"type": "hint"})
            hint = person.expect("hint", timeout=60)
            assert hint["action"] in game["legal"]
            played = 0
            while not game["over"] and played < 6:
                person.send({"type": "action", "action": rng.choice(game["legal"]), "ply": game["ply"]})
                played += 1
                ply = game["ply"]
                game = person.expect("game", lambda m, ply=ply: m["game"]["over"]
                                     or (bool(m["game"]["legal"]) and m["game"]["ply"] > ply + 1))["game"]
            computer = game["ply"] - played
    assert computer >= played - 1 > 0
    found = answers(redis_url)
    assert set(found) == {("w1", "1")}  # every job answered by the worker, none failed
    # its actions and the hint, and the chunks of the game's analysis begun as it is played (one per 4 actions)
    assert computer + 1 <= len(found) <= computer + 1 + game["ply"] // 4


def test_without_redis_the_server_keeps_its_own_process_pool(tmp_path: Path) -> None:
    with running(settings_for_tests(tmp_path / "data")) as client:
        assert isinstance(server_of(client).ctx.bots, BotPool)
