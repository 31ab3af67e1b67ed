"""Bots on workers: jobs from a node's ``RedisBotPool`` answered by real ``halali worker`` processes
over a real redis-server.

Every kind of job a server sends is answered; two workers share the work; a worker killed with
kill -9 mid-think leaves its job to another; a Redis restart is survived by a worker that keeps
running; a late answer is dropped; a job nobody answers raises by its deadline (and a worker that
finds it later skips it); a kind outside the allowlist is refused by the worker, and a function
outside it never leaves the node. No test sleeps for a fixed time: each waits for the answer or for
a line the worker prints.
"""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import pytest
import redis
from worker_procs import workers

from halali.ai.hare.registry import choose_action as choose_hare_action
from halali.ai.registry import choose_action
from halali.games.forest.notation import parse_position
from halali.games.forest.position import Position
from halali.games.forest.rules import DEFAULT_RULES
from halali.games.hare.game import HareGame
from halali.server.bots import analyse_plies_job
from halali.server.cluster.jobs import GROUP, JOBS, JobError, JobTimeout, RedisBotPool
from halali.server.cluster.redis_server import RedisServer

BUDGET = [2000, 100_000, 1, 4]  # a game analysis's budget (halali.ai.game_analysis.Budget), small


def played(seed: int, plies: int) -> tuple[Position, list[str]]:
    """A dealt game and ``plies`` random actions of it (the deal, and those actions in notation)."""
    pos = Position.deal(seed=seed)
    start = pos.copy()
    rng = random.Random(seed)
    actions: list[str] = []
    for _ in range(plies):
        a = rng.choice(pos.legal_actions())
        actions.append(pos.action_str(a))
        pos.push(a)
    return start, actions


def view_after(seed: int, plies: int) -> str:
    start, actions = played(seed, plies)
    for a in actions:
        start.play(a)
    return start.view().fen()


def legal(fen: str) -> set[str]:
    pos = parse_position(fen, DEFAULT_RULES)
    return {pos.action_str(a) for a in pos.legal_actions()}


def answered_by(url: str, pool: RedisBotPool) -> list[str]:
    """The worker of every answer on the pool's reply stream, in order."""
    r = redis.Redis.from_url(url)
    return [fields[b"worker"].decode() for _id, fields in r.xrange(pool.reply_stream)]


def test_every_kind_of_job_is_answered_by_a_worker(redis_url: str) -> None:
    fen = view_after(4, 6)
    start, actions = played(3, 12)
    hare = HareGame()
    hunt = hare.new({}, 2, random.Random(1))
    mover = hare.to_move(hunt)
    assert mover is not None

    async def ask(pool: RedisBotPool) -> list[Any]:
        return [await pool.run(choose_action, 3, fen, {}, 0.2, 11, None),
                await pool.run(choose_action, 2, fen, {}, 0.2, 12, (30.0, 1.0)),  # on a game clock
                await pool.choose(1, fen, {}),
                await pool.analyse(fen, {}, 0.1),
                await pool.analyse_plies(start.fen(), {}, actions, 4, 8, BUDGET),
                await pool.run(choose_hare_action, 2, hare.view_record(hunt, mover), 0.1, 5)]

    with workers(redis_url) as ws:
        ws.start("w1")
        pool = RedisBotPool(redis_url, movetime=0.1)
        turn, on_clock, random_turn, analysis, plies, hare_turn = asyncio.run(ask(pool))
    assert {turn, on_clock, random_turn} <= legal(fen)
    assert analysis["actions"] and analysis["actions"][0][0] in legal(fen) and isinstance(analysis["score"], float)
    assert plies == analyse_plies_job(start.fen(), {}, actions, 4, 8, BUDGET)  # the very function, the same JSON
    assert hare_turn in hare.legal_actions(hunt)
    assert answered_by(redis_url, pool) == ["w1"] * 6


