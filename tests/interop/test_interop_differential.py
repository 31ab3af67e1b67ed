"""Every environment against the project's own engine, step by step: over thousands of random steps
each, the legal actions (in notation), the chance outcomes, who moves and the results agree with the
game played through the engine's text interface (``halali.games.base.GAMES``: ``apply`` checks every
action again), which shares no code with the interop layer's integer fast path but the rules."""

from __future__ import annotations

import random
from typing import Any

import gymnasium as gym
import numpy as np
import pyspiel
import pytest

import halali.interop.gymnasium
import halali.interop.openspiel  # noqa: F401  (registers the games)
from halali.games.base import GAMES
from halali.games.hare.state import HareState
from halali.interop.encoding import forest as F
from halali.interop.encoding import hare as H
from halali.interop.encoding import zero_sum
from halali.interop.pettingzoo import forest as pz_forest
from halali.interop.pettingzoo import hare as pz_hare

FOREST = GAMES["forest"]
HARE = GAMES["hare"]
STEPS = 2500


def _forest_public_start(rules: str) -> Any:
    return FOREST.replay(f'[Game "forest"]\n[Rules "{rules}"]\n[Position "'
                         '???????/???????/???????/???1???/???????/???????/??????? blue - - - - 0 - -"]\n\n')


@pytest.mark.parametrize("params", [{}, {"stall_limit": 4, "green_lock": "revealed_only", "no_return_neutrals": True}])
def test_openspiel_forest_agrees_with_the_engine(params: dict[str, Any]) -> None:
    game = pyspiel.load_game("python_halali_forest", params)
    rules = " ".join(game.rules.to_strings())
    rng = np.random.RandomState(1)
    steps = 0
    while steps < STEPS:
        state, engine = game.new_initial_state(), _forest_public_start(rules)
        while not state.is_terminal():
            if state.is_chance_node():
                reveal = state.information_state_string(0).split()[-1]
                outcomes = dict(FOREST.chance_outcomes(engine, reveal))
                ours = {state.action_to_string(a): p for a, p in state.chance_outcomes()}
                assert ours.keys() == outcomes.keys() and all(ours[k] == pytest.approx(outcomes[k]) for k in ours)
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                a = int(rng.choice(actions, p=probs))
                engine = FOREST.apply(engine, state.action_to_string(a))
            else:
                assert state.current_player() == FOREST.to_move(engine)
                legal = state.legal_actions()
                assert sorted(state.action_to_string(a) for a in legal) == FOREST.legal_actions(engine)
                a = int(rng.choice(legal))
                text = state.action_to_string(a)
                if not text.startswith("?"):
                    engine = FOREST.apply(engine, text)
            state.apply_action(a)
            steps += 1
        assert FOREST.is_over(engine)
        assert state.returns() == zero_sum(FOREST.result(engine))


@pytest.mark.parametrize(("players", "params"), [(2, {}), (3, {"bush": False, "overshoot": "target"})])
def test_openspiel_hare_agrees_with_the_engine(players: int, params: dict[str, Any]) -> None:
    game = pyspiel.load_game("python_halali_hare", {"players": players, **params})
    rng = np.random.RandomState(players)
    steps = 0
    while steps < STEPS:
        state = game.new_initial_state()
        while state.hunt is None:
            outcomes = state.chance_outcomes()
            state.apply_action(int(rng.choice([a for a, _p in outcomes])))
        st = state.hunt
        engine = HareState.setup(players, game.rules, state.sides, st.clubs, st.to_move)
        while not state.is_terminal():
            legal = HARE.legal_actions(engine)
            if state.is_chance_node():
                assert legal == ["roll"]
                expected = dict(HARE.chance_outcomes(engine, "roll"))
                ours = {state.action_to_string(a): p for a, p in state.chance_outcomes()}
                assert ours == pytest.approx(expected)
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                a = int(rng.choice(actions, p=probs))
            else:
                assert state.current_player() == HARE.to_move(engine)
                ids = state.legal_actions()
                assert sorted(state.action_to_string(a) for a in ids) == legal
                a = int(rng.choice(ids))
            engine = HARE.apply(engine, state.action_to_string(a))
            state.apply_action(a)
            steps += 1
        assert HARE.is_over(engine)
        assert state.returns() == pytest.approx(zero_sum(HARE.result(engine)))


