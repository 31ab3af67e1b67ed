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
but off: measured at weight 1 it played worse (docs/ai.md).

The weights live in an array (``WEIGHTS``) so the levels can use different ones without compiling
twice.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from halali.ai.kernel import (
    EXIT_SQ,
    FINAL,
    HID,
    NEUTRAL_T,
    NHID,
    NPOOL,
    OWNER_T,
    POOL,
    RAY,
    RAYLEN,
    SCORE,
    STALL,
    STALL_LIMIT,
    STEP1_T,
    TURN,
    VALUE_T,
)

# ---- weights --------------------------------------------------------------------------------
W_KEEP = 0  # share of an own tile's value before the final phase (the five most valuable)
W_EXTRA = 1  # share for own tiles beyond the five best (at most five turns to exit them)
W_TREE = 2  # share of a face-up tree's value for brown while a lumberjack may cut it
W_THREAT_MAX = 3  # share of the largest threatened loss of the player to move (he may rescue it)
W_THREAT_REST = 4  # share of the other threatened losses
W_EXIT1 = 5  # final phase: share of a tile one turn from leaving
W_EXIT2 = 6  # ... two turns
W_EXIT3 = 7  # ... three or more turns, if the turns left allow
W_FIRE = 8  # face-down tile first in an enemy hunter's line (a reveal there feeds the hunter)
W_PARITY = 9  # points for not being the one to reveal the last tile
W_HUNT = 10  # potential prey in own lines of fire, per point of prey value
W_PREP = 11  # before the final phase, with few tiles face down: weight of the exit race to come
N_WEIGHTS = 12
# Their names, as `halali train` writes them and the tuning duels take them (index = the W_ constant).
WEIGHT_NAMES = ("keep", "extra", "tree", "tmax", "trest", "exit1", "exit2", "exit3", "fire", "parity", "hunt",
                "prep")
PREP_HIDDEN = 8  # the exit race starts to count when this many tiles or fewer are face down

WEIGHTS = np.array([0.45, 0.15, 0.5, 0.3, 0.9, 0.95, 0.75, 0.45, 0.4, 1.0, 0.05, 0.0], dtype=np.float64)
# Level 6's weights: the hand-set ones with nothing for the trees a lumberjack may still cut, chosen
# by duels against the hand-set weights (docs/ai.md, "Weights by duels"). The levels below keep the
# hand-set weights that their ladder was measured with, and the frozen baseline keeps them too.
STRONGEST = WEIGHTS.copy()
STRONGEST[W_TREE] = 0.0
MATERIAL_ONLY = np.zeros(N_WEIGHTS, dtype=np.float64)

BEAR, FOX, LUMBERJACK, TREE = 1, 2, 3, 10
BOUND = 250.0
_KIND_VALUE = np.array([10, 5, 5, 5, 2, 3, 2], dtype=np.int64)

# Neighbour masks and middle-line masks as 49-bit words.
NB_MASK = np.zeros(49, dtype=np.int64)
for _s in range(49):
    for _d in range(4):
        if RAYLEN[_s, _d]:
            NB_MASK[_s] |= np.int64(1) << np.int64(RAY[_s, _d, 0])


@njit(cache=True, error_model="numpy")
def _ray_cover(s: np.ndarray, sq: int, d: int) -> int:
    """Squares a slider on ``sq`` reaches in direction ``d``: the empty ones and the first tile."""
    m = 0
    for i in range(RAYLEN[sq, d]):
        t = RAY[sq, d, i]
        m |= 1 << t
        if s[t] != 0:
            break
    return m


@njit(cache=True, error_model="numpy")
def _exit_turns(s: np.ndarray, sq: int, c: int, clear_exit: int) -> int:
    """Turns a tile needs to leave the board (4 means 'not soon')."""
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
    if (clear_exit >> sq) & 1:
        return 1
    for d in range(4):
        for i in range(RAYLEN[sq, d]):
            t = RAY[sq, d, i]
            if s[t] != 0:
                break
            if (clear_exit >> t) & 1:
                return 2
    return 3


