"""Properties of the forest engine along random games (hypothesis draws the deals and the rules).

Each example plays whole seeded random games, so the example counts stay modest.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from halali.games.errors import IllegalAction
from halali.games.forest import Position, Rules, parse_position
from halali.games.forest import actions as A

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
RULES = st.builds(
    Rules,
    green_lock=st.sampled_from(["revealed_or_moved", "revealed_only"]),
    no_return_neutrals=st.booleans(),
    stall_limit=st.sampled_from([0, 1, 4, 30]),
    match=st.just("match"),
)
FEW = settings(max_examples=40)

KIND_COUNT = {"B": 2, "F": 6, "L": 2, "H": 8, "D": 7, "P": 8, "T": 15}
VALUE = {"B": 10, "F": 5, "L": 5, "H": 5, "D": 2, "P": 3, "T": 2}


def _game(seed: int, rules: Rules, limit: int = 5000) -> tuple[Position, list[int]]:
    """A seeded random game from a fresh deal: the final position (with its stack) and the actions."""
    rng = random.Random(seed)
    pos = Position.deal(rules, rng=rng)
    played = []
    while not pos.is_over() and len(played) < limit:
        a = rng.choice(pos.legal_actions())
        pos.push(a)
        played.append(a)
    return pos, played


def _positions(seed: int, rules: Rules) -> list[Position]:
    """Every position of a seeded random game (copies)."""
    rng = random.Random(seed)
    pos = Position.deal(rules, rng=rng)
    out = [pos.copy()]
    while not pos.is_over():
        pos.push(rng.choice(pos.legal_actions()))
        out.append(pos.copy())
    return out


def _squares(board: str) -> list[str]:
    """The 49 squares of a board field, a7 first, one character each ('.' for empty)."""
    out: list[str] = []
    for ch in board.replace("/", ""):
        out.extend("." * int(ch) if ch.isdigit() else ch)
    assert len(out) == 49
    return out


def _board(squares: list[str]) -> str:
    ranks = []
    for r in range(7):
        text, run = "", 0
        for ch in squares[r * 7:(r + 1) * 7]:
            if ch == ".":
                run += 1
                continue
            text += (str(run) if run else "") + ch
            run = 0
        ranks.append(text + (str(run) if run else ""))
    return "/".join(ranks)


def _kinds(fen: str) -> tuple[Counter[str], list[str], list[str]]:
    """Tiles on the board by kind, and the two piles' letters, read from the notation."""
    fields = fen.split()
    board = Counter("H" if ch.upper() in "NESW" else ch.upper() for ch in _squares(fields[0]) if ch != ".")
    piles = [list(fields[7].replace("+", "").replace("-", "")), list(fields[8].replace("+", "").replace("-", ""))]
    return board, piles[0], piles[1]


@FEW
@given(seed=SEEDS, rules=RULES)
def test_all_48_tiles_are_conserved_and_piles_score_their_values(seed: int, rules: Rules) -> None:
    for pos in _positions(seed, rules):
        board, blue, brown = _kinds(pos.fen())
        assert board + Counter(blue) + Counter(brown) == Counter(KIND_COUNT)
        assert pos.score == [sum(VALUE[t] for t in blue), sum(VALUE[t] for t in brown)]
        assert pos.ntiles == [len(blue), len(brown)]
        assert sum(board.values()) + len(blue) + len(brown) == 48


@FEW
@given(seed=SEEDS, rules=RULES)
def test_notation_reads_back_every_position_of_a_game(seed: int, rules: Rules) -> None:
    for pos in _positions(seed, rules):
        text = pos.fen()
        again = parse_position(text, rules)
        assert again.fen() == text
        assert sorted(again.legal_actions()) == sorted(pos.legal_actions())
        assert parse_position(pos.public_fen(), rules).fen() == pos.public_fen()


@FEW
@given(seed=SEEDS, rules=RULES)
def test_the_view_hides_exactly_the_face_down_tiles(seed: int, rules: Rules) -> None:
    for pos in _positions(seed, rules)[::3]:
        full, view = pos.fen().split(), pos.view().fen().split()
        assert full[1:] == view[1:]
        for ch, seen in zip(_squares(full[0]), _squares(view[0]), strict=True):
            assert seen == ("?" if ch.islower() else ch)
        assert sorted(pos.view().legal_actions()) == sorted(pos.legal_actions())