def test_two_workers_share_the_jobs(redis_url: str) -> None:
    fen = view_after(7, 4)

    async def ask(pool: RedisBotPool) -> list[str]:
        return list(await asyncio.gather(*(pool.run(choose_action, 3, fen, {}, 0.3, i, None) for i in range(8))))

    with workers(redis_url) as ws:
        ws.start("w1")
        ws.start("w2")
        pool = RedisBotPool(redis_url)
        answers = asyncio.run(ask(pool))
    assert set(answers) <= legal(fen)
    by = answered_by(redis_url, pool)
    assert len(by) == 8 and set(by) == {"w1", "w2"}


def test_a_worker_killed_mid_think_leaves_its_job_to_another(redis_url: str) -> None:
    fen = view_after(5, 8)

    async def ask(pool: RedisBotPool, ws: Any) -> str:
        turn = asyncio.create_task(pool.run(choose_action, 6, fen, {}, 3.0, 1, None))
        first = ws.procs[0]
        await asyncio.to_thread(first.wait_for, "forest.turn")  # it has the job and is thinking
        first.kill()
        await asyncio.to_thread(ws.start, "w2")
        return await turn

    with workers(redis_url) as ws:
        ws.start("w1")
        pool = RedisBotPool(redis_url, wait=60.0)
        answer = asyncio.run(ask(pool, ws))
        second = ws.procs[1]
        assert second.count("forest.turn") == 1
    assert answer in legal(fen)
    assert answered_by(redis_url, pool) == ["w2"]
    pending = redis.Redis.from_url(redis_url).xpending(JOBS, GROUP)
    assert pending["pending"] == 0  # answered, so acknowledged


def test_a_worker_goes_on_after_redis_restarts(tmp_path: Path) -> None:
    server = RedisServer(tmp_path / "redis").start()
    fen = view_after(6, 5)
    try:
        with workers(server.url) as ws:
            w = ws.start("w1")
            pool = RedisBotPool(server.url, wait=30.0)

            async def before_and_after() -> tuple[str, str]:
                first = await pool.run(choose_action, 2, fen, {}, 0.1, 1, None)
                await asyncio.to_thread(server.stop)
                await asyncio.to_thread(server.start)  # the same port, empty: no stream, no group
                await asyncio.to_thread(w.wait_for, ": ready", 2)  # the worker reconnected by itself
                second = await pool.run(choose_action, 2, fen, {}, 0.1, 2, None)
                return first, second

            first, second = asyncio.run(before_and_after())
            assert w.proc.poll() is None  # the same process, never restarted
        assert {first, second} <= legal(fen)
        r = redis.Redis.from_url(server.url)
        assert [bytes(g["name"]).decode() for g in r.xinfo_groups(JOBS)] == [GROUP]  # made again
        assert answered_by(server.url, pool) == ["w1"]  # the reply stream started afresh too
    finally:
        server.stop()


def test_a_job_redis_lost_in_a_restart_is_added_again(tmp_path: Path) -> None:
    """A computer's turn asked while Redis restarts: the job is gone with Redis, so the node adds it
    again once its reply stream is back, and a worker answers it (not the deadline's stand-in)."""
    server = RedisServer(tmp_path / "redis").start()
    fen = view_after(7, 4)
    try:
        with workers(server.url) as ws:
            pool = RedisBotPool(server.url, wait=60.0)

            async def across_a_restart() -> str:
                turn = asyncio.create_task(pool.run(choose_action, 2, fen, {}, 0.1, 1, None))
                r = redis.Redis.from_url(server.url)
                while not r.exists(JOBS):  # the job is in Redis, and no worker runs yet
                    await asyncio.sleep(0.02)
                await asyncio.to_thread(server.stop)
                await asyncio.to_thread(server.start)  # empty: the job is lost
                await asyncio.to_thread(ws.start, "w1")
                return await turn

            answer = asyncio.run(across_a_restart())
        assert answer in legal(fen)
        assert answered_by(server.url, pool) == ["w1"]  # the worker's answer, well before the deadline
    finally:
        server.stop()


