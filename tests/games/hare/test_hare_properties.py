"""Properties of the hare hunt over random games: they end, views keep secrets, text round-trips,
legal actions are accepted."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from halali.games.hare import DEFAULT_RULES, HareState, action_str, parse_action_text, parse_position, replay
from halali.games.hare.clubs import CLUB_LETTERS
from halali.games.hare.legality import RULE_KEYS

games = st.tuples(st.integers(2, 6), st.integers(0, 2**32), st.booleans(), st.sampled_from(["choose", "target"]))


def _new(players: int, seed: int, bush: bool, overshoot: str) -> tuple[HareState, random.Random]:
    rules = DEFAULT_RULES.with_options({"bush": "on" if bush else "off", "overshoot": overshoot})
    rng = random.Random(seed)
    return HareState.new(players, rules, rng), rng


def _seats(text: str) -> list[str]:
    return text.split()[2].split(",")


@settings(max_examples=25)
@given(games)
def test_random_hunts_end_and_their_results_add_up(g: tuple[int, int, bool, str]) -> None:
    state, rng = _new(*g)
    for _ in range(200_000):
        if state.is_over():
            break
        state.push(rng.choice(state.legal_actions()))
    assert state.is_over() and state.legal_actions() == []
    winners = state.winners()
    assert winners and state.result() == [(1.0 if len(winners) == 1 else 0.5) * (p in winners)
                                          for p in range(state.nplayers)]
    places = state.placings()
    assert sum(places) == sum(range(1, state.nplayers + 1))
    assert {places[p] for p in winners} == {min(places)} and all(places[p] > min(places)
                                                                 for p in range(state.nplayers) if p not in winners)
    assert replay(state.record()).fen() == state.fen()


@settings(max_examples=25)
@given(games, st.integers(0, 3000))
def test_views_never_show_a_foreign_club(g: tuple[int, int, bool, str], steps: int) -> None:
    state, rng = _new(*g)
    for _ in range(steps):
        if state.is_over():
            break
        state.push(rng.choice(state.legal_actions()))
    over = state.is_over()
    for viewer in [None, *range(state.nplayers)]:
        view = state.view(viewer)
        text = view.fen()
        assert text.split()[-1] == "-" and view.secret is None
        for seat, token in enumerate(_seats(text)):
            shown = token[0] in CLUB_LETTERS
            allowed = over or (viewer is not None and (seat == viewer or state.out[seat] >= 0))
            assert shown == allowed
            if shown:
                assert token[0] == CLUB_LETTERS[state.clubs[seat]]
        for seat, token in enumerate(_seats(view.record().split(" ; ")[0])):
            assert (token[0] in CLUB_LETTERS) == (over or (viewer is not None
                                                           and (seat == viewer or state.out[seat] >= 0)))


@settings(max_examples=25)
@given(games, st.integers(0, 3000))
def test_positions_views_and_actions_round_trip(g: tuple[int, int, bool, str], steps: int) -> None:
    state, rng = _new(*g)
    for _ in range(steps):
        if state.is_over():
            break
        text = state.fen()
        assert parse_position(text).fen() == text
        for a in state.legal_actions():
            assert parse_action_text(action_str(a)) == a
        state.push(rng.choice(state.legal_actions()))
    for viewer in [None, *range(state.nplayers)]:
        v = state.view(viewer)
        assert parse_position(v.fen()).fen() == v.fen()
        if viewer is not None or state.is_over():  # a seat's record replays exactly to its view
            assert replay(v.record()).fen() == v.fen()


@settings(max_examples=25)
@given(games, st.integers(0, 300))
def test_a_legal_action_never_raises(g: tuple[int, int, bool, str], steps: int) -> None:
    state, rng = _new(*g)
    for _ in range(steps):
        if state.is_over():
            break
        state.push(rng.choice(state.legal_actions()))
    before = state.fen()
    for a in state.legal_actions():
        child = state.copy()
        child.play(a)  # checked play: raises if the action were not legal
        child2 = parse_position(before)
        child2.play(action_str(a))
        assert child2.fen() == child.fen()
    assert state.fen() == before


def _candidates(state: HareState) -> set[tuple[int, int, int]]:
    """Every action of the right shape for this position, legal or not."""
    from halali.games.hare.actions import ASSIGN, BUSH, END_ACTION, REMOVE, ROLL_ACTION, STEP, TURN
    from halali.games.hare.board import NCELLS, NEIGHBOUR

    out: set[tuple[int, int, int]] = {END_ACTION, ROLL_ACTION}
    out |= {(ASSIGN, a, b) for a in range(5) for b in range(5)}
    out |= {(BUSH, c, 0) for c in range(NCELLS)}
    for c in range(NCELLS):
        if state.occ[c] >= 0:
            out |= {(TURN, c, d) for d in range(6)}
            out |= {(STEP, c, n) for n in NEIGHBOUR[c] if n >= 0}
            out.add((REMOVE, c, 0))
    return out


@settings(max_examples=20)
@given(games, st.integers(0, 600))
def test_the_checker_refuses_exactly_what_the_generator_leaves_out(g: tuple[int, int, bool, str], steps: int) -> None:
    from halali.games.errors import IllegalAction

    state, rng = _new(*g)
    for _ in range(steps):
        if state.is_over():
            break
        state.push(rng.choice(state.legal_actions()))
    legal = set(state.legal_actions())
    for a in _candidates(state):
        try:
            state._check(a)
            accepted = True
        except IllegalAction as exc:
            accepted = False
            assert exc.key in RULE_KEYS and set(exc.params) == set(RULE_KEYS[exc.key]) and str(exc)
        assert accepted == (a in legal), action_str(a)
