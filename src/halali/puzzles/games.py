"""Puzzles from a game played on the site: its positions as each player saw them, mined as a
self-play game is (``mine``).

The shallow margins that choose the positions worth judging before the final phase come from the
same depth-2 search the self-play uses. A game whose analysis is stored with it can hand its own
margins in instead (``margins``: ply -> the best action's margin at the analysis's depth).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from halali.ai.levels import STYLES
from halali.ai.search_bots import SearchBot
from halali.games.forest.notation import parse_position
from halali.games.forest.position import Position
from halali.games.forest.rules import DEFAULT_RULES, Rules
from halali.puzzles.mine import Budget, Seen, puzzles_of_game
from halali.puzzles.model import Puzzle

SHALLOW_DEPTH = 2


def shallow_values(view: Position, bot: SearchBot) -> list[tuple[int, float]]:
    """Every action's value at depth 2, best first (a full window for each)."""
    t = bot.think(view, None, depth=SHALLOW_DEPTH, exact=True)
    return t.values or [(t.action, t.score)]


def stored_margins(plies: Sequence[Mapping[str, Any]]) -> dict[int, float]:
    """The margins a game's stored analysis (``halali.ai.game_analysis``) found: by ply, for every
    hidden-phase position with a choice, from the same depth-2 search the miner would run."""
    return {int(e["ply"]): float(e["margin"]) for e in plies if "margin" in e}


def margin_of(values: list[tuple[int, float]]) -> float | None:
    return values[0][1] - values[1][1] if len(values) > 1 else None


def positions(deal: str, actions: list[str], rules: Rules = DEFAULT_RULES,
              margins: Mapping[int, float] | None = None) -> list[Seen]:
    """The positions of a game from its deal (the full start) and its actions as recorded."""
    pos = parse_position(deal, rules)
    bot = SearchBot(STYLES[max(STYLES)], 0)
    seen: list[Seen] = []
    for ply, action in enumerate(actions):
        if pos.is_over():
            break
        view = pos.view()
        margin = margins.get(ply) if margins is not None else None
        if margin is None and margins is None and view.final < 0 and len(view.legal_actions()) > 1:
            margin = margin_of(shallow_values(view, bot))
        seen.append(Seen(ply, view, margin))
        pos.play(action)
    return seen


def puzzles_of_site_game(game_id: int, deal: str, actions: list[str], rules: Rules = DEFAULT_RULES,
                         budget: Budget | None = None, margins: Mapping[int, float] | None = None) -> list[Puzzle]:
    """The puzzles of one finished site game."""
    return puzzles_of_game(positions(deal, actions, rules, margins), budget or Budget(),
                           {"kind": "game", "game_id": game_id})
