"""The games the table service serves, each through its small adapter (``base.TableGame``)."""

from __future__ import annotations

from halali.server.games.base import TableGame
from halali.server.games.forest import ForestTables
from halali.server.games.hare import HareTables


def default_games() -> dict[str, TableGame]:
    """Every game a server plays; a test may register another beside them."""
    return {g.id: g for g in (ForestTables(), HareTables())}
