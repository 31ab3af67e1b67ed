"""Game records: export/import round trip, replay, and the fair-deal commitment (tampering found)."""

from __future__ import annotations

import random

import pytest

from halali.cli import main
from halali.games.errors import NotationError
from halali.games.forest import Position
from halali.games.forest.record import PUBLIC_START, commitment, new_salt, parse_record, record_of, verify


def _finished_game(seed: int) -> tuple[Position, list[int], Position]:
    pos = Position.deal(seed=seed)
    start = pos.copy()
    rng = random.Random(seed)
    actions = []
    while not pos.is_over():
        a = rng.choice(pos.legal_actions())
        actions.append(a)
        pos.push(a)
    return start, actions, pos


def _record_text(seed: int) -> tuple[str, Position, Position]:
    start, actions, end = _finished_game(seed)
    salt = new_salt()
    deal = start.fen()
    rec = record_of(start, actions, {"Commitment": commitment(deal, salt), "Deal": deal, "Salt": salt, "Blue": "Ann"})
    return rec.format(), start, end


def test_round_trip_replays_to_the_same_end_with_and_without_the_deal() -> None:
    text, _start, end = _record_text(5)
    rec = parse_record(text)
    assert rec.format() == text
    assert rec.final().fen() == end.fen()
    assert rec.headers["Score"] == f"{end.score[0]}-{end.score[1]}"
    del rec.headers["Deal"]
    assert rec.start().fen() == PUBLIC_START
    assert rec.final().fen() == end.view().fen()  # the outcomes alone rebuild the game


def test_comments_follow_their_action_and_do_not_change_the_game() -> None:
    text, _start, end = _record_text(7)
    rec = parse_record(text)
    rec.comments = {0: "luck +1.25", 5: "mistake -5.10, better ?c3 {sic}", len(rec.actions) - 1: "the end"}
    annotated = rec.format()
    assert "1. " + rec.actions[0] + " {luck +1.25}" in annotated and "{the end}" in annotated
    again = parse_record(annotated)
    assert again.actions == rec.actions and again.final().fen() == end.fen()
    assert again.comments == {0: "luck +1.25", 5: "mistake -5.10, better ?c3 (sic)", len(rec.actions) - 1: "the end"}
    assert again.format() == annotated
    # A comment may run over lines, as PGN's; braces must pair.
    assert parse_record('[Game "forest"]\n\n1. ?a1=N {a long\nnote} ?b2=T\n').comments == {0: "a long note"}
    with pytest.raises(NotationError, match="line 3: a comment is written"):
        parse_record('[Game "forest"]\n\n1. ?a1=N {unclosed ?b2=T\n')
    with pytest.raises(NotationError, match="follows an action"):
        parse_record('[Game "forest"]\n\n{too early} 1. ?a1=N\n')


def test_verify_accepts_an_honest_record_and_finds_tampering() -> None:
    text, start, _ = _record_text(9)
    assert verify(parse_record(text)) == []
    deal = start.fen()
    # Swap two different face-down tiles of the deal: the hash no longer matches.
    board = list(deal)
    i, j = 0, next(k for k in range(1, 8) if board[k] != board[0] and board[k] != "/")
    board[i], board[j] = board[j], board[i]
    forged = text.replace(deal, "".join(board))
    problems = verify(parse_record(forged))
    assert any("commitment" in p for p in problems)
    salted = text.replace("[Salt \"", "[Salt \"0")
    assert any("commitment" in p for p in verify(parse_record(salted)))


def test_verify_reports_a_reveal_that_does_not_fit_the_deal() -> None:
    text, _, _ = _record_text(12)
    rec = parse_record(text)
    first = rec.actions[0]
    sq, tile = first[1:3], first[4]
    other = "T" if tile != "T" else "D"
    rec.actions[0] = f"?{sq}={other}"
    problems = verify(rec)
    assert any("does not fit the deal" in p for p in problems)


def test_a_record_without_deal_and_salt_cannot_be_verified_yet() -> None:
    text, _, _ = _record_text(3)
    rec = parse_record(text)
    del rec.headers["Salt"]
    assert "no Deal and Salt" in verify(rec)[0]


def test_bad_records_get_clear_errors() -> None:
    with pytest.raises(NotationError, match="line 1"):
        parse_record("[Game forest]\n")
    with pytest.raises(NotationError, match="not an action"):
        parse_record('[Game "forest"]\n\n1. ?a1=N zz\n')
    rec = parse_record('[Game "forest"]\n\n1. a1-a2\n')
    with pytest.raises(NotationError, match="action 1"):
        rec.positions()


def test_replay_and_verify_commands(tmp_path, capsys) -> None:
    text, _, end = _record_text(21)
    path = tmp_path / "game.hal"
    path.write_text(text)
    assert main(["verify", str(path)]) == 0
    assert "ok" in capsys.readouterr().out
    assert main(["replay", str(path), "--positions"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == end.fen()
    assert main(["replay", str(path), "--ply", "0"]) == 0
    assert "ply 0 of" in capsys.readouterr().out
    assert main(["replay", str(path), "--ply", "100000"]) == 2
    assert "--ply must be between" in capsys.readouterr().err
    path.write_text(text.replace("[Salt \"", "[Salt \"1"))
    assert main(["verify", str(path)]) == 1
    assert "commitment" in capsys.readouterr().err
