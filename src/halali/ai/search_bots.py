"""The searching bots: iterative deepening around the compiled expectimax, with a clock.

A bot is a :class:`Style` (which search, which evaluation, how deep, how much of the time) and a
seed. ``think`` is the full interface (the engine protocol and the analysis use it: node and
depth limits, a stop flag, progress reports, values of every root action); ``choose`` is the
:class:`~halali.ai.base.Bot` protocol on top of it.

Only the public view is ever searched: ``think`` strips the position it is given through
``Position.view`` before anything else, so even a caller that hands over a position knowing the
deal cannot make the bot read a face-down tile.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable

import numpy as np

from halali.ai import bits as B
from halali.ai import kernel
from halali.ai.bits import root as BR
from halali.ai.bits import search as BS
from halali.ai.bits import search_parts as S
from halali.ai.style import Style as Style
from halali.ai.style import Thought as Thought
from halali.games.forest.actions import Action, action_str
from halali.games.forest.position import Position

DEFAULT_MOVETIME = 1.0
# Kept back from every movetime for the way out (protocol, process pool, a busy machine): a late
# answer loses the game, a few percent of thinking time costs next to nothing.
SAFETY = 0.03  # seconds
KEEP = 0.05  # of the movetime


Info = Callable[[Thought], None]


class SearchBot:
    """Expectimax with iterative deepening; see :mod:`halali.ai.bits.search`."""

    def __init__(self, style: Style, seed: int | None = None) -> None:
        self.style = style
        self.name = style.name
        self.weights = np.asarray(style.weights, dtype=np.float64)
        self.rng = random.Random(seed)
        self._ctx: np.ndarray | None = None
        self._ws: BR.Workspace | None = None
        self._lock = threading.Lock()

    def _workspace(self) -> BR.Workspace:
        """Buffers for one search; the transposition table is kept from move to move."""
        if not self.style.flags & S.TT:
            return BR.Workspace()
        if self._ws is None:
            self._ws = BR.Workspace().with_table()
        self._ws.hist.fill(0.0)
        return self._ws

    def choose(self, view: Position, movetime: float | None = None) -> Action:
        return self.think(view, movetime).action

    def stop(self) -> None:
        """Ask a running ``think`` (in another thread) to answer now."""
        with self._lock:
            if self._ctx is not None:
                self._ctx[S.C_ABORT] = 1.0

    def think(self, view: Position, movetime: float | None = None, nodes: int | None = None,
              depth: int | None = None, on_info: Info | None = None, exact: bool = False,
              infinite: bool = False, exclude: frozenset[Action] = frozenset(), soft_nodes: int = 0) -> Thought:
        """Search the view; ``exclude`` leaves those root actions out (a puzzle's margin is the best
        action's value less the best of the others, searched without it). ``soft_nodes``: start no
        deeper iteration once this many nodes are searched (a budget that, unlike a clock, ends the
        search at the same depth on every machine; ``nodes`` still cuts an iteration short)."""
        warm_up()  # loading the compiled code must not eat into the first movetime
        start = time.perf_counter()
        public = view.view()  # never search anything but the public view
        bb, state = B.from_position(public)
        root = [a for a in BR.legal_root(bb, state) if a not in exclude]
        if not root:
            raise ValueError("the game is over: there is no action to choose")
        self.rng.shuffle(root)  # the seed decides between actions the search finds equal
        root.sort(key=lambda a: -S.order_key(state, a))
        root, merged = _merge_quiet(bb, root) if self.style.flags & S.MERGE else (root, [])
        style = self.style
        if movetime is None and nodes is None and depth is None and not infinite:
            movetime = DEFAULT_MOVETIME
        budget = None if movetime is None or infinite else max(0.005, movetime * style.time_share * (1 - KEEP) - SAFETY)
        deadline = 0.0 if budget is None else start + budget
        ctx = S.new_ctx(deadline, nodes or 0, style.star2_margin)
        with self._lock:
            self._ctx = ctx
        max_depth = min(style.max_depth, depth or style.max_depth)
        if public.final >= 0:  # no chance left: the game ends within `final` plies
            max_depth = min(max_depth, max(1, public.final))
        ws = self._workspace()
        thought = Thought(root[0], 0.0, 0, 0, 0.0, [])
        last_time = 0.0
        if len(root) == 1 and not exact and not infinite:
            max_depth = 0  # nothing to think about
        try:
            for d in range(1, max_depth + 1):
                t0 = time.perf_counter()
                values, best = BR.search_root(bb, state, root, d, exact, ctx, self.weights, style.flags, ws)
                elapsed = time.perf_counter() - t0
                if best < 0:
                    break
                if ctx[S.C_ABORT] != 0.0:
                    # Partial iteration: trust it only if the previous best (searched first) was
                    # done and something searched after it beat it.
                    if values[0] is not None and best != 0 and not exact:
                        thought = self._thought(root, values, best, d, ctx, start)
                    break
                thought = self._thought(root, values, best, d, ctx, start)
                keys = [-1e9 if v is None else v for v in values]
                order = sorted(range(len(root)), key=lambda i: -keys[i])
                root = [root[i] for i in order]
                if on_info:
                    on_info(thought)
                if soft_nodes and ctx[S.C_NODES] >= soft_nodes:
                    break
                if budget is not None:
                    growth = min(30.0, max(4.0, elapsed / last_time)) if last_time > 0 else 8.0
                    if elapsed * growth > style.patience * (budget - (time.perf_counter() - start)):
                        break
                last_time = max(elapsed, 1e-6)
        finally:
            with self._lock:
                self._ctx = None
        if merged:  # the quiet reveals not searched are worth what their representative is
            rep = next((v for a, v in thought.values if a == merged[0]), None)
            if rep is not None:
                thought.values = sorted(thought.values + [(a, rep) for a in merged[1:]], key=lambda x: -x[1])
        thought.nodes = int(ctx[S.C_NODES])
        thought.seconds = time.perf_counter() - start
        thought.seldepth = int(ctx[S.C_SELDEPTH])
        return thought

    @staticmethod
    def _thought(root: list[int], values: list[float | None], best: int, depth: int, ctx: np.ndarray,
                 start: float) -> Thought:
        ranked = sorted(((a, v) for a, v in zip(root, values, strict=True) if v is not None), key=lambda x: -x[1])
        return Thought(root[best], float(values[best] or 0.0), depth, int(ctx[S.C_NODES]),
                       time.perf_counter() - start, [(a, float(v)) for a, v in ranked], int(ctx[S.C_SELDEPTH]))


def _merge_quiet(bb: np.ndarray, root: list[int]) -> tuple[list[int], list[int]]:
    """Root actions with one quiet reveal standing for all (see ``search_parts.quiet_reveals``), and
    the quiet reveals, representative first."""
    quiet = int(S.quiet_reveals(bb))
    keep: list[int] = []
    merged: list[int] = []
    for a in root:
        if a >> 12 & 7 == 0 and quiet >> (a & 63) & 1:
            if not merged:
                keep.append(a)
            merged.append(a)
        else:
            keep.append(a)
    return keep, merged


def describe(thought: Thought) -> str:
    return (f"{action_str(thought.action)} score {thought.score:+.2f} depth {thought.depth} "
            f"nodes {thought.nodes} nps {thought.nps:,.0f}")


_WARM = threading.Lock()
_loaded = threading.Event()
_inside = threading.local()  # set while this thread warms up: its own searches must not wait for it


def loaded() -> bool:
    """True once this process has the compiled search in memory (``warm_up`` has run to its end)."""
    return _loaded.is_set()


def warm_up() -> None:
    """Load (or, the first time on a machine, compile) the kernel and the search.

    The compiled code is cached on disk (``halali.ai.kernel``), so this costs a few seconds in a fresh
    process and a minute or more only after an install or a change of the kernel's sources; engines call
    it before answering ``readyok``, the server's bot pool in the background (``halali.ai.kernel_load``).
    A process that finds the kernel not yet compiled compiles it under the cache's lock, so it waits
    for another process that is compiling it, then loads that one's work.
    """
    if _loaded.is_set() or getattr(_inside, "on", False):
        return
    with _WARM:
        if _loaded.is_set():
            return
        _inside.on = True
        try:
            if kernel.is_marked():
                _warm_searches()
            else:
                with kernel.compiling():
                    _warm_searches()
                    kernel.mark()
        finally:
            _inside.on = False
        _loaded.set()


def _warm_searches() -> None:
    BS.compile_tree()
    pos = Position.deal(seed=0).view()
    everything = S.PRUNE | S.QSEARCH | S.STAR2 | S.HISTORY | S.MERGE | S.TT
    for flags in (0, everything):
        # With a clock: the first read of the clock inside the search is slow, so do it here.
        SearchBot(Style("warm-up", flags), 0).think(pos, 0.05)
