"""Puzzles from the site's finished games: ``halali puzzles mine`` replays each game not looked at
yet from its stored deal and actions, mines it as a self-play game is, stores what it finds with the
game as its source, and never looks at the same game twice."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from halali.ai.levels import STYLES
from halali.ai.search_bots import SearchBot
from halali.games.forest import Position
from halali.games.forest.actions import REVEAL, action_type
from halali.games.forest.tiles import HIDDEN, LETTER
from halali.puzzles.model import Puzzle
from halali.server.puzzles.records import from_store
from halali.server.settings import Settings
from halali.store import Store

pytestmark = pytest.mark.heavy


def a_game(seed: int) -> tuple[str, list[str]]:
    """A game of the strongest level against itself at depth 2, as the store records one."""
    pos = Position.deal(seed=seed)
    deal = pos.fen()
    bot = SearchBot(STYLES[max(STYLES)], seed)
    rng = random.Random(seed)
    actions = []
    while not pos.is_over():
        values = bot.think(pos.view(), None, depth=2, exact=True).values
        a = rng.choice([x for x, v in values if v >= values[0][1] - 1.0])
        text = pos.action_str(a)
        if action_type(a) == REVEAL:
            text += "=" + LETTER[pos.board[a & 63] - HIDDEN]
        actions.append(text)
        pos.push(pos.check(a))
    return deal, actions


def test_finished_site_games_are_mined_once(tmp_path: Path):
    data = tmp_path / "data"
    store = Store(Settings(data_dir=data).database_url())
    deal, actions = a_game(103)
    game_id = store.import_game("t_mined", None, {"stall_limit": 30, "match": "single"}, deal, actions, None, {})
    store.close()

    def mine() -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "halali.cli", "puzzles", "mine", "--jobs", "1",
                               "--proof-nodes", "300000", "--data", str(data)], capture_output=True, text=True,
                              timeout=600, check=False)

    run = mine()
    assert run.returncode == 0, run.stderr
    assert "games:      1 mined" in run.stdout
    store = Store(Settings(data_dir=data).database_url())
    found = [from_store(r) for r in store.puzzles_page()]
    store.close()
    assert found and all(p.source["kind"] == "game" and p.source["game_id"] == game_id for p in found)
    for p in found:
        Puzzle.from_json(p.to_json())  # each one a valid line: its solution legal from its position
        ply = p.source["ply"]
        replayed = Position.from_fen(deal)
        for action in actions[:ply]:
            replayed.play(action)
        assert replayed.view().fen() == p.position  # the position as its player saw it in that game
    again = mine()
    assert again.returncode == 0 and "games:      0 mined" in again.stdout


def test_a_game_with_a_stored_analysis_is_mined_with_its_margins(tmp_path: Path):
    from halali.ai.game_analysis import Budget, analyse_plies, chunks
    from halali.puzzles.mine import SHALLOW_MARGIN

    data = tmp_path / "data"
    store = Store(Settings(data_dir=data).database_url())
    deal, actions = a_game(103)
    rules = {"stall_limit": 30, "match": "single"}
    game_id = store.import_game("t_mined", None, rules, deal, actions, None, {})
    budget = Budget(soft_nodes=2000, luck_depth=1)
    plies = [e for f, end in chunks(len(actions), budget.chunk)
             for e in analyse_plies(deal, {"stall_limit": "30"}, actions, f, end, budget)]
    store.save_game_analysis(game_id, budget.key(), {"plies": plies, "total": len(actions)})
    store.close()
    margins = {e["ply"]: e["margin"] for e in plies if "margin" in e}
    assert margins and any(m >= SHALLOW_MARGIN for m in margins.values())

    run = subprocess.run([sys.executable, "-m", "halali.cli", "puzzles", "mine", "--jobs", "1", "--proof-nodes",
                          "300000", "--data", str(data)], capture_output=True, text=True, timeout=600, check=False)
    assert run.returncode == 0, run.stderr
    assert "games:      1 mined (1 with the margins of their stored analysis)" in run.stdout
    store = Store(Settings(data_dir=data).database_url())
    found = [from_store(r) for r in store.puzzles_page()]
    store.close()
    hidden = [p for p in found if p.source["ply"] in margins]
    assert hidden  # this game has one
    for p in hidden:  # a position before the final phase is tried only where the analysis saw a margin
        assert margins[p.source["ply"]] >= SHALLOW_MARGIN
