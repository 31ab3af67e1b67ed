"""The interface every game implements, so that the server, the arena, the command line and any
interop layer serve each game the same way.

Modelled on OpenSpiel's split: what a game *is* (:class:`~halali.games.info.GameInfo`, its ``GameType``
and ``GameInfo``), and what a state of it does (legal actions, apply, to move, view, result), with the
states opaque to callers and passed back to the game that made them.

It speaks text (positions and actions in each game's notation) because that is what crosses every
boundary: the WebSocket, the store, the engine protocol. Each game also has a richer native API
(``halali.games.forest.Position``, ``halali.games.hare.HareState``) for bots and search.

Randomness is never taken from a global source: ``new`` receives the ``random.Random`` to draw from
(seeded for tests and replays, ``SystemRandom`` otherwise), everything it draws (a deal, a dice
secret) is part of the state, and chance events are explicit actions recorded with their outcome.
Nothing here does I/O.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Protocol

from halali.games.forest.game import ForestGame, ForestState
from halali.games.hare.game import HareGame
from halali.games.info import GameInfo, Option, Utility


class Game(Protocol):
    """One game type. States are opaque to callers; they are passed back to the same game.

    Players are numbered 0..n-1 within one game (the forest game: its colours). Errors: bad text
    raises ``NotationError``, an action the rules forbid ``IllegalAction`` (both ``HalaliError``).
    """

    info: GameInfo
    id: str  # = info.id; these three stay for the callers that read them directly
    min_players: int
    max_players: int

    # ---- the game and its options ----------------------------------------------------------------
    def check_options(self, options: Mapping[str, str]) -> dict[str, str]:
        """Every option (``info.options``) with its value, the given ones checked (``NotationError``
        for an unknown key or a bad value) and written the game's way; ``check_options({})`` is
        ``info.default_options``."""

    def match_games(self, options: Mapping[str, str]) -> int:
        """How many games make one match under these options (one of ``info.match_games``)."""

    def max_length(self, options: Mapping[str, str], players: int) -> int | None:
        """The most actions one game can last (every action of its record, chance events included);
        None when nothing bounds it."""

    # ---- a game ----------------------------------------------------------------------------------
    def new(self, options: Mapping[str, str], players: int, rng: random.Random) -> Any:
        """A fresh state with every secret drawn from ``rng``."""

    def legal_actions(self, state: Any) -> list[str]:
        """The legal actions of the player to move, sorted, in notation; empty once over. A chance
        event is listed without its outcome (``?c3``, ``roll``)."""

    def apply(self, state: Any, action: str) -> Any:
        """A new state after ``action``; raises ``IllegalAction`` naming the rule it breaks (``key``,
        ``params``), and the given state is never changed."""

    def to_move(self, state: Any) -> int | None:
        """The player to move; None when over."""

    def is_over(self, state: Any) -> bool: ...

    def view(self, state: Any, player: int | None) -> str:
        """The position as ``player`` may see it (``None``: a spectator), in notation.

        The one place where a game's secrets are removed: everything else a client, a bot or a
        spectator gets of a state is built from a view or from ``view_record``, which is made of
        views. The same state gives the same text."""

    def result(self, state: Any) -> list[float]:
        """Per player, once over: 1 a win, 0.5 a shared win or a draw, 0 a loss (within
        ``info.min_utility``..``info.max_utility``)."""

    def placings(self, state: Any) -> list[float]:
        """Per player, once over: 1 first, 2 second...; tied players share the mean of their places."""

    def chance_outcomes(self, state: Any, action: str) -> list[tuple[str, float]]:
        """For a chance event due now: every outcome (the action with its outcome written out) with its
        probability, as a player without the state's secret sees it; [] for any other action.

        The probabilities sum to 1. In a state that has the secret exactly one outcome is legal (the
        one it decides, the same as the action itself); in one replayed from ``view_record`` every one
        is."""

    # ---- records ---------------------------------------------------------------------------------
    def record(self, state: Any) -> str:
        """The whole game so far as text, secrets included: what a store keeps and ``replay`` reads."""

    def view_record(self, state: Any, player: int | None) -> str:
        """The whole game so far as ``player`` may know it now (``None``: a spectator): a record made of
        ``view`` of the start and the public actions, what the bots read. ``replay`` reads it too."""

    def replay(self, record: str) -> Any:
        """The state at the end of a record, every action checked again (``IllegalAction`` naming the
        action and the rule). A full record gives the state back; a seat's view record a state whose
        ``view`` for that seat is the seat's view, without the secrets."""


GAMES: dict[str, Game] = {"forest": ForestGame(), "hare": HareGame()}

__all__ = ["GAMES", "ForestGame", "ForestState", "Game", "GameInfo", "HareGame", "Option", "Utility"]
