"""The compiled kernel: the forest rules on a flat int array, for search and random playouts.

The pure engine (``halali.games.forest``) is the reference; this is a second implementation of the
same rules that numba compiles to machine code, because search needs millions of positions a
second and the pure engine gives about a hundred thousand. ``tests/ai/test_kernel_differential.py``
proves the two agree on legal actions and on every field after an action.

A state is one ``int32`` array (layout below), so copying it for a child is a single ``memcpy``.
Actions use the engine's integer coding (``halali.games.forest.actions``), so nothing is translated
at the boundary. A face-down tile nobody knows (``UNKNOWN``) is revealed with the outcome carried in
the action, or, in a playout, drawn from ``POOL``: the counts of each kind not yet accounted for,
which is exactly the distribution ``Position.hidden_distribution`` gives.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from halali.ai import jitcache  # noqa: F401  (must run before anything below is compiled)
from halali.games.forest.actions import CAPTURE, EXIT, MOVE, OUTCOME_SHIFT, PASS_ACTION, TYPE_SHIFT
from halali.games.forest.position import Position
from halali.games.forest.rules import Rules
from halali.games.forest.tiles import (
    CAPTURES,
    EXIT_PATHS,
    EXIT_SQUARE,
    HIDDEN,
    IS_NEUTRAL_MOVER,
    KIND,
    MOVABLE,
    OWN,
    OWNER,
    RAYS,
    STEPS_ONE,
    UNKNOWN,
    VALUE,
)

# ---- state layout ---------------------------------------------------------------------------
TURN = 49  # 0 blue, 1 brown
LM = 50  # LM + p: player p's last own move (source << 6 | target) or -1
LOCK = 52  # square of the green-locked duck or pheasant, or -1
FINAL = 53  # final turns left, -1 before the last reveal
STALL = 54
SCORE = 55  # SCORE + p
NTILES = 57  # NTILES + p
OWNN = 59  # OWNN + p: own-colour tiles of p face up on the board
NHID = 61  # face-down tiles on the board
POOL = 62  # POOL + kind: unknown tiles of that kind still face down somewhere
NPOOL = 69
CAPT = 70  # CAPT + 7 * p + kind
EXITED = 84  # EXITED + 7 * p + kind
STALL_LIMIT = 98
LOCK_ON_MOVE = 99
NR_NEUTRALS = 100
STATE_SIZE = 101

MAX_ACTIONS = 512
PASS_A = PASS_ACTION
MOVE_BITS = MOVE << TYPE_SHIFT
CAPTURE_BITS = CAPTURE << TYPE_SHIFT
EXIT_BITS = EXIT << TYPE_SHIFT
T_REVEAL, T_MOVE, T_CAPTURE, T_EXIT, T_PASS = 0, 1, 2, 3, 4
OSHIFT = OUTCOME_SHIFT
HID = HIDDEN
UNK = UNKNOWN
FINAL_TURNS = 10
KIND_CODE = np.array([1, 2, 3, 4, 8, 9, 10], dtype=np.int32)  # kind -> a tile code (hunters: N)

# ---- tables (frozen into the compiled code as constants) -------------------------------------
_N = UNKNOWN + 1
RAY = np.full((49, 4, 7), -1, dtype=np.int32)
RAYLEN = np.zeros((49, 4), dtype=np.int32)
for _s in range(49):
    for _d in range(4):
        RAYLEN[_s, _d] = len(RAYS[_s][_d])
        for _i, _t in enumerate(RAYS[_s][_d]):
            RAY[_s, _d, _i] = _t
CAPT_T = np.zeros((_N, 4, _N), dtype=np.bool_)
for _c in range(_N):
    for _d in range(4):
        for _t in range(_N):
            CAPT_T[_c, _d, _t] = CAPTURES[_c][_d][_t]
MOVABLE_T = np.array([[MOVABLE[p][c] for c in range(_N)] for p in (0, 1)], dtype=np.bool_)
OWN_T = np.array([[OWN[p][c] for c in range(_N)] for p in (0, 1)], dtype=np.bool_)
OWNER_T = np.array(OWNER, dtype=np.int32)
VALUE_T = np.array(VALUE, dtype=np.int32)
KIND_T = np.array(KIND, dtype=np.int32)
NEUTRAL_T = np.array(IS_NEUTRAL_MOVER, dtype=np.bool_)
STEP1_T = np.array(STEPS_ONE, dtype=np.bool_)
EXIT_OK = np.zeros((49, 4), dtype=np.bool_)
for _s in range(49):
    for _d, _path in EXIT_PATHS[_s]:
        EXIT_OK[_s, _d] = True
EXIT_SQ = np.array(EXIT_SQUARE, dtype=np.int32)


# ---- conversion -----------------------------------------------------------------------------
def from_position(pos: Position) -> np.ndarray:
    """The kernel state of a position (a view or a position that knows the deal)."""
    s = np.zeros(STATE_SIZE, dtype=np.int32)
    s[:49] = pos.board
    s[TURN] = pos.turn
    s[LM], s[LM + 1] = pos.last_move
    s[LOCK] = pos.lock
    s[FINAL] = pos.final
    s[STALL] = pos.stall
    s[SCORE], s[SCORE + 1] = pos.score
    s[NTILES], s[NTILES + 1] = pos.ntiles
    s[OWNN], s[OWNN + 1] = pos.own
    s[NHID] = len(pos.hidden)
    left = pos.remaining_kinds()
    unknown = sum(1 for sq in pos.hidden if pos.board[sq] == UNKNOWN)
    for k in range(7):
        s[POOL + k] = max(left[k], 0) if unknown else 0
    s[NPOOL] = int(s[POOL:POOL + 7].sum())
    for p in (0, 1):
        s[CAPT + 7 * p:CAPT + 7 * p + 7] = pos.captured[p]
        s[EXITED + 7 * p:EXITED + 7 * p + 7] = pos.exited[p]
    set_rules(s, pos.rules)
    return s


def set_rules(s: np.ndarray, rules: Rules) -> None:
    s[STALL_LIMIT] = rules.stall_limit
    s[LOCK_ON_MOVE] = 1 if rules.lock_on_move else 0
    s[NR_NEUTRALS] = 1 if rules.no_return_neutrals else 0


def to_position(s: np.ndarray, rules: Rules) -> Position:
    """The engine position of a kernel state (for tests and for reporting)."""
    pos = Position(rules)
    pos.board = [int(v) for v in s[:49]]
    pos.turn = int(s[TURN])
    pos.last_move = [int(s[LM]), int(s[LM + 1])]
    pos.lock = int(s[LOCK])
    pos.final = int(s[FINAL])
    pos.stall = int(s[STALL])
    for p in (0, 1):
        pos.captured[p] = [int(v) for v in s[CAPT + 7 * p:CAPT + 7 * p + 7]]
        pos.exited[p] = [int(v) for v in s[EXITED + 7 * p:EXITED + 7 * p + 7]]
    pos._recount()
    return pos


def new_rng(seed: int) -> np.ndarray:
    """The state of the kernel's xorshift generator (never zero)."""
    x = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & 0xFFFFFFFFFFFFFFFF
    return np.array([x or 1], dtype=np.uint64)


