"""The two simple bots: legal choices, greedy's order of preference, seeds, and public views only."""

from __future__ import annotations

import random

import pytest

from halali.ai.registry import choose_action, make_bot
from halali.ai.simple import GreedyBot, RandomBot
from halali.games.forest import Position, parse_position
from halali.games.forest import actions as A

BOTS = [RandomBot, GreedyBot]


def _views_of_a_game(seed: int, every: int = 5) -> list[Position]:
    rng = random.Random(seed)
    pos = Position.deal(rng=rng)
    out = []
    n = 0
    while not pos.is_over():
        if n % every == 0 or pos.final >= 0:
            out.append(pos.view())
        pos.push(rng.choice(pos.legal_actions()))
        n += 1
    return out


@pytest.mark.parametrize("bot_class", BOTS)
def test_bots_choose_legal_actions_and_reveals_without_outcome(bot_class: type) -> None:
    bot = bot_class(seed=1)
    for view in _views_of_a_game(21):
        before = view.fen()
        a = bot.choose(view)
        assert a in view.legal_actions()
        assert view.fen() == before  # choosing does not touch the view
        if A.action_type(a) == A.REVEAL:
            assert A.outcome(a) == 0


def _greedy(text: str, seed: int = 0) -> str:
    pos = parse_position(text)
    return pos.action_str(GreedyBot(seed).choose(pos.view()))


def test_greedy_takes_an_exit_before_any_capture() -> None:
    # Blue fox on d5 may leave through N; the fox on b2 may take a pheasant worth 3.
    text = "7/7/3F3/7/7/1F1P3/6L blue - - - 9 0 - -"
    pos = parse_position(text)
    assert "b2xd2" in {pos.action_str(a) for a in pos.legal_actions()}
    assert {_greedy(text, seed) for seed in range(8)} == {"d5-N"}


def test_greedy_takes_the_most_valuable_capture() -> None:
    # Brown's hunters: c3 (rifle E) may take the fox on f3 (5), e1 (rifle N) the bear on e6 (10).
    text = "7/4B2/7/7/2E2F1/7/4N1t brown - - - - 0 - -"
    pos = parse_position(text)
    assert {"c3xf3", "e1xe6"} <= {pos.action_str(a) for a in pos.legal_actions()}
    assert {_greedy(text, seed) for seed in range(8)} == {"e1xe6"}


def test_greedy_prefers_a_capture_to_a_move_and_an_own_move_to_a_reveal_or_a_duck() -> None:
    capture = "7/7/7/7/2D4/2F4/t6 blue - - - - 0 - -"
    assert {_greedy(capture, seed) for seed in range(8)} == {"c2xc3"}
    own = "7/7/4D2/7/7/2F4/t6 blue - - - - 0 - -"
    choices = {_greedy(own, seed) for seed in range(20)}
    assert all(c.startswith("c2-") for c in choices)
    assert len(choices) > 1  # random among the best class


def test_greedy_picks_among_reveals_and_neutral_moves_when_nothing_better_exists() -> None:
    text = "7/7/4D2/7/7/7/t5t blue - - - - 0 - -"
    pos = parse_position(text)
    choices = {_greedy(text, seed) for seed in range(40)}
    assert choices <= {pos.action_str(a) for a in pos.legal_actions()}
    assert "?a1" in choices or "?g1" in choices
    assert any(c.startswith("e5-") for c in choices)


@pytest.mark.parametrize("bot_class", BOTS)
def test_a_seed_makes_a_bot_reproducible(bot_class: type) -> None:
    views = _views_of_a_game(8, every=3)
    first = [bot_class(seed=5).choose(v) for v in views]
    assert first == [bot_class(seed=5).choose(v) for v in views]
    bot_a, bot_b = bot_class(seed=9), bot_class(seed=9)
    assert [bot_a.choose(v) for v in views] == [bot_b.choose(v) for v in views]


def _same_public_history(seed: int, steps: int) -> tuple[Position, Position]:
    """Two different deals that look the same after ``steps`` random actions."""
    rng = random.Random(seed)
    first = Position.deal(rng=rng)
    start = first.copy()
    played = []
    while len(played) < steps and not first.is_over():
        a = rng.choice(first.legal_actions())
        first.push(a)
        played.append(a)
    # Swap two still face-down tiles of different kinds in the starting deal.
    down = sorted(first.hidden)
    a_sq = down[0]
    b_sq = next(s for s in down if start.board[s] != start.board[a_sq])
    second = start.copy()
    second.board[a_sq], second.board[b_sq] = start.board[b_sq], start.board[a_sq]
    second = parse_position(second.fen())
    for a in played:
        second.push(a)
    assert second.fen() != first.fen()
    assert second.view().fen() == first.view().fen()
    return first, second


@pytest.mark.parametrize("bot_class", BOTS)
@pytest.mark.parametrize("steps", [0, 10, 30, 45])
def test_the_choice_depends_only_on_the_public_view(bot_class: type, steps: int) -> None:
    first, second = _same_public_history(seed=31 + steps, steps=steps)
    for seed in range(5):
        chosen = bot_class(seed=seed).choose(first.view())
        assert bot_class(seed=seed).choose(second.view()) == chosen
        # Even handed a position with secrets, the simple bots use nothing but its public part.
        assert bot_class(seed=seed).choose(first) == chosen


def test_the_registry_makes_bots_by_level_and_name_and_chooses_from_text() -> None:
    assert isinstance(make_bot(1), RandomBot) and isinstance(make_bot("greedy"), GreedyBot)
    assert isinstance(make_bot("2"), GreedyBot)
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("nobody")
    view = Position.deal(seed=3).view()
    view.play("?a1=F")
    text = choose_action(2, view.fen(), {"stall_limit": "10"}, seed=4)
    assert text == view.action_str(GreedyBot(4).choose(view))
    assert text in {view.action_str(a) for a in view.legal_actions()}
    assert choose_action(2, view.fen(), seed=4) == text
