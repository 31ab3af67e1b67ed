"""OpenSpiel's own Python algorithms play both games: MCTS with random rollouts, and expectiminimax
over the forest game's last reveals and final phase."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import mcts
from open_spiel.python.algorithms.minimax import expectiminimax

import halali.interop.openspiel  # noqa: F401  (registers the games)
from halali.games.base import GAMES


def random_until(game: pyspiel.Game, rng: np.random.RandomState, stop) -> pyspiel.State:  # type: ignore[no-untyped-def]
    state = game.new_initial_state()
    while not state.is_terminal() and not stop(state):
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def mcts_bot(game: pyspiel.Game, sims: int, seed: int, rollout_length: int | None = None) -> mcts.MCTSBot:
    rs = np.random.RandomState(seed)
    return mcts.MCTSBot(game, uct_c=2.0, max_simulations=sims,
                        evaluator=mcts.RandomRolloutEvaluator(1, rs, max_length=rollout_length), random_state=rs)


@pytest.mark.parametrize("seat", [0, 1])
def test_mcts_with_random_rollouts_plays_a_forest_game(seat: int) -> None:
    game = pyspiel.load_game("python_halali_forest")
    bots = [pyspiel.make_uniform_random_bot(p, 10 + p) for p in range(2)]
    bots[seat] = mcts_bot(game, 8, seed=seat)
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 3 + seat)
    assert sum(returns) == 0 and set(returns) <= {-1.0, 0.0, 1.0}


def test_mcts_plays_a_hare_hunt() -> None:
    game = pyspiel.load_game("python_halali_hare(bush=False)")
    bots = [mcts_bot(game, 2, seed=1, rollout_length=20), pyspiel.make_uniform_random_bot(1, 2)]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 4)
    assert sum(returns) == pytest.approx(0.0) and max(returns) > 0


@pytest.mark.slow
def test_mcts_plays_hare_hunts_for_three_and_more_rollouts() -> None:
    game = pyspiel.load_game("python_halali_hare(players=3)")
    for seed in range(2):
        bots = [mcts_bot(game, 6, seed=seed, rollout_length=60),
                pyspiel.make_uniform_random_bot(1, seed), pyspiel.make_uniform_random_bot(2, seed)]
        returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
        assert sum(returns) == pytest.approx(0.0)


def _score_difference(player: int):  # type: ignore[no-untyped-def]
    def value(state: pyspiel.State) -> float:
        score = state.position.score
        return (score[player] - score[1 - player]) / 168.0
    return value


def test_expectiminimax_searches_the_last_reveals_and_the_final_phase() -> None:
    """From positions with two face-down tiles left, expectiminimax (chance nodes included) plays the
    game out against a random opponent, and does better than random play from the same positions."""
    game = pyspiel.load_game("python_halali_forest")
    searched = played_at_random = 0.0
    for seed in range(4):
        start = random_until(game, np.random.RandomState(seed),
                             lambda s: len(s.position.hidden) <= 2 and not s.is_chance_node())
        me = start.current_player()
        for search in (True, False):
            rng = np.random.RandomState(100 + seed)
            state = start.clone()
            while not state.is_terminal():
                if state.is_chance_node():
                    actions, probs = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(int(rng.choice(actions, p=probs)))
                elif search and state.current_player() == me:
                    value, action = expectiminimax(state, 2, _score_difference(me), me)
                    assert action in state.legal_actions() and -1.0 <= value <= 1.0
                    state.apply_action(action)
                else:
                    state.apply_action(int(rng.choice(state.legal_actions())))
            ret = state.returns()[me]
            if search:
                searched += ret
            else:
                played_at_random += ret
    assert searched > played_at_random


def test_expectiminimax_weighs_a_reveal_by_the_engines_probabilities() -> None:
    """At a chance node expectiminimax averages over OpenSpiel's chance outcomes, which are the
    engine's: the value of a pending reveal is the probability-weighted value of its outcomes."""
    game = pyspiel.load_game("python_halali_forest")
    state = random_until(game, np.random.RandomState(9), lambda s: s.is_chance_node() and len(s.position.hidden) <= 3)
    me = 1 - state.position.turn
    value, _ = expectiminimax(state, 1, _score_difference(me), me)
    by_hand = 0.0
    engine = dict(GAMES["forest"].chance_outcomes(
        GAMES["forest"].replay('[Game "forest"]\n[Rules "match=single"]\n[Position "'
                               + state.position.fen() + '"]\n\n'),
        state.information_state_string(0).split()[-1]))
    for outcome, prob in state.chance_outcomes():
        child = state.child(outcome)
        assert engine[child.information_state_string(0).split()[-1]] == pytest.approx(prob)
        by_hand += prob * expectiminimax(child, 1, _score_difference(me), me)[0]
    assert value == pytest.approx(by_hand)
