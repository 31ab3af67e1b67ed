"""Compiling the kernel with progress, and loading it in the background of a process that must stay quick.

Compiling is numba's work, function after function; a listener on numba's compile events counts the
functions done, so that the process compiling can say how far it is (``STEPS`` is how many there are
when nothing is cached). A bot worker loads the kernel in a thread of its own (``load_in_background``):
until ``search_bots.loaded()`` its main thread still answers at once, with what needs no compiling.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from numba.core import event

from halali.ai import kernel
from halali.ai.search_bots import loaded, warm_up

log = logging.getLogger("halali.ai")

# The compiled versions (a function and the argument types it is compiled for) numba makes when
# nothing is cached, counted on this code (``warm_up`` in an empty cache: 31 with numba 0.68.1). A
# change to the kernel or to numba may change it; the count then stops at it, said once
# (``kernel_process.Progress``).
STEPS = 31

Report = Callable[[int, int, str], None]  # (functions done, of how many, the last one's name)


class _Counter(event.Listener):
    def __init__(self, report: Report) -> None:
        self.started = 0
        self.done: set[tuple[str, str]] = set()  # numba may type a version twice (a recursion): once here
        self.report = report

    def on_start(self, ev: event.Event) -> None:
        self.started += 1
        if self.started == 1:  # said at once: the first one to end may take a while
            self.report(0, STEPS, _version(ev)[0])

    def on_end(self, ev: event.Event) -> None:
        version = _version(ev)
        if version not in self.done:
            self.done.add(version)
            self.report(min(len(self.done), STEPS), STEPS, version[0])


def _version(ev: event.Event) -> tuple[str, str]:
    data: Any = ev.data
    if not isinstance(data, dict):
        return "?", ""
    return str(getattr(data.get("dispatcher"), "__name__", "?")), str(data.get("args"))


def warm_up_with_progress(report: Report) -> tuple[bool, float]:
    """``warm_up`` with every function numba compiles reported; (whether anything was compiled,
    seconds taken)."""
    counter = _Counter(report)
    started = time.perf_counter()
    with event.install_listener("numba:compile", counter):
        warm_up()
    return counter.started > 0, time.perf_counter() - started


def load_in_background() -> threading.Thread:
    """Load the kernel in a daemon thread (waiting for a process that compiles it, or compiling it)."""

    def run() -> None:
        try:
            warm_up()
        except Exception:
            log.exception("the computer's search could not be loaded (cache %s)", kernel.cache_dir())

    thread = threading.Thread(target=run, name="kernel-load", daemon=True)
    thread.start()
    return thread


__all__ = ["STEPS", "load_in_background", "loaded", "warm_up_with_progress"]
