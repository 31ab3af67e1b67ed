"""A finished game's analysis in the browser: the replay page fills in as the job goes (the progress
bar, the chart's points and the move list's marks grow while it runs, and a screen reader hears the
progress), and after a restart of the server on the same database the page gets the stored analysis
whole at once: the server read it from the store and did not compute it again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import loopback
from forest_helpers import random_record

pytestmark = [pytest.mark.browser, pytest.mark.heavy]

# The servers analyse as the other browser tests' do (QUICK, 5,000 nodes a position): a game of some
# hundred actions takes seconds, and the page asks every 0.6 s while the job's chunks of four plies
# come back, so it sees the job part done many times before the whole (20,000 nodes took four times
# the CPU for the same sight).
# Every change of the analysis panel as the page goes: (status, positions done, chart points, marks).
WATCH = """() => {
  window.seen = [];
  const look = () => {
    const bar = document.querySelector('[data-testid="analysis-progress"]');
    if (!bar) return;
    const now = [bar.dataset.status, Number(bar.dataset.done),
      document.querySelectorAll('[data-testid="eval-chart"] .chart-dot').length,
      document.querySelectorAll('[data-testid="move-list"] [data-testid="mark"]').length];
    const last = window.seen[window.seen.length - 1];
    if (!last || last.join() !== now.join()) window.seen.push(now);
  };
  new MutationObserver(look).observe(document.body, { subtree: true, childList: true, attributes: true });
}"""


def watch_analysis(open_page: Any, url: str, game_id: int) -> tuple[Any, list[list[Any]]]:
    page = open_page(f"{url}/replay/{game_id}")
    page.locator('[data-testid="move-1"]').wait_for()
    page.evaluate(WATCH)
    page.check('[data-testid="analysis-toggle"]')
    page.locator('[data-testid="analysis-progress"][data-status="done"]').wait_for(timeout=240_000)
    return page, page.evaluate("window.seen")


def marks_of(page: Any, actions: int) -> list[str]:
    return [page.locator(f'[data-testid="move-{ply}"]').get_attribute("data-mark") or "" for ply in
            range(1, actions + 1)]


def test_the_replay_fills_in_and_a_restart_serves_the_stored_analysis(serve_on: Any, open_page: Any,
                                                                      tmp_path: Path, shot: Any) -> None:
    data = tmp_path / "data"
    data.mkdir()
    server = serve_on(data)
    imported = loopback.post(f"{server.url}/api/games/import", json={"record": random_record(21)},
                          headers={"origin": server.url}, timeout=60)
    assert imported.status_code == 200, imported.text
    game_id = imported.json()["game"]
    total = len(loopback.get(f"{server.url}/api/games/{game_id}", timeout=60).json()["actions"])

    page, seen = watch_analysis(open_page, server.url, game_id)
    # It filled in: the page showed the job part done, with part of the chart, before the whole.
    running = [s for s in seen if s[0] in ("queued", "running")]
    assert any(0 < done < total for _, done, _, _ in running), seen
    assert any(0 < dots < total for _, _, dots, _ in running), seen
    done_counts = [done for _, done, _, _ in seen]
    assert done_counts == sorted(done_counts) and seen[-1][:3] == ["done", total, total + 1]
    bar = page.locator('[data-testid="analysis-progress"]')
    assert bar.get_attribute("aria-label") and bar.get_attribute("max") == str(total)
    assert bar.get_attribute("data-source") == "job"
    said = page.locator('[data-testid="analysis-announce"]')
    assert said.get_attribute("aria-live") == "polite" and said.inner_text() == f"Analysis complete: {total} positions."
    first = loopback.get(f"{server.url}/api/games/{game_id}/analysis", timeout=60).json()
    marked = [p["played"]["mark"] or "" if p["played"] else "" for p in first["plies"]]
    assert marks_of(page, total) == marked and any(marked)
    shot(page, "replay-analysis-done")
    page.close()

    server.stop()
    again = serve_on(data)  # the same database
    page, seen = watch_analysis(open_page, again.url, game_id)
    # At once and whole: never queued or running, read from the store, the very same analysis.
    assert {s[0] for s in seen} == {"done"} and seen[0][1:3] == [total, total + 1], seen
    bar = page.locator('[data-testid="analysis-progress"]')
    assert bar.get_attribute("data-source") == "store"
    assert bar.get_attribute("data-computed-at") == first["computed_at"]
    assert marks_of(page, total) == marked
    stored = loopback.get(f"{again.url}/api/games/{game_id}/analysis", timeout=60).json()
    assert stored["source"] == "store" and stored["plies"] == first["plies"]
    assert stored["computed_at"] == first["computed_at"]
