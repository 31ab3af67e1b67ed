"""The forest game as an OpenSpiel game: ``pyspiel.load_game("python_halali_forest")``.

Modelled as OpenSpiel models banqi: perfect information with explicit chance. Nobody knows a face-down
tile, so there is no secret to keep: the deal is not drawn in advance, and a reveal is the player's
action (which square) followed by a chance node whose outcomes are the tiles still possible, with the
probabilities the engine gives (``Position.reveal_outcomes``: hunters by rifle direction). The state
holds an engine ``Position`` whose face-down tiles are all unknown, and every rule is the engine's.

Parameters: ``green_lock`` (str), ``no_return_neutrals`` (bool), ``stall_limit`` (int, at least 1:
OpenSpiel needs a bound on the game's length, and the stall rule is what bounds it). One game, not a
match. Returns are zero-sum: +1 a win, -1 a loss, 0 a draw.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from halali.games.base import GAMES
from halali.games.forest.actions import REVEAL, TYPE_SHIFT, action_str, outcome, reveal
from halali.games.forest.position import Position
from halali.interop.encoding import forest as E
from halali.interop.encoding import zero_sum
from halali.interop.options import FOREST_PARAMS, forest_options, forest_rules

SHORT_NAME = "python_halali_forest"

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Halali! (the forest game)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=FOREST_PARAMS,
)


class _Box:
    """The engine position inside a state. OpenSpiel clones a Python state by deep-copying its
    attributes; this makes that one ``Position.copy`` (with its history) instead of a generic walk."""

    __slots__ = ("pos",)

    def __init__(self, pos: Position) -> None:
        self.pos = pos

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        return _Box(self.pos.copy(stack=True))

    def __getstate__(self) -> Position:
        return self.pos

    def __setstate__(self, pos: Position) -> None:
        self.pos = pos


class ForestGame(pyspiel.Game):
    """The forest game for OpenSpiel; ``params`` as in ``GAME_TYPE.parameter_specification``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**FOREST_PARAMS, **(params or {})}
        options = forest_options(params)
        if options["stall_limit"] == "0":
            raise ValueError("python_halali_forest needs stall_limit >= 1: OpenSpiel needs a bounded game, "
                             "and without the stall rule nothing bounds the forest game")
        length = GAMES["forest"].max_length(options, 2)
        assert length is not None  # bounded by the stall rule
        info = pyspiel.GameInfo(
            num_distinct_actions=E.NUM_ACTIONS,
            max_chance_outcomes=E.NUM_OUTCOMES,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=length,
        )
        super().__init__(GAME_TYPE, info, params)
        self.rules = forest_rules(params)
        # The public start: every tile face down and unknown (a view of any deal is the same).
        self.start = Position.deal(self.rules, random.Random(0)).view()

    def new_initial_state(self) -> ForestState:
        return ForestState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ForestObserver:
        return ForestObserver(iig_obs_type, params)


class ForestState(pyspiel.State):
    """One forest game. ``position`` is the engine's, every face-down tile unknown; ``pending`` is the
    square of a reveal chosen by the player and waiting for its chance outcome (-1: none)."""

    def __init__(self, game: ForestGame) -> None:
        super().__init__(game)
        self._box = _Box(game.start.copy())
        self._pending = -1

    @property
    def position(self) -> Position:
        return self._box.pos

    @property
    def pending(self) -> int:
        return self._pending

    def current_player(self) -> int:
        pos = self._box.pos
        if pos.is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        if self._pending >= 0:
            return int(pyspiel.PlayerId.CHANCE)
        return pos.turn

    def _legal_actions(self, player: int) -> list[int]:
        return E.legal_ids(self._box.pos)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        assert self._pending >= 0, "not a chance node"
        return sorted((outcome(a) - 1, p) for a, p in self._box.pos.reveal_outcomes(self._pending))

    def _apply_action(self, action: int) -> None:
        pos = self._box.pos
        if self._pending >= 0:
            pos.push(reveal(self._pending, E.OUTCOME_CODES[action]))
            self._pending = -1
            return
        a = E.engine_action(pos, action)
        if a >> TYPE_SHIFT & 7 == REVEAL:
            self._pending = a & 63  # the tile is decided at the chance node that follows
        else:
            pos.push(a)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return E.outcome_string(self._pending, action)
        return E.id_to_string(self._box.pos, action)

    def is_terminal(self) -> bool:
        return self._box.pos.is_over()

    def returns(self) -> list[float]:
        pos = self._box.pos
        if not pos.is_over():
            return [0.0, 0.0]
        w = pos.winner()
        return zero_sum([0.5, 0.5] if w is None else [1.0 if p == w else 0.0 for p in (0, 1)])

    def record(self) -> str:
        """The actions so far in forest notation, every reveal with the tile it turned up, and a
        pending reveal without: the whole public history."""
        moves = [action_str(a) for a in self._box.pos.history()]
        if self._pending >= 0:
            moves.append(action_str(self._pending))
        return " ".join(moves)

    def __str__(self) -> str:
        text = self._box.pos.fen()
        return f"{text} ; {action_str(self._pending)}" if self._pending >= 0 else text


class ForestObserver:
    """OpenSpiel's observer for the forest game (the PyObserver interface of observation.py).

    Nothing is private, so every player's observation is the same but for who observes; the default
    observation is the position, the perfect-recall one the whole public history as text and the same
    tensor (the position is Markov: it holds everything the rules and the result depend on). An
    observer without public information sees nothing, as OpenSpiel's own public-information games do.
    """

    def __init__(self, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        self.public = iig_obs_type is None or bool(iig_obs_type.public_info)
        self.recall = iig_obs_type is not None and bool(iig_obs_type.perfect_recall)
        self.dict: dict[str, np.ndarray] = {}
        self.tensor: np.ndarray | None = None
        if self.public:
            self.tensor = np.zeros(E.SIZE, np.float32)
            board, globs = E.split(self.tensor)
            self.dict = {"board": board, "globals": globs}

    def set_from(self, state: ForestState, player: int) -> None:
        if self.tensor is not None:
            E.encode(state.position, player, self.tensor, state.pending)

    def string_from(self, state: ForestState, player: int) -> str:
        if not self.public:
            return ""
        if self.recall:
            return state.record()
        return str(state)


pyspiel.register_game(GAME_TYPE, ForestGame)
