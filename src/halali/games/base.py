"""The interface both games implement, so that the server, the arena and the command line serve both.

It speaks text (positions and actions in each game's notation) because that is what crosses every
boundary: the WebSocket, the store, the engine protocol. Each game also has a richer native API
(``halali.games.forest.Position``) for bots and search.

Randomness is never taken from a global source: ``new`` receives the ``random.Random`` to deal from
(seeded for tests and replays, ``SystemRandom`` otherwise), and chance events are explicit actions
or outcomes recorded in the state.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from halali.games.hare.game import HareGame


class Game(Protocol):
    """One game type. States are opaque to callers; they are passed back to the same game."""

    id: str
    min_players: int
    max_players: int

    def new(self, options: dict[str, str], players: int, rng: random.Random) -> Any:
        """A fresh state with every secret drawn from ``rng``."""

    def legal_actions(self, state: Any) -> list[str]:
        """The legal actions of the player to move, sorted, in notation."""

    def apply(self, state: Any, action: str) -> Any:
        """A new state after ``action``; raises ``IllegalAction`` naming the rule it breaks, and then the
        given state is unchanged."""

    def to_move(self, state: Any) -> int | None:
        """The player (seat index within the game) to move; None when over."""

    def view(self, state: Any, player: int | None) -> str:
        """The state as ``player`` may see it (``None``: a spectator), in notation. The one place
        where a game's secrets are removed."""

    def is_over(self, state: Any) -> bool: ...

    def result(self, state: Any) -> list[float]:
        """Per player: 1 win, 0.5 shared/draw, 0 loss (only once over)."""

    def chance_outcomes(self, state: Any, action: str) -> list[tuple[str, float]]:
        """For an action whose outcome is hidden or random: (action with outcome, probability)."""


class ForestGame:
    """The forest game (halali.games.forest) behind the common interface; players are colours
    (0 blue, 1 brown)."""

    id = "forest"
    min_players = 2
    max_players = 2

    def new(self, options: dict[str, str], players: int, rng: random.Random) -> Any:
        from halali.games.forest import DEFAULT_RULES, Position

        return Position.deal(DEFAULT_RULES.with_options(options), rng)

    def legal_actions(self, state: Any) -> list[str]:
        return sorted(state.action_str(a) for a in state.legal_actions())

    def apply(self, state: Any, action: str) -> Any:
        new = state.copy()
        new.play(action)
        return new

    def to_move(self, state: Any) -> int | None:
        return None if state.is_over() else state.turn

    def view(self, state: Any, player: int | None) -> str:
        return state.view(player).fen()

    def is_over(self, state: Any) -> bool:
        return state.is_over()

    def result(self, state: Any) -> list[float]:
        w = state.winner()
        return [0.5, 0.5] if w is None else [1.0 if p == w else 0.0 for p in (0, 1)]

    def chance_outcomes(self, state: Any, action: str) -> list[tuple[str, float]]:
        from halali.games.forest.notation import parse_action_text

        a = parse_action_text(action)
        return [(state.action_str(o), p) for o, p in state.view().reveal_outcomes(a & 63)]


GAMES: dict[str, Game] = {"forest": ForestGame(), "hare": HareGame()}
