"""The forest game behind the common game interface (``halali.games.base.Game``).

Players are colours (0 blue, 1 brown) and a state is one game: a match of two games with the roles
swapped is ``halali.games.forest.match`` (``match_games`` says how many games the options ask for).
States are :class:`ForestState` values; ``apply`` never changes the state it is given.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from halali.games.errors import HalaliError, IllegalAction, NotationError
from halali.games.forest.actions import REVEAL, TYPE_SHIFT, action_str
from halali.games.forest.notation import parse_action, parse_action_text, parse_position
from halali.games.forest.position import Position
from halali.games.forest.pushpop import FINAL_TURNS
from halali.games.forest.record import Record, parse_record, with_outcome
from halali.games.forest.rules import DEFAULT_RULES, GREEN_LOCK_VALUES, MATCH_VALUES, Rules, parse_options
from halali.games.forest.tiles import PLAYER_NAMES
from halali.games.info import GameInfo, Option

NTILES = 48

INFO = GameInfo(
    id="forest",
    name="Halali! (the forest game)",
    min_players=2,
    max_players=2,
    chance=True,  # every reveal: the deal decides the tile
    secrets=True,  # the face-down tiles
    options=(
        Option("green_lock", "revealed_or_moved", GREEN_LOCK_VALUES,
               "which ducks and pheasants the opponent may not move next turn"),
        Option("no_return_neutrals", "false", ("false", "true"),
               "whether the no-return rule also covers a duck or pheasant one moved"),
        Option("stall_limit", "30", (), "turns without a reveal, capture or exit before a reveal is due; 0: off"),
        Option("match", "match", MATCH_VALUES, "two games with the roles swapped, or a single game"),
    ),
    match_games=(1, 2),
    min_utility=0.0,
    max_utility=1.0,
    utility="constant_sum",
    utility_sum=1.0,
)


@dataclass(frozen=True, slots=True)
class ForestState:
    """One forest game: where it started, what was played since, and where it stands now.

    ``start`` is the starting position in notation: the whole deal for a game from ``new``, the public
    start (every tile ``?``) for one replayed from a view record. ``actions`` are written as a record
    writes them (every reveal with the tile it turned up). ``position`` is never changed once the
    state is made.
    """

    start: str
    rules: Rules
    actions: tuple[str, ...]
    position: Position


def _rules(options: Mapping[str, str]) -> Rules:
    return DEFAULT_RULES.with_options(dict(options))


def _players(players: int) -> None:
    if players != 2:
        raise HalaliError(f"the forest game is for 2 players, not {players}")


def _state(state: Any) -> ForestState:
    if not isinstance(state, ForestState):
        raise TypeError(f"not a forest game state: {type(state).__name__}")
    return state


class ForestGame:
    """The forest game (halali.games.forest): two players, face-down tiles, reveals as chance events."""

    info = INFO
    id = INFO.id
    min_players = INFO.min_players
    max_players = INFO.max_players

    # ---- the game and its options ----------------------------------------------------------
    def check_options(self, options: Mapping[str, str]) -> dict[str, str]:
        return parse_options(_rules(options).to_strings())

    def match_games(self, options: Mapping[str, str]) -> int:
        return 1 if _rules(options).match == "single" else 2

    def max_length(self, options: Mapping[str, str], players: int) -> int | None:
        """Every reveal, capture and exit resets the stall count, at most ``stall_limit`` other actions
        come between two of them while tiles are face down, and the last reveal leaves 10 turns."""
        limit = _rules(options).stall_limit
        _players(players)
        return None if limit == 0 else 2 * NTILES * (limit + 1) + FINAL_TURNS

    # ---- a game ----------------------------------------------------------------------------
    def new(self, options: Mapping[str, str], players: int, rng: random.Random) -> ForestState:
        _players(players)
        rules = _rules(options)
        pos = Position.deal(rules, rng)
        return ForestState(pos.fen(), rules, (), pos)

    def legal_actions(self, state: Any) -> list[str]:
        pos = _state(state).position
        return sorted(action_str(a) for a in pos.legal_actions())

    def apply(self, state: Any, action: str) -> ForestState:
        st = _state(state)
        pos = st.position.copy()
        a = pos.play(action)
        recorded = action_str(with_outcome(st.position, a))
        return ForestState(st.start, st.rules, (*st.actions, recorded), pos)

    def to_move(self, state: Any) -> int | None:
        pos = _state(state).position
        return None if pos.is_over() else pos.turn

    def is_over(self, state: Any) -> bool:
        return _state(state).position.is_over()

    def view(self, state: Any, player: int | None) -> str:
        """Every face-down tile as ``?``; players and spectators see the same."""
        return _state(state).position.view(player).fen()

    def result(self, state: Any) -> list[float]:
        w = _state(state).position.winner()
        return [0.5, 0.5] if w is None else [1.0 if p == w else 0.0 for p in (0, 1)]

    def placings(self, state: Any) -> list[float]:
        w = _state(state).position.winner()
        return [1.5, 1.5] if w is None else [1.0 if p == w else 2.0 for p in (0, 1)]

    def chance_outcomes(self, state: Any, action: str) -> list[tuple[str, float]]:
        """A reveal of a face-down tile: every tile it may turn up, as a player who does not know the
        deal sees it; [] for any other action."""
        pos = _state(state).position
        a = parse_action_text(action)
        if a >> TYPE_SHIFT & 7 != REVEAL or (a & 63) not in pos.hidden:
            return []
        return sorted((action_str(o), p) for o, p in pos.view().reveal_outcomes(a & 63))

    # ---- records ---------------------------------------------------------------------------
    def record(self, state: Any) -> str:
        """The record (docs/record.md) with the deal: everything a replay needs."""
        st = _state(state)
        key = "Deal" if parse_position(st.start, st.rules).knows_deal() else "Position"
        return self._record(st, {key: st.start})

    def view_record(self, state: Any, player: int | None) -> str:
        """The record without the deal: the public start and the actions, every one public."""
        st = _state(state)
        return self._record(st, {"Position": parse_position(st.start, st.rules).view(player).fen()})

    def _record(self, st: ForestState, start: dict[str, str]) -> str:
        headers = {"Game": "forest", "Rules": " ".join(st.rules.to_strings()), **start}
        pos = st.position
        if pos.is_over():
            w = pos.winner()
            headers["Score"] = f"{pos.score[0]}-{pos.score[1]}"
            headers["Result"] = "draw" if w is None else PLAYER_NAMES[w]
        return Record(headers, list(st.actions)).format()

    def replay(self, record: str) -> ForestState:
        """The state at the end of a record, every action checked again."""
        rec = parse_record(record)
        rules = rec.rules
        start = rec.start()
        pos = start.copy()
        recorded: list[str] = []
        for i, text in enumerate(rec.actions, 1):
            try:
                a = parse_action(pos, text)
            except IllegalAction as exc:
                raise IllegalAction(f"action {i} of the record ({text}): {exc}", exc.key, exc.params) from exc
            except NotationError as exc:
                raise NotationError(f"action {i} of the record ({text}): {exc}") from exc
            recorded.append(action_str(with_outcome(pos, a)))
            pos.push(a)
        return ForestState(start.fen(), rules, tuple(recorded), pos)


__all__ = ["INFO", "ForestGame", "ForestState"]
