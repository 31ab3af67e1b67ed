"""The environments' pictures: the text board, and halali.svg rasterised into an RGB array."""

from __future__ import annotations

import random

import numpy as np

import halali.svg as svg
from halali.games.forest.position import Position
from halali.games.hare.state import HareState
from halali.interop.render.picture import rgb_array
from halali.interop.render.text import forest_text, hare_text


def test_the_forest_picture_is_the_svg_drawn_in_its_colours() -> None:
    image = rgb_array(svg.forest(Position.deal(seed=1)), size=200)
    assert image.shape == (200, 200, 3) and image.dtype == np.uint8
    assert tuple(image[5, 5]) == (0x3B, 0x2A, 0x1A)  # the frame's brown in the corner
    assert len({tuple(p) for p in image.reshape(-1, 3)}) > 100  # tiles, not a flat fill


def test_the_hare_picture_has_the_clubs_colours() -> None:
    image = rgb_array(svg.hare(HareState.new(6, seed=2)), size=300)
    colours = {tuple(p) for p in image.reshape(-1, 3)}
    assert (0xC6, 0x28, 0x28) in colours and (0x15, 0x65, 0xC0) in colours  # red and blue hunters


def test_the_text_boards_read_as_the_notation() -> None:
    rng = random.Random(3)
    pos = Position.deal(rng=rng)
    text = forest_text(pos)
    assert text.count("#") == 48 and "blue to move" in text and " a  b  c" in text
    pos.push(rng.choice(pos.legal_actions()))
    assert "last ?" in forest_text(pos)
    st = HareState.new(3, seed=4)
    board = hare_text(st)
    assert board.count("H ") == 1 and sum(board.count(c) for c in "RYGBWK") >= 18
    assert board.splitlines()[0].startswith(" 11") and "seat" in board.splitlines()[-1]
