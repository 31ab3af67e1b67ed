"""A puzzle as it is stored, exported and imported: one JSON object per line (docs/puzzles.md)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from halali.games.errors import NotationError
from halali.games.forest.notation import parse_position
from halali.games.forest.rules import DEFAULT_RULES, Rules
from halali.puzzles.themes import THEMES

FORMAT = 1


@dataclass(frozen=True)
class Puzzle:
    """A position as its player saw it, and the line that solves it."""

    position: str  # forest notation, face-down tiles as '?': the player to move is the one who solves it
    solution: tuple[str, ...]  # the player's actions at even indices, the opponent's best replies between
    value: float  # the first action's value for the player, in points (the final score difference, if proven)
    margin: float  # how much better the first action is than every other, in points
    proven: bool  # solved to the end of the game: value and margin are exact
    themes: tuple[str, ...]
    depth: int  # the search depth the verdict stands on (if proven, the final turns left)
    rating: int  # the first estimate of how hard it is, before anyone tried it
    rules: tuple[str, ...] = ()  # rule options other than the defaults, KEY=VALUE
    source: dict[str, Any] = field(default_factory=dict)  # where it comes from: self-play or a site game

    @property
    def to_move(self) -> str:
        return self.position.split()[1]

    @property
    def moves(self) -> int:
        """How many actions the player has to find."""
        return (len(self.solution) + 1) // 2

    def game_rules(self) -> Rules:
        return DEFAULT_RULES.with_options(list(self.rules))

    def to_json(self) -> str:
        data = asdict(self)
        data["format"] = FORMAT
        data["solution"] = list(self.solution)
        data["themes"] = list(self.themes)
        data["rules"] = list(self.rules)
        return json.dumps(data, sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, line: str) -> Puzzle:
        """A line of an export; NotationError says what is wrong with a bad one."""
        try:
            data = json.loads(line)
        except ValueError as exc:
            raise NotationError(f"not a JSON object: {exc}") from None
        if not isinstance(data, dict):
            raise NotationError("not a JSON object")
        try:
            puzzle = cls(str(data["position"]), tuple(str(a) for a in data["solution"]), float(data["value"]),
                         float(data["margin"]), bool(data["proven"]), tuple(str(t) for t in data["themes"]),
                         int(data["depth"]), int(data["rating"]), tuple(str(r) for r in data.get("rules", [])),
                         dict(data.get("source") or {}))
        except (KeyError, TypeError, ValueError) as exc:
            raise NotationError(f"a puzzle needs position, solution, value, margin, proven, themes, depth and "
                                f"rating ({exc})") from None
        puzzle.check()
        return puzzle

    def check(self) -> None:
        """The position parses, the solution is legal from it, the themes are known ones."""
        pos = parse_position(self.position, self.game_rules())
        if pos.fen() != pos.view().fen():
            raise NotationError(f"{self.position}: a puzzle shows what its player saw, with face-down tiles as '?'")
        if not self.solution:
            raise NotationError("a puzzle needs a solution")
        for i, action in enumerate(self.solution):
            if i and action.startswith("?"):
                raise NotationError(f"{action}: only the first action of a solution may be a reveal")
            if i == 0 and action.startswith("?"):
                if len(self.solution) > 1:
                    raise NotationError(f"{action}: a reveal's outcome is chance, so it ends a solution")
                if action not in {pos.action_str(a) for a in pos.legal_actions()}:
                    raise NotationError(f"{action}: not a legal action in {self.position}")
                break
            pos.play(action)
        unknown = [t for t in self.themes if t not in THEMES]
        if unknown:
            raise NotationError(f"unknown theme {unknown[0]} (themes: {', '.join(THEMES)})")


def as_dict(puzzle: Puzzle) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(puzzle.to_json())
    return data
