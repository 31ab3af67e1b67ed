"""The interface every bot implements, and the registry of levels."""

from __future__ import annotations

from typing import Protocol

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
