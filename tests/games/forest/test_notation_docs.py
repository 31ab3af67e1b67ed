"""The examples in docs/api.md and docs/notation.md are true: run them against the engine."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

from halali.games.errors import HalaliError
from halali.games.forest import Position, parse_position

DOCS = Path(__file__).resolve().parents[3] / "docs"


def _blocks(name: str, language: str) -> list[str]:
    """The fenced code blocks of a page in one language ('' for plain fences)."""
    blocks: list[str] = []
    current: list[str] | None = None
    lang = ""
    for line in (DOCS / name).read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            if current is None:
                current, lang = [], line[3:].strip()
            else:
                if lang == language:
                    blocks.append("\n".join(current) + "\n")
                current = None
        elif current is not None:
            current.append(line)
    return blocks


def test_the_api_examples_run_as_written() -> None:
    blocks = _blocks("api.md", "python")
    assert len(blocks) >= 5
    # One doctest for all blocks: the page is one session, later blocks use earlier names.
    test = doctest.DocTestParser().get_doctest("\n".join(blocks), {}, "docs/api.md", "docs/api.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    failed, attempted = runner.summarize(verbose=False)
    assert attempted > 20
    assert failed == 0


def test_the_notation_examples_are_canonical_positions() -> None:
    examples = [b.strip() for b in _blocks("notation.md", "") if b.count(" ") == 8]
    assert len(examples) >= 4
    for text in examples:
        assert parse_position(text).fen() == text


def _error_rows() -> list[tuple[str, str]]:
    text = (DOCS / "notation.md").read_text(encoding="utf-8")
    section = text.split("## Errors", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `([^`]+)`(?: in a view)? \| `([^`]+)` \|$", section, flags=re.M)


ROWS = _error_rows()
POSITION_ROWS = [r for r in ROWS if "/" in r[0]]
ACTION_ROWS = [r for r in ROWS if "/" not in r[0]]
ACTION_CONTEXT = "7/7/7/3F3/7/7/t5N blue - - - - 0 - -"


def test_the_error_tables_are_there() -> None:
    assert len(POSITION_ROWS) >= 8
    assert len(ACTION_ROWS) >= 7


@pytest.mark.parametrize(("position", "message"), POSITION_ROWS)
def test_the_documented_position_errors_are_the_real_ones(position: str, message: str) -> None:
    with pytest.raises(HalaliError) as info:
        parse_position(position)
    assert str(info.value) == message


@pytest.mark.parametrize(("action", "message"), ACTION_ROWS)
def test_the_documented_action_errors_are_the_real_ones(action: str, message: str) -> None:
    pos = Position.deal(seed=1).view() if action == "?c3" else parse_position(ACTION_CONTEXT)
    before = pos.fen()
    with pytest.raises(HalaliError) as info:
        pos.play(action)
    assert str(info.value) == message
    assert pos.fen() == before
