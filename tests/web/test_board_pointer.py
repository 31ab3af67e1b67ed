"""A drag in progress on the forest board (board-pointer.js) is not broken off by a message that
changes nothing on the board, such as a spectator arriving; only a new position puts the tile back."""

from __future__ import annotations

from typing import Any

import pytest
from board_driver import Player

pytestmark = pytest.mark.browser

SEED = 10
RULES = {"match": "single", "stall_limit": 4}
HAS_POSITION = "() => document.querySelector('[data-testid=\"board\"]').dataset.position !== ''"


def test_a_drag_survives_a_spectator_arriving(server: Any, open_page: Any) -> None:
    table = server.create_table(RULES, seed=SEED)
    url = f"/table/{table}"
    players = [Player(open_page(url, motion=True)), Player(open_page(url, motion=True))]
    for i, p in enumerate(players):
        p.page.click('[data-testid="btn-join"]')
        p.page.locator(f'[data-testid="seat-{i}"].me').wait_for()
    players[0].page.click('[data-testid="btn-start"]')
    for p in players:
        p.page.wait_for_function(HAS_POSITION)  # the game, with the mover's actions on his board
    while True:  # reveal tiles until the player to move can move one
        me = next(p for p in players if p.legal())
        ply = me.ply()
        moves = [a for a in me.legal() if "-" in a and a[-1] not in "NESW"]
        if moves:
            break
        me.tap(next(a for a in me.legal() if a.startswith("?"))[1:3])
        for p in players:
            p.wait_ply(ply + 1)

    spectators = me.page.locator('[data-testid="spectators"]', has_text="1")

    def a_spectator_arrives() -> None:
        open_page(url)
        spectators.wait_for()  # the whole table came in, with the same position

    me.drag(moves[0][:2], moves[0][3:], during=a_spectator_arrives)
    for p in players:
        p.wait_ply(ply + 1)
    assert players[0].position() == players[1].position()
    frm, to = moves[0][:2], moves[0][3:]
    assert me.tile(to).count() == 1 and me.tile(frm).count() == 0  # the dragged tile's move was played
