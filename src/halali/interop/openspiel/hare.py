"""The hare hunt as an OpenSpiel game: ``pyspiel.load_game("python_halali_hare(players=3)")``.

Imperfect information with explicit chance. The setup is a row of chance nodes, as the engine draws
it (``HareState.new``): the side of the outer ring each club starts on (five draws; the sixth side is
what is left), the club card each seat draws (private to that seat), the seat that begins. Then the
hunt is the engine's ``HareState`` without a dice secret: every roll, for the movement and for a shot,
is a chance node over the 15 rolls of two dice with their probabilities, and a player's decisions are
the engine's (bush, which die counts hunters, each point, end, whom a shot removes).

Parameters: ``players`` (2..6), ``bush`` (bool), ``overshoot`` (``choose`` or ``target``). Returns are
zero-sum: a lone winner +1, the losers share -1; k sharing winners get ``n / (n - 1) * (1 / k - 1 / n)``
each (``halali.interop.encoding.zero_sum``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from halali.games.base import GAMES
from halali.games.hare.actions import REMOVE, STEP, TURN, roll
from halali.games.hare.clubs import CLUB_LETTERS, NCLUBS, PER_CLUB
from halali.games.hare.dice import ROLL_OUTCOMES
from halali.games.hare.phases import PH_AIM, PH_ROLL
from halali.games.hare.state import HareState
from halali.interop.encoding import hare as E
from halali.interop.encoding import zero_sum
from halali.interop.openspiel.hare_observer import HareObserver
from halali.interop.options import HARE_PARAMS, hare_options, hare_rules

SHORT_NAME = "python_halali_hare"
PARAMS: dict[str, object] = {"players": 2, **HARE_PARAMS}

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Halali! The hare hunt",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=True,
    parameter_specification=PARAMS,
)


class _Box:
    """The engine state inside an OpenSpiel state, deep-copied by ``HareState.copy`` (see forest.py)."""

    __slots__ = ("st",)

    def __init__(self, st: HareState) -> None:
        self.st = st

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        return _Box(self.st.copy())

    def __getstate__(self) -> HareState:
        return self.st

    def __setstate__(self, st: HareState) -> None:
        self.st = st


class HareGame(pyspiel.Game):
    """The hare hunt for OpenSpiel; ``params`` as in ``GAME_TYPE.parameter_specification``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**PARAMS, **(params or {})}
        players = int(str(params["players"]))
        options = hare_options({k: v for k, v in params.items() if k != "players"})
        length = GAMES["hare"].max_length(options, players)
        assert length is not None  # the safeguard bounds every hunt
        info = pyspiel.GameInfo(
            num_distinct_actions=E.NUM_ACTIONS,
            max_chance_outcomes=E.NUM_OUTCOMES,
            num_players=players,
            min_utility=-1.0 / (players - 1),
            max_utility=1.0,
            utility_sum=0.0,
            # The engine's bound counts every action, rolls included: it bounds the decisions too.
            max_game_length=length,
        )
        super().__init__(GAME_TYPE, info, params)
        self.players = players
        self.rules = hare_rules({k: v for k, v in params.items() if k != "players"})

    def new_initial_state(self) -> HareHuntState:
        return HareHuntState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> HareObserver:
        return HareObserver(iig_obs_type, params, self.players)


