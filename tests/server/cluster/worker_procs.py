"""Real ``halali worker`` processes for the cluster tests: started, watched line by line, killed.

A test waits for what a worker prints (``ready``, ``job ID KIND``) rather than for a fixed time;
every process started here is killed when the test ends, whatever happened in it.
"""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

STARTUP = 180.0  # a cold numba cache compiles the search for about half a minute
# Unbuffered, as under a supervisor that shows a worker's lines at once: then the children of
# `--jobs N` write to one pipe as they go, and a line must still arrive whole, on any machine.
UNBUFFERED = {**os.environ, "PYTHONUNBUFFERED": "1"}


def die_with_parent() -> None:
    """In the child before it runs: SIGKILL when the test process dies, even by kill -9 (Linux)."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(1, ctypes.c_ulong(signal.SIGKILL))  # PR_SET_PDEATHSIG


class WorkerProc:
    def __init__(self, url: str, name: str, *options: str) -> None:
        self.name = name
        self.lines: list[str] = []
        self.ended = False  # its output closed: it exited
        self._seen = threading.Condition()
        self.proc = subprocess.Popen([sys.executable, "-m", "halali.cli", "worker", "--redis", url, "--name", name,
                                      *options],
                                     env=UNBUFFERED, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     preexec_fn=die_with_parent)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            with self._seen:
                self.lines.append(line.rstrip("\n"))
                self._seen.notify_all()
        with self._seen:
            self.ended = True
            self._seen.notify_all()

    def count(self, text: str) -> int:
        with self._seen:
            return sum(text in line for line in self.lines)

    def wait_for(self, text: str, times: int = 1, timeout: float = 60.0) -> None:
        """Until ``text`` has been in ``times`` lines of the worker's output; fails the test after ``timeout``."""
        end = time.monotonic() + timeout
        with self._seen:
            while sum(text in line for line in self.lines) < times:
                left = end - time.monotonic()
                if left <= 0 or self.ended:
                    raise AssertionError(f"worker {self.name} never printed {text!r} ({times}x):\n"
                                         + "\n".join(self.lines[-30:]))
                self._seen.wait(min(left, 1.0))

    def kill(self) -> None:
        """kill -9: no chance to tidy up, as when a machine dies."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)


class Workers:
    def __init__(self, url: str) -> None:
        self.url = url
        self.procs: list[WorkerProc] = []

    def start(self, name: str, *options: str, claim_idle: float = 0.5, ready: bool = True) -> WorkerProc:
        w = WorkerProc(self.url, name, "--claim-idle", str(claim_idle), *options)
        self.procs.append(w)
        if ready:
            w.wait_for(": ready", timeout=STARTUP)
        return w


@contextmanager
def workers(url: str) -> Iterator[Workers]:
    ws = Workers(url)
    try:
        yield ws
    finally:
        for w in ws.procs:
            w.kill()
