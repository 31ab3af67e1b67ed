"""Hare bots: legal choices, decisions that depend on the view alone, inference from the record, the arena."""

from __future__ import annotations

import pytest

from halali.ai.hare.arena import run
from halali.ai.hare.belief import Belief
from halali.ai.hare.heuristic import HeuristicBot
from halali.ai.hare.registry import choose_action, make_bot
from halali.ai.hare.strong import StrongBot
from halali.games.hare import HareState, action_str, parse_position
from halali.games.hare.clubs import UNKNOWN

pytestmark = pytest.mark.heavy

Y, G = 1, 2


@pytest.mark.parametrize("level", ["random", "heuristic", "strong"])
def test_bots_choose_legal_actions_to_the_end(level: str) -> None:
    state = HareState.new(3, seed=5)
    bots = [make_bot(level, p) for p in range(3)]
    for _ in range(5000):
        if state.is_over():
            break
        view = state.view(state.to_move)
        a = bots[state.to_move].choose(view)
        assert a in view.legal_actions()
        state.play(a)
    assert state.is_over()


def _midgame(seed: int) -> HareState:
    """A 4-player hunt played by heuristic bots up to a movement decision, nobody out yet."""
    state = HareState.new(4, seed=seed)
    bots = [HeuristicBot(p) for p in range(4)]
    for _ in range(400):
        if state.phase == "move" and state.turn >= 6:
            break
        state.play(bots[state.to_move].choose(state.view(state.to_move)))
    assert state.phase == "move" and not any(o >= 0 for o in state.out)
    return state


@pytest.mark.parametrize("level", ["heuristic", "strong"])
def test_same_view_and_seed_same_decision_whatever_the_hidden_clubs(level: str) -> None:
    state = _midgame(21)
    me = state.to_move
    others = [p for p in range(4) if p != me]
    for shift in (1, 2):
        other = state.copy()
        clubs = [state.clubs[p] for p in others]  # the other seats' cards, dealt differently
        for i, p in enumerate(others):
            other.clubs[p] = clubs[(i + shift) % len(clubs)]
        assert other.clubs != state.clubs
        v1, v2 = state.view(me), other.view(me)
        assert v1.fen() == v2.fen() and v1.record() == v2.record()
        assert UNKNOWN in v1.clubs and v1.secret is None
        for seed in (0, 1):
            assert make_bot(level, seed).choose(v1) == make_bot(level, seed).choose(v2)


def _shot_history() -> HareState:
    """Seat 2 (index 1) had to choose between its c6 (Y) and e6 (G) and removed e6; now seat 1 must
    choose between c6 (Y) and h6 (G, the club's last hunter)."""
    st = parse_position("a3E/c6E,k9W/e6NE,h6NE/-/-/- - R,Y 2 aim - 0 5 bush=off -")
    st.start = st.fen()
    for text in ("roll=1,3", "xe6", "roll=0,2", "roll=2,4"):
        st.play(text)
    assert st.phase == "shoot" and st.to_move == 0
    assert sorted(action_str(a) for a in st.legal_actions()) == ["xc6", "xh6"]
    return st


def test_belief_reads_a_removal_choice() -> None:
    view = _shot_history().view(0)
    owner = Belief().owner(view)
    assert owner[Y][1] > 0.95 and owner[G][1] < 0.05  # seat 2 spared Y: it probably holds Y


def test_the_strong_bot_shoots_at_the_inferred_opponent() -> None:
    view = _shot_history().view(0)
    assert {action_str(StrongBot(s).choose(view)) for s in range(5)} == {"xc6"}
    # without inference the lone green hunter looks like the way to end an opponent
    assert {action_str(HeuristicBot(s).choose(view)) for s in range(5)} == {"xh6"}


def test_choose_action_reads_a_record() -> None:
    state = _midgame(3)
    record = state.view(state.to_move).record()
    text = choose_action("strong", record, seed=1)
    assert text in {action_str(a) for a in state.legal_actions()}
    assert text == action_str(make_bot("strong", 1).choose(state.view(state.to_move)))


def test_unknown_bots_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown hare bot"):
        make_bot("grandmaster")
    with pytest.raises(ValueError, match="level 9"):
        make_bot(9)


def test_arena_reports_win_rates_and_placings() -> None:
    table = run(["heuristic", "random"], games=4, players=3, seed=2)
    assert {r.bot for r in table.rows} == {"heuristic", "random"}
    assert sum(r.seats for r in table.rows) == 12
    assert sum(r.wins for r in table.rows) == pytest.approx(4)
    assert all(1.0 <= r.mean_placing <= 3.0 for r in table.rows)
    assert table.row("heuristic").win_rate > table.row("random").win_rate
    text = table.format()
    assert "heuristic" in text and "win rate" in text and "mean place" in text


def test_arena_is_reproducible() -> None:
    a = run(["heuristic", "random"], games=3, players=2, seed=7)
    b = run(["heuristic", "random"], games=3, players=2, seed=7)
    assert [(r.bot, r.wins, r.placing_sum) for r in a.rows] == [(r.bot, r.wins, r.placing_sum) for r in b.rows]
    assert a.turns == b.turns


def test_random_bot_is_uniform_over_legal_actions() -> None:
    state = HareState.new(2, seed=1)
    bot = make_bot("random", 3)
    seen = {bot.choose(state.view(state.to_move)) for _ in range(300)}
    assert seen == set(state.legal_actions())


def test_a_bot_made_afresh_for_every_decision_finishes_its_movement() -> None:
    state = _midgame(8)
    assert state.cur < 0  # the movement has not begun

    def movement(fresh: bool) -> list[str]:
        st = state.copy()
        kept = StrongBot(4)
        played = []
        while st.phase == "move":
            bot = StrongBot(4) if fresh else kept
            played.append(action_str(st.play(bot.choose(st.view(st.to_move)))))
        return played

    kept = movement(False)
    assert len(kept) > 1 and movement(True) == kept
