"""``halali train``: games played once and kept, a fit written with its figures, bad options refused."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from halali.ai import training as T
from halali.ai.bits import weights as E
from halali.cli import main

SMALL = ["--games", str(T.BLOCK), "--nodes", "200", "--seed", "40"]


def test_train_plays_fits_writes_and_goes_on_from_its_data(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data, out = tmp_path / "data", tmp_path / "w.json"
    assert main(["train", *SMALL, "--data", str(data), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    doc = json.loads(out.read_text())
    assert doc["games"] == T.BLOCK and doc["positions"] > 20 * T.BLOCK
    assert f"{doc['positions']:,} positions" in printed and "held-out" in printed
    (block,) = data.iterdir()
    weights = T.read_weights(out)
    assert np.array_equal(weights, T.fit(T.load_block(block)).round(4))
    assert not np.array_equal(weights, E.WEIGHTS.round(4))

    stamp = block.stat().st_mtime_ns  # a second run reads the block again instead of playing it
    assert main(["train", *SMALL, "--data", str(data), "--out", str(out), "--strength", "1e9"]) == 0
    assert block.stat().st_mtime_ns == stamp
    assert np.allclose(T.read_weights(out), E.WEIGHTS, atol=1e-3)  # an overwhelming pull: the hand-set weights


@pytest.mark.parametrize(("args", "words"), [
    (["--games", "30"], "multiple"),
    (["--nodes", "5"], "--nodes"),
    (["--jobs", "0"], "--jobs"),
    (["--strength", "-1"], "--strength"),
    (["--lam", "1.5"], "--lam"),
])
def test_bad_options_are_refused_with_one_line(args: list[str], words: str, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["train", *args, "--data", str(tmp_path / "d"), "--out", str(tmp_path / "w.json")]) == 2
    assert words in capsys.readouterr().err
    assert not (tmp_path / "w.json").exists()
