"""Bot levels by number, and one picklable entry point for running a bot in another process."""

from __future__ import annotations

from collections.abc import Callable

from halali.ai.base import Bot, LevelTable
from halali.ai.levels import SEARCH_LEVELS, SEARCH_NAMES
from halali.ai.simple import GreedyBot, RandomBot
from halali.ai.timing import clock_movetime
from halali.games.forest.notation import parse_position
from halali.games.forest.rules import DEFAULT_RULES

# level -> factory(seed); the searching levels come from halali.ai.levels.
LEVELS: dict[int, Callable[[int | None], Bot]] = {
    1: RandomBot,
    2: GreedyBot,
    **SEARCH_LEVELS,
}
NAMES: dict[str, int] = {"random": 1, "greedy": 2, **SEARCH_NAMES}


TABLE: LevelTable[Bot] = LevelTable("bot", LEVELS, NAMES)

# The level a searching level plays as while its process is still loading the compiled search
# (``play_while_loading``): the greedy level needs nothing compiled and answers in milliseconds.
STAND_IN = 2
_while_loading = False


def strongest_level() -> int:
    return TABLE.strongest()


def level_of(level: int | str) -> int:
    """The level number of a level given as a number, a digit string or a name."""
    return TABLE.level_of(level)


def make_bot(level: int | str, seed: int | None = None) -> Bot:
    """A bot by level number or name (``random``, ``greedy``, ...)."""
    return TABLE.make(level, seed)


def choose_action(level: int, view_fen: str, rules: dict[str, str] | None = None,
                  movetime: float | None = None, seed: int | None = None,
                  clock: tuple[float, float] | None = None) -> str:
    """Pick an action for a public view given as text; safe to run in a process pool. ``clock`` is
    (seconds left, increment) of the side to move when a game clock runs: the bot then thinks as
    ``halali.ai.timing`` spreads that time, and never longer than ``movetime``."""
    view = parse_position(view_fen, DEFAULT_RULES.with_options(rules or {}))
    if _while_loading and level in SEARCH_LEVELS:
        from halali.ai.search_bots import loaded

        if not loaded():
            _load()  # at the first searching level, if not at the start
            level = STAND_IN
    bot = make_bot(level, seed)
    if clock is not None:
        movetime = clock_movetime(view, clock[0], clock[1], movetime)
    return view.action_str(bot.choose(view, movetime))


def warm_up() -> None:
    """Load the compiled search now (a process-pool initializer), not during the first movetime."""
    from halali.ai.search_bots import warm_up as load

    load()


def play_while_loading(now: bool) -> None:
    """From now on this process loads the compiled search in the background (``now``, or when a
    searching level is first asked for), and until it has it a searching level answers as ``STAND_IN``
    does, at once: a person never waits for a compilation (the server's bot workers; docs/ai.md)."""
    global _while_loading
    _while_loading = True
    if now:
        _load()


_loading: list[object] = []


def _load() -> None:
    if not _loading:
        from halali.ai.kernel_load import load_in_background

        _loading.append(load_in_background())