class HareHuntState(pyspiel.State):
    """One hunt: first the setup's chance draws (``sides``, ``cards``), then the engine's state.

    ``digest`` counts, per seat and club, the points the seat spent on that club's hunters and the
    hunters of it the seat chose to remove: the public history the information-state tensor sums up.
    """

    def __init__(self, game: HareGame) -> None:
        super().__init__(game)
        self._players = game.players
        self._rules = game.rules
        self._sides: list[int] = []
        self._cards: list[int] = []
        self._box: _Box | None = None
        self._digest = [0] * E.DIGEST

    # ---- what the observers read ---------------------------------------------------------------
    @property
    def hunt(self) -> HareState | None:
        """The engine state once the setup is drawn; None before."""
        return None if self._box is None else self._box.st

    @property
    def cards(self) -> list[int]:
        return self._cards

    @property
    def sides(self) -> list[int]:
        return self._sides

    @property
    def digest(self) -> list[int]:
        return self._digest

    @property
    def players(self) -> int:
        return self._players

    # ---- the game ------------------------------------------------------------------------------
    def current_player(self) -> int:
        st = self.hunt
        if st is None:
            return int(pyspiel.PlayerId.CHANCE)
        if st.is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        if st.phase in (PH_ROLL, PH_AIM):
            return int(pyspiel.PlayerId.CHANCE)
        return st.to_move

    def _legal_actions(self, player: int) -> list[int]:
        st = self.hunt
        assert st is not None
        return E.legal_ids(st)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        st = self.hunt
        if st is not None:
            return [(i, p) for i, (_faces, p) in enumerate(ROLL_OUTCOMES)]
        if len(self._sides) < NCLUBS - 1:
            left = [s for s in range(NCLUBS) if s not in self._sides]
        elif len(self._cards) < self._players:
            left = [c for c in range(NCLUBS) if c not in self._cards]
        else:
            left = list(range(self._players))
        return [(x, 1.0 / len(left)) for x in left]

    def _apply_action(self, action: int) -> None:
        st = self.hunt
        if st is None:
            self._setup(action)
            return
        if st.phase in (PH_ROLL, PH_AIM):
            st.push(roll(*ROLL_OUTCOMES[action][0]))
            return
        a = E.engine_action(st, action)
        if a[0] in (STEP, TURN, REMOVE):
            club = st.occ[a[1]] // PER_CLUB
            self._digest[(E.MAX_SEATS if a[0] == REMOVE else 0) * NCLUBS + st.to_move * NCLUBS + club] += 1
        st.push(a)

    def _setup(self, action: int) -> None:
        if len(self._sides) < NCLUBS - 1:
            self._sides.append(action)
            if len(self._sides) == NCLUBS - 1:  # the last club takes the side that is left
                self._sides.append(next(s for s in range(NCLUBS) if s not in self._sides))
        elif len(self._cards) < self._players:
            self._cards.append(action)
            if len(self._cards) == NCLUBS - 1 and self._players == NCLUBS:  # the last card is what is left
                self._cards.append(next(c for c in range(NCLUBS) if c not in self._cards))
        else:
            self._box = _Box(HareState.setup(self._players, self._rules, self._sides, self._cards, action))

    def _action_to_string(self, player: int, action: int) -> str:
        st = self.hunt
        if player != pyspiel.PlayerId.CHANCE:
            assert st is not None
            return E.id_to_string(st, action)
        if st is not None:
            a, b = ROLL_OUTCOMES[action][0]
            return f"roll={a},{b}"
        if len(self._sides) < NCLUBS:
            return f"{CLUB_LETTERS[len(self._sides)]} starts on side {action}"
        if len(self._cards) < self._players:
            return f"seat {len(self._cards) + 1} draws {CLUB_LETTERS[action]}"
        return f"seat {action + 1} begins"

    def is_terminal(self) -> bool:
        st = self.hunt
        return st is not None and st.is_over()

    def returns(self) -> list[float]:
        st = self.hunt
        if st is None or not st.is_over():
            return [0.0] * self._players
        return zero_sum(st.result())

    def __str__(self) -> str:
        st = self.hunt
        if st is None:
            sides = " ".join(f"{CLUB_LETTERS[c]}{s}" for c, s in enumerate(self._sides))
            cards = ",".join(CLUB_LETTERS[c] for c in self._cards)
            return f"setup: sides {sides or '-'} cards {cards or '-'}"
        return st.fen()


def history_of(state: HareHuntState) -> np.ndarray:
    """The digest as the information-state tensor holds it (for tests and tools)."""
    out = np.empty(E.DIGEST, np.float32)
    E.digest(state.digest, out)
    return out


pyspiel.register_game(GAME_TYPE, HareGame)
