"""Both PettingZoo environments pass PettingZoo's own tests: ``api_test`` with every warning an error,
``seed_test``, ``render_test``; they pickle mid-game and go on the same, register in PettingZoo's
registry, and keep their spaces, masks and rewards as the AEC API and the classic games do."""

from __future__ import annotations

import pickle
import sys
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, render_test, seed_test

import halali.interop.pettingzoo  # noqa: F401  (registers the environments)
from halali.interop.encoding import forest as F
from halali.interop.encoding import hare as H
from halali.interop.pettingzoo import forest, hare

API_TEST = sys.modules["pettingzoo.test.api_test"]
NAMES = ("halali_forest_v0", "halali_hare_v0")

Maker = Callable[..., Any]
CASES: list[tuple[str, Maker]] = [
    ("forest", forest.env),
    ("forest-options", lambda **kw: forest.env(stall_limit=5, green_lock="revealed_only", **kw)),
    ("hare-2", lambda **kw: hare.env(players=2, **kw)),
    ("hare-3", lambda **kw: hare.env(players=3, bush=False, **kw)),
    ("hare-6", lambda **kw: hare.env(players=6, overshoot="target", **kw)),
]
IDS = [c[0] for c in CASES]
MAKERS = [c[1] for c in CASES]


@pytest.fixture
def classic_board_game_checks(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every warning an error. PettingZoo's api_test knows its own classic board games by name and
    lets their dict observation (tensor and action mask) and Dict space pass; ours are the same kind
    of game, so they join those lists, and nothing else is waived."""
    for attr in ("env_obs_dicts", "env_obs_space"):
        monkeypatch.setattr(API_TEST, attr, [*getattr(API_TEST, attr), *NAMES])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


@pytest.mark.parametrize("make", MAKERS, ids=IDS)
def test_pettingzoos_api_test_with_warnings_as_errors(make: Maker, classic_board_game_checks: None) -> None:
    api_test(make(), num_cycles=400)


@pytest.mark.parametrize("make", MAKERS, ids=IDS)
def test_the_raw_environment_passes_the_api_test_too(make: Maker, classic_board_game_checks: None) -> None:
    api_test(make().unwrapped, num_cycles=200)


@pytest.mark.parametrize("make", MAKERS, ids=IDS)
def test_pettingzoos_seed_test(make: Maker) -> None:
    """Two environments reset with the same seed deal, roll and mask alike, step for step."""
    seed_test(make, num_cycles=300)


@pytest.mark.parametrize(("make", "status"), [(MAKERS[0], "to move"), (MAKERS[3], "seat")], ids=[IDS[0], IDS[3]])
def test_pettingzoos_render_test(make: Maker, status: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Every declared mode renders: the text board (printed for "human"), and a picture of it."""
    render_test(make, custom_tests={
        "ansi": lambda text: status in text,
        "rgb_array": lambda image: image.shape == (480, 480, 3) and image.std() > 10,
    })
    assert status in capsys.readouterr().out  # "human" printed the board


def _play(env: Any, steps: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        obs, _r, term, trunc, _info = env.last()
        if term or trunc:
            return
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("make", MAKERS, ids=IDS)
def test_a_pickled_environment_goes_on_as_the_original(make: Maker) -> None:
    env = make()
    env.reset(seed=7)
    _play(env, 25, seed=1)
    copy = pickle.loads(pickle.dumps(env))
    for e in (env, copy):
        _play(e, 400, seed=2)
        e.reset()  # the same random source, pickled with it: the same next deal
    assert env.agent_selection == copy.agent_selection
    a, b = env.last()[0], copy.last()[0]
    assert np.array_equal(a["observation"], b["observation"]) and np.array_equal(a["action_mask"], b["action_mask"])


def test_both_are_in_pettingzoos_registry() -> None:
    f = pettingzoo.make("aec", "halali/forest-v0", stall_limit=10)
    h = pettingzoo.make("aec", "halali/hare-v0", players=4)
    assert f.unwrapped.rules.stall_limit == 10
    assert h.unwrapped.possible_agents == ["player_0", "player_1", "player_2", "player_3"]


def test_spaces_are_finite_bounded_and_made_once() -> None:
    for env, size, actions in ((forest.env(), F.SIZE, F.NUM_ACTIONS), (hare.env(players=5), H.SIZE, H.NUM_ACTIONS)):
        env.reset(seed=0)
        for agent in env.possible_agents:
            space = env.observation_space(agent)
            assert space is env.observation_space(agent) and env.action_space(agent) is env.action_space(agent)
            assert space["observation"].shape == (size,) and space["observation"].is_bounded()
            assert space["action_mask"].shape == (actions,) and env.action_space(agent).n == actions


@pytest.mark.parametrize("make", MAKERS, ids=IDS)
def test_rewards_come_at_the_end_and_sum_to_zero(make: Maker) -> None:
    env = make().unwrapped
    for seed in range(2):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while not any(env.terminations.values()):
            assert all(r == 0 for r in env.rewards.values())
            obs = env.observe(env.agent_selection)
            others = [a for a in env.agents if a != env.agent_selection]
            assert all(not env.observe(a)["action_mask"].any() for a in others)
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert all(env.terminations.values())
        assert sum(env.rewards.values()) == pytest.approx(0.0)
        assert max(env.rewards.values()) > 0 or all(r == 0 for r in env.rewards.values())


def test_an_illegal_action_is_refused_by_the_raw_environment_and_ends_the_wrapped_one() -> None:
    raw = forest.raw_env()
    raw.reset(seed=1)
    with pytest.raises(ValueError, match="not legal"):
        raw.step(F.PASS_ID)  # passing is legal only when nothing else is
    env = forest.env()
    env.reset(seed=1)
    env.step(F.PASS_ID)  # PettingZoo's TerminateIllegalWrapper logs it and ends the game
    assert all(env.terminations.values()) and env.rewards["player_0"] == -1


def test_the_same_seed_gives_the_same_deal_and_another_seed_another() -> None:
    a, b, c = forest.raw_env(), forest.raw_env(), forest.raw_env()
    a.reset(seed=3)
    b.reset(seed=3)
    c.reset(seed=4)
    assert a.position.fen() == b.position.fen() != c.position.fen()
    h1, h2 = hare.raw_env(players=3), hare.raw_env(players=3)
    h1.reset(seed=5)
    h2.reset(seed=5)
    assert h1.state.fen() == h2.state.fen() and h1.state.secret == h2.state.secret
