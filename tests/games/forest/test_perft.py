"""Perft: the engine's action generation against a deliberately simple reference written from the rule book.

The reference below shares nothing with the engine: it reads the notation itself, keeps the board as
a dict of letters, and spells every rule of docs/rules.md out in plain loops. It is slow, so the
depths stay small; the engine and the reference must agree on every count and every action list.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import pytest

from halali.games.forest import DEFAULT_RULES, Position, Rules, parse_position, perft

# ---- the reference, straight from docs/rules.md -----------------------------------------------
FILES = "abcdefg"
SIDE = {"B": "blue", "F": "blue", "L": "brown", "N": "brown", "E": "brown", "S": "brown", "W": "brown",
        "D": "green", "P": "green", "T": "green"}
VALUE = {"B": 10, "F": 5, "L": 5, "N": 5, "E": 5, "S": 5, "W": 5, "D": 2, "P": 3, "T": 2}
ONE_STEP = {"B", "L"}  # bears and lumberjacks move one square
PREY = {"B": "NESWL", "F": "DP", "L": "T", "N": "BFDP", "E": "BFDP", "S": "BFDP", "W": "BFDP"}
HUNTERS = "NESW"  # a hunter's letter is its rifle direction
STEP = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
NEXT_TO_EXIT = {"N": (3, 6), "E": (6, 3), "S": (3, 0), "W": (0, 3)}  # d7, g4, d1, a4
OTHER = {"blue": "brown", "brown": "blue"}

Square = tuple[int, int]


def name(s: Square) -> str:
    return FILES[s[0]] + str(s[1] + 1)


def square(text: str) -> Square:
    return FILES.index(text[0]), int(text[1]) - 1


@dataclass
class Ref:
    board: dict[Square, str]
    turn: str
    last: dict[str, tuple[Square, Square] | None]
    lock: Square | None
    final: int | None
    stall: int
    piles: dict[str, list[str]] = field(default_factory=dict)
    rules: Rules = DEFAULT_RULES

    @classmethod
    def parse(cls, text: str, rules: Rules = DEFAULT_RULES) -> Ref:
        board_t, turn, blue_last, brown_last, lock, final, stall, blue_pile, brown_pile = text.split()
        board: dict[Square, str] = {}
        for i, rank_text in enumerate(board_t.split("/")):
            f = 0
            for ch in rank_text:
                if ch.isdigit():
                    f += int(ch)
                else:
                    board[(f, 6 - i)] = ch
                    f += 1

        def last(t: str) -> tuple[Square, Square] | None:
            return None if t == "-" else (square(t[:2]), square(t[2:]))

        return cls(board, turn, {"blue": last(blue_last), "brown": last(brown_last)},
                   None if lock == "-" else square(lock), None if final == "-" else int(final), int(stall),
                   {"blue": [] if blue_pile == "-" else list(blue_pile.replace("+", "")),
                    "brown": [] if brown_pile == "-" else list(brown_pile.replace("+", ""))}, rules)

    def copy(self) -> Ref:
        return replace(self, board=dict(self.board), last=dict(self.last),
                       piles={k: list(v) for k, v in self.piles.items()})

    def face_down(self) -> list[Square]:
        return [s for s, t in self.board.items() if t.islower()]

    def over(self) -> bool:
        if self.final == 0:
            return True
        if self.face_down():
            return False
        sides = {SIDE[t] for t in self.board.values()}
        return "blue" not in sides or "brown" not in sides

    def actions(self) -> list[str]:
        if self.over():
            return []
        out = ["?" + name(s) for s in self.face_down()]
        limit = self.rules.stall_limit
        if out and limit and self.stall >= limit:
            return sorted(out)
        me = self.turn
        for s, t in self.board.items():
            if t.islower() or t == "T" or s == self.lock:
                continue
            if SIDE[t] != me and t not in "DP":
                continue
            for d, (dx, dy) in STEP.items():
                x, y = s
                steps = 0
                while True:
                    x, y, steps = x + dx, y + dy, steps + 1
                    if not (0 <= x < 7 and 0 <= y < 7) or (t in ONE_STEP and steps > 1):
                        break
                    other = self.board.get((x, y))
                    if other is None:
                        out.append(f"{name(s)}-{name((x, y))}")
                        continue
                    hunter_ok = t not in HUNTERS or t == d
                    if other.isupper() and other in PREY.get(t, "") and hunter_ok:
                        out.append(f"{name(s)}x{name((x, y))}")
                    break
            if self.final is not None and self.final > 0 and SIDE[t] == me:
                for d, (dx, dy) in STEP.items():
                    path = []
                    x, y = s[0] + dx, s[1] + dy
                    while 0 <= x < 7 and 0 <= y < 7:
                        path.append((x, y))
                        x, y = x + dx, y + dy
                    gate = NEXT_TO_EXIT[d]
                    if s != gate and gate not in path:
                        continue
                    if t in ONE_STEP and s != gate:
                        continue
                    if all(p not in self.board for p in path):
                        out.append(f"{name(s)}-{d}")
        came = self.last[me]
        if came is not None:
            frm, to = came
            out = [a for a in out if a not in (f"{name(to)}-{name(frm)}", f"{name(to)}x{name(frm)}")]
        return sorted(out) or ["pass"]

    def play(self, a: str) -> Ref:
        new = self.copy()
        me = self.turn
        if a.startswith("?"):
            s = square(a[1:3])
            tile = new.board[s].upper()
            new.board[s] = tile
            new.last[me] = None
            new.lock = s if tile in "DP" else None
            new.stall = 0
            if not new.face_down():
                new.final = 10
        else:
            if a == "pass":
                new.last[me] = None
                new.lock = None
                new.stall += 1
            elif a[-1] in STEP:
                s = square(a[:2])
                tile = new.board.pop(s)
                new.piles[me].append(tile)
                new.last[me] = None
                new.lock = None
                new.stall = 0
            else:
                s, t = square(a[:2]), square(a[3:5])
                tile = new.board.pop(s)
                if a[2] == "x":
                    new.piles[me].append(new.board[t])
                    new.stall = 0
                else:
                    new.stall += 1
                new.board[t] = tile
                neutral = tile in "DP"
                if SIDE[tile] == me or (neutral and self.rules.no_return_neutrals):
                    new.last[me] = (s, t)
                else:
                    new.last[me] = None
                moved_lock = neutral and self.rules.green_lock == "revealed_or_moved"
                new.lock = t if moved_lock else None
            if new.final is not None:
                new.final -= 1
        new.turn = OTHER[me]
        return new

    def score(self, who: str) -> int:
        return sum(VALUE[t if t != "H" else "N"] for t in self.piles[who])


def ref_perft(state: Ref, depth: int) -> int:
    if depth == 0:
        return 1
    acts = state.actions()
    if depth == 1:
        return len(acts)
    return sum(ref_perft(state.play(a), depth - 1) for a in acts)


# ---- positions --------------------------------------------------------------------------------
LOCK_RULES = DEFAULT_RULES.with_options(["no_return_neutrals=true"])
LOCK_ONLY_RULES = DEFAULT_RULES.with_options(["green_lock=revealed_only", "no_return_neutrals=true",
                                              "stall_limit=5"])


def _after_random_play(seed: int, rules: Rules, until: Callable[[Position], bool]) -> Position:
    """The first position of a seeded random game that satisfies ``until``."""
    for attempt in range(200):
        rng = random.Random(seed * 1000 + attempt)
        pos = Position.deal(rules, rng=rng)
        while not pos.is_over():
            if until(pos):
                return pos.copy()
            pos.push(rng.choice(pos.legal_actions()))
    raise AssertionError("no random game reached the wanted situation")


def _mid_game() -> Position:
    return _after_random_play(1, DEFAULT_RULES, lambda p: len(p.hidden) <= 24 and len(p.legal_actions()) > 30)


def _final_with_exits() -> Position:
    return _after_random_play(
        2, DEFAULT_RULES,
        lambda p: p.final >= 6 and sum(p.action_str(a)[-1] in "NESW" for a in p.legal_actions()) >= 2,
    )


def _lock_and_no_return(seed: int, rules: Rules) -> Position:
    return _after_random_play(seed, rules, lambda p: p.lock >= 0 and p.last_move[p.turn] >= 0 and len(p.hidden) < 30)


CASES = [
    ("fresh deal", lambda: Position.deal(seed=2024), 3),
    ("another deal, revealed_only", lambda: Position.deal(LOCK_ONLY_RULES, seed=7), 3),
    ("mid-game", _mid_game, 4),
    ("final phase with exits", _final_with_exits, 4),
    ("last final turns", lambda: _after_random_play(4, DEFAULT_RULES, lambda p: 0 < p.final <= 2), 3),
    ("stall rule about to bite", lambda: _after_random_play(
        5, LOCK_ONLY_RULES, lambda p: p.stall >= 4 and bool(p.hidden)), 4),
    ("green lock and no return", lambda: _lock_and_no_return(3, LOCK_RULES), 4),
    ("lock, no return, revealed_only", lambda: _lock_and_no_return(6, LOCK_ONLY_RULES), 4),
]


@pytest.mark.parametrize(("label", "make", "depth"), CASES, ids=[c[0] for c in CASES])
def test_engine_perft_equals_reference_perft(label: str, make: Callable[[], Position], depth: int) -> None:
    pos = make()
    ref = Ref.parse(pos.fen(), pos.rules)
    for d in range(1, depth + 1):
        assert perft(pos, d) == ref_perft(ref, d), (label, pos.fen(), d)
    # Divide at the root: each first action's subtree separately, so a mismatch names its action.
    engine = {pos.action_str(a): a for a in pos.legal_actions()}
    assert sorted(engine) == ref.actions()


def test_the_sampled_positions_show_what_they_claim() -> None:
    final = _final_with_exits()
    assert final.final > 0 and any(final.action_str(a)[-1] in "NESW" for a in final.legal_actions())
    locked = _lock_and_no_return(3, LOCK_RULES)
    assert locked.lock >= 0 and locked.last_move[locked.turn] >= 0


@pytest.mark.parametrize("rules", [DEFAULT_RULES, LOCK_RULES, LOCK_ONLY_RULES,
                                   DEFAULT_RULES.with_options(["stall_limit=0"])],
                         ids=["default", "no_return_neutrals", "revealed_only+stall5", "no stall rule"])
def test_engine_and_reference_agree_on_every_position_of_random_games(rules: Rules) -> None:
    for game in range(8):
        rng = random.Random(500 + game)
        pos = Position.deal(rules, rng=rng)
        ref = Ref.parse(pos.fen(), rules)
        while True:
            acts = sorted(pos.action_str(a) for a in pos.legal_actions())
            assert acts == ref.actions(), pos.fen()
            if not acts:
                break
            a = rng.choice(acts)
            pos.play(a)
            ref = ref.play(a)
            assert pos.result() == (ref.score("blue"), ref.score("brown"))


# ---- absolute values counted by hand ------------------------------------------------------------
def test_hand_counted_bear_and_one_face_down_tree() -> None:
    # Blue: ?a1 or the bear's 4 steps (5). After a step brown can only reveal (4 x 1). After that
    # reveal, or after blue's own reveal, no tile is face down and brown has none: the game is over.
    pos = parse_position("7/7/7/3B3/7/7/t6 blue - - - - 0 - -")
    assert [perft(pos, d) for d in range(5)] == [1, 5, 4, 0, 0]


def test_hand_counted_hunter_in_the_final_phase() -> None:
    # Brown's hunter on d4: 3 squares in each of 4 directions (12) and all 4 exits (16). An exit
    # ends the game (brown has no tile left): 0. After a move blue's bear on b1 has 3 steps: 12 x 3.
    pos = parse_position("7/7/7/3N3/7/7/1B5 brown - - - 4 0 - -")
    assert perft(pos, 1) == 16
    assert perft(pos, 2) == 36


def test_hand_counted_green_lock() -> None:
    # Brown has no own tile: with the duck on c4 locked only ?a1 is left; unlocked, 12 duck moves too.
    assert perft(parse_position("7/7/7/2D4/7/7/t6 brown - - c4 - 0 - -"), 1) == 1
    assert perft(parse_position("7/7/7/2D4/7/7/t6 brown - - - - 0 - -"), 1) == 13


def test_hand_counted_fresh_deal_first_action() -> None:
    # 48 face-down tiles, nothing face up: 48 reveals; perft(0) is 1 by definition.
    pos = Position.deal(seed=1)
    assert perft(pos, 0) == 1
    assert perft(pos, 1) == 48
