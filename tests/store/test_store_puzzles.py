"""The store's puzzles on SQLite and PostgreSQL: a position stored once, the next puzzle never one
already tried, one rated first try per player and puzzle, the history, the daily puzzle, the stars."""

from __future__ import annotations

from halali.store import Store
from halali.store.puzzles import NewPuzzle


def puzzle(position: str, rating: float, proven: bool = True, themes: tuple[str, ...] = ("capture",)) -> NewPuzzle:
    return NewPuzzle(position, "", ["a1-a2"], 5.0, 3.0, proven, 4, rating, list(themes), {"kind": "selfplay"})


def players(store: Store, *ids: str) -> None:
    for pid in ids:
        store.create_player(pid, f"token-{pid}", pid)


def test_puzzles_tries_and_ratings(store: Store):
    players(store, "p_ann", "p_bob")
    found = [puzzle("A", 1500), puzzle("B", 1700, themes=("save", "long")), puzzle("C", 2100, proven=False)]
    assert store.add_puzzles(found) == 3
    assert store.add_puzzles([puzzle("A", 900)]) == 0  # a known position is not stored again
    assert store.puzzle_count() == 3 and store.theme_counts() == {"capture": 2, "save": 1, "long": 1}
    a, b, c = (r.id for r in store.puzzles_page())
    assert store.puzzle(b).themes == ["long", "save"]

    assert store.next_puzzle("p_ann").id == a  # nearest to 1500
    assert store.next_puzzle("p_ann", theme="save").id == b
    assert store.next_puzzle("p_ann", target=2000.0).id == c
    first = store.record_try("p_ann", a, solved=True, how="solved")
    assert first.first and first.player_after > 1500 > first.puzzle_after
    assert store.next_puzzle("p_ann").id == b  # a is tried
    again = store.record_try("p_ann", a, solved=False, how="wrong")
    assert not again.first and again.solved and again.player_after == first.player_after
    lost = store.record_try("p_bob", a, solved=False, how="hint")
    assert lost.puzzle_before == first.puzzle_after  # Bob's try starts from where Ann's left it
    assert store.puzzle(a).tries == 2 and store.puzzle(a).solved == 1
    rating = store.puzzle_rating("p_ann")
    assert rating.tries == 1 and rating.rating == first.player_after
    store.record_try("p_ann", b, solved=False, how="wrong")
    history = store.puzzle_history("p_ann")
    assert [t.puzzle_id for _, t in history] == [b, a]
    assert [t.puzzle_id for _, t in store.puzzle_history("p_ann", before=history[0][0])] == [a]


def test_the_daily_puzzle_is_chosen_once_a_day(store: Store):
    assert store.daily_puzzle("2026-12-05") is None
    store.add_puzzles([puzzle("A", 1500, proven=False), puzzle("B", 1500), puzzle("C", 1500)])
    day1 = store.daily_puzzle("2026-12-05")
    assert day1 is not None and day1.proven
    assert store.daily_puzzle("2026-12-05").id == day1.id
    day2 = store.daily_puzzle("2026-12-06")
    assert day2.proven and day2.id != day1.id  # not the same puzzle twice while others are left
    assert store.daily_puzzle("2026-12-07").position == "A"  # the proven ones ran out


def test_stars_keep_the_best(store: Store):
    players(store, "p_ann")
    assert store.save_stars("p_ann", "tiles", 0, 2) == 2
    assert store.save_stars("p_ann", "tiles", 0, 1) == 2
    assert store.save_stars("p_ann", "tiles", 0, 3) == 3
    store.save_stars("p_ann", "hare", 2, 1)
    assert store.learn_stars("p_ann") == {("tiles", 0): 3, ("hare", 2): 1}