def test_pettingzoo_forest_agrees_with_the_engine() -> None:
    env = pz_forest.raw_env(stall_limit=12)
    options = {"stall_limit": "12", "match": "single"}
    steps, seed = 0, 0
    while steps < STEPS:
        seed += 1
        env.reset(seed=seed)
        engine = FOREST.new(options, 2, random.Random(seed))  # the engine's deal from the same seed
        assert FOREST.view(engine, None) == env.position.view().fen()
        while not any(env.terminations.values()):
            agent = env.agent_selection
            assert agent == f"player_{FOREST.to_move(engine)}"
            obs = env.observe(agent)
            ids = np.flatnonzero(obs["action_mask"]).tolist()
            assert sorted(F.id_to_string(env.position, i) for i in ids) == FOREST.legal_actions(engine)
            assert np.array_equal(obs["observation"], F.observation(env.position.view(), env.position.turn))
            i = random.Random(seed * 10_000 + steps).choice(ids)
            engine = FOREST.apply(engine, F.id_to_string(env.position, i))
            env.step(i)
            steps += 1
        assert FOREST.is_over(engine) and env.position.fen() == engine.position.fen()
        assert [env.rewards[a] for a in env.possible_agents] == zero_sum(FOREST.result(engine))


@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoo_hare_agrees_with_the_engine(players: int) -> None:
    env = pz_hare.raw_env(players=players)
    steps, seed = 0, 0
    while steps < STEPS:
        seed += 1
        env.reset(seed=seed)
        engine = HARE.new({}, players, random.Random(seed))  # the same deal and dice secret
        while not any(env.terminations.values()):
            while HARE.legal_actions(engine) == ["roll"]:
                engine = HARE.apply(engine, "roll")  # the environment rolls between decisions
            assert env.agent_selection == f"player_{HARE.to_move(engine)}"
            seat = HARE.to_move(engine)
            obs = env.observe(env.agent_selection)
            ids = np.flatnonzero(obs["action_mask"]).tolist()
            assert sorted(H.id_to_string(env.state, i) for i in ids) == HARE.legal_actions(engine)
            assert HARE.view(engine, seat) == env.state.view(seat).fen()
            i = random.Random(seed * 10_000 + steps).choice(ids)
            engine = HARE.apply(engine, H.id_to_string(env.state, i))
            env.step(i)
            steps += 1
        while not HARE.is_over(engine):
            engine = HARE.apply(engine, "roll")
        assert HARE.record(engine) == env.state.record()
        assert [env.rewards[a] for a in env.possible_agents] == pytest.approx(zero_sum(HARE.result(engine)))


def test_gymnasium_forest_agrees_with_the_engine() -> None:
    env = gym.make("halali/Forest-v0", opponent="greedy", seat=None).unwrapped
    steps, seed = 0, 0
    while steps < STEPS // 2:
        seed += 1
        _obs, info = env.reset(seed=seed)
        played = 0
        start = env.position.copy(stack=True)
        while list(start.history()):
            start.pop()  # back to the deal, before any bot's move
        deal = f'[Game "forest"]\n[Rules "match=single"]\n[Deal "{start.fen()}"]\n\n'
        while True:
            history = " ".join(env.position.action_str(a) for a in env.position.history())
            engine = FOREST.replay(deal + history)  # every action checked again, with the deal
            ids = np.flatnonzero(info["action_mask"]).tolist()
            assert FOREST.to_move(engine) == env.seat
            assert sorted(F.id_to_string(env.position, i) for i in ids) == FOREST.legal_actions(engine)
            i = random.Random(seed + played).choice(ids)
            _obs, reward, terminated, _truncated, info = env.step(i)
            steps += 1
            played += 1
            if terminated:
                w = env.position.winner()
                assert reward == zero_sum([0.5, 0.5] if w is None else [float(p == w) for p in (0, 1)])[env.seat]
                break
