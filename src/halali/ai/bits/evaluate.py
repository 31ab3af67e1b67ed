"""The static evaluation: the expected final score difference for the player to move, in points.

Search stops somewhere; this guesses how the game goes on from there. Points already in the piles
count in full. What is still on the board counts by how likely it is to end in a pile:

* **threats**: a tile the opponent can capture now (a hunter whose rifle line reaches it, a bear
  next to a hunter or lumberjack, a fox with a clear line to a duck or pheasant, a lumberjack next to
  a tree) is likely lost; the player to move can rescue one, so the second largest loss and the rest
  count almost fully and the largest a little. A capture that the other side can answer on the same
  square (the tile is *defended*) is worth the difference only.
* **own tiles on the board** are worth a share of their value before the final phase (they may
  still exit or be captured); in the final phase the share comes from the turns each tile needs
  to leave (one when it stands on a clear middle line, two when one move brings it there, more for
  bears and lumberjacks far from an exit) against the final turns each player has left, the first
  of which goes to the opponent of the last revealer.
* **face-down tiles** count at the average of what they may turn out to be, so that revealing is
  neither rewarded nor punished by the evaluation itself; the real risk of a reveal (a tile in a
  hunter's line of fire, next to a bear, next to a lumberjack) is what the search finds in the
  chance node, and a tile in an enemy line of fire is flagged here too.
* **the last reveal**: when few tiles are face down, the parity of what is left and of the stall
  count says who will probably have to reveal the last tile and so give the first final turn away.

A term for the exit race to come, weighed in as the last tiles are revealed (``W_PREP``), is there
but off: measured at weight 1 it played worse (docs/ai.md). The weights are ``bits.weights``.

On bitboards nothing scans the board: the lines each side controls (hunters' rifle lines, the
squares next to bears and lumberjacks, the foxes' lines) are occluded fills of all those tiles at
once; the threatened tiles, the prey in the lines of fire and the face-down tiles a hunter aims at
are popcounts of those masks against the tile bitboards. The shares of the own tiles are added in
a fixed order (the values descending, the board order among equals), and the exit race of the
final phase takes the tiles in board order, so that the sum is the same to the last bit however the
state was reached. Nothing is allocated. ``tests/ai/test_bits_evaluate.py`` holds it to a plain
evaluation written on the engine's ``Position``, position by position.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from halali.ai.bits import jitcache  # noqa: F401  (must run before anything below is compiled)
from halali.ai.bits.gen import slide
from halali.ai.bits.rollout import reach, step
from halali.ai.bits.tables import (
    B_EMPTY,
    B_HIDDEN,
    BIT,
    EXIT_SQ,
    FINAL,
    FULL,
    KIND_T,
    KIND_VALUE,
    NHID,
    NPOOL,
    POOL,
    SCORE,
    STALL,
    STALL_LIMIT,
    STEP1_T,
    TURN,
    lowest,
    popcount,
    ptr,
)
from halali.ai.bits.weights import (
    BOUND,
    PREP_HIDDEN,
    W_EXIT1,
    W_EXIT2,
    W_EXIT3,
    W_EXTRA,
    W_FIRE,
    W_HUNT,
    W_KEEP,
    W_PARITY,
    W_PREP,
    W_THREAT_MAX,
    W_THREAT_REST,
    W_TREE,
)

U0 = np.uint64(0)
U1 = np.uint64(1)


@njit(cache=True, error_model="numpy", inline="always")
def _around(x: np.uint64) -> np.uint64:
    return step(x, 0) | step(x, 1) | step(x, 2) | step(x, 3)


@njit(cache=True, error_model="numpy", inline="always")
def _threats(x: np.uint64, cover: np.uint64, v: float, back: float, top: float, total: float) -> tuple[float, float]:
    """Add the tiles of ``x`` (worth ``v``, ``v - back`` where ``cover`` takes back) to the largest
    threatened loss and to the sum of them (losses of nothing or less do not count)."""
    n_free = popcount(x & ~cover)
    n_cov = popcount(x & cover)
    if n_free > 0:
        total += n_free * v
        top = max(top, v)
    if n_cov > 0 and v - back > 0.0:
        total += n_cov * (v - back)
        top = max(top, v - back)
    return top, total


@njit(cache=True, error_model="numpy", inline="always")
def _top_share(n10: int, n5: int, keep: float, extra: float) -> float:
    """``keep`` of the five most valuable of ``n10`` tiles worth 10 and ``n5`` worth 5, ``extra`` of
    the rest, added in that order (the most valuable first)."""
    total = 0.0
    for i in range(n10 + n5):
        total += (10.0 if i < n10 else 5.0) * (keep if i < 5 else extra)
    return total


@njit(cache=True, error_model="numpy", inline="always")
def _clear_exit_squares(b: np.ndarray) -> np.uint64:
    """Squares from which a slider leaves in one turn: the exit squares, and the middle lines from an
    empty exit square inwards, up to the first tile (included)."""
    empty = b[B_EMPTY]
    m = U0
    for d in range(4):
        e = BIT[EXIT_SQ[d]]
        m |= e
        if empty & e:
            m |= reach(e, empty, (d + 2) & 3)
    return m


@njit(cache=True, error_model="numpy")
def _exit_turns(s: np.ndarray, empty: np.uint64, sq: int, c: int, clear_exit: np.uint64) -> int:
    """Turns the tile ``c`` on ``sq`` needs to leave the board (4 means 'not soon'): a stepping tile by
    its distance to the nearest exit (one more when the exit square is taken); a slider 1 on a clear
    middle line, 2 when one move brings it there, else 3."""
    if STEP1_T[c]:
        best = 4
        r, f = sq // 7, sq % 7
        for d in range(4):
            e = EXIT_SQ[d]
            dist = abs(e // 7 - r) + abs(e % 7 - f)
            if dist > 0 and s[e] != 0:
                dist += 1
            if dist + 1 < best:
                best = dist + 1
        return best
    if clear_exit & BIT[sq]:
        return 1
    if slide(FULL & ~empty, sq) & empty & clear_exit:
        return 2
    return 3


@njit(cache=True, error_model="numpy")
def _packed_tiles(b: np.ndarray, s: np.ndarray, own: np.uint64, tens: np.uint64,
                  clear_exit: np.uint64) -> tuple[int, int]:
    """The own tiles in board order as 4 bits each (worth 10?, the turns to leave): (packed, count)."""
    packed = 0
    n = 0
    x = own
    empty = b[B_EMPTY]
    while x and n < 10:
        sq = lowest(x)
        x &= x - U1
        t = _exit_turns(s, empty, sq, s[sq], clear_exit)
        packed |= ((1 if tens & BIT[sq] else 0) | t << 1) << (4 * n)
        n += 1
    return packed, n


@njit(cache=True, error_model="numpy")
def _exit_potential(packed: int, n: int, left: int, w: np.ndarray) -> float:
    """The points the tiles can take out in ``left`` final turns: greedily the most valuable that fit,
    the quicker first among equals, each counted by the share for its turns to leave."""
    total = 0.0
    used = 0
    for _ in range(n):
        bi = -1
        bk = 0.0
        for i in range(n):
            t = (packed >> (4 * i + 1)) & 7
            key = (10.0 if (packed >> (4 * i)) & 1 else 5.0) * 4 - t
            if not (used >> i) & 1 and t <= left and (bi < 0 or key > bk):
                bi = i
                bk = key
        if bi < 0:
            break
        used |= 1 << bi
        t = (packed >> (4 * bi + 1)) & 7
        left -= t
        total += (10.0 if (packed >> (4 * bi)) & 1 else 5.0) * (w[W_EXIT1] if t == 1 else (w[W_EXIT2] if t == 2
                                                                                           else w[W_EXIT3]))
    return total


@njit(cache=True, error_model="numpy", inline="always")
def _lines(b: np.ndarray) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64]:
    """What the hunters' rifles, the foxes, the bears and the lumberjacks reach."""
    empty = b[B_EMPTY]
    hc = reach(b[4], empty, 0) | reach(b[5], empty, 1) | reach(b[6], empty, 2) | reach(b[7], empty, 3)
    foxes = b[2]
    fc = reach(foxes, empty, 0) | reach(foxes, empty, 1) | reach(foxes, empty, 2) | reach(foxes, empty, 3)
    return hc, fc, _around(b[1]), _around(b[3])


