"""The numba search of the exact Connect4 solver (``connect4_solver``): Pons' bitboard
negamax with alpha-beta over null windows, a transposition table of partial keys, centre-first
move ordering by the winning cells a move creates, and early pruning of moves that lose at
once. Positions are the ``current``/``mask`` bitboards of ``connect4_position``.

Beyond Pons (each measured on beginning-hard positions against bitbully, whose search has the
same ideas): a position and its mirror share a table entry early in the game, children's table
entries are probed for a cutoff before any is searched (enhanced transposition cutoff), and
late in the game moves are ordered by column alone and positions skip the table. A node
starts loading its children's table entries before it probes its own (``PREFETCH_PLY``;
measured against Pons' own solver in ``benchmarks/bench_connect4_solver.py``). The
thresholds are ``MIRROR_PLY``, ``ETC_PLY``, ``SORT_PLY``, ``TT_PLY`` and ``PREFETCH_PLY``.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from zoo.board_games.connect4.envs.connect4_book import MISSING, book_score
from zoo.board_games.connect4.envs.connect4_position import (
    BOARD_MASK,
    BOTTOM_MASK,
    HEIGHT,
    SIZE,
    WIDTH,
)

#: Bounds of the scores a search can return from a position where no immediate win exists
#: (Pons' ``MIN_SCORE``/``MAX_SCORE``); the table's bound encoding relies on them.
MIN_SCORE = -(SIZE // 2) + 3  # -18
MAX_SCORE = (SIZE + 1) // 2 - 3  # 18
#: Default number of table entries: the first prime above 2**23 (5 bytes each: 40 MiB).
DEFAULT_TABLE_SIZE = 8388617
#: Smallest table allowed: the index (key mod a prime p) and the stored low 32 bits of a key
#: < 2**49 identify it only if p * 2**32 > 2**49 (Chinese remainder theorem).
MIN_TABLE_SIZE = (1 << 17) + 1
COLUMN_ORDER = np.array([3, 2, 4, 1, 5, 0, 6], dtype=np.int64)
#: Below this many stones a position and its mirror share one table entry (both score the
#: same); later, symmetric transpositions are rare and the mirror costs more than it saves.
MIRROR_PLY = 22
#: Below this many stones a node probes its children's table entries before searching them
#: (enhanced transposition cutoff). 28 rather than 34 once a node cost less: the best of 0,
#: 22, 28 and 34 on beginning-medium, middle-medium and beginning-hard positions alike.
ETC_PLY = 28
#: A search probes children's entries (above) only after it has entered this many nodes: on
#: an empty table, small searches find little there and would pay a table access per child
#: of every node. 20,000 rather than 1,000 once a node cost less: beginning easy 151 -> 131
#: us, middle medium 6.4 -> 4.7-5.0 ms, beginning medium and hard unchanged (interleaved
#: runs, best of 2-8 rounds).
ETC_NODES = 20_000
#: ... and a search shares mirrored entries (``MIRROR_PLY``) only from this many nodes on:
#: small searches meet few mirrored transpositions and paid for the mirror at every probe
#: (beginning easy 141 -> 112 us; beginning medium and hard unchanged). Switching keys
#: within a search is safe: either key finds an entry of a position with the same score.
MIRROR_NODES = 20_000
#: Below this many stones moves are sorted by the winning cells they create; later, by column
#: only (the count costs more than the nodes it saves).
SORT_PLY = 32
#: Positions with this many stones or more skip the table: their subtrees are small, and a
#: probe is a miss in main memory that costs more than searching them again.
TT_PLY = 36
#: Below this many stones a node starts loading its children's table entries on entry,
#: before it probes its own (``_prefetch_children``, LLVM's prefetch): a probe is mostly a
#: miss in main memory, and loads started together overlap. Against no prefetch (20 positions
#: a kind, best of 3 interleaved rounds): middle medium 0.72-0.78x the time, beginning easy
#: 0.74-0.82x, beginning medium 0.92x, and 0.86-0.92x of that again for loading on entry
#: rather than after ordering the moves; 24 or 30 instead of 36 saved less.
PREFETCH_PLY = TT_PLY
_COL = np.int64((1 << (HEIGHT + 1)) - 1)
_LEAF = MISSING  # no value yet (not in the book either): search the children


@njit(cache=True)
def popcount(m):
    """Set bits of a non-negative int64 (< 2**63), branch-free (SWAR)."""
    m = m - ((m >> 1) & 0x5555555555555555)
    m = (m & 0x3333333333333333) + ((m >> 2) & 0x3333333333333333)
    m = (m + (m >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (m * 0x0101010101010101) >> 56


@njit(cache=True)
def winning_cells(pos, mask):
    """Empty cells (sentinels excluded) that complete four of ``pos``'s stones."""
    r = (pos << 1) & (pos << 2) & (pos << 3)  # vertical
    for s in (HEIGHT + 1, HEIGHT, HEIGHT + 2):  # horizontal, two diagonals
        p = (pos << s) & (pos << (2 * s))
        r |= p & (pos << (3 * s))
        r |= p & (pos >> s)
        p = (pos >> s) & (pos >> (2 * s))
        r |= p & (pos << s)
        r |= p & (pos >> (3 * s))
    return r & (BOARD_MASK ^ mask)


