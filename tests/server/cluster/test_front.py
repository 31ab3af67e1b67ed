"""``scripts/cluster.sh``: a whole cluster from Debian packages behind HAProxy. Two players through
the front, a node killed under them, play going on after they reconnect through the front, and
nothing left running after ``stop``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import loopback
from cluster_helpers import Player
from serve_helpers import free_port, free_ports

ROOT = Path(__file__).resolve().parents[3]


def play(seats: dict[int, Player], game: dict[str, Any]) -> dict[str, Any]:
    g = game["game"]
    mover, other = seats[g["seat_to_move"]], seats[1 - g["seat_to_move"]]
    own = game if g["legal"] else mover.expect("game", lambda m: m["game"]["ply"] == g["ply"] and m["game"]["legal"])
    mover.send({"type": "action", "action": own["game"]["legal"][0], "ply": g["ply"]})
    return other.expect("game", lambda m: m["game"]["ply"] == g["ply"] + 1)


@pytest.fixture
def front(tmp_path: Path) -> Any:
    if not os.environ.get("HALALI_TEST_PG_URL"):
        pytest.skip("the cluster needs PostgreSQL (scripts/test.sh starts it)")
    env = {**os.environ, "HALALI_CLUSTER_DIR": str(tmp_path / "cluster"), "HALALI_FRONT_PORT": str(free_port()),
           "HALALI_NODE_PORT": str(free_ports(2)), "HALALI_REDIS_PORT": str(free_port()), "HALALI_NODES": "2",
           "HALALI_WORKERS": "0", "HALALI_LEASE_TTL": "2", "HALALI_CLUSTER_DB": f"halali_front_{os.getpid()}",
           "HALALI": str(Path(sys.executable).with_name("halali")), "HALALI_TEST_SEEDS": "1"}
    try:  # stopped whatever happens: the script's daemons would outlive the test
        subprocess.run(["bash", "scripts/cluster.sh", "start"], cwd=ROOT, env=env, check=True, timeout=120)
        yield env
    finally:
        subprocess.run(["bash", "scripts/cluster.sh", "stop"], cwd=ROOT, env=env, check=True, timeout=60)
        subprocess.run(["runuser", "-u", "postgres", "--", "psql", "-qc",
                        f"drop database if exists {env['HALALI_CLUSTER_DB']} with (force)"], check=False)


def test_two_players_through_the_front_survive_a_node_kill(front: dict[str, str]) -> None:
    url = f"http://127.0.0.1:{front['HALALI_FRONT_PORT']}"
    assert loopback.get(f"{url}/api/health", timeout=30).json() == {"ok": True}
    ann, bob = Player(url), Player(url)
    ann.send({"type": "create", "join": True, "seed": 11})
    table = ann.expect("created")["table"]
    bob.send({"type": "open", "table": table})
    bob.expect("table")
    bob.send({"type": "join"})
    ann.expect("table", lambda m: m["table"]["seats"][1] is not None)
    ann.send({"type": "start"})
    game = bob.expect("game")
    seats = {0: ann, 1: bob}
    for _ in range(4):
        game = play(seats, game)
    played = game["game"]["history"]

    folder = Path(front["HALALI_CLUSTER_DIR"])
    os.kill(int((folder / "node1.pid").read_text()), 9)  # one node dies, whoever was on it
    for p in (ann, bob):  # every player reconnects through the front (the page does it by itself)
        p.connect(url)
        p.send({"type": "open", "table": table, "since": p.last_v()})
    back = [p.expect("table", lambda m: m["table"]["id"] == table, timeout=30) for p in (ann, bob)]
    assert all(b["games"][-1]["history"] == played for b in back)
    turn = back[0]["games"][-1]["seat_to_move"]
    game = {"game": back[turn]["games"][-1]}
    for _ in range(2):
        game = play(seats, game)
    assert len(game["game"]["history"]) == len(played) + 2
    pids = [int(f.read_text()) for f in folder.glob("*.pid")]
    subprocess.run(["bash", "scripts/cluster.sh", "stop"], cwd=ROOT, env=front, check=True, timeout=60)
    for pid in pids:  # nothing the script started is left running
        assert not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text().lower()
