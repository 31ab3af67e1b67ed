"""Errors the rules raise: every one carries a message meant for the person who made the mistake."""

from __future__ import annotations


class HalaliError(ValueError):
    """Base of every error caused by bad input (as opposed to a bug)."""


class NotationError(HalaliError):
    """Text that is not a well-formed position, action or rule option."""


class PositionError(NotationError):
    """A well-formed position that cannot occur (too many tiles of a kind, a lock on an empty square...)."""


class IllegalAction(HalaliError):
    """A well-formed action that the rules forbid here; the message names the rule.

    ``key`` names the rule in a form a user interface can translate (``rule.green_lock``), with
    ``params`` for the translation (squares, tile names, players); the message is the English text.
    """

    def __init__(self, message: str, key: str = "rule.illegal", params: dict[str, object] | None = None) -> None:
        super().__init__(message)
        self.key = key
        self.params = params or {}
