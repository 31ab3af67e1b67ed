"""``halali bench --search``: how fast level 6 reaches a depth, against a frozen baseline engine.

Both sides are engines spoken to through the engine protocol (docs/engine-protocol.md): **current**
is this install's level 6, in this process; **baseline** is an outside engine command given with
``--baseline``. The frozen baseline the figures in docs/performance.md are measured against is the
level 6 of commit e9b1b22 (the last one before the bitboard kernel; a local tag ``level6-baseline``
may name it), run from a worktree of that commit (:data:`HOW_TO_BASELINE`). Without ``--baseline``
the bench measures level 6 alone.

On every position of a fixed set (``halali.ai.search_positions``: public views of the opening, the
middle game and the final phase) each side runs

- one depth-limited search (``go depth D nodes N``, no clock): from its ``info`` lines, the time and
  nodes at which each depth is complete, so the times to ``depth - 1`` and to ``depth`` come from one
  search;
- one search on the clock (``go movetime MS``): the depth of its last ``info`` line, and its nodes per
  second over the iterations it completed.

The sides alternate which goes first from one position to the next, so that both share the
machine's noise; the ratios (baseline time / current time, and current nodes/s / baseline nodes/s:
above 1 means the current search is faster) mean something within one run, the absolute figures only
on the machine they were measured on. Before every search a ``setoption name seed`` gives the engine a
fresh bot (an empty transposition table) with the same seed. A depth-limited search also stops at
``NODE_LIMIT`` nodes, which bounds the run; a depth not reached is reported as such. The times are
the engines' own (``info ... time MS``), so no pipe or process switch is in them; they come in whole
milliseconds, which makes the medians of the shallower depth coarse and the totals the steadier figures.
"""

from __future__ import annotations

import json
import statistics
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from halali.ai.search_positions import load_positions
from halali.engine.client import EngineClient, open_engine
from halali.games.forest.position import Position

DEFAULT_DEPTH = 4
DEFAULT_MOVETIME = 0.2  # seconds
NODE_LIMIT = 30_000_000
DEPTH_TIMEOUT = 900.0  # seconds: a depth-limited search that takes longer is stopped
SEED = 1
CURRENT_LEVEL = 6
BASELINE_COMMIT = "e9b1b22"
HOW_TO_BASELINE = (
    f"git worktree add --detach ../halali-baseline {BASELINE_COMMIT}\n"
    "halali bench --search --baseline \"env PYTHONPATH=../halali-baseline/src python -m halali.cli engine --level 6\""
)


