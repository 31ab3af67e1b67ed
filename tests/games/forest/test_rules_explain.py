"""The explanations of illegal actions agree with ``legal_actions`` and name the rule broken."""

from __future__ import annotations

import random

import pytest

from halali.games.errors import IllegalAction
from halali.games.forest import DEFAULT_RULES, Position, parse_position
from halali.games.forest import actions as A

RULE_SETS = [
    DEFAULT_RULES,
    DEFAULT_RULES.with_options(["green_lock=revealed_only", "no_return_neutrals=true", "stall_limit=4"]),
    DEFAULT_RULES.with_options(["no_return_neutrals=true", "stall_limit=0"]),
]


def _candidates() -> list[int]:
    """Every action that can be written between squares, plus every reveal and the pass."""
    out = [A.reveal(s) for s in range(49)] + [A.PASS_ACTION]
    for f in range(49):
        out += [A.exit_(f, d) for d in range(4)]
        for t in range(49):
            if t != f:
                out += [A.move(f, t), A.capture(f, t)]
    return out


CANDIDATES = _candidates()


def _sample_positions(games: int, every: int) -> list[Position]:
    """Positions along seeded random games (every ``every``-th one, and each final position)."""
    out = []
    for i in range(games):
        rng = random.Random(1000 + i)
        pos = Position.deal(RULE_SETS[i % len(RULE_SETS)], rng=rng)
        n = 0
        while not pos.is_over():
            if n % every == 0 or pos.final >= 0:
                out.append(pos.copy())
            pos.push(rng.choice(pos.legal_actions()))
            n += 1
        out.append(pos.copy())
    return out


POSITIONS = _sample_positions(games=6, every=9)


def test_the_sample_reaches_every_kind_of_situation() -> None:
    assert any(p.final > 0 for p in POSITIONS)
    assert any(p.lock >= 0 for p in POSITIONS)
    assert any(p.is_over() for p in POSITIONS)
    assert any(max(p.last_move) >= 0 for p in POSITIONS)


@pytest.mark.parametrize("index", range(0, len(POSITIONS), max(1, len(POSITIONS) // 40)))
def test_every_candidate_is_legal_or_rejected_with_a_reason_never_both(index: int) -> None:
    pos = POSITIONS[index]
    legal = set(pos.legal_actions())
    fen = pos.fen()
    for a in CANDIDATES:
        trial = pos.copy()
        try:
            played = trial.play(a)
        except IllegalAction as exc:
            assert a not in legal, (fen, A.action_str(a), str(exc))
            assert "not a legal action here" not in str(exc), (fen, str(exc))
            assert str(exc).startswith(A.action_str(a) + ": ")
            assert trial.fen() == fen
        else:
            assert a in legal and played == a, (fen, A.action_str(a))
            trial.pop()
            assert trial.fen() == fen
    # The text form agrees too (a move written onto a tile is read as the capture).
    for a in legal:
        trial = pos.copy()
        assert trial.play(A.action_str(a)) == a


# (position, action, words the message must contain, rule key)
S = " - - - - 0 - -"
CASES = [
    ("7/7/7/3B3/7/7/t6 blue" + S, "d4-d6", ["one square"], "rule.one_square"),
    ("7/3F3/7/1F1N3/7/7/t6 brown" + S, "d4xb4", ["rifle", "(N)", "not W"], "rule.rifle"),
    ("7/7/7/3F1t1/7/7/t6 blue" + S, "d4-g4", ["blocked at f4"], "rule.blocked"),
    ("7/7/7/3F2t/7/7/t6 blue" + S, "d4xg4", ["face-down tiles cannot be captured"], "rule.capture_face_down"),
    ("7/7/7/3F2L/7/7/t6 blue" + S, "d4xg4", ["a fox cannot capture a lumberjack"], "rule.cannot_capture"),
    ("7/7/7/3F2L/7/7/t6 blue" + S, "g4-g5", ["blue may not move a lumberjack"], "rule.not_yours"),
    ("7/7/7/3T3/7/7/t6 brown" + S, "d4-d5", ["trees never move"], "rule.tree"),
    ("7/7/7/3f3/7/7/t6 blue" + S, "d4-d5", ["face down", "reveal it first"], "rule.face_down"),
    ("7/7/7/3F3/7/7/t6 blue" + S, "e4-e5", ["no tile on e4"], "rule.no_tile"),
    ("7/7/7/3F3/7/7/t6 blue" + S, "d4-e5", ["straight line"], "rule.straight"),
    ("7/7/7/3F3/7/7/t6 blue" + S, "d4xd7", ["nothing to capture on d7"], "rule.nothing_to_capture"),
    ("7/7/7/3F3/7/7/t6 blue" + S, "pass", ["pass is only allowed when no other action is"], "rule.pass"),
    ("7/7/7/3F3/7/7/t6 blue" + S, "?d4", ["already face up"], "rule.reveal_face_up"),
    ("7/7/7/3F3/7/7/t6 blue" + S, "?d5", ["d5 is empty"], "rule.reveal_empty"),
    ("7/7/7/3F3/7/7/t6 blue" + S, "d4-N", ["exits open only in the final phase"], "rule.exit_final_phase"),
    ("7/7/7/3F3/7/7/t6 blue - - - - 30 - -", "d4-d5", ["stall rule", "blue must reveal"], "rule.stall"),
    ("7/7/7/3F3/7/3D3/t6 brown - - d2 - 0 - -", "d2-d3", ["green lock"], "rule.green_lock"),
    ("7/7/7/3F3/7/7/t6 blue d5d4 - - - 1 - -", "d4-d5", ["no return", "d5"], "rule.no_return"),
    ("7/7/3F3/7/7/7/5NT blue - - - 3 0 - -", "d5-E", ["not on the way to the E exit"], "rule.exit_line"),
    ("7/3B3/7/7/7/7/5NT blue - - - 3 0 - -", "d6-N", ["square next to the exit (d7)"], "rule.exit_next"),
    ("3T3/3F3/7/7/7/7/5NT blue - - - 3 0 - -", "d6-N", ["blocked at d7"], "rule.exit_blocked"),
    ("7/3D3/7/3F3/7/7/5NT blue - - - 3 0 - -", "d6-N", ["only blue's own tiles"], "rule.exit_own"),
    ("7/7/7/3F3/7/7/6T blue - - - 0 0 - -", "d4-d5", ["the game is over"], "rule.game_over"),
]


@pytest.mark.parametrize(("fen", "action", "words", "key"), CASES)
def test_the_message_names_the_rule_and_nothing_changes(fen: str, action: str, words: list[str],
                                                         key: str) -> None:
    pos = parse_position(fen)
    before = pos.fen()
    with pytest.raises(IllegalAction) as info:
        pos.play(action)
    for word in words:
        assert word in str(info.value), str(info.value)
    assert info.value.key == key
    assert pos.fen() == before
    assert pos.legal_actions() == parse_position(before).legal_actions()
