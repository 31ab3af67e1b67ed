"""Compile the kernel once before the tests run in parallel (``scripts/test.sh``).

numba compiles a function on its first call with each set of argument types and keeps the result in
its on-disk cache (``halali.ai.bits.jitcache``). Test processes that start before a function is
cached each compile it themselves, minutes of work apiece on a fresh clone; after this script they
load it in a fraction of a second. So this calls every compiled entry point with the argument types
the tests and the levels use: the levels' search (``warm_up``, in one process, which compiles the
recursion of ``bits.search``), and the kernel's other functions as the differential tests call them
(in another, at the same time).

Run: ``python tests/warm_kernel.py``. Without it the tests pass all the same, only slower.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import sys
import time
from collections.abc import Callable

import numpy as np


def search() -> None:
    """The levels' search, both with no flags and with all of them."""
    from halali.ai.registry import warm_up

    warm_up()


def kernel() -> None:
    """Every other compiled function, called as the tests call it (nothing here imports ``bits.search``)."""
    from halali.ai import bits as B
    from halali.ai.bits import check as C
    from halali.ai.bits import evaluate as BE
    from halali.ai.bits import rollout as R
    from halali.ai.bits import search_parts as S
    from halali.ai.bits.tables import MAX_ACTIONS
    from halali.ai.bits.weights import WEIGHTS
    from halali.games.forest.position import Position

    pos = Position.deal(seed=1).view()
    bb, s = B.from_position(pos)
    rng = B.new_rng(1)
    out = np.zeros(MAX_ACTIONS, dtype=np.int32)
    work = np.zeros(R.WORK_SIZE, dtype=np.uint64)
    B.gen_captures(bb, s, out)
    B.is_over(s)
    B.key_of(s)
    B.rebuild(bb, s)
    a = int(out[B.gen_actions(bb, s, out) - 1])
    undo = B.new_undo(4)
    B.make(bb, s, a, rng, undo[0])  # one record, and the search's stack of them
    B.unmake(bb, s, undo[0])
    B.make(bb, s, a, rng, undo)
    B.unmake(bb, s, undo)
    S.quiet_reveals(bb)
    S.order_key(s, a)
    BE.revealed_by_value(bb, s, WEIGHTS)
    R.selectable(bb, s, out)
    B.random_action(bb, s, rng, work)
    B.playouts(bb.copy(), s.copy(), 1, rng)
    B.play(bb, s, a, rng)
    B.playout(bb, s, rng, work)
    stats = np.zeros(C.N_STATS, dtype=np.int64)
    C.walk(*B.from_position(pos), B.new_rng(2), 3, False, stats, np.zeros(3, dtype=np.int64))
    # Last: calls of the search's ``evaluate_p`` and ``evaluate_revealed_p``, which the other process
    # has compiled (and cached) by now, while compiling the search's tree; called first, they would be
    # compiled twice at once.
    BE.evaluate(bb, s, WEIGHTS)
    BE.evaluate_revealed(bb, s, WEIGHTS, 0, 0, *BE._lines(bb))


def _with_parent(work: Callable[[], None], parent: int) -> None:
    """``work``, in a process that ends with this script (test.sh ends the script when it stops)."""
    from halali.engine.lifeline import exit_with_parent

    exit_with_parent(parent)
    work()


def main() -> int:
    import halali.ai.bits.jitcache  # noqa: F401  (its check runs once, here, before the two start)

    context = multiprocessing.get_context("fork")
    # Two pieces of about a minute of one core each (the search; the kernel's other functions), one
    # per core, both above test.sh's static checks (which nothing waits for, at nice 19).
    procs = [context.Process(target=_with_parent, args=(f, os.getpid()), name=f.__name__) for f in (search, kernel)]
    start = time.monotonic()
    for p in procs:
        p.start()
    running = {p.sentinel: p for p in procs}
    while running:  # each one's time, as it ends: which of them the tests waited for
        for sentinel in multiprocessing.connection.wait(list(running)):
            p = running.pop(sentinel)
            p.join()
            print(f"warm_kernel: {p.name} done in {time.monotonic() - start:.0f} s", file=sys.stderr)
    failed = [p.name for p in procs if p.exitcode != 0]
    if failed:
        print(f"warm_kernel: {', '.join(failed)} failed", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
