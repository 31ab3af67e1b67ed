"""Exits, the final phase, the end of a game, scores, piles and the winner (docs/rules.md)."""

from __future__ import annotations

import pytest

from forest_helpers import legal, play, position, rejects
from halali.games.forest import BLUE, BROWN, Position


def _exits(pos: Position) -> list[str]:
    return [a for a in legal(pos) if a[-1] in "NESW"]


# ---- exits -----------------------------------------------------------------------------------
def test_exits_open_only_in_the_final_phase() -> None:
    before = position("7/7/3F3/7/7/7/t5L blue - - - - 0 - -")
    assert _exits(before) == []
    rejects(before, "d5-N", "exits open only in the final phase")
    final = position("7/7/3F3/7/7/7/6L blue - - - 10 0 - -")
    assert _exits(final) == ["d5-N", "d5-S"]


def test_a_long_mover_exits_from_anywhere_on_the_middle_line_through_empty_squares() -> None:
    # Brown hunter (rifle W: the rifle does not matter for exits) on d4, blue fox on g7.
    pos = position("6F/7/7/3W3/7/7/7 brown - - - 8 0 - -")
    assert _exits(pos) == ["d4-E", "d4-N", "d4-S", "d4-W"]
    pos = position("6F/7/7/W6/7/7/7 brown - - - 8 0 - -")
    assert _exits(pos) == ["a4-E", "a4-W"]
    blocked = position("6F/7/7/W2T3/7/7/7 brown - - - 8 0 - -")
    assert _exits(blocked) == ["a4-W"]
    rejects(blocked, "a4-E", "way to the E exit is blocked at d4")


def test_only_tiles_on_the_middle_line_reach_an_exit() -> None:
    pos = position("7/7/7/7/2F4/7/6L blue - - - 10 0 - -")
    assert _exits(pos) == []
    rejects(pos, "c3-S", "not on the way to the S exit")
    pos = position("7/7/3F3/7/7/7/6L blue - - - 10 0 - -")
    rejects(pos, "d5-E", "not on the way to the E exit")


@pytest.mark.parametrize(("letter", "turn", "other"), [("B", "blue", "6L"), ("L", "brown", "6F")])
def test_bears_and_lumberjacks_exit_only_from_the_square_next_to_the_exit(letter: str, turn: str,
                                                                          other: str) -> None:
    near = position(f"3{letter}3/7/7/7/7/7/{other} {turn} - - - 10 0 - -")
    assert _exits(near) == ["d7-N"]  # not S: d7 is next to the N exit only
    far = position(f"7/3{letter}3/7/7/7/7/{other} {turn} - - - 10 0 - -")
    assert _exits(far) == []
    rejects(far, "d6-N", "leaves only from the square next to the exit (d7)")
    side = position(f"7/7/7/{letter}6/7/7/{other} {turn} - - - 10 0 - -")
    assert _exits(side) == ["a4-W"]


def test_only_own_colour_tiles_exit_never_ducks_pheasants_or_trees() -> None:
    pos = position("3D3/7/3T3/7/3P3/7/3F2L blue - - - 10 0 - -")
    assert _exits(pos) == ["d1-S"]
    rejects(pos, "d7-N", "only blue's own tiles may leave the forest")
    rejects(pos, "d3-S", "only blue's own tiles")
    rejects(pos, "d5-S", "trees never move")
    brown = position("3F3/7/7/7/7/7/6L brown - - - 9 0 - -")
    rejects(brown, "d7-N", "brown may not move a fox")


def test_an_exit_scores_the_tile_for_its_owner() -> None:
    pos = play(position("3B3/7/7/7/7/7/3F2L blue - - - 10 0 - -"), "d7-N")
    assert pos.fen() == "7/7/7/7/7/7/3F2L brown - - - 9 0 +B -"
    assert pos.score == [10, 0]
    play(pos, "g1-g2", "d1-S")
    # Blue's last tile left: the game ends at once.
    assert pos.fen() == "7/7/7/7/7/6L/7 brown - g1g2 - 7 0 +BF -"
    assert pos.is_over()
    assert pos.result() == (15, 0)
    assert pos.winner() == BLUE


