"""Tactical move filters for k-in-a-row games: take a win, block a loss.

Both hold for placement and gravity games alike: a stone is undone by ``board.flat[cell] = 0``,
and blocking a winning move of the opponent means playing that same action (it lands on the
same cell).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from lzero.envs.board_rules import ONGOING

__all__ = [
    "decisive_moves", "forcing_win", "root_tactics", "root_threats", "threat_space_win",
    "window_stones",
]  # fmt: skip


_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


@njit(cache=True, inline="always")
def window_stones(board, r0, c0, dr, dc, k):
    """``(n1, n2)``: the stones of player 1 and of player 2 among the ``k`` cells of the
    `[H, W]` ``board`` from ``(r0, c0)`` along ``(dr, dc)`` (the caller keeps the window inside
    the board). The MCTS bot's line evaluator counts windows with it."""
    n1 = 0
    n2 = 0
    for i in range(k):
        v = board[r0 + i * dr, c0 + i * dc]
        n1 += v == 1
        n2 += v == 2
    return n1, n2


@njit(cache=True, inline="always")
def _may_complete(flat, h, w, cell, player, k):
    """Whether ``player``'s stone on the empty ``cell`` would stand in a run of ``k`` or more
    of its stones along some line: necessary for a win of a placement k-in-a-row game (a
    fast filter; a win is always confirmed by the game's ``result_after``)."""
    r0 = cell // w
    c0 = cell % w
    for d in range(4):
        dr, dc = _DIRECTIONS[d]
        run = 1
        for sign in (1, -1):
            r = r0 + sign * dr
            c = c0 + sign * dc
            while r >= 0 and r < h and c >= 0 and c < w and flat[r * w + c] == player:
                run += 1
                r += sign * dr
                c += sign * dc
        if run >= k:
            return True
    return False


@njit(cache=True, inline="always")
def _mark_line_wins(flat, w, k, r0, c0, dr, dc, length, marks):
    """:func:`win_cells` along the line of ``length`` cells from ``(r0, c0)`` along ``(dr,
    dc)``: its windows of ``k`` cells, slid one cell at a time."""
    if length < k:
        return
    n1 = 0
    n2 = 0
    for i in range(k - 1):
        v = flat[(r0 + i * dr) * w + c0 + i * dc]
        n1 += v == 1
        n2 += v == 2
    for s in range(length - k + 1):
        v = flat[(r0 + (s + k - 1) * dr) * w + c0 + (s + k - 1) * dc]
        n1 += v == 1
        n2 += v == 2
        if (n1 == k - 1 and n2 == 0) or (n2 == k - 1 and n1 == 0):
            bit = 1 if n1 > 0 else 2
            for i in range(s, s + k):
                e = (r0 + i * dr) * w + c0 + i * dc
                if flat[e] == 0:
                    marks[e] |= bit
        v = flat[(r0 + s * dr) * w + c0 + s * dc]
        n1 -= v == 1
        n2 -= v == 2


@njit(cache=True)
def win_cells(board, k, marks):
    """Marks the empty cells of the `[H, W]` ``board`` where a stone would stand in a run of
    ``k`` or more along some line (:func:`_may_complete` of every cell at once): ``marks``
    `[>= H * W]` uint8 gets bit 1 at such cells of player 1 and bit 2 at those of player 2,
    0 elsewhere. Such a cell completes a window of ``k`` cells holding ``k - 1`` of the
    player's stones and no other, so one pass over every line's windows finds them all.
    Returns whether any cell is marked."""
    h, w = board.shape
    flat = board.reshape(-1)
    marks[: h * w] = 0
    for r in range(h):
        _mark_line_wins(flat, w, k, r, 0, 0, 1, w, marks)
    for c in range(w):
        _mark_line_wins(flat, w, k, 0, c, 1, 0, h, marks)
    for r in range(h):  # diagonals down-right, from the first column, then the first row
        _mark_line_wins(flat, w, k, r, 0, 1, 1, min(h - r, w), marks)
    for c in range(1, w):
        _mark_line_wins(flat, w, k, 0, c, 1, 1, min(h, w - c), marks)
    for c in range(w):  # diagonals down-left, from the first row, then the last column
        _mark_line_wins(flat, w, k, 0, c, 1, -1, min(h, c + 1), marks)
    for r in range(1, h):
        _mark_line_wins(flat, w, k, r, w - 1, 1, -1, min(h - r, w), marks)
    for e in range(h * w):
        if marks[e]:
            return True
    return False