@njit(cache=True, error_model="numpy", inline="always")
def _value(b: np.ndarray, s: np.ndarray, w: np.ndarray, hc: np.uint64, fc: np.uint64, bc: np.uint64,
           lc: np.uint64, add: np.uint64, c: int, me: int, nh: int, npool: int, dec: int, stall: int) -> float:
    """The evaluation of ``b`` and ``s`` with, when ``add`` is a square's bit, tile ``c`` turned up
    there: ``me`` to move, ``nh`` tiles face down, ``npool`` unknown with one fewer of kind ``dec``,
    the stall count ``stall`` (and the lines ``hc`` .. ``lc`` of that state). So the outcomes of a
    reveal are valued without being played; every sum is the one ``_evaluate`` makes, in its order."""
    b1 = b[1] | add if c == 1 else b[1]
    b2 = b[2] | add if c == 2 else b[2]
    b3 = b[3] | add if c == 3 else b[3]
    b4 = b[4] | add if c == 4 else b[4]
    b5 = b[5] | add if c == 5 else b[5]
    b6 = b[6] | add if c == 6 else b[6]
    b7 = b[7] | add if c == 7 else b[7]
    b8 = b[8] | add if c == 8 else b[8]
    b9 = b[9] | add if c == 9 else b[9]
    b10 = b[10] | add if c == 10 else b[10]
    hidden = b[B_HIDDEN] & ~add
    e = float(s[SCORE] - s[SCORE + 1])  # blue minus brown until the end
    final = s[FINAL]
    n_lj = popcount(b3)
    prep = 0.0
    if final < 0 and 0 < nh <= PREP_HIDDEN:
        prep = w[W_PREP] * (1.0 - nh / (PREP_HIDDEN + 1.0))
    top = 0.0
    total = 0.0
    if me == 0:  # brown's captures threaten the player to move
        top, total = _threats(b1 & hc, bc, 10.0, 5.0, top, total)
        top, total = _threats(b2 & hc, bc, 5.0, 5.0, top, total)
        top, total = _threats(b8 & hc, bc, 2.0, 5.0, top, total)
        top, total = _threats(b9 & hc, bc, 3.0, 5.0, top, total)
        top, total = _threats(b10 & lc, bc, 2.0, 5.0, top, total)
    else:
        humans = b3 | b4 | b5 | b6 | b7
        top, total = _threats(humans & bc, hc, 5.0, 10.0, top, total)
        top, total = _threats(b8 & fc, hc, 2.0, 5.0, top, total)
        top, total = _threats(b9 & fc, hc, 3.0, 5.0, top, total)
    fire = popcount(hidden & hc)
    hunt = float(2 * (popcount(b8 & fc) - popcount(b8 & hc)) + 3 * (popcount(b9 & fc) - popcount(b9 & hc)))
    trees = popcount(b10)
    blue = b1 | b2
    brown = b3 | b4 | b5 | b6 | b7
    e_pos = 0.0
    if final > 0 or prep > 0.0:  # (never with a tile added: the search values those outcomes by playing them)
        clear_exit = _clear_exit_squares(b)
        p0, n0 = _packed_tiles(b, s, blue, b1, clear_exit)
        p1, n1 = _packed_tiles(b, s, brown, U0, clear_exit)
    else:
        p0 = n0 = p1 = n1 = 0
    if final > 0:
        mine = (final + 1) // 2
        theirs = final // 2
        left0 = mine if me == 0 else theirs
        left1 = theirs if me == 0 else mine
        e_pos += _exit_potential(p0, n0, left0, w)
        e_pos -= _exit_potential(p1, n1, left1, w)
    else:
        if prep > 0.0:  # the exit race with five turns each, blended in as the final phase nears
            race = _exit_potential(p0, n0, 5, w) - _exit_potential(p1, n1, 5, w)
        else:
            race = 0.0
        nb = popcount(b1)
        e_pos += (1.0 - prep) * (_top_share(nb, popcount(blue) - nb, w[W_KEEP], w[W_EXTRA])
                                 - _top_share(0, min(popcount(brown), 10), w[W_KEEP], w[W_EXTRA])) + prep * race
        # Face-down tiles at the average of what they may be.
        if nh > 0 and npool > 0:
            avg = 0.0
            for k in range(7):
                n = s[POOL + k] - (1 if k == dec else 0)
                if n > 0:
                    kv = float(KIND_VALUE[k])
                    if k <= 1:
                        avg += n * kv * w[W_KEEP]
                    elif k <= 3:
                        avg -= n * kv * w[W_KEEP]
                    elif k == 6:
                        avg -= n * kv * w[W_TREE] * 0.5
            e_pos += avg * nh / npool
        # Trees for brown's lumberjacks.
        if n_lj > 0:
            e_pos -= trees * 2.0 * w[W_TREE]
        elif s[POOL + 2] - (1 if dec == 2 else 0) > 0:
            e_pos -= trees * 2.0 * w[W_TREE] * 0.5
        e_pos -= fire * w[W_FIRE]
        e_pos += hunt * w[W_HUNT]
        # Who reveals the last tile gives the first final turn away.
        if 0 < nh <= 6:
            lim = s[STALL_LIMIT]
            if lim > 0:
                forced_is_me = (lim - stall) % 2 == 0
                last_is_me = forced_is_me if (lim % 2 == 0 or nh % 2 == 1) else not forced_is_me
            else:
                last_is_me = nh % 2 == 1
            sign = -1.0 if last_is_me else 1.0
            e_pos += (sign if me == 0 else -sign) * w[W_PARITY]
    e += e_pos
    val = e if me == 0 else -e
    val -= top * w[W_THREAT_MAX] + (total - top) * w[W_THREAT_REST]
    if val > BOUND:
        return BOUND
    if val < -BOUND:
        return -BOUND
    return val


