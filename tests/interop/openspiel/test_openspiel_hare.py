"""The hare hunt in OpenSpiel: loading with the player count and options, GameInfo, OpenSpiel's random
simulation test with serialisation, the setup and the dice as chance nodes, and observers that hide
exactly the other seats' club cards."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

import halali.interop.openspiel  # noqa: F401  (registers the games)
from halali.games.base import GAMES
from halali.games.hare.clubs import UNKNOWN
from halali.games.hare.dice import ROLL_OUTCOMES
from halali.interop.encoding import hare as E

SIM_CASES = [
    ("python_halali_hare", 2),
    ("python_halali_hare(players=3,bush=False,overshoot=target)", 1),
]


def play(game: pyspiel.Game, seed: int, steps: int, chance_choice: list[int] | None = None) -> pyspiel.State:
    """A state after ``steps`` random actions; ``chance_choice`` overrides the setup's first draws."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    forced = list(chance_choice or [])
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            a = int(rng.choice(actions, p=probs))
            if forced:
                a = forced.pop(0)
            state.apply_action(a)
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_loads_with_the_player_count_and_an_honest_game_info(players: int) -> None:
    game = pyspiel.load_game("python_halali_hare", {"players": players})
    assert game.num_players() == players
    assert game.num_distinct_actions() == E.NUM_ACTIONS == 472
    assert game.max_chance_outcomes() == 15
    assert game.min_utility() == pytest.approx(-1 / (players - 1)) and game.max_utility() == 1.0
    assert game.utility_sum() == 0.0
    assert game.max_game_length() == GAMES["hare"].max_length({}, players)
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION


def test_options_reach_the_engine_and_bad_ones_are_refused() -> None:
    game = pyspiel.load_game("python_halali_hare(players=4,bush=False,overshoot=target)")
    assert not game.rules.bush and game.rules.overshoot == "target"
    with pytest.raises(Exception, match="overshoot"):
        pyspiel.load_game("python_halali_hare(overshoot=never)")
    with pytest.raises(Exception, match="2 to 6"):
        pyspiel.load_game("python_halali_hare(players=7)")


@pytest.mark.parametrize(("game_string", "sims"), SIM_CASES)
def test_openspiels_random_simulation_test(game_string: str, sims: int) -> None:
    pyspiel.random_sim_test(pyspiel.load_game(game_string), num_sims=sims, serialize=True, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("players", [4, 5, 6])
def test_openspiels_random_simulation_test_with_more_players(players: int) -> None:
    game = pyspiel.load_game("python_halali_hare", {"players": players})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_the_setup_is_drawn_at_chance_nodes_as_the_engine_draws_it() -> None:
    game = pyspiel.load_game("python_halali_hare(players=3)")
    state = game.new_initial_state()
    sizes = []
    while state.is_chance_node() and state.hunt is None:
        outcomes = state.chance_outcomes()
        sizes.append(len(outcomes))
        assert sum(p for _a, p in outcomes) == pytest.approx(1.0)
        state.apply_action(outcomes[-1][0])
    # five sides (the sixth is what is left), three club cards, the starting seat
    assert sizes == [6, 5, 4, 3, 2, 6, 5, 4, 3]
    st = state.hunt
    assert st is not None and st.phase == "bush" and st.secret is None
    assert st.clubs == [5, 4, 3] and st.to_move == 2
    assert state.current_player() == 2


def test_every_roll_is_a_chance_node_with_the_engines_probabilities() -> None:
    game = pyspiel.load_game("python_halali_hare(bush=False)")
    state = play(game, 0, 8)  # the setup drawn, the first roll due
    assert state.is_chance_node() and state.hunt.phase == "roll"
    outcomes = state.chance_outcomes()
    assert [p for _a, p in outcomes] == [p for _faces, p in ROLL_OUTCOMES]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 14) == "roll=4,4"
    state.apply_action(14)  # a double 4: four hunters, four points each, no choice of dice
    assert state.hunt.phase == "move" and state.hunt.assign == (4, 4)
    assert not state.is_chance_node()


def _seat_views(state: pyspiel.State, seat: int) -> tuple[object, ...]:
    return (state.observation_string(seat), tuple(state.observation_tensor(seat)),
            state.information_state_string(seat), tuple(state.information_state_tensor(seat)))


def test_a_seat_sees_the_same_whatever_the_other_seats_hold() -> None:
    """Deal the other seats different clubs and play the same actions: as long as nobody is out,
    seat 0's observations and information states are the same, and its own card is in them."""
    game = pyspiel.load_game("python_halali_hare(players=3)")
    sides = [0, 1, 2, 3, 4]
    a = play(game, 11, 120, [*sides, 2, 0, 1])  # seat 0 holds G; the others R, Y
    b = play(game, 11, 120, [*sides, 2, 1, 0])  # ... or Y, R
    c = play(game, 11, 120, [*sides, 3, 0, 1])  # seat 0 holds B
    assert a.history()[8:] == b.history()[8:]
    assert all(o < 0 for o in a.hunt.out) and all(o < 0 for o in b.hunt.out)
    assert _seat_views(a, 0) == _seat_views(b, 0)
    assert _seat_views(a, 1) != _seat_views(b, 1)
    assert _seat_views(a, 0) != _seat_views(c, 0)
    assert "?" in a.observation_string(0).split()[2]
    assert a.observation_string(0).split()[2].split(",")[0] == "G"


def test_the_factored_observations_split_public_and_private() -> None:
    game = pyspiel.load_game("python_halali_hare(players=3)")
    state = play(game, 3, 40)
    public = pyspiel.IIGObservationType(public_info=True, perfect_recall=False,
                                        private_info=pyspiel.PrivateInfoType.NONE)
    private = pyspiel.IIGObservationType(public_info=False, perfect_recall=False,
                                         private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER)
    everything = pyspiel.IIGObservationType(public_info=True, perfect_recall=False,
                                            private_info=pyspiel.PrivateInfoType.ALL_PLAYERS)
    pub = game.make_py_observer(public)
    priv = game.make_py_observer(private)
    full = game.make_py_observer(everything)
    clubs = state.hunt.clubs
    assert all(o < 0 for o in state.hunt.out)  # no card shown yet
    assert pub.string_from(state, 0) == pub.string_from(state, 1)
    assert pub.string_from(state, 0).split()[2] == "?,?,?"
    assert priv.string_from(state, 1) == f"seat 2 holds {'RYGBWK'[clubs[1]]}"
    assert full.known(state, 0) == clubs
    assert pub.known(state, 0) == [UNKNOWN] * 3
    priv.set_from(state, 1)
    assert priv.dict["private"].sum() == 1 and priv.dict["private"][1, clubs[1]] == 1


def test_the_history_digest_counts_each_seats_points_per_club() -> None:
    game = pyspiel.load_game("python_halali_hare(bush=False)")
    state = play(game, 5, 200)
    spent = np.array(state.digest[:36]).reshape(6, 6)
    removed = np.array(state.digest[36:]).reshape(6, 6)
    assert spent.sum() > 0 and spent[2:].sum() == 0  # only the two seats in the game
    assert removed.sum() <= 18
    tensor = np.array(state.information_state_tensor(0))
    assert np.allclose(tensor[-E.DIGEST:], np.array(state.digest) / (np.array(state.digest) + 10))