@njit(cache=True)
def decisive_moves(board, to_play, num_moves, actions, n, blocks, apply_action, result_after, k=0):
    """Decisive and anti-decisive moves (Teytaud and Teytaud, "On the huge benefit of decisive
    moves in Monte-Carlo tree search algorithms", CIG 2010): if one of ``actions[:n]`` wins
    at once, it alone is kept; else, if the opponent could win at once on some of them, only
    those (the blocks) are kept. Returns the number kept, at the front of ``actions``.

    Uses ``blocks`` (int64 `[>= n]`) as work space; restores ``board``. A placed stone is
    undone by ``board.flat[cell] = 0``, and a block is the move onto the opponent's winning
    cell, which holds for placement and gravity games alike. ``k > 0`` (placement games of
    ``k`` in a row only, where an action is the cell it fills): moves that would not stand in
    a run of ``k`` are not tried (:func:`win_cells`, one pass over the board's lines for both
    sides); those that would are judged by ``result_after`` as before, so the moves kept are
    the same. On 9x9 Gomoku nodes with 8-30 stones and the moves within 2 of a stone, 0.6-0.7
    us a node, where checking each move's lines in turn took 2.3-3.0 us.
    """
    flat = board.reshape(-1)
    marks = np.zeros(flat.size if k > 0 else 0, np.uint8)
    if k > 0 and not win_cells(board, k, marks):
        return n  # no move wins for either side
    for i in range(n):
        if k > 0 and not marks[actions[i]] & to_play:
            continue
        cell = apply_action(board, actions[i], to_play)
        result = result_after(board, cell, to_play, num_moves + 1)
        flat[cell] = 0
        if result == to_play:
            actions[0] = actions[i]
            return 1
    opponent = 3 - to_play
    m = 0
    for i in range(n):
        if k > 0 and not marks[actions[i]] & opponent:
            continue
        cell = apply_action(board, actions[i], opponent)
        result = result_after(board, cell, opponent, num_moves + 1)
        flat[cell] = 0
        if result == opponent:
            blocks[m] = actions[i]
            m += 1
    if m == 0:
        return n
    for i in range(m):
        actions[i] = blocks[i]
    return m


@njit(cache=True)
def root_tactics(
    board, to_play, num_moves, actions, n, keep, replies, legal_actions, apply_action, result_after
):  # fmt: skip
    """The root moves worth searching among ``actions[:n]``: a winning move alone if there is
    one, else the moves after which the opponent cannot win at once (all of them when none
    or all are such). Writes their indices into ``actions`` to ``keep`` (int64 `[>= n]`,
    ascending) and returns how many. ``replies`` (int64 `[A]`) is work space; ``board`` is
    restored."""
    flat = board.reshape(-1)
    opponent = 3 - to_play
    for k in range(n):
        cell = apply_action(board, np.int64(actions[k]), to_play)
        result = result_after(board, cell, to_play, num_moves + 1)
        flat[cell] = 0
        if result == to_play:
            keep[0] = k
            return 1
    m = 0
    for k in range(n):
        cell = apply_action(board, np.int64(actions[k]), to_play)
        is_safe = True
        if result_after(board, cell, to_play, num_moves + 1) == ONGOING:
            for j in range(legal_actions(board, opponent, replies)):
                reply = apply_action(board, replies[j], opponent)
                lost = result_after(board, reply, opponent, num_moves + 2) == opponent
                flat[reply] = 0
                if lost:
                    is_safe = False
                    break
        flat[cell] = 0
        if is_safe:
            keep[m] = k
            m += 1
    if m == 0 or m == n:
        for k in range(n):
            keep[k] = k
        return n
    return m


@njit(cache=True)
def _window_cells(flat, h, w, player, k, stones, out):
    """Marks in ``out`` (bool `[H * W]`, not cleared) the empty cells of the runs of ``k``
    cells that hold exactly ``stones`` of ``player``'s stones and no other stone."""
    for d in range(4):
        dr, dc = _DIRECTIONS[d]
        for r in range(h):
            re = r + (k - 1) * dr
            if re < 0 or re >= h:
                continue
            for c in range(w):
                ce = c + (k - 1) * dc
                if ce < 0 or ce >= w:
                    continue
                mine = 0
                empty = 0
                for i in range(k):
                    v = flat[(r + i * dr) * w + c + i * dc]
                    if v == player:
                        mine += 1
                    elif v == 0:
                        empty += 1
                    else:
                        break
                if mine == stones and empty == k - stones:
                    for i in range(k):
                        e = (r + i * dr) * w + c + i * dc
                        if flat[e] == 0:
                            out[e] = True


