"""Luck and skill in a finished forest game: GNU Backgammon's method, applied to reveals.

The luck of a reveal is the value of the position after it minus the expected value over every tile
the square could have held, weighted as the revealing player could know them (the public view's
``reveal_outcomes``); both sides of that difference are searched at the same fixed depth, from the
revealer's point of view, so the luck of a reveal sums to zero in expectation by construction. The
skill side is each decision's expected point loss against the best action at that depth (choosing
which square to reveal is a decision too). Everything here is searched on public views at a fixed
depth without a transposition table kept between searches, so the result is deterministic.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from halali.ai.bits.flags import TT
from halali.ai.levels import STYLES
from halali.ai.style import Style
from halali.games.forest.actions import OUTCOME_SHIFT, REVEAL, TYPE_SHIFT, Action
from halali.games.forest.match import colour_of
from halali.games.forest.position import Position
from halali.games.forest.tiles import PLAYER_NAMES

if TYPE_CHECKING:
    from halali.ai.search_bots import SearchBot

DEFAULT_DEPTH = 1  # depth 2 takes about two minutes for a whole game
_BASE = (1 << OUTCOME_SHIFT) - 1
# A decision's mark by its expected point loss against the best action, in the points of the tiles:
# a duck or a tree is worth 2 (an inaccuracy gives away about one), a fox, a hunter or a lumberjack
# 5 (a mistake), the bear 10 (a blunder). Pages translate them as "mark.inaccuracy" and so on.
INACCURACY, MISTAKE, BLUNDER = 2.0, 5.0, 10.0
# The strongest level without a table kept from one search to the next: each search stands alone.
_STYLE: Style = replace(STYLES[max(STYLES)], flags=STYLES[max(STYLES)].flags & ~TT)


@dataclass
class RevealLuck:
    ply: int  # index of the action in the game, from 0
    player: int  # the revealer (BLUE or BROWN)
    action: str  # the reveal with its outcome, e.g. "?c3=N"
    value: float  # value after the reveal, for the revealer
    expected: float  # expected value over the possible outcomes, for the revealer
    outcomes: int  # how many outcomes were possible

    @property
    def luck(self) -> float:
        return self.value - self.expected


@dataclass
class Decision:
    ply: int
    player: int
    action: str  # as played (a reveal without its outcome)
    best: str
    loss: float  # expected points lost against the best action, >= 0


def mark(loss: float) -> str | None:
    """``"inaccuracy"`` (loss >= INACCURACY points), ``"mistake"`` (>= MISTAKE), ``"blunder"``
    (>= BLUNDER), or None for a decision that loses less."""
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return None


@dataclass
class GameLuck:
    reveals: list[RevealLuck]
    decisions: list[Decision]
    score: tuple[int, int]  # final scores (blue, brown)
    depth: int

    def luck(self, player: int) -> float:
        return sum(r.luck for r in self.reveals if r.player == player)

    def skill_loss(self, player: int) -> float:
        return sum(d.loss for d in self.decisions if d.player == player)

    def score_difference(self, player: int) -> int:
        return self.score[player] - self.score[1 - player]

    def adjusted(self, player: int) -> float:
        """The score difference for ``player`` with both sides' luck taken out."""
        return self.score_difference(player) - (self.luck(player) - self.luck(1 - player))

    def luckiest(self) -> RevealLuck | None:
        return max(self.reveals, key=lambda r: r.luck, default=None)

    def unluckiest(self) -> RevealLuck | None:
        return min(self.reveals, key=lambda r: r.luck, default=None)

    def summary(self) -> Summary:
        return verdict([self.luck(p) for p in (0, 1)], [self.skill_loss(p) for p in (0, 1)],
                        list(PLAYER_NAMES))


@dataclass
class Summary:
    """The verdict as numbers: ``keys`` are (message key, params) for pages to translate; ``text``
    is the English line for the command line. Players are indices into ``names``."""

    luck: list[float]  # per side
    skill_loss: list[float]
    keys: list[tuple[str, dict[str, int]]] = field(default_factory=list)
    text: str = ""


def verdict(luck: list[float], loss: list[float], names: list[str]) -> Summary:
    """Who was luckier and who played better, by how many whole points (per side: its luck and its
    skill loss); a difference that rounds to 0 is called even."""
    keys: list[tuple[str, dict[str, int]]] = []
    parts: list[str] = []
    d = round(abs(luck[0] - luck[1]))
    if d == 0:
        keys.append(("luck.even", {}))
        parts.append("both sides were about equally lucky")
    else:
        p = 0 if luck[0] > luck[1] else 1
        keys.append(("luck.luckier", {"player": p, "points": d}))
        parts.append(f"{names[p]} was luckier by about {d} point{'s' if d != 1 else ''}")
    s = round(abs(loss[0] - loss[1]))
    if s == 0:
        keys.append(("skill.even", {}))
        parts.append("both played about equally well")
    else:
        p = 0 if loss[0] < loss[1] else 1
        keys.append(("skill.better", {"player": p, "points": s}))
        parts.append(f"{names[p]} played better by about {s} point{'s' if s != 1 else ''}")
    return Summary(luck, loss, keys, "; ".join(parts))


