"""``halali bench --kernel`` prints both kernels' playout figures and their ratio (the speed itself is
not a unit test)."""

from __future__ import annotations

import re

import pytest

from halali.ai import kernel_bench
from halali.cli import main


def _rate(name: str, out: str) -> float:
    found = re.search(rf"{name} kernel:\s+([\d,]+) actions/s", out)
    assert found, out
    return float(found.group(1).replace(",", ""))


def test_kernel_bench_prints_both_kernels_their_ratio_and_the_target(capsys: pytest.CaptureFixture[str]) -> None:
    assert kernel_bench.run(200) == 0
    out = capsys.readouterr().out
    old, new = _rate("array", out), _rate("bitboard", out)
    ratio = float(re.search(r"bitboard / array:\s+([\d.]+)", out).group(1))
    assert ratio == pytest.approx(new / old, abs=0.01)
    target = float(re.search(r"6,000,000 actions/s for the bitboard kernel, ratio ([\d.]+)", out).group(1))
    assert target == pytest.approx(new / kernel_bench.TARGET, abs=0.01)
    assert int(re.search(r"random games:\s+(\d+) per kernel", out).group(1)) == 200


def test_bench_command_hands_over_to_the_kernel_bench(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--kernel", "--games", "100"]) == 0
    assert "bitboard kernel:" in capsys.readouterr().out
    with pytest.raises(ValueError):
        kernel_bench.run(0)