@njit(cache=True)
def _four_cells(flat, h, w, player, k, out):
    """Marks in ``out`` (bool `[H * W]`) the empty cells where ``player``'s stone can create a
    winning cell: those in some run of ``k`` cells that holds ``k - 2`` of ``player``'s stones
    and two empty cells (the necessary condition when ``k`` or more in a row wins; a fast
    filter, confirmed by the game's ``result_after``). One pass over the board's runs of
    ``k`` instead of every cell's runs in turn: the root moves of 64 9x9 positions 18.5 ->
    11.5 ms, the same moves kept."""
    out[:] = False
    _window_cells(flat, h, w, player, k, k - 2, out)


@njit(cache=True, inline="always")
def _wins_at(board, cell, player, num_moves, result_after, k):
    """Whether ``player`` wins at once on the empty ``cell`` (``num_moves`` stones now) of a
    placement ``k``-in-a-row game: by the game's ``result_after``, asked only where the stone
    would stand in a run of ``k`` (:func:`_may_complete`)."""
    h, w = board.shape
    flat = board.reshape(-1)
    if not _may_complete(flat, h, w, cell, player, k):
        return False
    flat[cell] = player
    won = result_after(board, cell, player, num_moves + 1) == player
    flat[cell] = 0
    return won


@njit(cache=True)
def _wins_through(board, cell, player, num_moves, result_after, out, k):
    """The cells on the four lines through ``cell`` where ``player`` would win at once, up to
    two of them (written to ``out[:2]``); returns how many (0, 1 or 2). After ``player``
    placed ``cell`` and had no winning cell before, these are all of ``player``'s winning
    cells: a line completed through another cell that holds this stone passes through it."""
    h, w = board.shape
    flat = board.reshape(-1)
    r0 = cell // w
    c0 = cell % w
    n = 0
    for d in range(4):
        dr, dc = _DIRECTIONS[d]
        for sign in (1, -1):
            r = r0 + sign * dr
            c = c0 + sign * dc
            while r >= 0 and r < h and c >= 0 and c < w:
                e = r * w + c
                if flat[e] == 0 and _wins_at(board, e, player, num_moves, result_after, k):
                    out[n] = e
                    n += 1
                    if n == 2:
                        return n
                r += sign * dr
                c += sign * dc
    return n


@njit(cache=True)
def _all_wins(board, player, num_moves, result_after, out, k):
    """Up to two empty cells where ``player`` would win at once (``out[:2]``); how many."""
    flat = board.reshape(-1)
    n = 0
    for e in range(flat.size):
        if flat[e] == 0 and _wins_at(board, e, player, num_moves, result_after, k):
            out[n] = e
            n += 1
            if n == 2:
                break
    return n


