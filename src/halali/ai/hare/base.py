"""The interface every hare bot implements."""

from __future__ import annotations

from typing import Protocol

from halali.games.hare.actions import Action
from halali.games.hare.state import HareState


class HareBot(Protocol):
    """Chooses an action for the seat to move.

    ``choose`` receives that seat's view (``HareState.view(seat)``, with the game's record) and must
    return one of ``view.legal_actions()``; rolls are returned without outcome. ``movetime`` is a
    budget in seconds that search bots may honour; the others ignore it.
    """

    name: str

    def choose(self, view: HareState, movetime: float | None = None) -> Action: ...
