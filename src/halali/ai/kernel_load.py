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

# The compilations numba runs when nothing is cached (counted on this code: the compile events of
# ``warm_up`` in an empty cache; a function typed twice counts twice). A change to the kernel may
# change it; the count then stops at it.
STEPS = 34

Report = Callable[[int, int, str], None]  # (functions done, of how many, the last one's name)


class _Counter(event.Listener):
    def __init__(self, report: Report) -> None:
        self.started = 0
        self.done = 0
        self.report = report

    def on_start(self, ev: event.Event) -> None:
        self.started += 1
        if self.started == 1:  # said at once: the first one to end may take a while
            self.report(0, STEPS, _name(ev))

    def on_end(self, ev: event.Event) -> None:
        self.done += 1
        self.report(min(self.done, STEPS), STEPS, _name(ev))


def _name(ev: event.Event) -> str:
    data: Any = ev.data
    return str(getattr(data.get("dispatcher"), "__name__", "?")) if isinstance(data, dict) else "?"


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