@njit(cache=True)
def forcing_win(board, attacker, num_moves, depth, forced, k, result_after, budget, hint):
    """A win for ``attacker`` (to move) by continuous threats on a placement k-in-a-row board:
    each of its moves makes a winning cell, which the defender must fill, until one makes two
    at once (renju's "victory by continuous fours"). Returns the first move's cell, or -1 if
    none is found with at most ``depth`` attacker moves.

    Preconditions (the caller's): ``attacker`` cannot win at once, and the defender can win
    at once on at most one cell, ``forced`` (-1 if none), which the attacker must then fill.
    ``budget`` (int64 `[>= 1]`): ``budget[0]`` counts down the attacker moves tried; at zero
    the search stops and reports none. ``hint``: a cell to try first (-1: none).

    Every win reported is forced: the defender can neither block two cells nor win first,
    and a block that gives the defender a winning cell is followed. Wins that need a move
    other than a four (an open three) are not looked for, so -1 does not prove there is no
    forced win. ``board`` is restored.
    """
    # Depth-first over an explicit stack: numba's disk cache breaks recursive functions.
    h, w = board.shape
    flat = board.reshape(-1)
    defender = 3 - attacker
    wins = np.empty(2, np.int64)
    replies = np.empty(2, np.int64)
    forced_at = np.empty(depth, np.int64)  # the defender's winning cell at each level, or -1
    next_at = np.empty(depth, np.int64)  # the next cell to try at each level (-1: the hint)
    move_at = np.empty(depth, np.int64)  # the attacker's four and the defender's block
    block_at = np.empty(depth, np.int64)
    # the cells where the attacker's stone can make a winning cell, at each level not forced
    fours = np.empty((depth, flat.size), np.bool_)
    forced_at[0] = forced
    if forced < 0:
        _four_cells(flat, h, w, attacker, k, fours[0])
    next_at[0] = forced if forced >= 0 else -1
    level = 0
    result = -1
    while level >= 0:
        f = forced_at[level]
        last = f + 1 if f >= 0 else flat.size
        deeper = False
        while next_at[level] < last:
            i = next_at[level]
            next_at[level] = i + 1
            cell = hint if i < 0 else i
            if cell < 0 or flat[cell] != 0:
                continue
            if f < 0:
                if level == 0 and i >= 0 and cell == hint:
                    continue  # tried first
                if not fours[level, cell]:
                    continue
            if budget[0] <= 0:
                break
            budget[0] -= 1
            played = num_moves + 2 * level + 1
            flat[cell] = attacker
            n = _wins_through(board, cell, attacker, played, result_after, wins, k)
            if n == 2:
                flat[cell] = 0
                result = move_at[0] if level > 0 else cell
                break
            if n == 1 and level + 1 < depth:
                block = wins[0]
                flat[block] = defender
                m = _wins_through(board, block, defender, played + 1, result_after, replies, k)
                if m < 2:
                    move_at[level] = cell
                    block_at[level] = block
                    level += 1
                    forced_at[level] = replies[0] if m == 1 else -1
                    next_at[level] = forced_at[level] if m == 1 else 0
                    if m == 0:
                        _four_cells(flat, h, w, attacker, k, fours[level])
                    deeper = True
                    break
                flat[block] = 0
            flat[cell] = 0
        if result >= 0 or budget[0] <= 0:
            break
        if not deeper:
            level -= 1
            if level >= 0:
                flat[block_at[level]] = 0
                flat[move_at[level]] = 0
    for j in range(level - 1, -1, -1):  # undo the line still on the board
        flat[block_at[j]] = 0
        flat[move_at[j]] = 0
    return result


@njit(cache=True)
def _threat_replies(board, attacker, played, k, result_after, probe, mask, out):
    """After ``attacker`` made no winning cell with its last stone (``played`` stones now),
    the defender's replies that may stop its next move from making two winning cells: the
    cells of such moves, their winning cells, and the defender's moves that make a winning
    cell of its own (a superset of those: every cell of a run of ``k`` holding ``k - 2`` of
    its stones). Any other reply loses to one of those moves, so a win against these
    replies is a win. Writes them to ``out`` and returns how many; 0 when the attacker has
    no such move (its stone was no threat). ``probe`` (bool), ``mask`` (bool) `[H * W]`
    and ``out`` (int64 `[H * W]`) are work space."""
    h, w = board.shape
    flat = board.reshape(-1)
    wins = np.empty(2, np.int64)
    probe[:] = False
    _window_cells(flat, h, w, attacker, k, k - 2, probe)
    mask[:] = False
    threats = 0
    for d in range(flat.size):
        if not probe[d]:
            continue
        flat[d] = attacker
        if _wins_through(board, d, attacker, played + 1, result_after, wins, k) == 2:
            mask[d] = True
            mask[wins[0]] = True
            mask[wins[1]] = True
            threats += 1
        flat[d] = 0
    if threats == 0:
        return 0
    _window_cells(flat, h, w, 3 - attacker, k, k - 2, mask)
    n = 0
    for e in range(flat.size):
        if mask[e]:
            out[n] = e
            n += 1
    return n


@njit(cache=True, inline="always")
def _attack_cells(flat, h, w, attacker, k, fours, threes):
    """The attacker's candidate moves of :func:`threat_space_win` at a level: ``fours``
    marks the cells that can make a winning cell, ``threes`` those that can make a run of
    ``k`` holding ``k - 2`` of its stones (the candidates for a threat to make two)."""
    fours[:] = False
    threes[:] = False
    _window_cells(flat, h, w, attacker, k, k - 2, fours)
    _window_cells(flat, h, w, attacker, k, k - 3, threes)


