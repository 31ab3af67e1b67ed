"""A forest action as a person sends it, read on a public view: the one place that turns the text into
the engine's action or into the error that names the broken rule (tables, the course, puzzles)."""

from __future__ import annotations

from collections.abc import Collection

from halali.games.errors import IllegalAction, NotationError
from halali.games.forest.actions import CAPTURE, MOVE, TYPE_SHIFT, action_type
from halali.games.forest.notation import parse_action, parse_action_text
from halali.games.forest.position import Position
from halali.server.errors import ClientError

MOVE_TO_CAPTURE = (CAPTURE ^ MOVE) << TYPE_SHIFT  # xor turns a move's type into a capture's


def read_action(view: Position, text: object, legal: Collection[int] | None = None) -> int:
    """The legal action ``text`` names in ``view`` (a reveal without its outcome); ClientError if none.

    An illegal action's error carries the rule's key and params, computed from public facts only."""
    if not isinstance(text, str):
        raise ClientError("error.bad_request", field="action")
    if "=" in text:
        raise ClientError("error.bad_action", reason="send a reveal without its outcome, e.g. ?c3")
    if legal is None:
        legal = frozenset(view.legal_actions())
    try:
        a = parse_action_text(text)
        if action_type(a) == MOVE and (a ^ MOVE_TO_CAPTURE) in legal:
            a ^= MOVE_TO_CAPTURE  # `c3-c6` onto a tile is the capture `c3xc6`
        if a not in legal:  # a reveal is legal without its outcome: that comes from the deal
            a = parse_action(view, a)  # raises, naming the rule (from public facts only)
    except IllegalAction as exc:
        raise ClientError("error.illegal", reason=str(exc), rule=exc.key, rule_params=exc.params) from exc
    except NotationError as exc:
        raise ClientError("error.bad_action", reason=str(exc)) from exc
    return a
