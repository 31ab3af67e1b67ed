"""A throwaway ``redis-server`` (Debian's package) for tests and for ``scripts/cluster.sh``-less local
runs: its own port and folder, no persistence unless asked, ended with its parent.

Redis carries only events and jobs (PostgreSQL holds the truth), so a test Redis needs no disk; the
restart tests stop and start the same server on the same port.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REDIS_SERVER = "/usr/bin/redis-server"


def dies_with_parent(cmd: list[str]) -> list[str]:
    """``cmd`` so that the kernel kills it when the process that starts it dies (util-linux's
    ``setpriv --pdeathsig``, which then runs the command itself, same pid): a test Redis or server
    never outlives the test process, even after a kill -9 of it. (``preexec_fn`` would do the same
    but may deadlock a parent with threads.)"""
    # The signal follows the *thread* that started the child (Linux): only the main thread lives as
    # long as the process, so a child started from another thread is started plainly.
    setpriv = shutil.which("setpriv")
    if not setpriv or not sys.platform.startswith("linux") or threading.current_thread() is not threading.main_thread():
        return cmd
    return [setpriv, "--pdeathsig", "KILL", *cmd]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class RedisServer:
    """One ``redis-server`` on 127.0.0.1; ``url`` is what ``--redis`` takes."""

    def __init__(self, folder: Path, port: int | None = None) -> None:
        self.folder = folder
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 60.0) -> RedisServer:
        binary = REDIS_SERVER if Path(REDIS_SERVER).exists() else shutil.which("redis-server")
        if binary is None:
            raise RuntimeError("redis-server is not installed (apt-get install redis-server)")
        self.folder.mkdir(parents=True, exist_ok=True)
        self.proc = subprocess.Popen(dies_with_parent(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.folder), "--daemonize", "no", "--logfile", str(self.folder / "redis.log")]),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        # A server that ended (its port taken meanwhile by another process) is not waited for.
        while time.monotonic() < deadline and self.proc.poll() is None:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return self
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(10)
            self.proc = None


@contextmanager
def running_redis(folder: Path) -> Iterator[RedisServer]:
    server = RedisServer(folder).start()
    try:
        yield server
    finally:
        server.stop()