@njit(cache=True)
def can_win_next(current, mask):
    """True if the player to move wins with one stone."""
    return (winning_cells(current, mask) & ((mask + BOTTOM_MASK) & BOARD_MASK)) != 0


@njit(cache=True, inline="always")
def non_losing_moves(current, mask):
    """Playable cells that do not let the opponent win at once (0: every move loses).

    Precondition: the player to move cannot win at once.
    """
    possible = (mask + BOTTOM_MASK) & BOARD_MASK
    opp_win = winning_cells(current ^ mask, mask)
    forced = possible & opp_win
    if forced:
        if forced & (forced - 1):
            return 0  # two threats: cannot block both
        possible = forced
    return possible & ~(opp_win >> 1)  # never play right under an opponent's winning cell


# _tt_get, _store and popcount are not inline="always" (numba IR inlining): inlined, the pool
# bot's closure (tables reached through carrays) played other columns than the env's bot, with
# fresh caches (test_perfect_connect4_bot_batched_equals_sequential). table_key and _etc are
# inlined: both pass that test, and calls to them cost about a tenth of a solve.
@njit(cache=True, inline="always")
def table_key(current, mask, n, mirror_ply=MIRROR_PLY):
    """The table key of a position with ``n`` stones: ``current + mask`` (unique: one bit
    above each column's stones marks its height), or the smaller of it and its mirror's
    (columns reversed, 7 bits each) below ``mirror_ply`` stones."""
    key = current + mask
    if n >= mirror_ply:
        return key
    w = HEIGHT + 1
    m = key & (_COL << (3 * w))
    for c in range(3):
        m |= ((key >> ((6 - 2 * c) * w)) & (_COL << (c * w))) | (
            (key << ((6 - 2 * c) * w)) & (_COL << ((6 - c) * w))
        )
    return min(key, m)


@njit(cache=True)
def _tt_get(keys, vals, key):
    # The default size is a constant that LLVM divides by with a multiplication: a hardware
    # division per probe and per store cost 5-10% of a solve. (A helper function for the
    # slot, not inlined, cost 40%.)
    n = keys.shape[0]
    i = key % DEFAULT_TABLE_SIZE if n == DEFAULT_TABLE_SIZE else key % n
    if np.int64(keys[i]) == (key & 0xFFFFFFFF):
        return np.int64(vals[i])
    return 0


@njit(cache=True)
def _store(keys, vals, key, val):
    n = keys.shape[0]
    i = key % DEFAULT_TABLE_SIZE if n == DEFAULT_TABLE_SIZE else key % n  # as in _tt_get
    keys[i] = key & 0xFFFFFFFF
    vals[i] = val


@intrinsic
def _prefetch(typingctx, arr, idx):
    """``_prefetch(arr, i)``: asks the CPU to bring ``arr[i]``'s cache line in (LLVM's
    ``llvm.prefetch``, a read kept in every cache level); no effect on results."""
    if not isinstance(arr, types.Array) or not isinstance(idx, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]], wraparound=False)
        i8p, i32 = ir.IntType(8).as_pointer(), ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.void(arr, idx), codegen