# ---- final phase -----------------------------------------------------------------------------
def test_the_last_reveal_starts_ten_final_turns_opponent_first() -> None:
    # Blue fox a7, brown hunter g1, the last face-down tile (a tree) on d1.
    pos = position("F6/7/7/7/7/7/3t2N blue - - - - 0 - -")
    play(pos, "?d1")
    assert pos.fen() == "F6/7/7/7/7/7/3T2N brown - - - 10 0 - -"
    assert _exits(pos) == []
    turns = []
    while not pos.is_over():
        turns.append((pos.turn, pos.final))
        pos.play(next(a for a in legal(pos) if "-" in a and a[-1] not in "NESW"))  # a plain move
    assert turns == [(BROWN, 10), (BLUE, 9), (BROWN, 8), (BLUE, 7), (BROWN, 6), (BLUE, 5), (BROWN, 4),
                     (BLUE, 3), (BROWN, 2), (BLUE, 1)]
    assert pos.final == 0
    assert legal(pos) == []
    rejects(pos, "a7-b7", "the game is over")


def test_the_game_ends_at_once_when_a_player_loses_his_last_tile_in_the_final_phase() -> None:
    duck = play(position("3D3/7/7/3N3/7/7/3F3 brown - - - 10 0 - -"), "d4xd7")
    assert not duck.is_over()
    assert duck.final == 9
    capture = position("3F3/7/7/3N3/7/7/7 brown - - - 10 0 - -")
    play(capture, "d4xd7")
    assert capture.is_over()
    assert capture.final == 9
    assert capture.winner() == BROWN


def test_the_game_ends_right_at_the_last_reveal_when_a_side_has_no_tile() -> None:
    pos = position("7/7/7/3F3/7/7/t6 blue - - - - 0 - -")
    play(pos, "?a1")  # a tree: brown has nothing on the board
    assert pos.is_over()
    assert legal(pos) == []
    hunter = position("7/7/7/3F3/7/7/n6 blue - - - - 0 - -")
    play(hunter, "?a1")
    assert not hunter.is_over()
    assert hunter.final == 10


def test_no_end_while_tiles_are_face_down_even_with_an_empty_side() -> None:
    pos = position("7/7/7/3F3/7/7/t5t blue - - - - 0 - -")
    play(pos, "?a1")
    assert not pos.is_over()
    assert legal(pos) == ["?g1"]


# ---- score, piles, winner --------------------------------------------------------------------
def test_piles_are_written_alphabetically_with_h_for_hunters_and_exits_after_plus() -> None:
    pos = position("7/7/7/7/7/7/F5L blue - - - 4 0 PHDD+FB TFPB+L")
    assert pos.fen() == "7/7/7/7/7/7/F5L blue - - - 4 0 DDHP+BF BFPT+L"
    assert pos.score == [2 + 2 + 5 + 3 + 10 + 5, 10 + 5 + 3 + 2 + 5]
    assert pos.ntiles == [6, 5]
    assert position("7/7/7/7/7/7/F5L blue - - - 4 0 +F -").fen().endswith(" +F -")


def test_captures_fill_the_pile_with_the_captured_tile() -> None:
    # Brown's hunter (rifle E) on b4 takes the bear on f4, then blue's fox takes the duck on c6.
    pos = position("7/2D4/7/1E3B1/2F4/7/t5t brown - - - - 0 - -")
    play(pos, "b4xf4", "c3-c5", "f4-f5", "c5xc6")
    assert pos.fen() == "7/2F4/5E1/7/7/7/t5t brown c5c6 f4f5 - - 0 D B"
    assert pos.score == [2, 10]


@pytest.mark.parametrize(("piles", "scores", "winner"), [
    ("DD -", (4, 0), BLUE),
    ("H DDP", (5, 7), BROWN),
    ("LP B", (8, 10), BROWN),
    ("DDDD+BFF TT", (28, 4), BLUE),
])
def test_score_is_the_value_of_the_pile_and_the_higher_score_wins(piles: str, scores: tuple[int, int],
                                                                   winner: int) -> None:
    pos = position(f"7/7/7/7/7/7/F5L blue - - - 0 0 {piles}")
    assert pos.result() == scores
    assert pos.winner() == winner


def test_equal_score_more_tiles_wins_else_a_draw() -> None:
    more = position("7/7/7/7/7/7/F5L blue - - - 0 0 H DP")  # 5 each; brown has two tiles
    assert more.result() == (5, 5)
    assert more.winner() == BROWN
    draw = position("7/7/7/7/7/7/F5L blue - - - 0 0 H F")
    assert draw.result() == (5, 5)
    assert draw.winner() is None
    fewer = position("7/7/7/7/7/7/F5L blue - - - 0 0 DDD B")  # 6 to 10: score before tiles
    assert fewer.winner() == BROWN
