"""Glicko-2 as the paper has it (Glickman, "Example of the Glicko-2 system")."""

from __future__ import annotations

import pytest

from halali.store.glicko import Glicko, expected, play, update


def test_the_papers_worked_example():
    player = Glicko(1500, 200, 0.06)
    games = [(Glicko(1400, 30, 0.06), 1.0), (Glicko(1550, 100, 0.06), 0.0), (Glicko(1700, 300, 0.06), 0.0)]
    new = update(player, games)
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.deviation == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)


def test_the_volatility_uses_the_deviation_away_from_1500_too():
    # The paper's step 5 with the player far from 1500: the volatility barely moves after an expected result.
    new = update(Glicko(2200, 60, 0.06), [(Glicko(1400, 30, 0.06), 1.0)])
    assert new.volatility == pytest.approx(0.06, abs=0.0001)
    assert new.rating > 2200


def test_a_try_moves_the_player_and_the_puzzle_apart():
    me, it = Glicko(1500, 350, 0.06), Glicko(1500, 350, 0.06)
    won_me, won_it = play(me, it, solved=True)
    assert won_me.rating > 1500 > won_it.rating
    lost_me, lost_it = play(me, it, solved=False)
    assert lost_me.rating < 1500 < lost_it.rating
    assert won_me.deviation < 350 and won_it.deviation < 350
    assert expected(Glicko(1700, 50, 0.06), Glicko(1500, 50, 0.06)) > 0.7
