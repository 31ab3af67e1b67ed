"""``halali bench --kernel`` prints the kernel's and the pure engine's playout figures and their ratio (the
speed itself is not a unit test)."""

from __future__ import annotations

import re

import pytest

from halali.ai import kernel_bench
from halali.cli import main


def _rate(name: str, out: str) -> float:
    found = re.search(rf"{name}:\s+([\d,]+) actions/s", out)
    assert found, out
    return float(found.group(1).replace(",", ""))


def test_kernel_bench_prints_the_kernel_the_engine_their_ratio_and_the_target(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert kernel_bench.run(200) == 0
    out = capsys.readouterr().out
    engine, kernel = _rate("pure engine", out), _rate("compiled kernel", out)
    found = re.search(r"kernel / engine:\s+([\d.]+)", out)
    # The rates are printed rounded to whole actions, so their quotient is checked to a part in a thousand.
    assert found and float(found.group(1)) == pytest.approx(kernel / engine, rel=1e-3, abs=0.01)
    target = re.search(r"6,000,000 actions/s for the kernel, ratio ([\d.]+)", out)
    assert target and float(target.group(1)) == pytest.approx(kernel / kernel_bench.TARGET, abs=0.01)
    games = re.search(r"random games:\s+(\d+) on the kernel, (\d+) on the pure engine", out)
    assert games and games.groups() == ("200", "10")  # the engine plays one game per deal at least


def test_bench_command_hands_over_to_the_kernel_bench(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--kernel", "--games", "100"]) == 0
    assert "compiled kernel:" in capsys.readouterr().out
    with pytest.raises(ValueError):
        kernel_bench.run(0)
