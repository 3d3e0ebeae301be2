"""The batched search's simulation step for board games: descend, then play the move.

A board game's next state is computed by its rules kernels (``docs/board_kernel_contract.md``)
inside the descent, so each tree node keeps its position (``boards[b, n]``), and the leaves
come back with their positions, legal moves and results, ready for a batched evaluator. The
kernels are ``FunctionType`` arguments (see ``lzero.mcts.jit``), so one compiled, disk-cached
step serves every game.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, types

from lzero.envs.board_step import move_reward
from lzero.mcts.batched_tree import (
    BATCHED_TREE_T,
    GUMBEL,
    NO_PARENT,
    ROOT_INDEX,
    UNVISITED,
    add_child,
    descend,
)
from lzero.mcts.game import KERNELS_T, copy_board
from lzero.mcts.gumbel import GUMBEL_ARGS_T, gumbel_descend
from lzero.mcts.jit import compiled_on_first_call
from lzero.mcts.rollout import candidate_actions
from lzero.mcts.tactics import decisive_moves, root_tactics, root_threats

_BOARDS_T = types.Array(types.int8, 4, "C")
_BOARDS_T_3 = types.Array(types.int8, 3, "C")
_I64_1D = types.Array(types.int64, 1, "C")
_I64_2D = types.Array(types.int64, 2, "C")
_BOOL_1D = types.Array(types.boolean, 1, "C")
_BOOL_2D = types.Array(types.boolean, 2, "C")


@compiled_on_first_call(
    types.int64(
        BATCHED_TREE_T,
        _BOARDS_T,
        _I64_2D,
        types.int64,
        types.float64,
        types.float64,
        types.float64,
        types.float64,
        types.float64,
        GUMBEL_ARGS_T,
        _BOOL_1D,
        _I64_1D,
        _I64_1D,
        _I64_1D,
        _BOARDS_T_3,
        _I64_1D,
        _BOOL_2D,
        _I64_2D,
        types.int64,
        types.boolean,
        types.int64,
        *KERNELS_T,
    )
)
def board_select(
    tree, boards, num_moves, rule, c1, c2, fpu_reduction, root_fpu_reduction, forced_k, gumbel,
    active, leaves, ask, rows, out_boards, to_play, legal, scratch, radius, tactics, win_length,
    legal_actions, apply_action, result_after,
):  # fmt: skip
    """One simulation's descent in each active tree, playing the new edge's move; the new,
    unfinished leaves are gathered for a batched evaluator as ``gather_leaves`` gathers them.

    Args:
        tree: the ``BatchedTree``; every active root is expanded.
        boards: `[B, N, H, W]` int8 position of each node; the new leaves' are written.
        num_moves: `[B, N]` int64 stones on each node's board; the new leaves' are written.
        rule, c1, c2: selection rule and its constants (``batched_tree.select_slot``).
        fpu_reduction, root_fpu_reduction: the ``Q`` of unvisited slots under PUCT below the
            root and at it (``batched_tree.descend``): negative for AlphaZero's 0, else the
            node's value less this reduction.
        forced_k: KataGo's forced playouts at the root with this ``k`` (0: off;
            ``batched_tree.descend``).
        gumbel: with ``rule`` ``GUMBEL``, the ``lzero.mcts.gumbel.GumbelArgs`` of the search
            (``gumbel_descend`` replaces ``descend``; the arguments above it but ``rule`` are
            then unused); else ``gumbel.NO_GUMBEL``.
        active: `[B]` bool, the trees to step.
        leaves: `[B]` int64 output, the leaf of each active tree: a new node, or a terminal
            node reached again.
        ask, rows, out_boards, to_play: outputs as in ``gather_leaves``: the trees of the new,
            unfinished leaves in tree order (``ask[:m]``), each tree's row among them
            (``rows``, -1 if none), and those leaves' positions and movers (the first ``m``
            rows).
        legal: `[B, A]` bool output, in its first ``m`` rows the moves to expand at each new,
            unfinished leaf: its legal moves, those within ``radius`` of a stone if ``radius >
            0`` (``lzero.mcts.rollout.candidate_actions``), and with ``tactics`` only the
            decisive or anti-decisive ones if it has any
            (``lzero.mcts.tactics.decisive_moves``).
        scratch: `[3, A]` int64 work array.
        radius, tactics: narrow the new leaves' moves as above.
        win_length: ``k`` of a placement k-in-a-row game (0 otherwise), which lets the
            decisive-move checks skip moves that cannot win (the same moves are kept).
        legal_actions, apply_action, result_after: the game's kernels.

    Returns ``m``. The edge into a new leaf gets the mover's reward (1 for a win, -1 for a loss,
    else 0: ``move_reward``) and discount -1: the players alternate and the game is zero-sum.
    """
    m = 0
    work = np.empty(tree.children_prior.shape[2] if rule == GUMBEL else 0)
    for b in range(leaves.shape[0]):
        rows[b] = -1
        if not active[b]:
            continue
        if rule == GUMBEL:
            node, slot = gumbel_descend(tree, b, gumbel, work)
        else:
            node, slot = descend(
                tree, b, rule, c1, c2, False, False, fpu_reduction, root_fpu_reduction, forced_k
            )
        if slot < 0:
            leaves[b] = node
            continue
        child = tree.num_nodes[b]
        board = boards[b, child]
        copy_board(boards[b, node], board)
        player = np.int64(tree.node_to_play[b, node])
        cell = apply_action(board, np.int64(tree.children_action[b, node, slot]), player)
        moves = num_moves[b, node] + 1
        num_moves[b, child] = moves
        result = result_after(board, cell, player, moves)
        reward = move_reward(result, player)
        add_child(tree, b, node, slot, 3 - player, reward, -1.0, result != 0)
        leaves[b] = child
        if result == 0:
            legal[m, :] = False
            n = candidate_actions(board, 3 - player, radius, scratch, scratch[0], legal_actions)
            if tactics:
                n = decisive_moves(
                    board, 3 - player, moves, scratch[0], n, scratch[1], apply_action,
                    result_after, win_length,
                )  # fmt: skip
            for i in range(n):
                legal[m, scratch[0, i]] = True
            rows[b], ask[m], to_play[m] = m, b, 3 - player
            copy_board(board, out_boards[m])
            m += 1
    return m


@compiled_on_first_call(
    types.none(
        _BOARDS_T, _I64_1D, _I64_1D, _BOOL_1D, _BOOL_2D, _I64_2D, types.int64, types.boolean,
        types.int64, types.int64, types.int64, _I64_1D, *KERNELS_T,
    )
)  # fmt: skip
def root_moves(
    boards, to_play, num_moves, active, legal, scratch, radius, tactics, threat_depth,
    three_depth, win_length, budget, legal_actions, apply_action, result_after,
):  # fmt: skip
    """Writes into ``legal`` `[B, A]` the moves to expand at each active root ``boards[b, 0]``:
    its legal moves within ``radius`` of a stone if ``radius > 0``, and with ``tactics`` those
    ``lzero.mcts.tactics.root_tactics`` keeps among them (a winning move alone, else the moves
    after which the opponent cannot win at once, all of them when none or all are such), and
    with ``threat_depth > 0`` (placement games of ``win_length`` in a row) instead those
    ``lzero.mcts.tactics.root_threats`` keeps (a winning move alone, else the first move of a
    forced win alone, else the moves that leave the opponent neither; with ``three_depth > 0``
    wins with threes count too). ``budget`` `[3]` int64: ``budget[1]`` the moves each search
    for wins by fours may try, ``budget[2]`` each search with threes. ``to_play``,
    ``num_moves``: `[B]` the mover and the stones of each root; ``scratch`` `[3, A]` int64
    work space. The boards are left as they were."""
    for b in range(active.shape[0]):
        if not active[b]:
            continue
        board = boards[b, 0]
        n = candidate_actions(board, to_play[b], radius, scratch, scratch[0], legal_actions)
        m = n
        if tactics and threat_depth == 0:  # root_threats keeps a subset of these
            m = root_tactics(
                board, to_play[b], num_moves[b], scratch[0], n, scratch[1], scratch[2],
                legal_actions, apply_action, result_after,
            )  # fmt: skip
        else:
            for i in range(n):
                scratch[1, i] = i
        if threat_depth > 0:
            m = root_threats(
                board, to_play[b], num_moves[b], scratch[0], scratch[1], m, threat_depth,
                win_length, result_after, budget, three_depth,
            )  # fmt: skip
        legal[b, :] = False
        for i in range(m):
            legal[b, scratch[0, scratch[1, i]]] = True


@njit(cache=True)
def gather_leaves(
    terminal, node_to_play, boards, legal, leaves, active, ask, rows, out_boards, to_play,
    out_legal,
):  # fmt: skip
    """Gathers what a batched evaluator needs of the unfinished leaves of the active trees, in
    tree order: their trees into ``ask`` `[B]`, positions into ``out_boards`` `[B, H, W]`, movers
    into ``to_play`` `[B]` and legal moves into ``out_legal`` `[B, A]` (from ``legal`` `[B, A]`),
    the first ``m`` rows of each, and into ``rows`` `[B]` each tree's row among them (-1 if
    none); returns ``m``. ``terminal``, ``node_to_play``: the tree's `[B, N]` arrays;
    ``boards``: `[B, N, H, W]` node positions; ``leaves``, ``active``: `[B]`."""
    m = 0
    for b in range(leaves.shape[0]):
        node = leaves[b]
        rows[b] = -1
        if active[b] and not terminal[b, node]:
            rows[b] = m
            ask[m] = b
            out_boards[m] = boards[b, node]
            to_play[m] = node_to_play[b, node]
            out_legal[m] = legal[b]
            m += 1
    return m


@compiled_on_first_call(
    types.none(
        BATCHED_TREE_T, _BOARDS_T, _I64_2D, types.int64, _BOARDS_T_3, _I64_1D, _I64_1D,
        _BOOL_2D, _BOOL_1D, types.int64, types.int64, _I64_1D, _I64_1D, _I64_1D,
    )
)  # fmt: skip
def find_subtrees(
    old, old_boards, old_moves, old_count, boards, to_play, stones, legal, active, min_depth,
    max_depth, src_tree, src_node, queue,
):  # fmt: skip
    """Finds, for each active position ``boards[b]`` `[B, H, W]` with mover ``to_play[b]``
    and ``stones[b]`` stones, a node of an earlier search's trees (``old``, its first
    ``old_count`` trees, node positions ``old_boards`` `[B', N, H, W]` and stone counts
    ``old_moves`` `[B', N]`) that can be its root: ``min_depth`` to ``max_depth`` moves below an old root, the same board
    and mover, expanded with one slot per move of ``legal[b]`` `[A]` exactly (the root
    moves this search would expand). Tree ``b`` is looked at first, then the others.

    Writes the old tree and node into ``src_tree``, ``src_node`` `[B]` (-1: none);
    ``queue`` `[>= N]` int64 is work space.
    """
    for b in range(boards.shape[0]):
        src_tree[b], src_node[b] = -1, -1
        if not active[b]:
            continue
        want = 0
        for a in range(legal.shape[1]):
            want += legal[b, a]
        for k in range(old_count):
            ob = (b + k) % old_count
            node = _find_position(
                old, old_boards, old_moves, ob, boards[b], to_play[b], stones[b], legal[b], want,
                min_depth, max_depth, queue,
            )  # fmt: skip
            if node >= 0:
                src_tree[b], src_node[b] = ob, node
                break


@njit(cache=True)
def _find_position(
    old, old_boards, old_moves, ob, board, to_play, stones, legal, want, min_depth, max_depth,
    queue,
):  # fmt: skip
    """The first node, breadth first, of old tree ``ob`` that ``find_subtrees`` accepts, or
    -1. Nodes deeper than ``max_depth`` are not visited: the queue holds the nodes of one
    depth at a time."""
    queue[0] = ROOT_INDEX
    start, end = 0, 1
    for depth in range(1, max_depth + 1):
        count = end
        for i in range(start, end):
            node = queue[i]
            for k in range(max(old.node_num_children[ob, node], 0)):
                child = old.children_index[ob, node, k]
                if child != UNVISITED:
                    queue[count] = child
                    count += 1
        start, end = end, count
        if depth < min_depth:
            continue
        for i in range(start, end):
            node = queue[i]
            if (
                old_moves[ob, node] != stones
                or old.node_to_play[ob, node] != to_play
                or old.node_terminal[ob, node]
                or old.node_num_children[ob, node] != want
            ):
                continue
            same = True
            for k in range(want):
                if not legal[old.children_action[ob, node, k]]:
                    same = False
                    break
            if same and np.array_equal(old_boards[ob, node], board):
                return node
    return -1


@compiled_on_first_call(
    types.none(
        BATCHED_TREE_T, _BOARDS_T, _I64_2D, _I64_1D, _I64_1D, BATCHED_TREE_T, _BOARDS_T,
        _I64_2D, _I64_1D,
    )
)  # fmt: skip
def copy_subtrees(
    old, old_boards, old_moves, src_tree, src_node, new, new_boards, new_moves, queue
):
    """Makes the subtree of each found node (``src_tree``, ``src_node`` `[B]` of
    ``find_subtrees``) tree ``b`` of ``new``, that node its root: its visits, values, slots
    and nodes kept (renumbered breadth first), the edge into it dropped (the root's reward
    0, discount 1), ``min_max`` the range of the kept ``Q``. Trees without a node (-1) are
    left as they are. ``new`` needs room for the subtree (at most the node's visits, every
    node of it having been visited); ``queue`` `[>= N]` int64 is work space."""
    for b in range(src_tree.shape[0]):
        ob = src_tree[b]
        if ob < 0:
            continue
        queue[0] = src_node[b]
        count, head = 1, 0
        lo, hi = math.inf, -math.inf
        while head < count:
            o, i = queue[head], head
            head += 1
            new.node_visits[b, i] = old.node_visits[ob, o]
            new.node_value_sum[b, i] = old.node_value_sum[ob, o]
            new.node_q[b, i] = old.node_q[ob, o]
            new.node_rsqrt[b, i] = old.node_rsqrt[ob, o]
            new.node_visited_mass[b, i] = old.node_visited_mass[ob, o]
            new.node_raw_value[b, i] = old.node_raw_value[ob, o]
            new.node_reward[b, i] = old.node_reward[ob, o]
            new.node_discount[b, i] = old.node_discount[ob, o]
            new.node_action[b, i] = old.node_action[ob, o]
            new.node_to_play[b, i] = old.node_to_play[ob, o]
            new.node_terminal[b, i] = old.node_terminal[ob, o]
            n = old.node_num_children[ob, o]
            new.node_num_children[b, i] = n
            new_boards[b, i] = old_boards[ob, o]
            new_moves[b, i] = old_moves[ob, o]
            if i > 0 and new.node_visits[b, i] > 0:
                lo, hi = min(lo, new.node_q[b, i]), max(hi, new.node_q[b, i])
            for k in range(max(n, 0)):
                new.children_action[b, i, k] = old.children_action[ob, o, k]
                new.children_prior[b, i, k] = old.children_prior[ob, o, k]
                child = old.children_index[ob, o, k]
                if child == UNVISITED:
                    new.children_index[b, i, k] = UNVISITED
                else:
                    new.children_index[b, i, k] = count
                    new.node_parent[b, count] = i
                    queue[count] = child
                    count += 1
        new.node_parent[b, ROOT_INDEX] = NO_PARENT
        new.node_action[b, ROOT_INDEX] = -1
        new.node_reward[b, ROOT_INDEX] = 0.0
        new.node_discount[b, ROOT_INDEX] = 1.0
        new.node_q[b, ROOT_INDEX] = 0.0
        new.num_nodes[b] = count
        new.min_max[b, 0], new.min_max[b, 1] = lo, hi
