"""``halali bench --kernel`` prints the playout figures (the speed itself is not a unit test)."""

from __future__ import annotations

import re

import pytest

from halali.ai import kernel_bench
from halali.cli import main


def test_kernel_bench_prints_games_actions_and_ratio(capsys: pytest.CaptureFixture[str]) -> None:
    assert kernel_bench.run(200) == 0
    out = capsys.readouterr().out
    rate = float(re.search(r"actions/s:\s+([\d,]+)", out).group(1).replace(",", ""))
    ratio = float(re.search(r"ratio ([\d.]+)", out).group(1))
    assert "games/s:" in out and "2,000,000" in out
    assert ratio == pytest.approx(rate / kernel_bench.TARGET, abs=0.01)
    games = int(re.search(r"random games:\s+(\d+)", out).group(1))
    assert games == 200


def test_bench_command_hands_over_to_the_kernel_bench(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--kernel", "--games", "100"]) == 0
    assert "actions/s:" in capsys.readouterr().out
    with pytest.raises(ValueError):
        kernel_bench.run(0)
