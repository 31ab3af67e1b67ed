"""The forest game in OpenSpiel: loading, GameInfo, OpenSpiel's own random simulation test with
serialisation, chance outcomes, cloning and the observers."""

from __future__ import annotations

import pickle

import numpy as np
import pyspiel
import pytest

import halali.interop.openspiel  # noqa: F401  (registers the games)
from halali.games.base import GAMES
from halali.interop.encoding import forest as E

OPTION_SETS = [
    "python_halali_forest",
    "python_halali_forest(stall_limit=6)",
    "python_halali_forest(green_lock=revealed_only,no_return_neutrals=True,stall_limit=12)",
]


def random_state(game: pyspiel.Game, steps: int, seed: int) -> pyspiel.State:
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def test_loads_by_name_and_with_the_rule_options() -> None:
    game = pyspiel.load_game("python_halali_forest")
    assert game.num_players() == 2
    assert game.num_distinct_actions() == E.NUM_ACTIONS == 1422
    assert game.max_chance_outcomes() == 10
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert game.max_game_length() == GAMES["forest"].max_length({}, 2) == 2 * 48 * 31 + 10
    other = pyspiel.load_game("python_halali_forest", {"stall_limit": 6, "green_lock": "revealed_only"})
    assert other.max_game_length() == GAMES["forest"].max_length({"stall_limit": "6"}, 2)
    assert other.rules.green_lock == "revealed_only" and other.rules.stall_limit == 6
    assert str(other) == "python_halali_forest(green_lock=revealed_only,no_return_neutrals=False,stall_limit=6)"


def test_an_unbounded_game_or_a_bad_option_is_refused() -> None:
    with pytest.raises(Exception, match="stall_limit >= 1"):
        pyspiel.load_game("python_halali_forest(stall_limit=0)")
    with pytest.raises(Exception, match="green_lock"):
        pyspiel.load_game("python_halali_forest(green_lock=sometimes)")


@pytest.mark.parametrize("game_string", OPTION_SETS)
def test_openspiels_random_simulation_test(game_string: str) -> None:
    """OpenSpiel's own check of a game: legal actions sorted and unique, chance outcomes, clones, the
    observation and information-state tensors, returns within bounds and summing to zero, the game
    no longer than declared, and serialisation round trips (``serialize=True``)."""
    pyspiel.random_sim_test(pyspiel.load_game(game_string), num_sims=3, serialize=True, verbose=False)


def test_a_reveal_is_a_chance_node_over_the_tiles_still_possible() -> None:
    game = pyspiel.load_game("python_halali_forest")
    state = game.new_initial_state()
    assert state.current_player() == 0
    assert state.legal_actions() == sorted(s for s in range(49) if s != 24)  # every face-down square
    state.apply_action(2)  # ?c1
    assert state.is_chance_node()
    outcomes = dict(state.chance_outcomes())
    assert sum(outcomes.values()) == pytest.approx(1.0)
    # 2 bears of 48 tiles; 8 hunters, a rifle direction each drawn uniformly
    assert outcomes[0] == pytest.approx(2 / 48) and outcomes[3] == pytest.approx(8 / 48 / 4)
    assert [state.action_to_string(a) for a in sorted(outcomes)][:2] == ["?c1=B", "?c1=F"]
    state.apply_action(0)  # a bear
    assert state.current_player() == 1
    assert state.position.board[2] == 1
    state.apply_action(3)  # ?d1
    assert dict(state.chance_outcomes())[0] == pytest.approx(1 / 47)  # one bear left of 47 tiles


def test_serialisation_and_cloning_keep_the_state_and_its_history() -> None:
    game = pyspiel.load_game("python_halali_forest(stall_limit=8)")
    state = random_state(game, 60, seed=4)
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game) and str(state2) == str(state) and state2.history() == state.history()
    assert state2.legal_actions() == state.legal_actions()
    clone = state.clone()
    assert clone.information_state_string(0) == state.information_state_string(0)
    before = str(state)
    while not clone.is_terminal():
        clone.apply_action(clone.legal_actions()[0] if not clone.is_chance_node() else clone.chance_outcomes()[0][0])
    assert str(state) == before  # the original is untouched
    assert pickle.loads(pickle.dumps(state.position)).fen() == state.position.fen()


def test_observers_show_both_players_the_same_board() -> None:
    """Perfect information: the two players' observations differ only in who observes."""
    game = pyspiel.load_game("python_halali_forest")
    state = random_state(game, 41, seed=7)
    assert state.observation_string(0) == state.observation_string(1) == str(state)
    assert state.information_state_string(0) == state.information_state_string(1)
    t0 = np.array(state.observation_tensor(0))
    t1 = np.array(state.observation_tensor(1))
    differ = np.flatnonzero(t0 != t1)
    board = E.BOARD_PLANES * 49
    assert list(differ) == [board + 2, board + 3]  # the "observer is blue / brown" features
    assert np.array_equal(np.array(state.information_state_tensor(0)), t0)


def test_the_tensor_counts_what_is_still_face_down() -> None:
    game = pyspiel.load_game("python_halali_forest")
    state = random_state(game, 70, seed=3)
    pos = state.position
    tensor = np.array(state.observation_tensor(0))
    board = tensor[:E.BOARD_PLANES * 49].reshape(E.BOARD_PLANES, 7, 7)
    globs = tensor[E.BOARD_PLANES * 49:]
    assert board[10].sum() == len(pos.hidden)
    counts = np.array([2, 6, 2, 8, 7, 8, 15])
    left = np.rint(globs[22:29] * counts).astype(int)
    assert list(left) == pos.remaining_kinds()  # the engine's own count of what is unaccounted for
    assert board[:10].sum() == len(pos.up)


def test_the_information_state_is_the_public_record() -> None:
    """The perfect-recall string is every action in forest notation, reveals with the tile they
    turned up (the chance outcome): replayed on the public start it gives the state's position."""
    game = pyspiel.load_game("python_halali_forest")
    for seed, steps in ((5, 33), (6, 34)):
        state = random_state(game, steps, seed=seed)
        pos = game.start.copy()
        record = state.information_state_string(0).split()
        if state.is_chance_node():
            assert record[-1] == "?" + "abcdefg"[state.pending % 7] + str(state.pending // 7 + 1)
            record = record[:-1]
        for text in record:
            pos.play(text)
        assert pos.fen() == state.position.fen()
