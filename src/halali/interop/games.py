"""Each game as the environments step it: start, play by action id, encode, draw, and its bots.

The Gymnasium environments (one seat against bots) and the PettingZoo ones (every seat an agent)
differ only in their protocol. Everything a game does for an environment is here once, in one class
per game, which both hold: starting, playing an action id, the legal ids, the observation, the
pictures, and for the one-seat environments the bots at the other seats and when a seat's episode
ends with what return. Every rule is the engine's.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np

from halali.ai.base import Bot
from halali.ai.hare.base import HareBot
from halali.ai.hare.registry import make_bot as make_hare_bot
from halali.ai.registry import make_bot
from halali.games.forest.actions import Action
from halali.games.forest.position import Position
from halali.games.hare.actions import ROLL_ACTION
from halali.games.hare.actions import Action as HareAction
from halali.games.hare.phases import PH_AIM, PH_ROLL
from halali.games.hare.state import HareState
from halali.interop.encoding import forest as F
from halali.interop.encoding import hare as H
from halali.interop.encoding import zero_sum
from halali.interop.options import forest_rules, hare_rules
from halali.interop.render.picture import rgb_array
from halali.interop.render.text import forest_text, hare_text
from halali.svg import forest as forest_svg
from halali.svg import hare as hare_svg

RENDER_MODES = ["human", "ansi", "rgb_array"]


class ForestSteps:
    """The forest game for an environment: the position, and its observation kept up to date."""

    num_actions = F.NUM_ACTIONS
    size = F.SIZE
    players = 2

    def __init__(self, options: Mapping[str, object]) -> None:
        self.rules = forest_rules(options)
        self.position = Position(self.rules)
        self._tracker = F.Tracker(self.position)
        self._bots: list[Bot] = []

    def start(self, rng: random.Random) -> None:
        self.position = Position.deal(self.rules, rng)
        self._tracker.reset(self.position)

    def legal_ids(self) -> list[int]:
        return F.legal_ids(self.position)

    def play(self, i: int) -> None:
        self.push(F.engine_action(self.position, i))

    def push(self, action: Action) -> None:
        """An engine action (a bot's choice)."""
        self.position.push(action)
        self._tracker.push(self.position, action)

    def to_move(self) -> int:
        return self.position.turn

    def over(self) -> bool:
        return self.position.is_over()

    def result(self) -> list[float]:
        w = self.position.winner()
        return [0.5, 0.5] if w is None else [1.0 if p == w else 0.0 for p in (0, 1)]

    def observation(self, seat: int) -> np.ndarray:
        return self._tracker.observation(seat)

    def text(self) -> str:
        return forest_text(self.position)

    def svg(self) -> str:
        return forest_svg(self.position, lastaction=self.position.last_action)

    # ---- one seat against bots (Gymnasium) ------------------------------------------------------
    @staticmethod
    def check_level(level: int | str) -> None:
        """Refuse an unknown bot level now, not at the first move."""
        make_bot(level)

    def seat_bots(self, level: int | str, seed: int) -> None:
        """A bot of ``level`` for every seat (the agent's is never asked)."""
        self._bots = [make_bot(level, seed) for _ in range(self.players)]

    def bot_move(self, movetime: float) -> None:
        """The bot of the colour to move chooses on its view."""
        self.push(self._bots[self.position.turn].choose(self.position.view(), movetime))

    def seat_done(self, seat: int) -> bool:
        """Whether the episode of ``seat`` is over: the game is."""
        return self.over()

    def seat_return(self, seat: int) -> float:
        """The return of ``seat`` once its episode is over."""
        return zero_sum(self.result())[seat]


class HareSteps:
    """The hare hunt for an environment: the dice are rolled between the decisions, from the engine's
    secret, so a roll is never an agent's action."""

    num_actions = H.NUM_ACTIONS
    size = H.SIZE

    def __init__(self, players: int, options: Mapping[str, object]) -> None:
        if not 2 <= players <= 6:
            raise ValueError(f"the hare hunt is for 2 to 6 players, not {players}")
        self.players = players
        self.rules = hare_rules(options)
        self.state = HareState.new(players, self.rules, random.Random(0))
        self._bots: list[HareBot] = []

    def start(self, rng: random.Random) -> None:
        self.state = HareState.new(self.players, self.rules, rng)
        self._roll()

    def _roll(self) -> None:
        st = self.state
        while st.phase in (PH_ROLL, PH_AIM):
            st.push(ROLL_ACTION)

    def legal_ids(self) -> list[int]:
        return H.legal_ids(self.state)

    def play(self, i: int) -> None:
        self.state.push(H.engine_action(self.state, i))
        self._roll()

    def play_checked(self, action: HareAction) -> None:
        """A bot's choice, checked by the engine."""
        self.state.play(action)
        self._roll()

    def out(self, seat: int) -> bool:
        return self.state.out[seat] >= 0

    def to_move(self) -> int:
        return self.state.to_move

    def over(self) -> bool:
        return self.state.is_over()

    def result(self) -> list[float]:
        return self.state.result()

    def observation(self, seat: int) -> np.ndarray:
        return H.observation(self.state, seat)

    def text(self) -> str:
        return hare_text(self.state)

    def svg(self) -> str:
        return hare_svg(self.state, lastaction=self.state.history[-1] if self.state.history else None)

    # ---- one seat against bots (Gymnasium) ------------------------------------------------------
    @staticmethod
    def check_level(level: int | str) -> None:
        """Refuse an unknown bot level now, not at the first move."""
        make_hare_bot(level)

    def seat_bots(self, level: int | str, seed: int) -> None:
        """A bot of ``level`` for every seat, each with a seed of its own (the agent's is never asked)."""
        self._bots = [make_hare_bot(level, seed + p) for p in range(self.players)]

    def bot_move(self, movetime: float) -> None:
        """The bot of the seat to move chooses on that seat's view, checked by the engine."""
        seat = self.state.to_move
        self.play_checked(self._bots[seat].choose(self.state.view(seat), movetime))

    def seat_done(self, seat: int) -> bool:
        """Whether the episode of ``seat`` is over: the hunt is, or the seat is out."""
        return self.over() or self.out(seat)

    def seat_return(self, seat: int) -> float:
        """The return of ``seat`` once its episode is over: out while others play on, a loser's."""
        if self.over():
            return zero_sum(self.result())[seat]
        return -1.0 / (self.players - 1)


def check_render_mode(mode: str | None) -> None:
    if mode is not None and mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be one of {', '.join(RENDER_MODES)}, not {mode!r}")


def frame(game: ForestSteps | HareSteps, mode: str | None) -> Any:
    """``render()`` in each of the render modes: a picture, a text, or the text printed."""
    if mode is None:
        gymnasium.logger.warn("render() called without a render_mode")
        return None
    if mode == "rgb_array":
        return rgb_array(game.svg())
    text = game.text()
    if mode == "ansi":
        return text
    print(text)
    return None
