"""Planning a whole movement: which hunters to move, and where, for a value function of the result.

A movement is a sequence of single-point actions spread over up to N hunters. The planner works
hunter by hunter: for a hunter it lists every place and facing reachable with the points it may
spend (a breadth-first walk over steps and turns), and keeps the best few partial plans (a beam)
from one hunter to the next.

A hunter that starts and ends off the hare's axes changes nothing a shot can see. Such endings are
either skipped (no ``local`` function: the heuristic bot) or valued by ``local``, the change in the
hunter's own term of the value, without building the resulting position (the strong bot, which
grades how far each hunter stands from a line of fire).
"""

from __future__ import annotations

from collections.abc import Callable

from halali.games.hare.actions import END_ACTION, STEP, TURN, Action
from halali.games.hare.board import CENTRE, NEIGHBOUR, TOWARDS_HARE, turn_left, turn_right
from halali.games.hare.clubs import NHUNTERS
from halali.games.hare.phases import PH_MOVE
from halali.games.hare.state import HareState

Value = Callable[[HareState], float]
Local = Callable[[HareState, int, int, int], float]
"""local(state, hunter, cell, facing): the hunter's own share of the value if it stood there."""


def reachable(st: HareState, h: int, points: int) -> dict[tuple[int, int], list[Action]]:
    """Every (cell, facing) hunter h can reach with at most ``points`` points, with a shortest way."""
    c0, f0 = st.hcell[h], st.hface[h]
    occ, bush = st.occ, st.bush
    ways: dict[tuple[int, int], list[Action]] = {(c0, f0): []}
    frontier = [(c0, f0)]
    for _ in range(points):
        nxt = []
        for c, f in frontier:
            path = ways[(c, f)]
            t = NEIGHBOUR[c][f]
            moves = []
            if t >= 0 and t != CENTRE and t != bush and (occ[t] < 0 or occ[t] == h):
                moves.append(((t, f), (STEP, c, t)))
            moves.append(((c, turn_left(f)), (TURN, c, turn_left(f))))
            moves.append(((c, turn_right(f)), (TURN, c, turn_right(f))))
            for key, a in moves:
                if key not in ways:
                    ways[key] = [*path, a]
                    nxt.append(key)
        frontier = nxt
    return ways


def _apply(st: HareState, actions: list[Action]) -> HareState:
    child = st.copy(history=False)
    for a in actions:
        child.push(a)
    return child


Option = tuple[float, list[Action], "HareState | None"]


def hunter_options(st: HareState, value: Value, base: float, local: Local | None = None,
                   current: bool = True) -> list[Option]:
    """Every worthwhile single-hunter continuation of the movement: (value, actions, resulting state or
    None when it was valued locally). ``current``: whether to continue the hunter being moved."""
    out: list[Option] = []
    cands = []
    if current and st.cur >= 0 and st.cur_points > 0:
        cands.append((st.cur, st.cur_points))
    if st.left > 0:
        assert st.assign is not None  # hunters left to move: the dice are assigned
        pts = st.assign[1]
        cands.extend((h, pts) for h in range(NHUNTERS)
                     if st.hcell[h] >= 0 and h != st.cur and h not in st.done)
    for h, pts in cands:
        c0, f0 = st.hcell[h], st.hface[h]
        on_axis = TOWARDS_HARE[c0] >= 0
        own0 = local(st, h, c0, f0) if local is not None and not on_axis else 0.0
        for (c, f), path in reachable(st, h, pts).items():
            if not path:
                continue
            if not on_axis and TOWARDS_HARE[c] < 0:
                if local is None:
                    continue  # off the axes before and after: no shot can tell the difference
                out.append((base + local(st, h, c, f) - own0, path, None))
                continue
            child = _apply(st, path)
            out.append((value(child), path, child))
    return out


def plan_movement(st: HareState, value: Value, beam: int = 1, local: Local | None = None,
                  max_hunters: int = 4, collect: list[tuple[float, list[Action]]] | None = None,
                  ) -> tuple[float, list[Action]]:
    """The best movement found from a position in the move phase, as (value, actions ending with
    ``end`` unless the dice ran out). ``collect`` receives every plan the beam kept on the way."""
    base = value(st)
    best: tuple[float, list[Action]] = (base, [END_ACTION])
    if collect is not None:
        collect.append(best)
    layer: list[tuple[float, list[Action], HareState]] = [(base, [], st)]
    for depth in range(max_hunters):
        # (value, whole path, the resulting state, or its parent and the hunter's actions to apply)
        nxt: list[tuple[float, list[Action], HareState | None, HareState, list[Action]]] = []
        for v0, path0, s0 in layer:
            if s0.phase != PH_MOVE:
                continue
            for v, path, child in hunter_options(s0, value, v0, local, current=depth == 0):
                if v > v0 + 1e-9:
                    nxt.append((v, path0 + path, child, s0, path))
        if not nxt:
            break
        nxt.sort(key=lambda x: -x[0])
        layer = [(v, path, child if child is not None else _apply(parent, sub))
                 for v, path, child, parent, sub in nxt[:beam]]
        if collect is not None:
            collect.extend((v, path + ([END_ACTION] if child.phase == PH_MOVE else [])) for v, path, child in layer)
        if layer[0][0] > best[0] + 1e-9:
            v, path, child = layer[0]
            best = (v, path + ([END_ACTION] if child.phase == PH_MOVE else []))
    return best