@njit(cache=True, error_model="numpy", inline="always")
def _evaluate(b: np.ndarray, s: np.ndarray, w: np.ndarray) -> float:
    hc, fc, bc, lc = _lines(b)
    return _value(b, s, w, hc, fc, bc, lc, U0, 0, s[TURN], s[NHID], s[NPOOL], -1, s[STALL])


@njit(cache=True, error_model="numpy", inline="always")
def revealed_by_value(b: np.ndarray, s: np.ndarray, w: np.ndarray) -> bool:
    """Whether ``evaluate_revealed`` may value this state's reveals: at least two tiles face down and
    the exit race not counting after the reveal (the state after such a reveal is not over, and
    its value reads nothing of the revealed square but its bit)."""
    nh = s[NHID] - 1
    return nh > 0 and s[FINAL] < 0 and not (w[W_PREP] != 0.0 and nh <= PREP_HIDDEN)


@njit(cache=True, error_model="numpy")
def evaluate_revealed_p(b: np.ndarray, s: np.ndarray, w: np.ndarray, sq: int, c: int, hc: np.uint64, fc: np.uint64,
                        bc: np.uint64, lc: np.uint64) -> float:
    """``evaluate`` of the state after revealing tile ``c`` (from the unknown pool) on ``sq``, for the
    player then to move, without playing the reveal: the lines ``hc`` .. ``lc`` of this state
    (``_lines``) plus what the new tile reaches. Only where ``revealed_by_value`` says so. On
    pointers, for the search: called, not inlined (docs/performance.md, "Compiling the search")."""
    add = BIT[sq]
    empty = b[B_EMPTY]
    if 4 <= c <= 7:
        hc |= reach(add, empty, c - 4)
    elif c == 2:
        fc |= reach(add, empty, 0) | reach(add, empty, 1) | reach(add, empty, 2) | reach(add, empty, 3)
    elif c == 1:
        bc |= _around(add)
    elif c == 3:
        lc |= _around(add)
    return _value(b, s, w, hc, fc, bc, lc, add, c, 1 - s[TURN], s[NHID] - 1, s[NPOOL] - 1, KIND_T[c], 0)