@njit(cache=True)
def threat_space_win(board, attacker, num_moves, depth, forced, k, result_after, budget):
    """A win for ``attacker`` (to move) by continuous threats on a placement k-in-a-row board,
    threes included (gomoku's "victory by continuous threats"): each of its moves makes a
    winning cell (a four), which the defender must fill, or threatens to make two next (an
    open three, or any move after which one more stone makes two winning cells), against
    which every defender reply that might matter is tried (:func:`_threat_replies`: the
    blocks, and the defender's own fours, after which the attacker must fill the defender's
    winning cell and go on), until a move makes two winning cells. Returns the first move's
    cell, or -1 if none is found with at most ``depth`` attacker moves.

    Preconditions and ``budget`` as :func:`forcing_win` (``budget[0]``: attacker moves left
    to try). Every win reported is forced; -1 proves nothing. Fours are tried before threes
    at each level. ``board`` is restored.
    """
    h, w = board.shape
    size = h * w
    flat = board.reshape(-1)
    defender = 3 - attacker
    wins = np.empty(2, np.int64)
    forced_at = np.empty(depth, np.int64)
    next_at = np.empty(depth, np.int64)  # candidates: [0, size) fours, [size, 2 size) threes
    move_at = np.empty(depth, np.int64)
    fours = np.empty((depth, size), np.bool_)
    threes = np.empty((depth, size), np.bool_)
    replies = np.empty((depth, size), np.int64)
    num_replies = np.empty(depth, np.int64)
    at_reply = np.empty(depth, np.int64)
    probe = np.empty(size, np.bool_)
    mask = np.empty(size, np.bool_)
    stack = np.empty(2 * depth + 1, np.int64)  # the stones on the board, to undo
    sp = 0
    choose, on_replies, succeeded, failed = 0, 1, 2, 3
    level = 0
    forced_at[0] = forced
    next_at[0] = 0
    if forced < 0:
        _attack_cells(flat, h, w, attacker, k, fours[0], threes[0])
    result = -1
    state = choose
    while True:
        if state == choose:
            state = failed
            f = forced_at[level]
            while next_at[level] < 2 * size:
                i = next_at[level]
                next_at[level] = i + 1
                if f >= 0:
                    if i > 0:
                        break
                    cell = f
                elif i < size:
                    cell = i
                    if not fours[level, cell]:
                        continue
                else:
                    cell = i - size
                    if fours[level, cell] or not threes[level, cell]:
                        continue
                if flat[cell] != 0:
                    continue
                if budget[0] <= 0:
                    break
                budget[0] -= 1
                played = num_moves + 2 * level + 1
                flat[cell] = attacker
                n = _wins_through(board, cell, attacker, played, result_after, wins, k)
                if n == 2:
                    flat[cell] = 0
                    move_at[level] = cell
                    state = succeeded
                    break
                if level + 1 >= depth:
                    flat[cell] = 0
                    continue
                if n == 1:
                    replies[level, 0] = wins[0]
                    num_replies[level] = 1
                else:
                    num_replies[level] = _threat_replies(
                        board, attacker, played, k, result_after, probe, mask, replies[level]
                    )
                    if num_replies[level] == 0:
                        flat[cell] = 0
                        continue
                move_at[level] = cell
                stack[sp] = cell
                sp += 1
                at_reply[level] = 0
                state = on_replies
                break
            if budget[0] <= 0 and state == failed:
                break
        elif state == on_replies:
            j = at_reply[level]
            if j == num_replies[level]:
                sp -= 1
                flat[stack[sp]] = 0  # the attacker's move: it won against every reply
                state = succeeded
                continue
            reply = replies[level, j]
            played = num_moves + 2 * level + 2
            flat[reply] = defender
            m = _wins_through(board, reply, defender, played, result_after, wins, k)
            if m == 2:
                flat[reply] = 0
                sp -= 1
                flat[stack[sp]] = 0
                state = choose
                continue
            stack[sp] = reply
            sp += 1
            level += 1
            forced_at[level] = wins[0] if m == 1 else -1
            next_at[level] = 0
            if m == 0:
                _attack_cells(flat, h, w, attacker, k, fours[level], threes[level])
            state = choose
        elif state == succeeded:
            if level == 0:
                result = move_at[0]
                break
            level -= 1
            sp -= 1
            flat[stack[sp]] = 0  # the defender's reply, refuted
            at_reply[level] += 1
            state = on_replies
        else:  # failed: no win at this level against the reply above
            if level == 0:
                break
            level -= 1
            sp -= 1
            flat[stack[sp]] = 0  # the refuting reply
            sp -= 1
            flat[stack[sp]] = 0  # the attacker's move it refuted
            state = choose
    while sp > 0:
        sp -= 1
        flat[stack[sp]] = 0
    return result


