"""The hare hunt behind the common game interface (``halali.games.base.Game``).

Players are seats 0..n-1. States are :class:`HareState` objects; ``apply`` never changes the state
it is given.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from halali.games.errors import HalaliError
from halali.games.hare.actions import ROLL, action_str, parse_action_text
from halali.games.hare.clubs import NHUNTERS
from halali.games.hare.record import replay as replay_record
from halali.games.hare.rules import DEFAULT_RULES, OVERSHOOT_VALUES, SAFEGUARD_ROUNDS, HareRules
from halali.games.hare.state import HareState
from halali.games.info import GameInfo, Option

INFO = GameInfo(
    id="hare",
    name="Halali! The hare hunt",
    min_players=2,
    max_players=6,
    chance=True,  # every roll: the dice secret decides it
    secrets=True,  # the club cards and the dice secret
    options=(
        Option("bush", "on", ("on", "off"), "whether the starting player places a bush first"),
        Option("overshoot", "choose", OVERSHOOT_VALUES,
               "who a shot longer than the distance to the partner removes: the active player chooses,"
               " or the partner"),
    ),
    match_games=(1,),
    min_utility=0.0,
    max_utility=1.0,
    # A lone winner scores 1, each of k sharing winners 0.5: with more than two players the sum varies.
    utility="general_sum",
    utility_sum=None,
)

# The most actions one turn can take besides removals: the roll, which die counts hunters, 4 hunters
# of 4 points each, the end of the movement and the shot's roll.
_TURN_ACTIONS = 1 + 1 + 4 * 4 + 1 + 1


def _rules(options: Mapping[str, str]) -> HareRules:
    return DEFAULT_RULES.with_options(dict(options))


def _state(state: Any) -> HareState:
    if not isinstance(state, HareState):
        raise TypeError(f"not a hare hunt state: {type(state).__name__}")
    return state


class HareGame:
    """The hare hunt (halali.games.hare): 2 to 6 players, secret clubs, dice."""

    info = INFO
    id = INFO.id
    min_players = INFO.min_players
    max_players = INFO.max_players

    # ---- the game and its options ----------------------------------------------------------
    def check_options(self, options: Mapping[str, str]) -> dict[str, str]:
        rules = _rules(options)
        return {"bush": "on" if rules.bush else "off", "overshoot": rules.overshoot}

    def match_games(self, options: Mapping[str, str]) -> int:
        _rules(options)
        return 1

    def max_length(self, options: Mapping[str, str], players: int) -> int | None:
        """At most one turn in a row without a removal short of the safeguard (60 rounds of the players
        still in), at most one removal per hunter, and a bounded number of actions per turn."""
        _rules(options)
        if not self.min_players <= players <= self.max_players:
            raise HalaliError(f"the hare hunt is for 2 to 6 players, not {players}")
        turns = NHUNTERS + (NHUNTERS + 1) * SAFEGUARD_ROUNDS * players
        return 1 + NHUNTERS + _TURN_ACTIONS * turns

    # ---- a game ----------------------------------------------------------------------------
    def new(self, options: Mapping[str, str], players: int, rng: random.Random) -> HareState:
        return HareState.new(players, _rules(options), rng)

    def legal_actions(self, state: Any) -> list[str]:
        return sorted(action_str(a) for a in _state(state).legal_actions())

    def apply(self, state: Any, action: str) -> HareState:
        new = _state(state).copy()
        new.play(action)
        return new

    def to_move(self, state: Any) -> int | None:
        st = _state(state)
        return None if st.is_over() else st.to_move

    def view(self, state: Any, player: int | None) -> str:
        """Another seat's club is ``?`` until that seat is out or the hunt is over (for a spectator:
        until the end); the dice secret is ``-``."""
        return _state(state).view(player).fen()

    def is_over(self, state: Any) -> bool:
        return _state(state).is_over()

    def result(self, state: Any) -> list[float]:
        return _state(state).result()

    def placings(self, state: Any) -> list[float]:
        return _state(state).placings()

    def chance_outcomes(self, state: Any, action: str) -> list[tuple[str, float]]:
        """A roll due now: the 15 rolls with their probabilities; [] for any other action."""
        a = parse_action_text(action)
        if a[0] != ROLL:
            return []
        return sorted((action_str(o), p) for o, p in _state(state).chance_outcomes())

    # ---- records ---------------------------------------------------------------------------
    def record(self, state: Any) -> str:
        """``START ; ACTIONS`` with the full start (every club, the dice secret) and every roll's outcome."""
        return _state(state).record()

    def view_record(self, state: Any, player: int | None) -> str:
        """The whole game so far as ``player`` may see it (``START ; ACTIONS``), what the bots read: the
        start with the clubs that player may know now and no dice secret, and the same actions.

        For a seat, replaying it gives that seat's view of the state. A spectator's record does not
        say who is out (the club cards shown by elimination stay hidden from spectators), so replayed
        it loses the eliminations."""
        return _state(state).view(player).record()

    def replay(self, record: str) -> HareState:
        return replay_record(record)
