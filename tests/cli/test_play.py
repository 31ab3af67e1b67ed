"""``halali play`` in the terminal: a reveal typed as the list shows it, and sentences about "You"."""

from __future__ import annotations

import io
import sys

import pytest

from halali.cli import main


def _play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lines: list[str],
          *extra: str) -> str:
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    main(["play", "--opponent", "random", "--seed", "7", *extra])
    return capsys.readouterr().out


def test_a_reveal_typed_as_listed_reveals_the_tile(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    # With --second "You" is blue and moves first; every square but the centre is face down.
    out = _play(monkeypatch, capsys, ["?a1", "quit"], "--second")
    assert "write its outcome" not in out
    assert "a1: a " in out  # the terminal knows the deal and says what was revealed


def test_you_play_not_you_plays(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    out = _play(monkeypatch, capsys, ["quit"])
    assert "You plays" not in out
    assert "You play brown in game 1 and blue in game 2." in out