@njit(cache=True, inline="always")
def _keep_only(actions, keep, m, cell):
    """Keeps only the move ``cell`` among ``actions[keep[:m]]`` if it is there (returns
    True), else changes nothing (returns False)."""
    for i in range(m):
        if actions[keep[i]] == cell:
            keep[0] = keep[i]
            return True
    return False


@njit(cache=True)
def root_threats(
    board, to_play, num_moves, actions, keep, m, depth, k, result_after, budget, three_depth=0
):  # fmt: skip
    """Narrows the root moves ``actions[keep[:m]]`` of a placement k-in-a-row game (an action
    is the cell it fills) by wins at once and forced wins (:func:`forcing_win`, at most
    ``depth`` attacker moves, ``budget[1]`` moves tried per search; ``budget`` int64 `[3]`):
    a winning move alone if there is one, else the first move of a forced win for
    ``to_play`` alone, else the moves after which the opponent can neither win at once nor
    force a win (all of them when every move leaves one of those). This includes what
    :func:`root_tactics` keeps, which in a placement game costs more to find. With
    ``three_depth > 0`` the forced wins with threes of :func:`threat_space_win` (at most
    ``three_depth`` attacker moves, ``budget[2]`` moves tried per search) count too: the
    mover's after its wins by fours, and among the moves that leave the opponent no win by
    fours, those that leave it none with threes either, if there are any. Returns the new
    ``m``; ``keep`` is rewritten in place; ``board`` is restored."""
    if m <= 1 or depth < 1:
        return m
    flat = board.reshape(-1)
    opponent = 3 - to_play
    cells = np.empty(2, np.int64)
    if _all_wins(board, to_play, num_moves, result_after, cells, k) > 0:
        return 1 if _keep_only(actions, keep, m, cells[0]) else m
    theirs = _all_wins(board, opponent, num_moves, result_after, cells, k)
    if theirs >= 2:
        return m  # lost whatever the mover does
    forced = cells[0] if theirs == 1 else -1  # the opponent's winning cell, to be filled
    budget[0] = budget[1]
    win = forcing_win(board, to_play, num_moves, depth, forced, k, result_after, budget, -1)
    if win >= 0 and _keep_only(actions, keep, m, win):
        return 1
    if three_depth > 0:
        budget[0] = budget[2]
        win = threat_space_win(
            board, to_play, num_moves, three_depth, forced, k, result_after, budget
        )
        if win >= 0 and _keep_only(actions, keep, m, win):
            return 1
    threat = -1
    threes = False  # whether to look for the opponent's wins with threes too
    if theirs == 0:
        # The opponent's forced wins if the mover passed: a stone of the mover's only takes
        # cells from the opponent's lines, so without one here no move leaves one.
        budget[0] = budget[1]
        threat = forcing_win(board, opponent, num_moves, depth, -1, k, result_after, budget, -1)
        if three_depth > 0:
            budget[0] = budget[2]
            threes = (
                threat_space_win(
                    board, opponent, num_moves, three_depth, -1, k, result_after, budget
                )
                >= 0
            )
        if threat < 0 and not threes:
            return m
    # One pass over the moves: the fours guard (needed unless the opponent has none even if
    # the mover passed) and, on the moves it keeps, the threes guard.
    fours = forced >= 0 or threat >= 0
    no_threes = np.zeros(m if threes else 0, np.bool_)  # per kept move: leaves none of those
    safe = 0
    for i in range(m):
        cell = actions[keep[i]]
        if forced >= 0 and cell != forced:
            continue  # the opponent wins at once
        flat[cell] = to_play
        mine = _wins_through(board, cell, to_play, num_moves + 1, result_after, cells, k)
        reply = cells[0] if mine == 1 else -1  # the mover's winning cell, to be filled
        refuted = False
        if fours and mine < 2:
            budget[0] = budget[1]
            refuted = (
                forcing_win(
                    board, opponent, num_moves + 1, depth, reply, k, result_after, budget,
                    threat,
                )
                >= 0
            )  # fmt: skip
        if threes and not refuted:
            budget[0] = budget[2]
            no_threes[safe] = mine >= 2 or (
                threat_space_win(
                    board, opponent, num_moves + 1, three_depth, reply, k, result_after, budget
                )
                < 0
            )
        flat[cell] = 0
        if not refuted:
            keep[safe] = keep[i]
            safe += 1
    if safe == 0:
        return m
    if threes:
        kept = 0
        for i in range(safe):
            if no_threes[i]:
                keep[kept] = keep[i]  # kept <= i: keep[:safe] stays whole while none is kept
                kept += 1
        if kept > 0:
            return kept
    return safe
