"""A real ``halali serve`` process for the durability tests: a free port, a started server."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

import loopback
from halali.server.cluster.redis_server import dies_with_parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def free_ports(n: int) -> int:
    """The first of ``n`` consecutive free ports (a script that numbers its servers from one port)."""
    while True:
        first = free_port()
        try:
            with contextlib.ExitStack() as stack:
                for port in range(first, first + n):
                    s = stack.enter_context(socket.socket())
                    s.bind(("127.0.0.1", port))
            return first
        except OSError:
            continue


STARTUP = 120.0  # only a bound: on a busy machine a start (and a first compile) may take long


def serve(data: Path, port: int, *options: str, startup: float = STARTUP,
          log: Path | None = None) -> subprocess.Popen[bytes]:
    """``halali serve`` on this port and data folder (with test seeds and any further ``options``),
    once its health check answers; a server that ended, or has not answered within ``startup``
    seconds, is killed and the test fails. What it prints goes to ``log`` when given (read when a test fails)."""
    return healthy(launch(data, port, *options, log=log), port, startup)


def launch(data: Path, port: int, *options: str, log: Path | None = None) -> subprocess.Popen[bytes]:
    """``halali serve`` started, not waited for (several servers start side by side). It analyses only
    the games someone asks for (no test of these servers looks at a background analysis), with one bot
    worker (each loads the compiled search as the server starts, seconds of work): what a test does
    not need would only take the machine from the other tests. ``options`` may say otherwise."""
    env = {**os.environ, "HALALI_TEST_SEEDS": "1"}
    options = ("--no-background-analysis", "--bot-workers", "1", *options)
    out: Any = subprocess.DEVNULL if log is None else log.open("ab")
    with contextlib.ExitStack() as stack:
        if log is not None:
            stack.callback(out.close)  # the child keeps its own copy of the file
        proc = subprocess.Popen(dies_with_parent([sys.executable, "-m", "halali.cli", "serve", "--port", str(port),
                                                  "--data", str(data), *options]),  # never outlives the test
                                env=env, stdout=out, stderr=subprocess.STDOUT)
    return proc


def healthy(proc: subprocess.Popen[bytes], port: int, startup: float = STARTUP) -> subprocess.Popen[bytes]:
    """The server once its health check answers (killed, and the test failed, after ``startup`` s)."""
    deadline = time.monotonic() + startup
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if loopback.get(f"http://127.0.0.1:{port}/api/health", timeout=5).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError(f"the server did not start (exit code {proc.poll()})")