@njit(cache=True, error_model="numpy")
def evaluate_p(b: np.ndarray, s: np.ndarray, w: np.ndarray) -> float:
    """``evaluate`` on pointers, for the search (see ``step.make_p``)."""
    return _evaluate(b, s, w)


@njit(cache=True, error_model="numpy")
def evaluate_revealed(bb: np.ndarray, s: np.ndarray, w: np.ndarray, sq: int, c: int, hc: np.uint64, fc: np.uint64,
                      bc: np.uint64, lc: np.uint64) -> float:
    """``evaluate_revealed_p`` on the arrays: a call of the search's own, compiled once, not once more
    (the lines as the search passes them: from Python they come as plain integers)."""
    return evaluate_revealed_p(ptr(bb), ptr(s), ptr(w), sq, c, np.uint64(hc), np.uint64(fc), np.uint64(bc),
                               np.uint64(lc))


@njit(cache=True, error_model="numpy")
def evaluate(bb: np.ndarray, s: np.ndarray, w: np.ndarray) -> float:
    """The expected final score difference for the player to move (see the module text): a call of the
    search's own ``evaluate_p``, so that the evaluation is compiled once, not once more for this."""
    return evaluate_p(ptr(bb), ptr(s), ptr(w))


@njit(cache=True, error_model="numpy")
def terminal_value(s: np.ndarray) -> float:
    """A finished game from the point of view of the player to move: the score difference."""
    me = s[TURN]
    return float(s[SCORE + me] - s[SCORE + 1 - me])