@settings(max_examples=30)
@given(seed=SEEDS, rules=RULES, cut=st.integers(min_value=0, max_value=120))
def test_two_deals_with_the_same_public_history_have_equal_views(seed: int, rules: Rules, cut: int) -> None:
    rng = random.Random(seed)
    first = Position.deal(rules, rng=rng)
    start = first.fen()
    history = []
    while not first.is_over() and len(history) < cut:
        a = rng.choice(first.legal_actions())
        first.push(a)
        history.append(a)
    # A second deal: the same tiles where they get revealed, the still face-down ones reshuffled
    # among themselves, with hunters' rifles drawn afresh.
    fields = start.split()
    squares = _squares(fields[0])
    still_down = [i for i, ch in enumerate(_squares(first.fen().split()[0])) if ch.islower()]
    tiles = [squares[i] for i in still_down]
    rng.shuffle(tiles)
    for i, tile in zip(still_down, tiles, strict=True):
        squares[i] = rng.choice("nesw") if tile in "nesw" else tile
    second = parse_position(" ".join([_board(squares), *fields[1:]]), rules)
    for a in history:
        second.push(a)
    assert second.view().fen() == first.view().fen()
    assert sorted(second.view().legal_actions()) == sorted(first.view().legal_actions())


@FEW
@given(seed=SEEDS, rules=RULES)
def test_every_random_game_ends_within_the_bound_the_rules_imply(seed: int, rules: Rules) -> None:
    pos, played = _game(seed, rules, limit=20000)
    assert pos.is_over()
    if rules.stall_limit:
        # At most stall_limit quiet turns between reveals and captures (48 and 47 at most), then 10.
        assert len(played) <= (48 + 47) * (rules.stall_limit + 1) + 10
    assert pos.final == 0 or not pos.hidden


@FEW
@given(seed=SEEDS, rules=RULES)
def test_a_legal_action_never_raises_in_any_form(seed: int, rules: Rules) -> None:
    for pos in _positions(seed, rules)[::4]:
        view = pos.view()
        for a in pos.legal_actions():
            pos.copy().play(a)
            pos.copy().play(A.action_str(a))
            if A.action_type(a) == A.REVEAL:
                for outcome, p in view.reveal_outcomes(a & 63):
                    assert p > 0
                    view.copy().play(A.action_str(outcome))
            else:
                view.copy().play(a)


@FEW
@given(seed=SEEDS, rules=RULES)
def test_a_reveal_without_outcome_in_a_view_is_rejected_and_changes_nothing(seed: int, rules: Rules) -> None:
    for pos in _positions(seed, rules)[::10]:
        view = pos.view()
        for sq in list(view.hidden)[:3]:
            before = view.fen()
            try:
                view.play(A.reveal(sq))
            except IllegalAction:
                assert view.fen() == before
            else:
                raise AssertionError("a reveal of an unknown tile needs its outcome")


def _state(pos: Position) -> tuple:
    return (pos.fen(), sorted(pos.hidden), sorted(pos.up), pos.own[:], pos.score[:], pos.ntiles[:],
            pos.last_action, sorted(pos.legal_actions()))


@FEW
@given(seed=SEEDS, rules=RULES)
def test_push_then_pop_restores_the_exact_position(seed: int, rules: Rules) -> None:
    rng = random.Random(seed)
    pos = Position.deal(rules, rng=rng)
    seen = []
    while not pos.is_over():
        seen.append(_state(pos))
        pos.push(rng.choice(pos.legal_actions()))
    # The bookkeeping push keeps equals what a fresh parse derives from the notation.
    parsed = parse_position(pos.fen(), rules)
    assert (parsed.own, parsed.score, parsed.ntiles, parsed.hidden, parsed.up) == (
        pos.own, pos.score, pos.ntiles, pos.hidden, pos.up)
    while seen:
        pos.pop()
        assert _state(pos) == seen.pop()
