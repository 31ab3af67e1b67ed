"""An action redraws the squares it changed and nothing else (docs/web.md, "Playing"): stepping
through a game on the replay page, every tile whose square and letter stay the same keeps its very
drawing, every changed square gets a new one, and no tile is painted through an SVG filter at rest
(a filter is repainted in software at every frame of a slide nearby)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from forest_helpers import random_record

pytestmark = [pytest.mark.browser]

# Each tile's square and letter, and whether its element is one marked at the last look; then marks
# every tile, for the next look.
LOOK = """() => {
  const tiles = [...document.querySelectorAll('[data-testid="board"] .tiles .tile')];
  const seen = tiles.map((g) => [g.dataset.square, g.dataset.letter, g.__mark || null]);
  for (const g of tiles) g.__mark = `${g.dataset.square}:${g.dataset.letter}`;
  return seen;
}"""


def test_a_step_redraws_only_the_changed_squares(server: Any, open_page: Any) -> None:
    imported = httpx.post(f"{server.url}/api/games/import", json={"record": random_record(5)},
                          headers={"origin": server.url}, timeout=60)
    assert imported.status_code == 200, imported.text
    page = open_page(f"/replay/{imported.json()['game']}")
    page.locator('[data-testid="move-1"]').wait_for()

    def at(ply: int) -> None:
        page.wait_for_function("n => document.querySelector('[data-testid=\"ply-label\"]').dataset.ply === String(n)",
                               arg=ply)

    at(0)
    before = {sq: letter for sq, letter, _ in page.evaluate(LOOK)}
    kept = changed = 0
    for ply, button in [(1, "btn-next"), (2, "btn-next"), (3, "btn-next"), (4, "btn-next"), (3, "btn-prev"),
                        (4, "btn-next"), (5, "btn-next"), (6, "btn-next")]:
        page.click(f'[data-testid="{button}"]')
        at(ply)
        now = page.evaluate(LOOK)
        assert len({sq for sq, _, _ in now}) == len(now), "one tile per square"
        for sq, letter, mark in now:
            if before.get(sq) == letter:
                assert mark == f"{sq}:{letter}", f"ply {ply}: the unchanged {sq} ({letter}) was drawn anew"
                kept += 1
            else:
                assert mark is None, f"ply {ply}: {sq} changed ({before.get(sq)} -> {letter}) but kept its old drawing"
                changed += 1
        before = {sq: letter for sq, letter, _ in now}
    assert changed >= 8 and kept > 40 * 8, (changed, kept)

    # No tile at rest is painted through a filter.
    filtered = page.evaluate("""() => [...document.querySelectorAll('[data-testid="board"] .tiles *')]
        .filter((e) => e.hasAttribute('filter') || getComputedStyle(e).filter !== 'none').length""")
    assert filtered == 0
