"""The interface every bot implements, and the registry of levels."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Generic, Protocol, TypeVar

from halali.games.forest.actions import Action
from halali.games.forest.position import Position


class Bot(Protocol):
    """Chooses an action for the player to move in a public view.

    ``choose`` receives a view (every face-down tile unknown) and must return one of
    ``view.legal_actions()``; a reveal is returned without its outcome. ``movetime`` is a budget in
    seconds that search bots honour; simple bots ignore it.
    """

    name: str

    def choose(self, view: Position, movetime: float | None = None) -> Action: ...


B = TypeVar("B")


class LevelTable(Generic[B]):
    """Levels of one game's bots by number and by name: what a command line, an engine or a server
    seat accepts as "a level" (``3``, ``"3"``, ``"expectimax"``), with one error that lists them."""

    def __init__(self, what: str, factories: Mapping[int, Callable[[int | None], B]], names: Mapping[str, int]) -> None:
        self.what = what
        self.factories = dict(factories)
        self.names = dict(names)

    def strongest(self) -> int:
        return max(self.factories)

    def level_of(self, level: int | str) -> int:
        """The level number of a level given as a number, a digit string or a name."""
        if isinstance(level, str):
            if level.isdecimal():
                level = int(level)
            elif level in self.names:
                level = self.names[level]
            else:
                raise ValueError(f"unknown {self.what} {level!r} (levels 1..{self.strongest()} or "
                                 f"{', '.join(self.names)})")
        if level not in self.factories:
            raise ValueError(f"unknown {self.what} level {level} (levels 1..{self.strongest()})")
        return level

    def names_by_level(self) -> dict[int, str]:
        """Each level's display name (its first name, else ``level N``), weakest first."""
        by_level: dict[int, str] = {}
        for name, level in self.names.items():
            by_level.setdefault(level, name)
        return {level: by_level.get(level, f"level {level}") for level in sorted(self.factories)}

    def make(self, level: int | str, seed: int | None = None) -> B:
        return self.factories[self.level_of(level)](seed)