def test_a_late_answer_is_dropped(redis_url: str) -> None:
    fen = view_after(8, 6)

    async def give_up_then_ask_again(pool: RedisBotPool, w: Any) -> str:
        turn = asyncio.create_task(pool.run(choose_action, 6, fen, {}, 1.0, 1, None))
        await asyncio.to_thread(w.wait_for, "forest.turn")
        turn.cancel()  # the asker moved on while the worker thinks
        async with asyncio.timeout(60):
            await pool.wait_dropped(1)
        return await pool.run(choose_action, 2, fen, {}, 0.1, 2, None)

    with workers(redis_url) as ws:
        w = ws.start("w1")
        pool = RedisBotPool(redis_url)
        answer = asyncio.run(give_up_then_ask_again(pool, w))
    assert pool.dropped == 1 and answer in legal(fen)
    assert answered_by(redis_url, pool) == ["w1", "w1"]


def test_a_job_nobody_answers_raises_by_its_deadline_and_is_skipped_later(redis_url: str) -> None:
    fen = view_after(9, 3)
    pool = RedisBotPool(redis_url, wait=0.3)
    with pytest.raises(JobTimeout, match=r"no worker answered the forest\.turn job"):
        asyncio.run(pool.run(choose_action, 2, fen, {}, 0.1, 1, None))
    with workers(redis_url) as ws:
        w = ws.start("w1")
        w.wait_for("past its deadline; skipped")
    assert answered_by(redis_url, pool) == []
    assert redis.Redis.from_url(redis_url).xpending(JOBS, GROUP)["pending"] == 0


def test_a_kind_outside_the_allowlist_is_refused(redis_url: str) -> None:
    fen = view_after(2, 2)

    async def ask(pool: RedisBotPool) -> str:
        with pytest.raises(TypeError, match="not a worker job"):  # never leaves the node
            await pool.run(print, "hello")
        with pytest.raises(JobError, match=r"unknown job kind 'os\.system'"):
            await pool.submit("os.system", ["echo hello"], 30.0)
        with pytest.raises(JobError, match="TypeError"):  # bad arguments fail the job, not the worker
            await pool.submit("analyse", [1], 30.0)
        return str(await pool.submit("forest.turn", [1, fen, {}, 0.1, 1, None], 30.0))

    with workers(redis_url) as ws:
        ws.start("w1")
        pool = RedisBotPool(redis_url)
        assert asyncio.run(ask(pool)) in legal(fen)
    assert answered_by(redis_url, pool) == ["w1"] * 3


def test_jobs_2_runs_two_workers_that_end_with_their_parent(redis_url: str) -> None:
    fen = view_after(3, 5)

    async def ask(pool: RedisBotPool) -> list[str]:
        return list(await asyncio.gather(*(pool.run(choose_action, 3, fen, {}, 0.3, i, None) for i in range(8))))

    with workers(redis_url) as ws:
        w = ws.start("w", "--jobs", "2", ready=False)
        w.wait_for(": ready", times=2, timeout=180)
        pool = RedisBotPool(redis_url)
        assert set(asyncio.run(ask(pool))) <= legal(fen)
        assert set(answered_by(redis_url, pool)) == {"w-1", "w-2"}
        children = [int(line.rsplit("pid ", 1)[1].rstrip(")")) for line in w.lines if ": ready" in line]
        w.kill()  # kill -9 of the parent: the kernel ends its workers too
        for pid in children:
            gone_by = time.monotonic() + 30
            while Path(f"/proc/{pid}").exists() and "Z" not in proc_state(pid):
                assert time.monotonic() < gone_by, f"worker {pid} outlived its parent"
                time.sleep(0.05)


def proc_state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"


def test_a_worker_gives_up_on_redis_only_when_told(tmp_path: Path) -> None:
    server = RedisServer(tmp_path / "redis").start()
    try:
        with workers(server.url) as ws:
            stubborn = ws.start("stays")
            told = ws.start("leaves", "--give-up", "1")
            server.stop()
            assert told.proc.wait(60) == 1  # Redis gone for longer than --give-up
            stubborn.wait_for("reconnecting in", times=3)  # still trying, and still alive
            assert stubborn.proc.poll() is None
    finally:
        server.stop()


def test_bad_worker_options_are_one_line_errors(capsys: pytest.CaptureFixture[str]) -> None:
    from halali.cli import main

    assert main(["worker", "--redis", "redis://127.0.0.1:1/0", "--jobs", "0"]) == 2
    assert "--jobs must be >= 1" in capsys.readouterr().err
