"""Seeded faults on a real cluster: PostgreSQL, Redis, three ``halali serve`` nodes and a ``halali
worker``, with tables whose people sit on other nodes than the table's owner and a table against a
computer level.

Each round is one fault at a random moment: a node killed (kill -9) while actions for its tables are
on their way from other nodes (and a spectator opens a table on a node of its choosing, which may so
take the table over), then started again under its name; a node restarted, whose lobby must
list the same running tables as the others' at once; Redis restarted while a computer thinks. After
each fault every table must play on, and through it all no acknowledged action may be lost or played
twice, no page may get a face-down tile (fault_helpers), and no process may outlive a killed node.

The timing and the choices come from one seed, printed at the start (pytest shows it when the test
fails): ``HALALI_FAULT_SEED=N`` runs the same choices again. The default run has two rounds; the long
one (``pytest -m slow``) has ``HALALI_FAULT_ROUNDS`` (default 12). docs/deploy.md "Faults tested".
"""

from __future__ import annotations

import os
import random
import secrets
import time

import pytest
from fault_helpers import Play
from worker_procs import workers

from cluster_helpers import Cluster, Player, running_tables
from proc_helpers import alive, process_tree

pytestmark = pytest.mark.heavy

NODES = ("a", "b", "c")
GONE_WITHIN = 15.0  # seconds for a killed node's processes to be gone
LOBBY_WITHIN = 2.5  # seconds after a restarted node is healthy by which it lists what the others list


def seeded() -> random.Random:
    seed = int(os.environ.get("HALALI_FAULT_SEED") or secrets.randbits(32))
    print(f"fault seed {seed} (HALALI_FAULT_SEED={seed} runs these faults again)")
    return random.Random(seed)


def kill(cluster: Cluster, name: str) -> None:
    """kill -9 of a node; every process of its tree must be gone soon after."""
    tree = process_tree(cluster.nodes[name][1].pid)
    cluster.kill(name)
    deadline = time.monotonic() + GONE_WITHIN
    while left := {pid: cmd for pid, (started, cmd) in tree.items() if alive(pid, started)}:
        assert time.monotonic() < deadline, f"outlived node {name}: {left}"
        time.sleep(0.05)


def restart(cluster: Cluster, name: str) -> None:
    """The node again under its name; once healthy, its lobby lists the running tables the others list."""
    url = cluster.start_node(name)
    others = [cluster.url(n) for n in cluster.nodes if n != name]
    deadline = time.monotonic() + LOBBY_WITHIN
    while any(running_tables(url) != running_tables(o) for o in others):
        assert time.monotonic() < deadline, {n: sorted(running_tables(cluster.url(n))) for n in cluster.nodes}
        time.sleep(0.05)


def node_killed_mid_request(play: Play) -> None:
    victim = play.rng.choice(NODES)
    play.send_moves(play.tables)  # on their way to the tables' owners, some through other nodes
    time.sleep(play.rng.uniform(0.0, 0.3))  # the fault's moment (no assertion waits on it)
    kill(play.cluster, victim)
    play.watch(play.rng.choice(play.tables), play.rng.choice(sorted(play.cluster.nodes)))
    for t in play.tables:
        play.advance(t)
    restart(play.cluster, victim)


def node_restarted(play: Play) -> None:
    victim = play.rng.choice(NODES)
    kill(play.cluster, victim)
    restart(play.cluster, victim)
    for t in play.tables:
        play.advance(t)


def redis_restarted_while_thinking(play: Play) -> None:
    bots = [t for t in play.tables if t.bot]
    for t in bots:  # the person plays: the computer's turn is then a job in Redis
        if t.latest is not None and t.latest["seat_to_move"] in t.people:
            play.advance(t)
    time.sleep(play.rng.uniform(0.0, 0.2))
    play.cluster.redis.stop()
    play.cluster.redis.start()
    for t in play.tables:
        play.advance(t)


FAULTS = (node_killed_mid_request, node_restarted, redis_restarted_while_thinking)


def run(cluster: Cluster, rounds: int | None) -> None:
    """``rounds`` random faults, or (None) a node killed mid-request and a Redis restart."""
    rng = seeded()
    kinds = rng.sample([0, 2], 2) if rounds is None else [rng.randrange(len(FAULTS)) for _ in range(rounds)]
    with workers(cluster.redis.url) as ws:
        worker = ws.start("w1", ready=False)
        cluster.start_nodes(*NODES)
        play = Play(cluster, rng)
        for owner, other in zip(NODES, NODES[1:] + NODES[:1], strict=True):
            play.two_people(owner, other, rng.randrange(1, 10**6))
        worker.wait_for(": ready", timeout=180)
        play.against_level(rng.choice(NODES), 2, rng.randrange(1, 10**6))
        for t in play.tables:
            play.advance(t)
        for kind in kinds:
            FAULTS[kind](play)
        final(play)
    for name in list(cluster.nodes):
        kill(cluster, name)


def final(play: Play) -> None:
    """A page opened now, anywhere, shows every action any page was ever told of."""
    for t in play.tables:
        looker = Player(play.cluster.url(play.rng.choice(sorted(play.cluster.nodes))))
        looker.send({"type": "open", "table": t.id})
        msg = looker.expect("table", lambda m, t=t: m["table"]["id"] == t.id, timeout=30)
        play.seen(t, None, msg)
        assert len(msg["games"][-1]["history"]) == len(t.histories[msg["games"][-1]["number"]])


def test_faults_short(cluster: Cluster) -> None:
    """One node killed mid-request (and started again) and one Redis restart, in the seed's order."""
    run(cluster, None)


@pytest.mark.slow
def test_faults_long(cluster: Cluster) -> None:
    run(cluster, int(os.environ.get("HALALI_FAULT_ROUNDS", "12")))