@dataclass
class Measure:
    """One search style on one position."""

    depth_seconds: dict[int, float] = field(default_factory=dict)  # depth -> time it was complete
    depth_nodes: dict[int, int] = field(default_factory=dict)
    nodes: int = 0  # of the depth-limited search
    seconds: float = 0.0
    timed_depth: int = 0
    timed_nodes: int = 0
    timed_seconds: float = 0.0

    @property
    def nps(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    @property
    def timed_nps(self) -> float:
        return self.timed_nodes / self.timed_seconds if self.timed_seconds > 0 else 0.0


def _searches(result_infos: list[str]) -> list[tuple[int, int, float]]:
    """(depth, nodes, seconds) of every ``info depth D nodes N time MS ...`` line, in order. An engine
    writes whole milliseconds, cut off: the time taken is the middle of that millisecond."""
    out = []
    for line in result_infos:
        words = line.split()
        if len(words) < 3 or words[1] != "depth":
            continue
        fields = dict(zip(words[1::2], words[2::2], strict=False))
        if {"depth", "nodes", "time"} <= fields.keys():
            out.append((int(fields["depth"]), int(fields["nodes"]), (int(fields["time"]) + 0.5) / 1000))
    return out


def measure(engine: EngineClient, pos: Position, depth: int, movetime: float) -> Measure:
    """One side on one position: a depth-limited search and a search on the clock, each by a fresh bot."""
    m = Measure()
    text = pos.fen()
    engine.set_option("seed", SEED)
    done = engine.go(text, depth=depth, nodes=NODE_LIMIT, hard_timeout=DEPTH_TIMEOUT)
    if done.bestmove is None:
        raise RuntimeError(f"the engine gave no answer to a depth-{depth} search of {text}")
    for d, nodes, seconds in _searches(done.infos):
        m.depth_seconds[d] = seconds
        m.depth_nodes[d] = nodes
        m.nodes, m.seconds = nodes, seconds
    engine.set_option("seed", SEED)
    timed = _searches(engine.go(text, movetime=movetime).infos)
    if timed:
        m.timed_depth, m.timed_nodes, m.timed_seconds = timed[-1]
    return m


def _ratio(a: float, b: float) -> float:
    return a / b if b > 0 else 0.0


def summary(runs: list[Measure], depth: int) -> dict[str, float | int]:
    """Totals over positions of one side: nodes/s, median and total time to depth-1 and depth."""
    nodes = sum(r.nodes for r in runs)
    seconds = sum(r.seconds for r in runs)
    out: dict[str, float | int] = {"nodes": nodes, "seconds": seconds, "nps": _ratio(nodes, seconds)}
    for d in (depth - 1, depth):
        if d < 1:
            continue
        times = [r.depth_seconds[d] for r in runs if d in r.depth_seconds]
        out[f"reached_d{d}"] = len(times)
        out[f"median_d{d}"] = statistics.median(times) if times else 0.0
        out[f"total_d{d}"] = sum(times)
    timed_nodes = sum(r.timed_nodes for r in runs)
    timed_seconds = sum(r.timed_seconds for r in runs)
    out["timed_nps"] = _ratio(timed_nodes, timed_seconds)
    out["timed_mean_depth"] = sum(r.timed_depth for r in runs) / len(runs)
    return out


def _ms(s: float | None) -> str:
    return "     -" if s is None else f"{s * 1000:6.0f}" if s >= 0.0995 else f"{s * 1000:6.1f}"


def _open(spec: str | int) -> tuple[EngineClient, float]:
    """A started engine and the seconds its start took (loading or compiling its search)."""
    t0 = time.perf_counter()
    return open_engine(spec), time.perf_counter() - t0


def run(path: Path | None = None, depth: int = DEFAULT_DEPTH, movetime: float = DEFAULT_MOVETIME,
        quiet: bool = False, as_json: bool = False, limit: int | None = None, baseline: str | None = None) -> int:
    """Measure level 6 and, given its engine command, the baseline on every position (the first
    ``limit`` ones); print the figures."""
    if depth < 1:
        raise ValueError("the depth must be 1 or more")
    if movetime <= 0:
        raise ValueError("the movetime must be positive")
    positions = load_positions(path)[:limit]
    engines: dict[str, EngineClient] = {}
    try:
        loads: dict[str, float] = {}
        engines["current"], loads["current"] = _open(CURRENT_LEVEL)
        if baseline is not None:
            engines["baseline"], loads["baseline"] = _open("cmd:" + baseline)
        return _run(engines, loads, positions, depth, movetime, quiet, as_json)
    finally:
        for engine in engines.values():
            engine.close()


def _run(engines: dict[str, EngineClient], loads: dict[str, float], positions: list[tuple[str, Position]],
         depth: int, movetime: float, quiet: bool, as_json: bool) -> int:
    sides = sorted(engines)  # "baseline" before "current"
    runs: dict[str, list[Measure]] = {name: [] for name in sides}
    d1 = max(1, depth - 1)
    talk = not quiet and not as_json
    if talk:
        against = (f"baseline {engines['baseline'].name!r} against " if "baseline" in engines
                   else "no baseline (--baseline COMMAND), ")
        print(f"search bench: {len(positions)} positions, depth {depth}, movetime {movetime * 1000:.0f} ms, "
              f"{against}level {CURRENT_LEVEL} {engines['current'].name!r} "
              f"(load {', '.join(f'{name} {loads[name]:.2f} s' for name in sides)})")
        print(f"{'':>3} {'phase':<8} {'side':<8} {f'd{d1} ms':>7} {f'd{depth} ms':>7} {'nodes':>10} "
              f"{'nodes/s':>10} {'timed d':>7} {'timed n/s':>10}")
    for i, (label, pos) in enumerate(positions):
        order = sides if i % 2 == 0 else list(reversed(sides))
        got = {name: measure(engines[name], pos, depth, movetime) for name in order}
        for name in sides:
            runs[name].append(got[name])
        if talk:
            for name in sides:
                m = got[name]
                print(f"{i + 1:>3} {label:<8} {name:<8} {_ms(m.depth_seconds.get(d1)):>7} "
                      f"{_ms(m.depth_seconds.get(depth)):>7} {m.nodes:>10,} {m.nps:>10,.0f} "
                      f"{m.timed_depth:>7} {m.timed_nps:>10,.0f}", flush=True)
    sums = {name: summary(runs[name], depth) for name in sides}
    ratios: dict[str, float] = {}
    if "baseline" in sums:
        b, c = sums["baseline"], sums["current"]
        ratios = {"nps": _ratio(float(c["nps"]), float(b["nps"])),
                  "timed_nps": _ratio(float(c["timed_nps"]), float(b["timed_nps"]))}
        for d in sorted({d1, depth}):
            for k in (f"median_d{d}", f"total_d{d}"):
                ratios[k] = _ratio(float(b[k]), float(c[k]))
    if as_json:
        print(json.dumps({"depth": depth, "movetime": movetime, "positions": len(positions),
                          "labels": [label for label, _ in positions], "engines": {n: engines[n].name for n in sides},
                          "summary": sums, "ratio": ratios,
                          "runs": {name: [asdict(m) for m in runs[name]] for name in sides}}, indent=1))
        return 0
    _print_totals(sums, ratios, sides, positions, depth, movetime)
    return 0


def _print_totals(sums: dict[str, dict[str, float | int]], ratios: dict[str, float], sides: list[str],
                  positions: list[tuple[str, Position]], depth: int, movetime: float) -> None:
    d1 = max(1, depth - 1)
    if ratios:
        print(f"totals over {len(positions)} positions (ratio: baseline time / current time, "
              "current nodes/s / baseline nodes/s)")
    else:
        print(f"totals over {len(positions)} positions (to compare with the frozen baseline:\n  "
              + HOW_TO_BASELINE.replace("\n", "\n  ") + ")")
    print(f"  {'':<25} " + " ".join(f"{name:>12}" for name in sides) + (f" {'ratio':>7}" if ratios else ""))
    rows: list[tuple[str, str]] = [("nodes/s (depth-limited)", "nps")]
    for d in sorted({d1, depth}):
        rows += [(f"median time to d{d} (ms)", f"median_d{d}"), (f"total time to d{d} (ms)", f"total_d{d}")]
    rows.append((f"nodes/s ({movetime * 1000:.0f} ms searches)", "timed_nps"))
    for title, key in rows:
        scale, fmt = (1.0, ",.0f") if "nps" in key else (1000.0, ",.1f")
        cells = " ".join(f"{float(sums[name][key]) * scale:>12{fmt}}" for name in sides)
        print(f"  {title:<25} {cells}" + (f" {ratios[key]:>7.2f}" if ratios else ""))
    cells = " ".join(f"{sums[name]['timed_mean_depth']:>12.2f}" for name in sides)
    print(f"  {'mean depth in ' + f'{movetime * 1000:.0f} ms':<25} {cells}")
    for d in sorted({d1, depth}):
        reached = {name: sums[name][f"reached_d{d}"] for name in sides}
        if any(n < len(positions) for n in reached.values()):
            print(f"  depth {d} reached on " + " and ".join(f"{n} ({name})" for name, n in reached.items())
                  + f" of {len(positions)} positions (node limit {NODE_LIMIT:,} or the game's end)")
