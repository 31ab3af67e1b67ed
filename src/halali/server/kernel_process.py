"""The compilation of the computer's search in a process of its own, saying how far it is.

The bot pool starts it when it starts (with ``halali serve``, when the server starts); it runs
only while the kernel is not compiled (``halali.ai.kernel``), at most once per server process, and
prints its progress on the server's standard output. It ends with the server (``exit_with_parent``)
and is ended by the server's stop. Nothing waits for it: the bot workers play the searching levels
at a lower strength until they have loaded what it compiled (``registry.play_while_loading``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable

from halali.ai import kernel

EVERY = 5.0  # seconds between two lines of progress
NICE = 5

_process: subprocess.Popen[bytes] | None = None


def start() -> subprocess.Popen[bytes] | None:
    """The compiling process, started now if the kernel is not compiled and none was started; None
    when there is nothing to compile."""
    global _process
    if _process is None and not kernel.is_marked():
        cmd = [sys.executable, "-m", "halali.server.kernel_process", "--parent", str(os.getpid())]
        # Taken here, before any bot worker starts, and handed over: the workers wait for this process
        # (if another process holds it, this one waits for it too, then loads what it compiled).
        fd = kernel.take_lock()
        try:
            _process = subprocess.Popen([*cmd, "--lock-fd", str(fd)] if fd is not None else cmd,
                                        stdin=subprocess.DEVNULL, pass_fds=() if fd is None else (fd,))
        finally:
            if fd is not None:
                os.close(fd)  # the lock stays with the child's copy of the descriptor
    return _process


def running() -> bool:
    return _process is not None and _process.poll() is None


async def finished(poll: float = 0.25) -> None:
    """Wait (without blocking the loop) until no compiling process of this server runs."""
    while running():
        await asyncio.sleep(poll)


def stop() -> None:
    """End the compiling process (the server stops); numba's cache keeps what it finished."""
    global _process
    if _process is not None:
        if _process.poll() is None:
            _process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                _process.wait(5)
            if _process.poll() is None:
                _process.kill()
                _process.wait()
        _process = None


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m halali.server.kernel_process")
    p.add_argument("--parent", type=int, required=True)
    p.add_argument("--lock-fd", type=int, default=None, help="the compile lock, taken by the parent")
    args = p.parse_args(argv)
    if args.lock_fd is not None:
        kernel.hold()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the server, and the server stops this
    with contextlib.suppress(OSError):
        os.nice(NICE)  # background work: the server's answers and the bots' moves go first
    from halali.engine.lifeline import exit_with_parent

    exit_with_parent(args.parent)
    from halali.ai.kernel_load import warm_up_with_progress

    compiled, seconds = warm_up_with_progress(Progress())
    how = f"compiled in {seconds:.0f} s, kept in {kernel.cache_dir()}" if compiled else f"loaded in {seconds:.1f} s"
    say(f"the computer's search is ready ({how})")
    return 0


def say(text: str) -> None:
    print(f"halali: {text}", flush=True)


class Progress:
    """What the compiling process says as numba goes: what it does and why, then how far it is every
    ``EVERY`` seconds and at the end, each count once (numba may compile more versions than it counts,
    ``kernel_load.STEPS``: the count then stays at its end until the search is ready)."""

    def __init__(self, tell: Callable[[str], None] = say, clock: Callable[[], float] = time.monotonic) -> None:
        self.tell, self.clock = tell, clock
        self.last: float | None = None
        self.said = -1

    def __call__(self, done: int, total: int, name: str) -> None:
        now = self.clock()
        if self.last is None:
            self.last = now
            self.tell("compiling the computer's search, once after an install or an update (a minute or "
                      "more); until it is ready the computer plays its first moves at a lower strength")
        if done != self.said and (now - self.last >= EVERY or done == total):
            self.tell(f"compiling the computer's search: {done}/{total}")
            self.last, self.said = now, done


if __name__ == "__main__":
    sys.exit(main())
