"""A finished game's analysis kept with the game on SQLite and PostgreSQL: stored once and read back
as it was, another budget's analysis replaced, a second store of the same one leaving the first."""

from __future__ import annotations

from halali.store import Store


def a_game(store: Store) -> int:
    store.create_player("p_ann", "token-ann", "Ann")
    return store.import_game("t_a", "p_ann", {}, "deal", ["a1-a2"], {"winner": None}, {})


def test_an_analysis_is_kept_with_its_game_and_read_back(store: Store):
    gid = a_game(store)
    assert store.game_analysis(gid, "b1") is None
    data = {"plies": [{"ply": 0, "score": 1.5, "played": {"mark": "mistake"}}], "sides": {"blue": {"luck": -2.0}}}
    first = store.save_game_analysis(gid, "b1", data)
    assert first.data == data and first.game_id == gid and first.computed_at.tzinfo is not None
    again = store.save_game_analysis(gid, "b1", {"plies": []})  # computed twice at once: the first stands
    assert again.data == data and again.computed_at == first.computed_at
    assert store.game_analysis(gid, "b1") == first
    assert store.game_analysis(gid, "b2") is None  # another budget is another analysis
    replaced = store.save_game_analysis(gid, "b2", {"plies": [], "depth": 3})
    assert replaced.data == {"plies": [], "depth": 3}
    assert store.game_analysis(gid, "b1") is None


def test_an_analysis_survives_reopening_the_store(store: Store):
    gid = a_game(store)
    store.save_game_analysis(gid, "b1", {"plies": [{"ply": 0}]})
    again = Store(store.url)
    try:
        found = again.game_analysis(gid, "b1")
        assert found is not None and found.data == {"plies": [{"ply": 0}]}
    finally:
        again.close()
