"""An action redraws the squares it changed and nothing else (docs/web.md, "Playing"): stepping
through a game on the replay page, every tile whose square and letter stay the same keeps its very
drawing, every changed square gets a new one, and no tile is painted through an SVG filter at rest
(a filter is repainted in software at every frame of a slide nearby). A tile slides or flips into
its new place, unless the visitor asked for reduced motion: then nothing moves."""

from __future__ import annotations

from typing import Any

import pytest

import loopback
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


# Counts the animations the page starts from now on (every tile's slide, flip and glide is one).
COUNT_ANIMATIONS = """() => { window.animations = 0; const start = Element.prototype.animate;
  Element.prototype.animate = function (...args) { window.animations += 1; return start.apply(this, args); }; }"""


def replay(server: Any, open_page: Any, motion: bool) -> tuple[Any, Any]:
    """A replay page of a random game, at its start; and a wait for its ply."""
    imported = loopback.post(f"{server.url}/api/games/import", json={"record": random_record(5)},
                          headers={"origin": server.url}, timeout=60)
    assert imported.status_code == 200, imported.text
    page = open_page(f"/replay/{imported.json()['game']}", motion=motion)
    page.locator('[data-testid="move-1"]').wait_for()

    def at(ply: int) -> None:
        page.wait_for_function("n => document.querySelector('[data-testid=\"ply-label\"]').dataset.ply === String(n)",
                               arg=ply)

    at(0)
    return page, at


def test_a_step_redraws_only_the_changed_squares(server: Any, open_page: Any) -> None:
    page, at = replay(server, open_page, motion=True)
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


@pytest.mark.parametrize("motion", [True, False], ids=["motion", "reduced-motion"])
def test_tiles_move_unless_the_visitor_asked_for_reduced_motion(server: Any, open_page: Any, motion: bool) -> None:
    page, at = replay(server, open_page, motion)
    page.evaluate(COUNT_ANIMATIONS)
    for ply in range(1, 7):  # reveals (a flip each) and moves (a slide each)
        page.click('[data-testid="btn-next"]')
        at(ply)
    started = page.evaluate("() => window.animations")
    if motion:
        assert started >= 6, started
    else:
        assert started == 0, f"{started} animations for a visitor who asked for reduced motion"
    # Either way every tile at rest stands on its square: only how it got there differs.
    off = page.evaluate("""() => [...document.querySelectorAll('[data-testid="board"] .tiles .tile')]
      .filter((g) => g.getAnimations({ subtree: true }).length === 0).map((g) => {
        const cell = document.querySelector(`[data-testid="board"] rect.cell[data-square="${g.dataset.square}"]`);
        const a = g.getBoundingClientRect(), b = cell.getBoundingClientRect();
        const dx = a.x + a.width / 2 - b.x - b.width / 2, dy = a.y + a.height / 2 - b.y - b.height / 2;
        return [g.dataset.square, Math.hypot(dx, dy)];
      }).filter(([, d]) => d > 3)""")
    assert not off, f"tiles away from their squares: {off}"
