"""The hare hunt behind the common game interface (``halali.games.base.Game``).

Players are seats 0..n-1. States are :class:`HareState` objects; ``apply`` never changes the state
it is given.
"""

from __future__ import annotations

import random
from typing import Any

from halali.games.hare.actions import ROLL, action_str, parse_action_text
from halali.games.hare.rules import DEFAULT_RULES
from halali.games.hare.state import HareState


class HareGame:
    """The hare hunt (halali.games.hare): 2 to 6 players, secret clubs, dice."""

    id = "hare"
    min_players = 2
    max_players = 6

    def new(self, options: dict[str, str], players: int, rng: random.Random) -> Any:
        return HareState.new(players, DEFAULT_RULES.with_options(options), rng)

    def legal_actions(self, state: Any) -> list[str]:
        return sorted(action_str(a) for a in state.legal_actions())

    def apply(self, state: Any, action: str) -> Any:
        new = state.copy()
        new.play(action)
        return new

    def to_move(self, state: Any) -> int | None:
        return None if state.is_over() else state.to_move

    def view(self, state: Any, player: int | None) -> str:
        return state.view(player).fen()

    def view_record(self, state: Any, player: int | None) -> str:
        """The whole game so far as ``player`` may see it (``START ; ACTIONS``), what the bots read."""
        return state.view(player).record()

    def is_over(self, state: Any) -> bool:
        return state.is_over()

    def result(self, state: Any) -> list[float]:
        return state.result()

    def placings(self, state: Any) -> list[float]:
        return state.placings()

    def chance_outcomes(self, state: Any, action: str) -> list[tuple[str, float]]:
        a = parse_action_text(action)
        if a[0] != ROLL:
            return []
        return [(action_str(o), p) for o, p in state.chance_outcomes()]