@njit(cache=True, error_model="numpy")
def _clear_exit_squares(s: np.ndarray) -> int:
    """Squares from which a slider leaves in one turn: the middle lines, clear up to the exit."""
    m = 0
    for d in range(4):
        e = EXIT_SQ[d]
        back = (d + 2) % 4
        m |= 1 << e
        if s[e] != 0:
            continue
        for i in range(RAYLEN[e, back]):
            t = RAY[e, back, i]
            m |= 1 << t
            if s[t] != 0:
                break
    return m


@njit(cache=True, error_model="numpy")
def _top_share(vals: np.ndarray, n: int, keep: float, extra: float) -> float:
    """``keep`` of the five largest values plus ``extra`` of the rest."""
    for i in range(1, n):  # insertion sort, descending; n <= 10
        v = vals[i]
        j = i - 1
        while j >= 0 and vals[j] < v:
            vals[j + 1] = vals[j]
            j -= 1
        vals[j + 1] = v
    total = 0.0
    for i in range(n):
        total += vals[i] * (keep if i < 5 else extra)
    return total


@njit(cache=True, error_model="numpy")
def _exit_potential(vals: np.ndarray, turns: np.ndarray, n: int, left: int, w: np.ndarray) -> float:
    """Greedy: the most valuable tiles that fit in the final turns left, by turns needed."""
    total = 0.0
    used = np.zeros(10, dtype=np.bool_)
    for _ in range(n):
        bi = -1
        for i in range(n):
            if not used[i] and turns[i] <= left and (bi < 0 or vals[i] * 4 - turns[i] > vals[bi] * 4 - turns[bi]):
                bi = i
        if bi < 0:
            break
        used[bi] = True
        t = turns[bi]
        left -= t
        total += vals[bi] * (w[W_EXIT1] if t == 1 else (w[W_EXIT2] if t == 2 else w[W_EXIT3]))
    return total


