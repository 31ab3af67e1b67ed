"""What a game is, as opposed to how a state of it moves on: the static facts every consumer reads.

Modelled on OpenSpiel's ``GameType`` and ``GameInfo``: a frozen :class:`GameInfo` per game says how many
players it takes, whether it has chance events and secrets, its rule options with their defaults and
choices, how many games make a match, the range of its results and whether they add up to a constant.
What depends on the options chosen (the games of one match, the longest possible game) the game
itself answers (``Game.match_games``, ``Game.max_length`` in :mod:`halali.games.base`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Utility = Literal["zero_sum", "constant_sum", "general_sum"]
"""As OpenSpiel's ``GameType.Utility``: results of every finished game sum to 0, to one constant, or to
different totals in different endings."""


@dataclass(frozen=True, slots=True)
class Option:
    """One rule option: its name, its default and the values it takes (all as text, as tables and
    records write them). ``choices`` is empty for an open value such as a number; the game's own
    parser (``Game.check_options``) is then the judge."""

    name: str
    default: str
    choices: tuple[str, ...] = ()
    doc: str = ""


@dataclass(frozen=True, slots=True)
class GameInfo:
    """The capabilities of one game type.

    ``chance``: the game has chance events. They are actions of the player to move (a reveal, a roll),
    listed by ``legal_actions`` without their outcome; the full state decides the outcome from the
    secret it holds (its deal, its dice secret), and ``chance_outcomes`` lists every outcome with its
    probability as someone without that secret sees it. A state without the secret (one replayed from
    ``view_record``) takes such an action only written with its outcome.

    ``secrets``: imperfect information. Some of the state is hidden from some players or from
    spectators, and ``view`` is the one place where it is removed.

    ``match_games``: the numbers of games one match may have (the options choose; ``Game.match_games``).

    ``min_utility``, ``max_utility``: the bounds of every entry of ``result``. ``utility`` and
    ``utility_sum``: whether every finished game's results add up to ``utility_sum`` (zero or
    constant sum) or not (general sum, ``utility_sum`` None).
    """

    id: str
    name: str
    min_players: int
    max_players: int
    chance: bool
    secrets: bool
    options: tuple[Option, ...]
    match_games: tuple[int, ...]
    min_utility: float
    max_utility: float
    utility: Utility
    utility_sum: float | None

    def __post_init__(self) -> None:
        if not 1 <= self.min_players <= self.max_players:
            raise ValueError(f"{self.id}: players must be 1 <= min <= max")
        if (self.utility == "general_sum") != (self.utility_sum is None):
            raise ValueError(f"{self.id}: a utility sum is given exactly for zero- or constant-sum games")
        if self.utility == "zero_sum" and self.utility_sum != 0.0:
            raise ValueError(f"{self.id}: a zero-sum game's utility sum is 0")
        names = [o.name for o in self.options]
        if len(set(names)) != len(names):
            raise ValueError(f"{self.id}: option names repeat")
        for o in self.options:
            if o.choices and o.default not in o.choices:
                raise ValueError(f"{self.id}: the default of {o.name} is not one of its choices")

    @property
    def default_options(self) -> dict[str, str]:
        """Every option with its default value."""
        return {o.name: o.default for o in self.options}

    def option(self, name: str) -> Option:
        for o in self.options:
            if o.name == name:
                return o
        raise KeyError(name)


__all__ = ["GameInfo", "Option", "Utility"]
