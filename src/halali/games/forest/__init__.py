"""Halali! the forest game: the pure rules engine.

>>> from halali.games.forest import Position
>>> pos = Position.deal(seed=1)
>>> len(pos.legal_actions())
48
"""

from halali.games.forest.actions import Action, action_str
from halali.games.forest.notation import format_position, parse_action, parse_action_text, parse_position
from halali.games.forest.perft import perft, random_game
from halali.games.forest.position import Position
from halali.games.forest.rules import DEFAULT_RULES, Rules
from halali.games.forest.tiles import BLUE, BROWN

__all__ = [
    "BLUE", "BROWN", "DEFAULT_RULES", "Action", "Position", "Rules", "action_str", "format_position",
    "parse_action", "parse_action_text", "parse_position", "perft", "random_game",
]
