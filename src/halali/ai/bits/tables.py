"""Layout, masks, the Zobrist table and bit instructions of the bitboard kernel, computed once at import.

numba freezes global arrays into the machine code as constants, so every table here costs nothing
to reach from compiled code. The int32 part of a state is a mailbox board and the counters; the
uint64 part holds the bitboards and the key.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba import types
from numba.core.extending import intrinsic

from halali.games.forest.actions import CAPTURE, EXIT, MOVE, OUTCOME_SHIFT, PASS_ACTION, TYPE_SHIFT
from halali.games.forest.tiles import (
    CAPTURES,
    EXIT_PATHS,
    EXIT_SQUARE,
    HIDDEN,
    IS_NEUTRAL_MOVER,
    KIND,
    OWN,
    OWNER,
    RAYS,
    STEPS_ONE,
    UNKNOWN,
    VALUE,
)

# ---- the int32 state: a mailbox board and the counters ----------------------------------------
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

# ---- the uint64 state: one bitboard per face-up tile code, face down, empty; the key ----------
# Index = tile code, so B[0] is the empty squares and B[c] the face-up tiles of code c (bear,
# fox, lumberjack, the hunters by rifle, duck, pheasant, tree: each kind belongs to one side).
B_EMPTY = 0
B_HIDDEN = 11
B_KEY = 12
BB_SIZE = 16

# ---- an undo record (int64): what ``unmake`` needs that the position after the action lacks ----
U_ACTION = 0  # the action as played (an unknown reveal with the outcome it turned up)
U_EXTRA = 1  # reveal: the square's code before; capture: the captured code; exit: the exited code
U_LM = 2
U_LOCK = 3
U_FINAL = 4
U_STALL = 5
U_KEY = 6  # the key before (bit pattern)
UNDO_SIZE = 8

MAX_ACTIONS = 512
EXITS_AT = 200  # gen_actions keeps exits here, and moves at MOVES_AT, until the captures are done
MOVES_AT = 256
PASS_A = PASS_ACTION
MOVE_BITS = MOVE << TYPE_SHIFT
CAPTURE_BITS = CAPTURE << TYPE_SHIFT
EXIT_BITS = EXIT << TYPE_SHIFT
T_REVEAL, T_MOVE, T_CAPTURE, T_EXIT, T_PASS = 0, 1, 2, 3, 4
OSHIFT = OUTCOME_SHIFT
HID = HIDDEN
UNK = UNKNOWN
FINAL_TURNS = 10
BEAR, FOX, LUMBERJACK, HUNTER_N, HUNTER_W, DUCK, PHEASANT, TREE = 1, 2, 3, 4, 7, 8, 9, 10
KIND_CODE = np.array([1, 2, 3, 4, 8, 9, 10], dtype=np.int32)  # kind -> a tile code (hunters: N)
KIND_VALUE = np.array([10, 5, 5, 5, 2, 3, 2], dtype=np.int64)  # kind -> its points

# ---- per tile code ----------------------------------------------------------------------------
_N = UNKNOWN + 1
CAPT_T = np.array([[[CAPTURES[c][d][t] for t in range(_N)] for d in range(4)] for c in range(_N)], dtype=np.bool_)
OWN_T = np.array([[OWN[p][c] for c in range(_N)] for p in (0, 1)], dtype=np.bool_)
OWNER_T = np.array(OWNER, dtype=np.int32)
VALUE_T = np.array(VALUE, dtype=np.int32)
KIND_T = np.array(KIND, dtype=np.int32)
NEUTRAL_T = np.array(IS_NEUTRAL_MOVER, dtype=np.bool_)
STEP1_T = np.array(STEPS_ONE, dtype=np.bool_)

# ---- squares (flat tables: compiled code indexes them through pointers, see ``ptr``) --------------
FULL = np.uint64((1 << 49) - 1)
BIT = np.array([1 << i for i in range(64)], dtype=np.uint64)
RAY = np.zeros(4 * 49, dtype=np.uint64)  # RAY[49 * d + sq]: the squares beyond sq in direction d
NBM = np.zeros(49, dtype=np.uint64)  # the neighbours of a square
for _s in range(49):
    for _d in range(4):
        for _t in RAYS[_s][_d]:
            RAY[49 * _d + _s] |= np.uint64(1 << _t)
        if RAYS[_s][_d]:
            NBM[_s] |= np.uint64(1 << RAYS[_s][_d][0])
# Per tile code and square (index 49 * code + sq): where it may capture (the rifle's ray for a
# hunter, anywhere for the others), and the exits its owner may take it out by (bit d).
CAPTURE_RAY = np.zeros(_N * 49, dtype=np.uint64)
EXIT_DIRS = np.zeros(_N * 49, dtype=np.int64)
for _c in range(1, 11):
    for _s in range(49):
        CAPTURE_RAY[49 * _c + _s] = RAY[49 * (_c - 4) + _s] if 4 <= _c <= 7 else FULL
        if OWNER[_c] < 2:
            for _d, _path in EXIT_PATHS[_s]:
                if not STEPS_ONE[_c] or _s == EXIT_SQUARE[_d]:
                    EXIT_DIRS[49 * _c + _s] |= 1 << _d

# Sliding along a rank or a file: the seven squares of the line form a 7-bit occupancy index, and
# LINE_REACH[128 * i + occupancy] gives the positions reached from position i, the first occupied
# one on each side included. A file's bits are gathered into an index by one product and spread
# back by SPREAD. The tables are small (2 KB) so that they stay in the first-level cache; one board
# word per square and occupancy would take 100 KB.


def _reach(i: int, occ: int) -> int:
    out = 0
    for step in (1, -1):
        j = i + step
        while 0 <= j < 7:
            out |= 1 << j
            if occ >> j & 1:
                break
            j += step
    return out


LINE_REACH = np.array([_reach(i, occ) for i in range(7) for occ in range(128)], dtype=np.uint8)
SPREAD = np.array([sum(1 << (7 * r) for r in range(7) if i >> r & 1) for i in range(128)], dtype=np.uint64)
RANK_SHIFT = np.array([7 * (s // 7) for s in range(49)], dtype=np.uint64)  # the bit of the rank's file a
FILE_SHIFT = np.array([s % 7 for s in range(49)], dtype=np.uint64)  # the bit of the file's rank 1
RANK_LINE = np.array([128 * (s % 7) for s in range(49)], dtype=np.int64)  # where in the rank it stands
FILE_LINE = np.array([128 * (s // 7) for s in range(49)], dtype=np.int64)  # where in the file
FILE_A = np.uint64(sum(1 << (7 * r) for r in range(7)))
NOT_A = FULL & ~FILE_A  # where a step east may land
NOT_G = FULL & ~(FILE_A << np.uint64(6))  # where a step west may land
EXIT_LINES = np.uint64(sum(1 << s for s in range(49) if EXIT_PATHS[s]))  # the middle row and column
EXIT_SQ = np.array(EXIT_SQUARE, dtype=np.int64)  # per direction: the square a tile leaves the board from
# (occupancy of file a) * FILE_MAGIC brings square a(r+1), bit 7r, to bit 42 + r, with no carries.
FILE_MAGIC = np.uint64(sum(1 << (42 - 6 * r) for r in range(7)))
# SELECT8[8 * byte + r]: the position of the r-th set bit of a byte.
SELECT8 = np.zeros(256 * 8, dtype=np.uint8)
for _b in range(256):
    for _r, _i in enumerate(i for i in range(8) if _b >> i & 1):
        SELECT8[8 * _b + _r] = _i

# ---- Zobrist keys: one random word per square and tile code, and per value of every counter that
# decides a position's future (the turn, the last own moves, the lock, the final turns, the stall
# count up to 63, the scores, the unknown pool per kind up to 15). The seed is fixed, so a key is the
# same in every process (and every transposition table entry written by one search means the same in
# the next).
ZT = np.random.default_rng(20240611).integers(1, 2**63 - 1, size=49 * 33 + 2 + 2 * 4097 + 50 + 12 + 64 + 2 * 200
                                               + 7 * 16, dtype=np.int64).view(np.uint64)
Z_TURN = 49 * 33
Z_LM = Z_TURN + 2
Z_LOCK = Z_LM + 2 * 4097
Z_FINAL = Z_LOCK + 50
Z_STALL = Z_FINAL + 12
Z_SCORE = Z_STALL + 64
Z_POOL = Z_SCORE + 2 * 200
Z_FLIP = ZT[Z_TURN] ^ ZT[Z_TURN + 1]  # the turn changes with every action


# ---- bit instructions (LLVM intrinsics: popcnt, tzcnt, lzcnt where the processor has them) ---------
# Compiled code calls them like functions of a uint64 returning an int64; the casts tell mypy so.
@intrinsic
def _popcount(typingctx, x):  # type: ignore[no-untyped-def]
    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.ctpop(args[0])
    return types.int64(types.uint64), codegen


@intrinsic
def _lowest(typingctx, x):  # type: ignore[no-untyped-def]
    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))
    return types.int64(types.uint64), codegen


@intrinsic
def _highest(typingctx, x):  # type: ignore[no-untyped-def]
    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        lz = builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))
        return builder.sub(ir.Constant(ir.IntType(64), 63), lz)
    return types.int64(types.uint64), codegen


@intrinsic
def _ptr(typingctx, arr):  # type: ignore[no-untyped-def]
    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return context.make_array(signature.args[0])(context, builder, args[0]).data
    return types.CPointer(arr.dtype)(arr), codegen  # type: ignore[no-untyped-call]


@intrinsic
def _ptr_at(typingctx, arr, i):  # type: ignore[no-untyped-def]
    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        return builder.gep(data, [args[1]])
    return types.CPointer(arr.dtype)(arr, types.intp), codegen  # type: ignore[no-untyped-call]


@intrinsic
def _at(typingctx, p, i):  # type: ignore[no-untyped-def]
    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.gep(args[0], [args[1]])
    return p(p, types.intp), codegen


popcount = cast(Callable[[Any], int], _popcount)  # the set bits of a uint64
lowest = cast(Callable[[Any], int], _lowest)  # the index of the lowest set bit (not of 0)
highest = cast(Callable[[Any], int], _highest)  # the index of the highest set bit (not of 0)
# The data of an array as a raw pointer, indexed like the array. numba reference-counts every array
# handed to a function (an atomic operation at each call and inlined call), which in the playout
# loop cost more than the rules; a pointer is a plain machine word. The array must outlive it,
# which an argument of the calling function does.
ptr = cast(Callable[[Any], Any], _ptr)
# The same from the element ``i`` of a C-contiguous array on (a row of a two-dimensional one).
ptr_at = cast(Callable[[Any, int], Any], _ptr_at)
# A pointer ``i`` elements further on.
at = cast(Callable[[Any, int], Any], _at)
