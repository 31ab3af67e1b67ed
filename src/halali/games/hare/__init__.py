"""Halali! the hare hunt (1997): the pure rules engine for 2 to 6 players.

>>> from halali.games.hare import HareState
>>> st = HareState.new(players=3, seed=1)
>>> st.phase, len(st.legal_actions())
('bush', 30)
"""

from halali.games.hare.actions import Action, action_str, parse_action_text
from halali.games.hare.game import HareGame
from halali.games.hare.notation import format_position, parse_action, parse_position, parse_record
from halali.games.hare.record import random_game, replay
from halali.games.hare.rules import DEFAULT_RULES, HareRules
from halali.games.hare.state import HareState

__all__ = [
    "DEFAULT_RULES", "Action", "HareGame", "HareRules", "HareState", "action_str", "format_position",
    "parse_action", "parse_action_text", "parse_position", "parse_record", "random_game", "replay",
]
