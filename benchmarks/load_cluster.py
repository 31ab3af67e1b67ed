"""``python -m benchmarks.load --cluster``: the same load on one node and on a two-node cluster, in one run.

First one ``halali serve`` on PostgreSQL (the baseline: the same database as the cluster's), then two
nodes on that PostgreSQL and a fresh redis-server, behind HAProxy with one front port per node, so
that each table's two players sit on different nodes and every action crosses from one node to the
other. Prints both runs' figures, the CPU per action of every part (nodes, Redis, PostgreSQL, the
front) and the cluster's CPU per action over the single node's.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.load_common import Stats, free_port
from halali.server.cluster.redis_server import dies_with_parent

ROOT = Path(__file__).resolve().parents[1]


def database() -> str:
    """A fresh PostgreSQL database (scripts/postgres.sh starts the server)."""
    url = os.environ.get("HALALI_TEST_PG_URL") or subprocess.run(
        ["bash", "scripts/postgres.sh"], cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()
    name = f"halali_load_{os.getpid()}_{int(time.time())}"
    subprocess.run(["runuser", "-u", "postgres", "--", "psql", "-qc", f"create database {name} owner halali_test"],
                   check=True)
    return url.rsplit("/", 1)[0] + "/" + name


def drop(url: str) -> None:
    name = url.rsplit("/", 1)[1]
    subprocess.run(["runuser", "-u", "postgres", "--", "psql", "-qc", f"drop database if exists {name} with (force)"],
                   check=False)


def postgres_pids() -> list[int]:
    found = subprocess.run(["pgrep", "-u", "postgres"], capture_output=True, text=True).stdout.split()
    return [int(p) for p in found]


def node(port: int, data: str, db: str, *extra: str) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "halali.cli", "serve", "--host", "127.0.0.1", "--port", str(port), "--data", data,
           "--db", db, "--max-rate", "1000", "--tables-per-address", "0", *extra]
    log = open(f"{data}.log", "wb")  # noqa: SIM115 (kept open for the node's life)
    proc = subprocess.Popen(dies_with_parent(cmd), stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_health(port, proc)
    except BaseException:
        stop(proc)
        raise
    return proc


def wait_health(port: int, proc: subprocess.Popen[bytes] | None = None) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1):
                return
        except OSError:
            if proc is not None and proc.poll() is not None:
                raise RuntimeError("a node stopped") from None
            time.sleep(0.1)
    raise RuntimeError(f"nothing answers on port {port}")


def front(folder: str, nodes: list[int]) -> tuple[subprocess.Popen[bytes], list[int]]:
    """HAProxy with one front port per node (``use_backend`` fixed), WebSockets passed through."""
    fronts = [free_port() for _ in nodes]
    lines = ["global", "    maxconn 8000", "defaults", "    mode http", "    timeout connect 5s",
             "    timeout client 120s", "    timeout server 120s", "    timeout tunnel 1h"]
    for i, (f, n) in enumerate(zip(fronts, nodes, strict=True)):
        lines += [f"frontend f{i}", f"    bind 127.0.0.1:{f}", f"    default_backend b{i}",
                  f"backend b{i}", f"    server n{i} 127.0.0.1:{n}"]
    cfg = Path(folder) / "haproxy.cfg"
    cfg.write_text("\n".join(lines) + "\n")
    proc = subprocess.Popen(dies_with_parent(["haproxy", "-f", str(cfg), "-db"]), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        for f in fronts:
            wait_health(f)
    except BaseException:
        stop(proc)
        raise
    return proc, fronts


def stop(*procs: subprocess.Popen[bytes]) -> None:
    for p in procs:
        p.terminate()
    for p in procs:
        try:
            p.wait(10)
        except subprocess.TimeoutExpired:
            p.kill()


def measure_pair(args: argparse.Namespace, run: Callable[..., Any], limit: float) -> dict[str, Stats]:
    """The single node, then the cluster, each on a fresh database. Whatever fails on the way, every
    process started is stopped and every database dropped (and the kernel kills the children if
    the benchmark itself is killed)."""
    from halali.server.cluster.redis_server import RedisServer

    results: dict[str, Stats] = {}
    with tempfile.TemporaryDirectory(prefix="halali-load-") as data:
        with contextlib.ExitStack() as stack:
            db = database()
            stack.callback(drop, db)
            port = free_port()
            single = node(port, f"{data}/single", db)
            stack.callback(stop, single)
            parts: dict[str, Any] = {"node": [single.pid], "postgresql": postgres_pids}
            results["single"] = asyncio.run(asyncio.wait_for(run(args, port, None, [port], parts), limit))
        with contextlib.ExitStack() as stack:
            db = database()  # the cluster on an empty database too (it would take the single run's tables over)
            stack.callback(drop, db)
            redis = RedisServer(Path(data) / "redis").start()
            stack.callback(redis.stop)
            ports = [free_port(), free_port()]
            nodes = []
            for i, p in enumerate(ports):
                nodes.append(node(p, f"{data}/n{i}", db, "--redis", redis.url, "--node-id", f"n{i}"))
                stack.callback(stop, nodes[-1])
            haproxy, fronts = front(data, ports)
            stack.callback(stop, haproxy)
            assert redis.proc is not None
            parts = {"node a": [nodes[0].pid], "node b": [nodes[1].pid], "redis": [redis.proc.pid],
                     "postgresql": postgres_pids, "front": [haproxy.pid]}
            results["cluster"] = asyncio.run(asyncio.wait_for(run(args, fronts[0], None, fronts, parts), limit))
    return results


def measure_cluster(args: argparse.Namespace, run: Callable[..., Any], limit: float,
                    report: Callable[[argparse.Namespace, Stats], int]) -> int:
    """``--repeat`` pairs, one after the other: the figures move by a fifth between runs on this
    machine, so a claim rests on the median of several pairs, each measured under the same conditions."""
    status, ratios = 0, []
    for i in range(args.repeat):
        results = measure_pair(args, run, limit)
        for name, stats in results.items():
            print(f"\n== {name}" + (f" (pair {i + 1} of {args.repeat})" if args.repeat > 1 else ""))
            status |= report(args, stats)
        per = {k: sum(v.parts_cpu.values()) / max(1, v.actions) for k, v in results.items()}
        ratios.append(per["cluster"] / per["single"])
        print(f"\nCPU per action, every server part: single node {per['single'] * 1000:.2f} ms, "
              f"cluster {per['cluster'] * 1000:.2f} ms, ratio {ratios[-1]:.2f} (target at most 1.50)", flush=True)
    if len(ratios) > 1:
        print(f"\nratios {', '.join(f'{r:.2f}' for r in ratios)}; median {statistics.median(ratios):.2f} "
              "(target at most 1.50)")
    return status