# ---- random numbers -------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def rand_u64(rng: np.ndarray) -> np.uint64:
    x = rng[0]
    x ^= x << np.uint64(13)
    x ^= x >> np.uint64(7)
    x ^= x << np.uint64(17)
    rng[0] = x
    return x


@njit(cache=True, error_model="numpy")
def rand_below(rng: np.ndarray, n: int) -> np.int64:
    return np.int64((rand_u64(rng) >> np.uint64(11)) % np.uint64(n))


@njit(cache=True, error_model="numpy")
def rand_float(rng: np.ndarray) -> float:
    return np.float64(rand_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


# ---- the rules ------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def is_over(s: np.ndarray) -> bool:
    return s[FINAL] == 0 or (s[NHID] == 0 and (s[OWNN] == 0 or s[OWNN + 1] == 0))


@njit(cache=True, error_model="numpy")
def gen_actions(s: np.ndarray, out: np.ndarray) -> int:
    """Write the legal actions into ``out`` (reveals without outcome); return how many."""
    final = s[FINAL]
    nh = s[NHID]
    if final == 0 or (nh == 0 and (s[OWNN] == 0 or s[OWNN + 1] == 0)):
        return 0
    n = 0
    lim = s[STALL_LIMIT]
    forced = nh > 0 and lim > 0 and s[STALL] >= lim
    p = s[TURN]
    lock = s[LOCK]
    forbid = s[LM + p]
    ff = -1
    ft = -1
    if forbid >= 0:
        ff = forbid & 63
        ft = forbid >> 6
    for sq in range(49):
        c = s[sq]
        if c == 0:
            continue
        if c >= HID:
            out[n] = sq
            n += 1
            continue
        if forced or not MOVABLE_T[p, c] or sq == lock:
            continue
        base = sq << 6
        if STEP1_T[c]:
            for d in range(4):
                if RAYLEN[sq, d] == 0:
                    continue
                t = RAY[sq, d, 0]
                if sq == ff and t == ft:
                    continue
                tc = s[t]
                if tc == 0:
                    out[n] = MOVE_BITS | base | t
                    n += 1
                elif CAPT_T[c, d, tc]:
                    out[n] = CAPTURE_BITS | base | t
                    n += 1
        else:
            for d in range(4):
                for i in range(RAYLEN[sq, d]):
                    t = RAY[sq, d, i]
                    tc = s[t]
                    if tc == 0:
                        if not (sq == ff and t == ft):
                            out[n] = MOVE_BITS | base | t
                            n += 1
                    else:
                        if CAPT_T[c, d, tc] and not (sq == ff and t == ft):
                            out[n] = CAPTURE_BITS | base | t
                            n += 1
                        break
        if final > 0 and OWNER_T[c] == p:
            for d in range(4):
                if EXIT_OK[sq, d] and (not STEP1_T[c] or sq == EXIT_SQ[d]):
                    clear = True
                    for i in range(RAYLEN[sq, d]):
                        if s[RAY[sq, d, i]] != 0:
                            clear = False
                            break
                    if clear:
                        out[n] = EXIT_BITS | base | d
                        n += 1
    if n == 0:
        out[0] = PASS_A
        n = 1
    return n


@njit(cache=True, error_model="numpy")
def draw_unknown(s: np.ndarray, rng: np.ndarray) -> int:
    """A tile code drawn from the unknown pool (hunters with a uniform rifle)."""
    r = rand_below(rng, s[NPOOL])
    k = 0
    while r >= s[POOL + k]:
        r -= s[POOL + k]
        k += 1
    c = KIND_CODE[k]
    if k == 3:
        c += rand_below(rng, 4)
    return c


@njit(cache=True, error_model="numpy")
def apply(s: np.ndarray, a: int, rng: np.ndarray) -> None:
    """Play a legal action in place (an unknown reveal without outcome draws one from the pool)."""
    kind = (a >> TYPE_SHIFT) & 7
    p = s[TURN]
    final = s[FINAL]
    if kind == T_REVEAL:
        sq = a & 63
        orig = s[sq]
        if orig == UNK:
            c = (a >> OSHIFT) & 31
            if c == 0:
                c = draw_unknown(s, rng)
            s[POOL + KIND_T[c]] -= 1
            s[NPOOL] -= 1
        else:
            c = orig - HID
        s[sq] = c
        s[NHID] -= 1
        owner = OWNER_T[c]
        if owner < 2:
            s[OWNN + owner] += 1
        s[STALL] = 0
        s[LM + p] = -1
        s[LOCK] = sq if NEUTRAL_T[c] else -1
        if s[NHID] == 0:
            s[FINAL] = FINAL_TURNS
    elif kind == T_MOVE:
        f = (a >> 6) & 63
        t = a & 63
        c = s[f]
        s[f] = 0
        s[t] = c
        s[STALL] += 1
        neutral = NEUTRAL_T[c]
        if OWN_T[p, c] or (neutral and s[NR_NEUTRALS] != 0):
            s[LM + p] = f << 6 | t
        else:
            s[LM + p] = -1
        s[LOCK] = t if (neutral and s[LOCK_ON_MOVE] != 0) else -1
        if final > 0:
            s[FINAL] = final - 1
    elif kind == T_CAPTURE:
        f = (a >> 6) & 63
        t = a & 63
        c = s[f]
        x = s[t]
        s[f] = 0
        s[t] = c
        s[CAPT + 7 * p + KIND_T[x]] += 1
        s[SCORE + p] += VALUE_T[x]
        s[NTILES + p] += 1
        owner = OWNER_T[x]
        if owner < 2:
            s[OWNN + owner] -= 1
        s[STALL] = 0
        s[LM + p] = f << 6 | t
        s[LOCK] = -1
        if final > 0:
            s[FINAL] = final - 1
    elif kind == T_EXIT:
        f = (a >> 6) & 63
        c = s[f]
        s[f] = 0
        s[EXITED + 7 * p + KIND_T[c]] += 1
        s[SCORE + p] += VALUE_T[c]
        s[NTILES + p] += 1
        s[OWNN + p] -= 1
        s[STALL] = 0
        s[LM + p] = -1
        s[LOCK] = -1
        if final > 0:
            s[FINAL] = final - 1
    else:
        s[STALL] += 1
        s[LM + p] = -1
        s[LOCK] = -1
        if final > 0:
            s[FINAL] = final - 1
    s[TURN] = p ^ 1


@njit(cache=True, error_model="numpy")
def playout(s: np.ndarray, rng: np.ndarray, buf: np.ndarray) -> int:
    """Play uniformly random actions to the end, in place; return how many were played."""
    n = 0
    while True:
        k = gen_actions(s, buf)
        if k == 0:
            return n
        apply(s, buf[rand_below(rng, k)], rng)
        n += 1


@njit(cache=True, error_model="numpy")
def playouts(s0: np.ndarray, games: int, rng: np.ndarray) -> tuple[int, int]:
    """``games`` random playouts from ``s0``: (actions played, sum of blue-minus-brown scores)."""
    buf = np.empty(MAX_ACTIONS, dtype=np.int32)
    s = s0.copy()
    total = 0
    diff = 0
    for _ in range(games):
        s[:] = s0
        total += playout(s, rng, buf)
        diff += s[SCORE] - s[SCORE + 1]
    return total, diff


@njit(cache=True, error_model="numpy")
def legal_list(s: np.ndarray) -> np.ndarray:
    """The legal actions as a fresh array (for tests and the Python side)."""
    buf = np.empty(MAX_ACTIONS, dtype=np.int32)
    n = gen_actions(s, buf)
    return buf[:n].copy()


@njit(cache=True, error_model="numpy")
def child(s: np.ndarray, a: int, rng: np.ndarray) -> np.ndarray:
    c = s.copy()
    apply(c, a, rng)
    return c
