"""docs/research.md's examples run as written, and its numbers are the code's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from halali.interop.encoding import forest as F
from halali.interop.encoding import hare as H

DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def test_the_page_has_its_examples() -> None:
    assert len(BLOCKS) >= 8


@pytest.mark.parametrize("code", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_every_example_runs(code: str, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(code, str(DOC), "exec"), {})


def test_the_sizes_on_the_page_are_the_codes() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert f"**The forest game: {F.NUM_ACTIONS} ids**" in text and f"**The hare hunt: {H.NUM_ACTIONS} ids**" in text
    assert f"{F.SIZE} = {F.BOARD_PLANES} x 7 x 7 + {F.GLOBALS}" in text
    assert f"{H.SIZE} = {H.BOARD_PLANES} x 11 x 11 + {H.GLOBALS}" in text
    assert f"a {H.DIGEST}-long digest" in text and f"{len(set(F.ENCODE.values()))} can" in text
