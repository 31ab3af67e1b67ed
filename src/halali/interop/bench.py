"""``halali bench --envs``: the speed of both games as the research libraries see them.

Side by side, in one run and on one core: the raw engine (legal actions and apply), the OpenSpiel
game (``legal_actions``, ``apply_action``, chance outcomes sampled), and the PettingZoo AEC
environment (``last()`` with its observation and action mask, an action drawn from the mask,
``step``), unwrapped and with PettingZoo's usual wrappers. Uniformly random play, as the engine's own
bench: it is what self-play and rollouts do. A *step* is one decision of a player: a reveal's or a
roll's chance event is inside the time but not counted, so the columns compare like with like. The
figures are measured in turns, each its best of a few slices (``measure``), so that the comparison
holds on a machine that other work shares.

The target is the forest AEC environment with masks at 20,000 steps/s, about three times the
Shimmy-wrapped banqi (OpenSpiel's nearest game) on the same machine.
"""

from __future__ import annotations

import importlib.util
import random
import time
from collections.abc import Callable
from typing import Any

TARGET = 20_000


def _timed(play_one: Callable[[int], int], seconds: float, seed: int) -> float:
    """Decisions per second: whole games played one after another until ``seconds`` have passed."""
    steps = 0
    elapsed = 0.0
    game = seed
    while elapsed < seconds:
        start = time.perf_counter()
        steps += play_one(game)
        elapsed += time.perf_counter() - start
        game += 1
    return steps / elapsed


def engine_forest(seed: int) -> int:
    from halali.games.forest.position import Position

    rng = random.Random(seed)
    pos = Position.deal(rng=rng)
    n = 0
    acts = pos.legal_actions()
    while acts:
        pos.push(rng.choice(acts))
        n += 1
        acts = pos.legal_actions()
    return n


def engine_hare(seed: int) -> int:
    from halali.games.hare.state import HareState

    rng = random.Random(seed)
    st = HareState.new(2, rng=rng)
    n = 0
    while not st.is_over():
        acts = st.legal_actions()
        if acts[0][0] != 1:  # a roll is a chance event, not a decision
            n += 1
        st.push(rng.choice(acts))
    return n


def openspiel(name: str) -> Callable[[int], int]:
    import pyspiel

    import halali.interop.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game(name)

    def play(seed: int) -> int:
        rng = random.Random(seed)
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                n += 1
        return n

    return play


def aec(make: Callable[[], Any]) -> Callable[[int], int]:
    env = make()

    def play(seed: int) -> int:
        rng = random.Random(seed)
        env.reset(seed=seed)
        n = 0
        for _agent in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            env.step(int(legal[rng.randrange(len(legal))]))
            n += 1
        return n

    return play


def shimmy_banqi(seed: int) -> int:
    """Banqi through Shimmy's OpenSpiel-to-PettingZoo wrapper, the mask from ``info``: the reference
    the target was set against (measured only where ``shimmy`` is installed; it is no dependency)."""
    from shimmy import OpenSpielCompatibilityV0

    env = OpenSpielCompatibilityV0(game_name="banqi")
    rng = random.Random(seed)
    env.reset(seed=seed)
    n = 0
    for _agent in env.agent_iter():
        _obs, _reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = info["action_mask"].nonzero()[0]
        env.step(int(legal[rng.randrange(len(legal))]))
        n += 1
    return n


ROUNDS = 5


def measure(seconds: float = 2.0, seed: int = 1) -> dict[str, dict[str, float]]:
    """Steps per second per game and layer: ``{"forest": {"engine": ..., ...}, "hare": {...}}``, and
    ``{"reference": {"banqi via Shimmy": ...}}`` where Shimmy is installed.

    Each figure gets ``seconds`` in all, in ROUNDS slices taken in turn with the others', and is its
    best slice: on a shared machine the layers then see the same conditions, and a burst of other
    work lowers one slice, not the comparison.
    """
    from halali.interop.pettingzoo import forest, hare

    layers: dict[tuple[str, str], Callable[[int], int]] = {
        ("forest", "engine"): engine_forest,
        ("forest", "openspiel"): openspiel("python_halali_forest"),
        ("forest", "pettingzoo raw_env"): aec(forest.raw_env),
        ("forest", "pettingzoo env"): aec(forest.env),
        ("hare", "engine"): engine_hare,
        ("hare", "openspiel"): openspiel("python_halali_hare"),
        ("hare", "pettingzoo raw_env"): aec(hare.raw_env),
        ("hare", "pettingzoo env"): aec(hare.env),
    }
    if importlib.util.find_spec("shimmy") is not None:
        layers[("reference", "banqi via Shimmy")] = shimmy_banqi
    best: dict[tuple[str, str], float] = dict.fromkeys(layers, 0.0)
    for r in range(ROUNDS):
        for key, play in layers.items():
            best[key] = max(best[key], _timed(play, seconds / ROUNDS, seed + 1000 * r))
    out: dict[str, dict[str, float]] = {}
    for (game, layer), speed in best.items():
        out.setdefault(game, {})[layer] = speed
    return out


def run(seconds: float = 2.0, seed: int = 1) -> int:
    """Print the figures as a table; 0 (the figures are information, never a failure)."""
    figures = measure(seconds, seed)
    reference = figures.pop("reference", {}).get("banqi via Shimmy")
    layers = list(figures["forest"])
    print(f"random play, one core, {seconds:g} s per figure in {ROUNDS} slices (the best one); "
          "steps/s = decisions per second (chance events inside the time, not counted)")
    print(f"{'':20s}" + "".join(f"{layer:>20s}" for layer in layers))
    for game, row in figures.items():
        print(f"{game + ' (2 players)':20s}" + "".join(f"{row[layer]:>20,.0f}" for layer in layers))
    if reference is not None:
        print(f"{'banqi via Shimmy':20s}{'':40s}{reference:>20,.0f}   (OpenSpiel's banqi, Shimmy's AEC wrapper)")
    for layer in ("pettingzoo raw_env", "pettingzoo env"):
        speed = figures["forest"][layer]
        line = f"forest {layer} with masks: {speed:,.0f} steps/s, target {TARGET:,}: x{speed / TARGET:.2f}"
        if reference is not None:
            line += f", x{speed / reference:.1f} banqi via Shimmy"
        print(line)
    return 0
