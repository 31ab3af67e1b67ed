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


def test_a_batch_stores_each_new_position_once_with_its_themes(store: Store):
    assert store.add_puzzles([puzzle("A", 1500)]) == 1
    batch = [puzzle("A", 900), puzzle("B", 1600, themes=("save",)), puzzle("B", 1700), puzzle("C", 1800, themes=())]
    assert store.add_puzzles(batch) == 2  # A is known, the second B repeats the first
    stored = {r.position: r for r in store.puzzles_page()}
    assert sorted(stored) == ["A", "B", "C"]
    assert stored["A"].rating == 1500 and stored["B"].rating == 1600
    assert stored["B"].themes == ["save"] and stored["C"].themes == []


def test_a_position_stored_meanwhile_by_another_writer_leaves_the_others_stored(store: Store, monkeypatch):
    """Between the read of the known positions and the batch, another node stores one of them: the
    batch is refused whole, and its puzzles go in one at a time."""
    from sqlalchemy import Connection

    other = Store(store.url, migrate=False)
    real = Connection.execute
    raced = []

    def execute(conn, statement, *args, **kw):  # the batch's insert comes right after the read
        if not raced and getattr(statement, "is_insert", False):
            raced.append(None)
            raced[0] = other.add_puzzles([puzzle("B", 1234)])
        return real(conn, statement, *args, **kw)

    monkeypatch.setattr(Connection, "execute", execute)
    try:
        assert store.add_puzzles([puzzle("A", 1500), puzzle("B", 1600), puzzle("C", 1700)]) == 2
    finally:
        monkeypatch.undo()
        other.close()
    assert raced == [1]
    assert {r.position: r.rating for r in store.puzzles_page()} == {"A": 1500, "B": 1234, "C": 1700}
