"""A match: two games with roles swapped, totals per seat and the tie-break; ``match=single``."""

from __future__ import annotations

import random

import pytest

from halali.games.forest import BLUE, BROWN, DEFAULT_RULES, Position, parse_position
from halali.games.forest.match import Match, colour_of, seat_of

SINGLE = DEFAULT_RULES.with_options(["match=single"])


def _finished(blue_pile: str, brown_pile: str) -> Position:
    pos = parse_position(f"7/7/7/7/7/7/F5L blue - - - 0 0 {blue_pile} {brown_pile}")
    assert pos.is_over()
    return pos


def _play_out(pos: Position, rng: random.Random) -> None:
    while not pos.is_over():
        pos.push(rng.choice(pos.legal_actions()))


def test_seat_0_plays_brown_first_then_blue_and_blue_always_moves_first() -> None:
    assert (colour_of(0, 0), colour_of(1, 0), colour_of(0, 1), colour_of(1, 1)) == (BROWN, BLUE, BLUE, BROWN)
    assert all(seat_of(colour_of(seat, g), g) == seat for seat in (0, 1) for g in (0, 1))
    match = Match(seed=1)
    assert match.number_of_games == 2 and match.game_index == 0
    assert match.position.turn == BLUE
    assert match.seat_to_move() == 1
    assert match.colour_of(0) == BROWN
    _play_out(match.position, random.Random(1))
    match.start_next()
    assert match.game_index == 1
    assert match.position.turn == BLUE
    assert match.seat_to_move() == 0
    assert match.colour_of(0) == BLUE


def test_each_game_gets_a_fresh_deal_and_a_seed_reproduces_both() -> None:
    def deals(seed: int) -> list[str]:
        match = Match(seed=seed)
        first = match.position.fen()
        _play_out(match.position, random.Random(0))
        return [first, match.start_next().fen()]

    one = deals(77)
    assert one == deals(77)
    assert one[0] != one[1]
    assert deals(78) != one
    assert Match().position.fen() != Match().position.fen()  # the secure source


def test_the_next_game_starts_only_after_this_one_and_there_are_two() -> None:
    match = Match(seed=2)
    with pytest.raises(ValueError, match="only after this one is over"):
        match.start_next()
    _play_out(match.position, random.Random(2))
    assert match.can_start_next() and not match.is_over()
    match.start_next()
    _play_out(match.position, random.Random(3))
    assert match.is_over() and not match.can_start_next()
    with pytest.raises(ValueError):
        match.start_next()


def test_totals_add_each_seats_points_and_tiles_over_both_colours() -> None:
    # Game 1: seat 0 brown 10 points in 2 tiles, seat 1 blue 15 in 4. Game 2: seat 0 blue 8 in 4,
    # seat 1 brown 3 in 1.
    match = Match(games=[_finished("DHP+F", "FF")])
    assert match.totals() == ([10, 15], [2, 4])
    assert match.winner() == 1
    match.start_next(_finished("DDDD", "P"))
    assert match.totals() == ([18, 18], [6, 5])
    assert match.is_over()
    assert match.winner() == 0  # equal points: more tiles collected wins


def test_equal_points_and_tiles_is_a_draw_and_points_come_before_tiles() -> None:
    match = Match(games=[_finished("H", "F")])
    match.start_next(_finished("P", "P"))
    assert match.totals() == ([8, 8], [2, 2])
    assert match.winner() is None
    match = Match(games=[_finished("DDDDD", "B")])  # seat 0 (brown) 10 in 1 tile, seat 1 10 in 5
    match.start_next(_finished("+B", "-"))  # seat 0 (blue) +10 in 1
    assert match.totals() == ([20, 10], [2, 5])
    assert match.winner() == 0


def test_the_single_game_option_plays_one_game() -> None:
    match = Match(SINGLE, seed=4)
    assert match.number_of_games == 1
    _play_out(match.position, random.Random(4))
    assert match.is_over() and not match.can_start_next()
    points, _ = match.totals()
    assert points == [match.position.score[BROWN], match.position.score[BLUE]]


def test_a_played_match_totals_agree_with_the_two_games() -> None:
    match = Match(seed=12)
    _play_out(match.position, random.Random(5))
    match.start_next()
    _play_out(match.position, random.Random(6))
    g1, g2 = match.games
    points, tiles = match.totals()
    assert points == [g1.score[BROWN] + g2.score[BLUE], g1.score[BLUE] + g2.score[BROWN]]
    assert tiles == [g1.ntiles[BROWN] + g2.ntiles[BLUE], g1.ntiles[BLUE] + g2.ntiles[BROWN]]
