"""The searching levels 3 to 6: which search and evaluation each one uses.

Each level is a clear step up from the one below, and the choice of what makes the step was made
by playing them against each other (docs/ai.md has the table and the command to reproduce it).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from halali.ai.base import Bot
from halali.ai.bits import flags as S
from halali.ai.bits.weights import STRONGEST_SET
from halali.ai.style import Style

STYLES: dict[int, Style] = {
    # A plain depth-2 expectimax: every reveal a chance node over the tiles still possible, no
    # pruning, the static evaluation at the leaves (depth 1 if the clock runs out first).
    3: Style("expectimax", 0, max_depth=2),
    # Alpha-beta and Star1 at the same depth, and captures searched to the end past the horizon.
    4: Style("tactics", S.PRUNE | S.QSEARCH, max_depth=2),
    # Iterative deepening as deep as the clock allows, Star2 probing at chance nodes; it uses
    # half of the movetime.
    5: Style("star", S.PRUNE | S.QSEARCH | S.STAR2, time_share=0.5),
    # All of the search: history ordering, one quiet reveal standing for all, a transposition
    # table kept between moves, the whole movetime and a readiness to start a deeper iteration; at
    # the horizon, a reveal's quiet outcomes keep their probe's value (the same values, sooner); its
    # evaluation gives brown nothing for trees still standing (``weights.STRONGEST_SET``).
    6: Style("master", S.PRUNE | S.QSEARCH | S.STAR2 | S.HISTORY | S.MERGE | S.TT | S.FRONTIER, STRONGEST_SET,
             patience=3.0),
}
# The frozen baseline that `halali bench --search` and the arena measure level 6 against is not
# here: it is the level 6 of commit e9b1b22, run from a worktree of it as an outside engine
# (docs/performance.md, docs/ai.md).


def search_bot(style: Style, seed: int | None = None) -> Bot:
    """A searching bot of this style. The search (and numba) is imported here, when a level first plays,
    not with the table: the server and the command line list the levels without it."""
    from halali.ai.search_bots import SearchBot

    return SearchBot(style, seed)


SEARCH_LEVELS: dict[int, Callable[[int | None], Bot]] = {
    level: partial(search_bot, style) for level, style in STYLES.items()
}
SEARCH_NAMES: dict[str, int] = {style.name: level for level, style in STYLES.items()}