@njit(cache=True)
def _prefetch_children(current, mask, possible, n, keys, vals, mirror_ply):
    """Starts loading the table entries of the children that ``possible``'s moves make, so
    that the probes to come (each child's on entering it, and ``_etc``'s) do not each wait
    on main memory in turn."""
    child = current ^ mask
    size = keys.shape[0]
    while possible:
        move = possible & -possible
        possible ^= move
        key = table_key(child, mask | move, n + 1, mirror_ply)
        i = key % DEFAULT_TABLE_SIZE if size == DEFAULT_TABLE_SIZE else key % size
        _prefetch(keys, i)
        _prefetch(vals, i)


@njit(cache=True, inline="always")
def _etc(current, mask, n, possible, beta, keys, vals, mirror_ply):
    """Enhanced transposition cutoff: a child whose table entry bounds its score from above
    by ``u`` proves ours at least ``-u``; ``-u >= beta`` is a cutoff found without searching."""
    child = current ^ mask
    while possible:
        move = possible & -possible
        possible ^= move
        val = _tt_get(keys, vals, table_key(child, mask | move, n + 1, mirror_ply))
        if 0 < val <= MAX_SCORE - MIN_SCORE + 1 and -(val + MIN_SCORE - 1) >= beta:
            return -(val + MIN_SCORE - 1)
    return _LEAF


@njit(cache=True, inline="always")
def order_moves(current, mask, possible, moves, n):
    """Writes the moves of ``possible`` into ``moves[n]``, best last, and returns their count:
    insertion sort by the winning cells a move creates, centre first among equals (the sort
    key sits above bit 49 of each entry); from ``SORT_PLY`` stones on, centre first only.

    Pons' order. Demoting a move right under one of our own winning cells (the opponent's
    reply blocks it) cost nodes on every kind of Pons' positions but the middle-game medium
    ones (20 positions each, nodes per solve: middle easy 239 against 191, beginning easy
    2,549 against 1,434, beginning medium 766k against 725k; middle medium 91k against 97k).
    """
    count = 0
    for i in range(WIDTH - 1, -1, -1):
        move = possible & (np.int64(63) << (COLUMN_ORDER[i] * (HEIGHT + 1)))
        if move:
            sc = 6 - i
            if n < SORT_PLY:
                sc += popcount(winning_cells(current | move, mask)) * 8
            j = count
            while j > 0 and moves[n, j - 1] >> 49 > sc:
                moves[n, j] = moves[n, j - 1]
                j -= 1
            moves[n, j] = move | (sc << 49)
            count += 1
    return count