@njit(cache=True, error_model="numpy")
def evaluate(s: np.ndarray, w: np.ndarray) -> float:
    """Expected final score difference for the player to move (see the module text)."""
    me = s[TURN]
    e = float(s[SCORE] - s[SCORE + 1])  # blue minus brown until the end
    final = s[FINAL]
    nh = s[NHID]
    # Pass 1: what each side can capture where.
    hc = 0  # brown hunters' lines of fire (bear, fox, duck, pheasant there can be shot)
    bc = 0  # next to a blue bear (hunter, lumberjack there can be taken)
    fc = 0  # blue foxes' lines (duck, pheasant)
    lc = 0  # next to a brown lumberjack (tree)
    n_lj = 0
    for sq in range(49):
        c = s[sq]
        if c == 0 or c >= HID:
            continue
        if c == BEAR:
            bc |= NB_MASK[sq]
        elif c == FOX:
            for d in range(4):
                fc |= _ray_cover(s, sq, d)
        elif c == LUMBERJACK:
            lc |= NB_MASK[sq]
            n_lj += 1
        elif 4 <= c <= 7:
            hc |= _ray_cover(s, sq, c - 4)
    prep = 0.0
    if final < 0 and 0 < nh <= PREP_HIDDEN:
        prep = w[W_PREP] * (1.0 - nh / (PREP_HIDDEN + 1.0))
    clear_exit = _clear_exit_squares(s) if final > 0 or prep > 0.0 else 0
    vals = np.zeros((2, 10), dtype=np.float64)
    turns = np.zeros((2, 10), dtype=np.int64)
    nown = np.zeros(2, dtype=np.int64)
    threat_max = 0.0
    threat_sum = 0.0
    fire = 0  # face-down tiles first in a brown hunter's line
    hunt = 0.0
    trees = 0
    for sq in range(49):
        c = s[sq]
        if c == 0:
            continue
        bit = 1 << sq
        if c >= HID:
            if hc & bit:
                fire += 1
            continue
        owner = OWNER_T[c]
        v = float(VALUE_T[c])
        # Captures available to each side on this square, as exchange gains.
        gain_brown = 0.0
        gain_blue = 0.0
        if owner == 0 or NEUTRAL_T[c]:
            if hc & bit:
                gain_brown = v - (5.0 if bc & bit else 0.0)
        if owner == 1:
            if bc & bit:
                gain_blue = v - (10.0 if hc & bit else 0.0)
        elif NEUTRAL_T[c]:
            if fc & bit:
                gain_blue = v - (5.0 if hc & bit else 0.0)
        elif c == TREE:
            trees += 1
            if lc & bit:
                gain_brown = v - (5.0 if bc & bit else 0.0)
        loss = gain_brown if me == 0 else gain_blue
        if loss > 0.0:
            threat_sum += loss
            if loss > threat_max:
                threat_max = loss
        if owner < 2 and nown[owner] < 10:
            vals[owner, nown[owner]] = v
            if final > 0 or prep > 0.0:
                turns[owner, nown[owner]] = _exit_turns(s, sq, c, clear_exit)
            nown[owner] += 1
        if NEUTRAL_T[c]:
            if hc & bit:
                hunt -= v
            if fc & bit:
                hunt += v
    e_pos = 0.0
    if final > 0:
        mine = (final + 1) // 2
        theirs = final // 2
        left0 = mine if me == 0 else theirs
        left1 = theirs if me == 0 else mine
        e_pos += _exit_potential(vals[0], turns[0], nown[0], left0, w)
        e_pos -= _exit_potential(vals[1], turns[1], nown[1], left1, w)
    else:
        if prep > 0.0:  # the exit race with five turns each, blended in as the final phase nears
            race = _exit_potential(vals[0], turns[0], nown[0], 5, w) - _exit_potential(vals[1], turns[1], nown[1], 5, w)
        else:
            race = 0.0
        e_pos += (1.0 - prep) * (_top_share(vals[0], nown[0], w[W_KEEP], w[W_EXTRA])
                                 - _top_share(vals[1], nown[1], w[W_KEEP], w[W_EXTRA])) + prep * race
        # Face-down tiles at the average of what they may be.
        if nh > 0 and s[NPOOL] > 0:
            avg = 0.0
            for k in range(7):
                n = s[POOL + k]
                if n > 0:
                    kv = float(_KIND_VALUE[k])
                    if k <= 1:
                        avg += n * kv * w[W_KEEP]
                    elif k <= 3:
                        avg -= n * kv * w[W_KEEP]
                    elif k == 6:
                        avg -= n * kv * w[W_TREE] * 0.5
            e_pos += avg * nh / s[NPOOL]
        # Trees for brown's lumberjacks.
        if n_lj > 0:
            e_pos -= trees * 2.0 * w[W_TREE]
        elif s[POOL + 2] > 0:
            e_pos -= trees * 2.0 * w[W_TREE] * 0.5
        e_pos -= fire * w[W_FIRE]
        e_pos += hunt * w[W_HUNT]
        # Who reveals the last tile gives the first final turn away.
        if 0 < nh <= 6:
            lim = s[STALL_LIMIT]
            # If nobody reveals by choice, the stall rule makes the player to move at the limit
            # reveal; each reveal resets the count, so that player reveals again after `lim` turns.
            if lim > 0:
                forced_is_me = (lim - s[STALL]) % 2 == 0
                # An even limit brings the same player back to the limit; an odd one alternates.
                last_is_me = forced_is_me if (lim % 2 == 0 or nh % 2 == 1) else not forced_is_me
            else:
                last_is_me = nh % 2 == 1
            sign = -1.0 if last_is_me else 1.0
            e_pos += (sign if me == 0 else -sign) * w[W_PARITY]
    e += e_pos
    val = e if me == 0 else -e
    val -= threat_max * w[W_THREAT_MAX] + (threat_sum - threat_max) * w[W_THREAT_REST]
    if val > BOUND:
        return BOUND
    if val < -BOUND:
        return -BOUND
    return val


@njit(cache=True, error_model="numpy")
def terminal_value(s: np.ndarray) -> float:
    """A finished game from the point of view of the player to move: the score difference."""
    me = s[TURN]
    d = float(s[SCORE + me] - s[SCORE + 1 - me])
    return d
