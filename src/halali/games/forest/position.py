"""The forest game's state: legal actions, push/pop, end, scores, the per-player view.

A :class:`Position` is mutable (``push``/``pop``, like python-chess's ``Board``) because search and
perft walk millions of positions; :func:`apply` in the game interface wraps it into the pure
"state plus action gives a new state" form that the server uses.

The bookkeeping (which squares are face down, which are face up, how many own-colour tiles each
player still has on the board, the piles and scores) is kept up to date by ``push`` and ``pop`` so
that neither move generation nor the end test ever scans the whole board.

The rules themselves are in sibling modules, which ``Position``'s methods call: action generation in
``movegen.py``, what an action changes in ``pushpop.py``, the reveal probabilities in ``chance.py``,
why an action is illegal in ``explain.py``, the notation in ``text.py``. None of them imports this
one: they see a position as the :class:`PositionFields` it is built on (``fields.py``, where its
fields are declared), and only its stack of undo records is kept here. (Its picture in Jupyter,
``_repr_svg_``, is given to it by ``halali.svg``: the rules do not import the pictures.)
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from halali.games.forest import chance, explain, movegen, pushpop, text
from halali.games.forest.actions import (
    Action,
    action_str,
)
from halali.games.forest.fields import PositionFields
from halali.games.forest.rules import DEFAULT_RULES, Rules
from halali.games.forest.tiles import (
    BLUE,
    BROWN,
    CENTRE,
    HIDDEN,
    HUNTERS,
    KIND_COUNT,
    UNKNOWN,
)


class Position(PositionFields):
    """One moment of a forest game, with everything the rules need to continue it."""

    __slots__ = ("_stack",)

    _stack: list[pushpop.Undo]

    def __init__(self, rules: Rules = DEFAULT_RULES) -> None:
        self.board = [0] * 49
        self.turn = BLUE
        self.last_move = [-1, -1]  # per player: source << 6 | target of his last own move
        self.lock = -1  # the square of the duck or pheasant the player to move may not move
        self.final = -1  # final turns left, -1 before the last reveal
        self.stall = 0
        self.captured = [[0] * 7, [0] * 7]  # per player, per kind
        self.exited = [[0] * 7, [0] * 7]
        self.score = [0, 0]
        self.ntiles = [0, 0]
        self.hidden = set()
        self.up = set()
        self.own = [0, 0]
        self.rules = rules
        self.last_action = None
        self._stack = []

    # ---- construction -------------------------------------------------------------------
    @classmethod
    def deal(cls, rules: Rules = DEFAULT_RULES, rng: random.Random | None = None,
             seed: int | None = None) -> Position:
        """A fresh deal: every tile face down on every square but d4, rifles drawn uniformly.

        Without ``rng`` or ``seed`` the shuffle uses the operating system's secure source.
        """
        if rng is None:
            rng = random.Random(seed) if seed is not None else random.SystemRandom()
        tiles: list[int] = []
        for kind, count in enumerate(KIND_COUNT):
            code = (1, 2, 3, 4, 8, 9, 10)[kind]
            for _ in range(count):
                tiles.append(HUNTERS[rng.randrange(4)] if code == 4 else code)
        rng.shuffle(tiles)
        pos = cls(rules)
        squares = [s for s in range(49) if s != CENTRE]
        for sq, code in zip(squares, tiles, strict=True):
            pos.board[sq] = code + HIDDEN
        pos.hidden = set(squares)
        return pos

    @classmethod
    def from_fen(cls, fen: str, rules: Rules = DEFAULT_RULES) -> Position:
        return text.read_position(fen, rules, cls)

    def _recount(self) -> None:
        """Derive the bookkeeping from board and piles (after parsing or editing)."""
        pushpop.recount(self)

    def copy(self, stack: bool = False) -> Position:
        new = Position.__new__(Position)
        new.board = self.board[:]
        new.turn = self.turn
        new.last_move = self.last_move[:]
        new.lock = self.lock
        new.final = self.final
        new.stall = self.stall
        new.captured = [self.captured[0][:], self.captured[1][:]]
        new.exited = [self.exited[0][:], self.exited[1][:]]
        new.score = self.score[:]
        new.ntiles = self.ntiles[:]
        new.hidden = set(self.hidden)
        new.up = set(self.up)
        new.own = self.own[:]
        new.rules = self.rules
        new.last_action = self.last_action
        new._stack = self._stack[:] if stack else []
        return new

    # ---- the rules ----------------------------------------------------------------------
    def is_over(self) -> bool:
        return movegen.is_over(self)

    def legal_actions(self) -> list[Action]:
        """Every legal action, reveals without outcome (a chance node when the tile is unknown)."""
        return movegen.legal_actions(self)

    def push(self, a: Action) -> None:
        """Play an action already known to be legal (from ``legal_actions`` or ``parse_action``).

        It does not check legality; ``play`` does.
        """
        self._stack.append(pushpop.push(self, a))

    def pop(self) -> Action:
        """Take back the last pushed action and return it."""
        return pushpop.pop(self, self._stack.pop())

    def play(self, action: Action | str) -> Action:
        """Check an action (an int or notation) against the rules and push it.

        Raises :class:`IllegalAction` naming the broken rule; the position is then unchanged.
        """
        a = text.parse_action(self, action) if isinstance(action, str) else self.check(action)
        self.push(a)
        return a

    def check(self, a: Action) -> Action:
        """Return ``a`` if legal here (a reveal of an unknown tile must carry a possible outcome)."""
        return explain.check(self, a)

    # ---- results ------------------------------------------------------------------------
    def result(self) -> tuple[int, int]:
        """The scores (blue, brown) as they stand."""
        return self.score[0], self.score[1]

    def winner(self) -> int | None:
        """BLUE or BROWN by score, then by number of tiles in the pile; None for a draw."""
        s0, s1 = self.score
        if s0 != s1:
            return BLUE if s0 > s1 else BROWN
        if self.ntiles[0] != self.ntiles[1]:
            return BLUE if self.ntiles[0] > self.ntiles[1] else BROWN
        return None

    # ---- chance (chance.py) and secrets -------------------------------------------------
    def remaining_kinds(self) -> list[int]:
        """How many tiles of each kind are not yet accounted for by anything visible or known."""
        return chance.remaining_kinds(self)

    def hidden_distribution(self) -> dict[int, float]:
        """What an unknown face-down tile is: tile code (hunters by rifle) -> probability."""
        return chance.hidden_distribution(self)

    def reveal_outcomes(self, square: int) -> list[tuple[Action, float]]:
        """The chance outcomes of revealing ``square``: (reveal action with outcome, probability)."""
        return chance.reveal_outcomes(self, square)

    def view(self, player: int | None = None) -> Position:
        """What a player (or a spectator, ``None``) may see: every face-down tile becomes unknown.

        This is the one place where the forest game's secrets are removed; in this game players and
        spectators see the same, so ``player`` only keeps the interface shared with the hare hunt.
        """
        new = self.copy()
        b = new.board
        for sq in new.hidden:
            b[sq] = UNKNOWN
        return new

    def knows_deal(self) -> bool:
        return all(self.board[s] != UNKNOWN for s in self.hidden)

    # ---- text ---------------------------------------------------------------------------
    def fen(self) -> str:
        return text.format_position(self)

    def public_fen(self) -> str:
        return self.view().fen()

    def action_str(self, a: Action) -> str:
        return action_str(a)

    def parse_action(self, action: str) -> Action:
        return text.parse_action(self, action)

    def history(self) -> Iterator[Action]:
        return (u[0] for u in self._stack)

    def __str__(self) -> str:
        return self.fen()

    def __repr__(self) -> str:
        return f"Position({self.fen()!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self.fen() == other.fen() and self.rules == other.rules

    def __hash__(self) -> int:
        return hash(self.fen())