def record_notes(g: GameLuck) -> tuple[dict[str, str], dict[int, str]]:
    """What a record export adds: headers with each side's luck and skill loss, and a comment after
    every reveal (its luck) and every marked decision (the mark, the loss, the better action)."""
    headers = {"LuckDepth": str(g.depth)}
    for p, name in enumerate(("Blue", "Brown")):
        headers[f"{name}Luck"] = f"{g.luck(p):+.2f}"
        headers[f"{name}SkillLoss"] = f"{g.skill_loss(p):.2f}"
    headers["LuckSummary"] = g.summary().text
    notes: dict[int, list[str]] = {}
    for d in g.decisions:
        m = mark(d.loss)
        if m is not None:
            notes.setdefault(d.ply, []).append(f"{m} -{d.loss:.2f}, better {d.best}")
    for r in g.reveals:
        notes.setdefault(r.ply, []).append(f"luck {r.luck:+.2f}")
    return headers, {ply: "; ".join(parts) for ply, parts in sorted(notes.items())}


def _searcher() -> SearchBot:
    """The luck's searcher; the search is imported when a game's luck is first measured (not by the
    server, which only reads the verdicts)."""
    from halali.ai.search_bots import SearchBot

    return SearchBot(_STYLE, 0)


def _search(view: Position, depth: int) -> list[tuple[Action, float]]:
    """Every root action's value for the player to move, best first (fresh bot: deterministic)."""
    t = _searcher().think(view, None, depth=depth, exact=True)
    return t.values or [(t.action, t.score)]


def position_value(view: Position, player: int, depth: int = DEFAULT_DEPTH) -> float:
    """The expected final score difference for ``player`` in ``view``, searched at ``depth`` (alpha-beta
    at the root: only the best value is wanted, and it is the exact one)."""
    if view.is_over():
        return float(view.score[player] - view.score[1 - player])
    v = _searcher().think(view, None, depth=depth, exact=len(view.legal_actions()) == 1).score
    return v if view.turn == player else -v


def reveal_luck(view: Position, square: int, depth: int = DEFAULT_DEPTH) -> dict[Action, tuple[float, float]]:
    """For each outcome of revealing ``square`` in ``view``: (probability, luck for the revealer)."""
    view = view.view()
    player = view.turn
    values: dict[Action, tuple[float, float]] = {}
    for a, p in view.reveal_outcomes(square):
        view.push(a)
        values[a] = (p, position_value(view, player, depth))
        view.pop()
    expected = sum(p * v for p, v in values.values())
    return {a: (p, v - expected) for a, (p, v) in values.items()}


def luck_of_game(start: Position, actions: Sequence[Action | str], depth: int = DEFAULT_DEPTH) -> GameLuck:
    """Luck and skill of a game played from ``start`` (the deal, or any position the actions replay
    on: a reveal of a tile the position does not know must carry its outcome, as in a record)."""
    pos = start.copy()
    reveals: list[RevealLuck] = []
    decisions: list[Decision] = []
    for ply, text in enumerate(actions):
        if pos.is_over():
            raise ValueError(f"action {ply + 1}: the game is already over")
        view = pos.view()
        a = pos.play(text) if isinstance(text, str) else pos.play(pos.check(text))
        player = view.turn
        base = a & _BASE
        legal = view.legal_actions()
        if len(legal) > 1:
            values = _search(view, depth)
            played = next((v for b, v in values if b == base), values[0][1])
            decisions.append(Decision(ply, player, view.action_str(base), view.action_str(values[0][0]),
                                      max(0.0, values[0][1] - played)))
        if base >> TYPE_SHIFT & 7 == REVEAL:
            square = base & 63
            tile = pos.board[square]
            outcome = base | tile << OUTCOME_SHIFT
            outcomes = view.reveal_outcomes(square)
            if len(outcomes) == 1:
                value = expected = position_value(_after(view, outcome), player, depth)
            else:
                vals = {o: (p, position_value(_after(view, o), player, depth)) for o, p in outcomes}
                expected = sum(p * v for p, v in vals.values())
                value = vals[outcome][1]
            reveals.append(RevealLuck(ply, player, view.action_str(outcome), value, expected, len(outcomes)))
    return GameLuck(reveals, decisions, (pos.score[0], pos.score[1]), depth)


def _after(view: Position, a: Action) -> Position:
    after = view.copy()
    after.push(a)
    return after


@dataclass
class MatchLuck:
    games: list[GameLuck]
    names: list[str]  # per seat

    def _colours(self, seat: int) -> list[int]:
        return [colour_of(seat, i) for i in range(len(self.games))]

    def luck(self, seat: int) -> float:
        return sum(g.luck(c) for g, c in zip(self.games, self._colours(seat), strict=True))

    def skill_loss(self, seat: int) -> float:
        return sum(g.skill_loss(c) for g, c in zip(self.games, self._colours(seat), strict=True))

    def score_difference(self, seat: int) -> int:
        return sum(g.score_difference(c) for g, c in zip(self.games, self._colours(seat), strict=True))

    def adjusted(self, seat: int) -> float:
        return self.score_difference(seat) - (self.luck(seat) - self.luck(1 - seat))

    def summary(self) -> Summary:
        return verdict([self.luck(s) for s in (0, 1)], [self.skill_loss(s) for s in (0, 1)], self.names)


def luck_of_match(games: list[GameLuck], names: tuple[str, str] = ("seat 1", "seat 2")) -> MatchLuck:
    """Both games of a match by seat (seat 0 plays brown in game 1 and blue in game 2)."""
    if not 1 <= len(games) <= 2:
        raise ValueError("a match has one or two games")
    return MatchLuck(list(games), list(names))