@njit(cache=True)
def negamax(current, mask, n0, alpha, beta, keys, vals, moves, frames, codes, values, book_ply):
    """Pons' negamax, its recursion unrolled onto per-depth buffers (no calls, no allocation).

    ``moves`` `[43, 7]` holds each depth's ordered moves, ``frames`` `[43, 6]` each open
    node's ``current, mask, alpha, beta, next move index, table key``; depth = stones on the
    board.
    Positions with ``book_ply`` stones are read from the book ``codes``/``values`` (if there).
    Precondition: the player to move cannot win at once; ``alpha < beta``.
    """
    n = n0
    nodes = 0
    mirror_ply = 0  # no mirrored keys before MIRROR_NODES nodes
    while True:
        # Enter the node (current, mask) at depth n: either a value now, or its first child.
        nodes += 1
        if nodes == MIRROR_NODES:
            mirror_ply = MIRROR_PLY
        ret = _LEAF
        possible = non_losing_moves(current, mask)
        if possible == 0:
            ret = -((SIZE - n) // 2)
        elif n >= SIZE - 2:
            ret = 0
        elif n == book_ply:
            ret = book_score(codes, values, current, mask, n)
        if ret == _LEAF and possible:
            lo = -((SIZE - 2 - n) // 2)  # the opponent cannot win with its next stone
            hi = (SIZE - 1 - n) // 2  # we cannot win with our next stone
            key = table_key(current, mask, n, mirror_ply)
            if n + 1 < PREFETCH_PLY:  # before our own probe: their loads overlap with it
                _prefetch_children(current, mask, possible, n, keys, vals, mirror_ply)
            val = _tt_get(keys, vals, key) if n < TT_PLY else 0
            if val > MAX_SCORE - MIN_SCORE + 1:  # a lower bound
                lo = max(lo, val + 2 * MIN_SCORE - MAX_SCORE - 2)
            elif val:  # an upper bound
                hi = min(hi, val + MIN_SCORE - 1)
            if lo >= beta or lo == hi:  # fail high, or the exact score
                ret = lo
            elif hi <= alpha:  # fail low
                ret = hi
            else:
                alpha, beta = max(alpha, lo), min(beta, hi)
                if n < ETC_PLY and nodes > ETC_NODES:
                    ret = _etc(current, mask, n, possible, beta, keys, vals, mirror_ply)
        if ret == _LEAF:
            count = order_moves(current, mask, possible, moves, n)
            # Indexed in place: a row view (f = frames[n]) costs a reference count increment
            # and decrement per node.
            frames[n, 0], frames[n, 1], frames[n, 2] = current, mask, alpha
            frames[n, 3], frames[n, 4], frames[n, 5] = beta, count - 1, key
            move = moves[n, count - 1] & BOARD_MASK
            current, mask, n = current ^ mask, mask | move, n + 1
            alpha, beta = -beta, -alpha
            continue
        # Return ``ret`` up the open nodes until one has a child left to search.
        while n > n0:
            n -= 1
            score = -ret
            beta = frames[n, 3]
            if score >= beta:
                if n < TT_PLY:
                    _store(keys, vals, frames[n, 5], score + MAX_SCORE - 2 * MIN_SCORE + 2)
                ret = score
                continue
            alpha = max(frames[n, 2], score)
            frames[n, 2] = alpha
            i = frames[n, 4] - 1
            frames[n, 4] = i
            if i < 0:
                if n < TT_PLY:
                    _store(keys, vals, frames[n, 5], alpha - MIN_SCORE + 1)
                ret = alpha
                continue
            move = moves[n, i] & BOARD_MASK
            mask = frames[n, 1]
            current, mask, n = frames[n, 0] ^ mask, mask | move, n + 1
            alpha, beta = -beta, -alpha
            break
        else:
            return ret


@njit(cache=True)
def _half_toward_zero(x):
    return x // 2 if x >= 0 else -((-x) // 2)  # C++ x / 2


@njit(cache=True)
def _book_parents_bound(current, mask, codes, values, book_ply):
    """A lower bound on the score of a position one stone past the book: a parent (the
    position without one of the last mover's top stones) scores at least minus this
    position's score, and the book holds the parents' exact scores. Exact whenever the last
    move was optimal, as in a game against a sensible opponent."""
    last = current ^ mask  # the stones of the player who just moved
    bound = np.int64(-SIZE)
    for col in range(WIDTH):
        column = mask & (np.int64(63) << (col * (HEIGHT + 1)))
        top = column ^ (column >> 1)  # the column's highest stone (stones are contiguous)
        if top & last:
            s = book_score(codes, values, last ^ top, mask ^ top, book_ply)
            if s != MISSING:
                bound = max(bound, -s)
    return bound


@njit(cache=True)
def solve_bits(current, mask, keys, vals, moves, frames, codes, values, book_ply):
    """Exact score of a position that is not won and not full; iterative null windows."""
    n = popcount(mask)
    if can_win_next(current, mask):
        return (SIZE + 1 - n) // 2
    lo = -((SIZE - n) // 2)
    hi = (SIZE + 1 - n) // 2
    if book_ply >= 0 and n == book_ply + 1:
        lo = max(lo, _book_parents_bound(current, mask, codes, values, book_ply))
    while lo < hi:  # narrow [lo, hi] by null-window searches, first near 0 (Pons, part 9)
        med = lo + (hi - lo) // 2
        if med <= 0 and _half_toward_zero(lo) < med:
            med = _half_toward_zero(lo)
        elif med >= 0 and _half_toward_zero(hi) > med:
            med = _half_toward_zero(hi)
        r = negamax(
            current, mask, n, med, med + 1, keys, vals, moves, frames, codes, values, book_ply
        )
        if r <= med:
            hi = r
        else:
            lo = r
    return lo
