"""The single-seat Gymnasium environments: Gymnasium's ``check_env`` (every warning an error), whole
episodes against the bots, the action mask, illegal actions, and seeded episodes that repeat."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import halali.interop.gymnasium  # noqa: F401  (registers the environments)
from halali.interop.encoding import forest as F
from halali.interop.encoding import hare as H

CASES: list[tuple[str, dict[str, Any]]] = [
    ("halali/Forest-v0", {}),
    ("halali/Forest-v0", {"opponent": "greedy", "seat": "brown", "stall_limit": 6}),
    ("halali/Forest-v0", {"seat": None, "green_lock": "revealed_only"}),
    ("halali/Hare-v0", {"players": 2}),
    ("halali/Hare-v0", {"players": 3, "opponent": "heuristic", "seat": None, "bush": False}),
]
IDS = [f"{name.split('/')[1]}-{i}" for i, (name, _kw) in enumerate(CASES)]


@pytest.mark.parametrize(("name", "kwargs"), CASES, ids=IDS)
def test_gymnasiums_env_checker(name: str, kwargs: dict[str, Any]) -> None:
    env = gym.make(name, **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)


def _episode(env: gym.Env, seed: int, policy_seed: int) -> tuple[float, int, list[int]]:  # type: ignore[type-arg]
    rng = np.random.default_rng(policy_seed)
    obs, info = env.reset(seed=seed)
    total, steps, taken = 0.0, 0, []
    while True:
        mask = info["action_mask"]
        assert np.array_equal(mask.astype(bool), env.unwrapped.action_masks())
        a = int(rng.choice(np.flatnonzero(mask)))
        taken.append(a)
        obs, reward, terminated, truncated, info = env.step(a)
        assert env.observation_space.contains(obs)
        total += float(reward)
        steps += 1
        if terminated or truncated:
            return total, steps, taken
        assert reward == 0


@pytest.mark.parametrize("opponent", ["random", "greedy"])
def test_a_forest_episode_against_each_simple_level(opponent: str) -> None:
    env = gym.make("halali/Forest-v0", opponent=opponent, seat=None)
    seats = set()
    for seed in range(4):
        total, _steps, _taken = _episode(env, seed, seed)
        assert total in (-1.0, 0.0, 1.0)
        seats.add(env.unwrapped.seat)
        assert env.unwrapped.position.is_over()
    assert seats == {0, 1}  # seat=None draws the colour


def test_a_hare_episode_against_the_heuristic_bots() -> None:
    env = gym.make("halali/Hare-v0", players=3, opponent="heuristic", seat=1)
    for seed in range(3):
        total, _steps, _taken = _episode(env, seed, seed)
        st = env.unwrapped.state
        assert st.is_over() or (st.out[1] >= 0 and total == -0.5)  # out: the episode ends, a loss
        # a lone win, a loss, a win shared by two or by all three (halali.interop.encoding.zero_sum)
        assert min(abs(total - r) for r in (1.0, -0.5, 0.25, 0.0)) < 1e-9


def test_the_same_seed_repeats_an_episode() -> None:
    for name, kwargs in (("halali/Forest-v0", {"opponent": "greedy"}), ("halali/Hare-v0", {"players": 3})):
        env = gym.make(name, **kwargs)
        a = _episode(env, 11, 5)
        b = _episode(env, 11, 5)
        assert a == b


def test_an_illegal_action_ends_the_episode_as_a_loss() -> None:
    env = gym.make("halali/Forest-v0").unwrapped
    env.reset(seed=0)
    _obs, reward, terminated, truncated, info = env.step(F.PASS_ID)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert not info["action_mask"].any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_spaces_and_observations_are_the_shared_encoding() -> None:
    f = gym.make("halali/Forest-v0").unwrapped
    h = gym.make("halali/Hare-v0", players=4).unwrapped
    assert f.observation_space.shape == (F.SIZE,) and f.action_space.n == F.NUM_ACTIONS
    assert h.observation_space.shape == (H.SIZE,) and h.action_space.n == H.NUM_ACTIONS
    obs, info = f.reset(seed=2)
    assert np.array_equal(obs, F.observation(f.position, f.seat))
    rng, done = np.random.default_rng(2), False
    while not done:  # the observation kept step by step is the agent's encoding after every step
        obs, _r, done, _t, info = f.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        assert np.array_equal(obs, F.observation(f.position, f.seat))
    obs, _info = h.reset(seed=2)
    assert np.array_equal(obs, H.observation(h.state, h.seat))


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="level"):
        gym.make("halali/Forest-v0", opponent="grandmaster")
    with pytest.raises(ValueError, match="seat"):
        gym.make("halali/Forest-v0", seat="green")
    with pytest.raises(ValueError, match="seat"):
        gym.make("halali/Hare-v0", players=3, seat=3)
