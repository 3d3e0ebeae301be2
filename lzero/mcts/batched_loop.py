"""Whole searches in numba: the batched tree's simulations with a numba leaf evaluator.

UCT as Browne et al. survey it ("A Survey of Monte Carlo Tree Search Methods", 2012), on the
``BatchedTree`` of ``lzero.mcts.batched_tree``: each simulation *selects* slots from the root
with the selection rule (``select_slot``: UCB1, or PUCT over move priors) until a slot without
a child node or a finished game, *adds* that one node (its position is its parent's with the
slot's move played), *evaluates* it with the leaf evaluator (random rollouts,
Gomoku's line windows: ``lzero.mcts.rollout.EVALUATE_T``) unless the game is over, and *backs
up* the value. A node is expanded the first time a simulation passes through it: its
candidate moves (``candidate_actions``: legal, near a stone with ``radius``; with
``tree_tactics`` only its decisive or anti-decisive ones) fill its slots in random order, with
priors from ``PRIORS_T`` (uniform without). A simulation replays its path's moves on a copy
of the root's board, so only the roots' boards are kept. Trees are searched one after another, each with
its own random generator ``rngs[b]``, so a tree's search does not depend on the others.

This is the batched search with a numba evaluator (``BatchedSearch.search`` without a Python
evaluator), not a second tree: the same arrays, selection rules and backup as the
Python-evaluator step (``lzero.mcts.batched_board``). The loop writes the selection rules
(``batched_tree.select_slot``) and ``backup_arrays`` out: a helper handed arrays, even
inlined, made numba count references to each of them at every call (perf: a third of a
TicTacToe simulation in the old array search). A test checks the loop against a plain-Python
UCT (``lzero.mcts.python_uct``) visit for visit, with UCB1 and with PUCT. The entry points are compiled on first use against
explicit ``FunctionType`` signatures, which numba caches on disk (``lzero.mcts.jit``); a game
may bind its own loop (``bind_simulations``) so that numba inlines its kernels.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, types

from lzero.envs.board_step import move_reward
from lzero.mcts.batched_tree import (
    BATCHED_TREE_T,
    NO_PARENT,
    PUCT,
    ROOT_INDEX,
    UNVISITED,
    _puct_scale,
    reset_root,
)
from lzero.mcts.game import (
    BOARD_T,
    KERNELS_T,
    PRIORS_T,
    SCRATCH_T,
    copy_board,
    randbelow_fast,
)
from lzero.mcts.jit import compiled_on_first_call
from lzero.mcts.rollout import (
    EVALUATE_T,
    candidate_actions,
    placement_rollout,
    uniform_rollout,
)
from lzero.mcts.tactics import decisive_moves, root_tactics

BOARDS_T = types.Array(types.int8, 4, "C")
ROOTS_T = types.Array(types.int8, 3, "C")
RNGS_T = types.Array(types.uint64, 2, "C")
_I64_1D = types.Array(types.int64, 1, "C")
_I64_2D = types.Array(types.int64, 2, "C")
_BOOL_1D = types.Array(types.boolean, 1, "C")


@njit(cache=True, inline="always")
def expand_node(
    num_children, children, actions, prior, node, to_play, board, num_moves, radius, tactics,
    rng, scratch, legal_actions, apply_action, result_after, priors,
):  # fmt: skip
    """Lists ``node``'s candidate moves in its slots in random order, with ``priors``
    (``PRIORS_T``, None for uniform); with ``tactics``, only its decisive or anti-decisive
    moves if it has any (``lzero.mcts.tactics.decisive_moves``). One tree's arrays
    (``node_num_children`` `[N]`, ``children_*`` `[N, A]`); ``scratch`` `[4, A]`."""
    n = candidate_actions(board, to_play, radius, scratch, scratch[3], legal_actions)
    if tactics:
        n = decisive_moves(
            board, to_play, num_moves, scratch[3], n, scratch[0], apply_action, result_after
        )
    for i in range(n - 1, 0, -1):  # shuffled: UCB1's first unvisited slot is a random move
        j = randbelow_fast(rng, i + 1)
        scratch[3, i], scratch[3, j] = scratch[3, j], scratch[3, i]
    if priors is None:
        uniform = 1.0 / max(n, 1)
        for k in range(n):
            prior[node, k] = uniform
    else:
        priors(board, to_play, scratch[3], n, prior[node])
    for k in range(n):
        actions[node, k] = scratch[3, k]
        children[node, k] = UNVISITED
    num_children[node] = n


def simulate(
    tree, boards, num_moves, num_simulations, rule, c1, c2, normalize, radius, tree_tactics,
    active, rngs, work, scratch, evaluate, legal_actions, apply_action, result_after,
    placement, priors,
):  # fmt: skip
    """Runs up to ``num_simulations`` simulations in each active tree (roots prepared by
    ``prepare_roots``).

    Args:
        tree: the ``BatchedTree``.
        boards: `[B, N, H, W]` int8 node positions; only the roots' are read (each simulation
            replays its moves from the root, as ``prepare_roots`` left it).
        num_moves: `[B, N]` int64 stones on each node's board; only the roots' are read.
        num_simulations: simulations per tree.
        rule, c1, c2, normalize: the selection rule and its constants (``select_slot``).
        radius: near-stone candidate radius for expansions and the evaluator (0: off).
        tree_tactics: expand nodes to their decisive or anti-decisive moves if they have any.
        active: `[B]` bool, the trees to search.
        rngs: `[B, 1]` uint64 generator state of each tree.
        work: `[H, W]` int8 work board (the position along the path; the evaluator may
            overwrite it).
        scratch: `[4, A]` int64 work array.
        evaluate: leaf evaluator (``EVALUATE_T``), or None for the built-in random rollouts
            (``placement_rollout`` if ``placement`` else ``uniform_rollout``), which numba can
            then inline.
        legal_actions, apply_action, result_after: the game's kernels.
        placement: whether the game is a placement game (``GameKernels.placement``).
        priors: move priors of expanded nodes (``PRIORS_T``), or None for uniform ones.

    Returns:
        The simulations run in every active tree: fewer than asked only when a tree is full.
    """
    done = num_simulations
    for b in range(active.shape[0]):
        if active[b]:
            # One tree's arrays, handed to a function: arguments are borrowed, while views
            # held in a loop made numba count references at each use (perf: 12% of TicTacToe).
            done = min(done, _tree_loop(
                tree.node_visits[b], tree.node_value_sum[b], tree.node_q[b], tree.node_rsqrt[b],
                tree.node_visited_mass[b], tree.node_reward[b], tree.node_discount[b],
                tree.node_parent[b], tree.node_action[b], tree.node_to_play[b],
                tree.node_terminal[b], tree.node_num_children[b], tree.children_index[b],
                tree.children_action[b], tree.children_prior[b], tree.min_max[b], tree.num_nodes,
                b, boards[b, ROOT_INDEX], num_moves[b, ROOT_INDEX], num_simulations, rule, c1, c2,
                normalize, radius, tree_tactics, rngs[b], work, scratch, evaluate, legal_actions,
                apply_action, result_after, placement, priors,
            ))  # fmt: skip
    return done


def tree_loop(
    visits, value_sum, q, rsqrt, visited_mass, reward, discount, parent, action_of, to_play_of,
    terminal, num_children, children, actions, prior, min_max, num_nodes, b, root_board,
    root_moves, num_simulations, rule, c1, c2, normalize, radius, tree_tactics, rng, work,
    scratch, evaluate, legal_actions, apply_action, result_after, placement, priors,
):  # fmt: skip
    """``simulate`` in tree ``b``, on its arrays (``root_board``: its root's `[H, W]`)."""
    capacity = visits.shape[0]
    for sim in range(num_simulations):
        size = num_nodes[b]
        if size >= capacity:
            return sim
        # Replay the path's moves on a copy of the root's board: storing each new node's
        # board cost a copy in and out and made TicTacToe 25% slower.
        copy_board(root_board, work)
        moves = root_moves
        node = ROOT_INDEX
        while not terminal[node]:
            if num_children[node] < 0:
                expand_node(
                    num_children, children, actions, prior, node, np.int64(to_play_of[node]),
                    work, moves, radius, tree_tactics, rng, scratch,
                    legal_actions, apply_action, result_after, priors,
                )  # fmt: skip
            # ``select_slot``'s rules, written out (see the module doc).
            parent_visits = max(visits[node], 1)
            lo, hi = 0.0, 1.0
            norm = False
            if normalize:
                lo, hi = min_max[0], min_max[1]
                norm = hi > lo
            slot, best = 0, -math.inf
            if rule == PUCT:
                scale = _puct_scale(parent_visits, c1, c2)
                for k in range(num_children[node]):
                    child = children[node, k]
                    qk, nk = 0.0, 0
                    if child != UNVISITED:
                        qk, nk = q[child], visits[child]
                        if norm:
                            qk = (qk - lo) / (hi - lo)
                    score = qk + scale * prior[node, k] / (1.0 + nk)
                    if score > best:
                        slot, best = k, score
            else:
                scale = c1 * math.sqrt(math.log(parent_visits))
                for k in range(num_children[node]):
                    child = children[node, k]
                    if child == UNVISITED:
                        slot = k
                        break
                    qk = q[child]
                    if norm:
                        qk = (qk - lo) / (hi - lo)
                    score = qk + scale * rsqrt[child]
                    if score > best:
                        slot, best = k, score
            player = np.int64(to_play_of[node])
            action = np.int64(actions[node, slot])
            cell = apply_action(work, action, player)
            moves += 1
            child = children[node, slot]
            if child == UNVISITED:  # add it, with its result
                child = size
                num_nodes[b] = size + 1
                result = result_after(work, cell, player, moves)
                visits[child], value_sum[child], q[child], rsqrt[child] = 0, 0.0, 0.0, 0.0
                visited_mass[child] = 0.0
                visited_mass[node] += prior[node, slot]
                reward[child] = move_reward(result, player)
                discount[child] = -1.0
                parent[child], action_of[child], to_play_of[child] = node, action, 3 - player
                terminal[child], num_children[child] = result != 0, -1
                children[node, slot] = child
                node = child
                break
            node = child
        value = 0.0  # a finished game's result is its edge reward
        if not terminal[node]:  # a new leaf, whose position ``work`` holds now
            player = np.int64(to_play_of[node])
            if evaluate is None:  # a bound loop: the built-in rollouts, inlined
                if placement:
                    value = placement_rollout(
                        work, player, moves, radius, rng, scratch,
                        legal_actions, apply_action, result_after,
                    )  # fmt: skip
                else:
                    value = uniform_rollout(
                        work, player, moves, radius, rng, scratch,
                        legal_actions, apply_action, result_after,
                    )  # fmt: skip
            else:
                value = evaluate(
                    work, player, moves, radius, rng, scratch,
                    legal_actions, apply_action, result_after,
                )  # fmt: skip
        while True:  # ``backup_arrays``, written out
            n = visits[node] + 1
            total = value_sum[node] + value
            visits[node], value_sum[node], rsqrt[node] = n, total, 1.0 / math.sqrt(n)
            up = parent[node]
            if up == NO_PARENT:
                break
            edge = reward[node] + discount[node] * (total / n)
            q[node] = edge
            if normalize:  # the bounds serve only the normalisation
                min_max[0] = min(min_max[0], edge)
                min_max[1] = max(min_max[1], edge)
            value = reward[node] + discount[node] * value
            node = up
    return num_simulations


_tree_loop = njit(tree_loop)


#: The loop for kernels passed as dispatchers: not cached itself, it is specialised and inlined
#: into the caller, which ``bind_simulations`` compiles and caches.
simulate_inline = njit(simulate)

#: ``(tree, boards, num_moves, num_simulations, rule, c1, c2, normalize, radius, tree_tactics,
#: active, rngs, work, scratch)``: the arguments every compiled search loop starts with.
_LOOP_ARGS_T = (
    BATCHED_TREE_T,
    BOARDS_T,
    _I64_2D,
    types.int64,
    types.int64,
    types.float64,
    types.float64,
    types.boolean,
    types.int64,
    types.boolean,
    _BOOL_1D,
    RNGS_T,
    BOARD_T,
    SCRATCH_T,
)
#: Signature of a loop bound to one game (see ``bind_simulations``).
BOUND_SIMULATIONS_T = types.int64(*_LOOP_ARGS_T)


@compiled_on_first_call(types.int64(*_LOOP_ARGS_T, EVALUATE_T, *KERNELS_T, types.boolean, PRIORS_T))
def run_simulations(
    tree, boards, num_moves, num_simulations, rule, c1, c2, normalize, radius, tree_tactics,
    active, rngs, work, scratch, evaluate, legal_actions, apply_action, result_after,
    placement, priors,
):  # fmt: skip
    """``simulate`` with the game's kernels, evaluator and priors passed as ``FunctionType``
    arguments: compiled once (first call) and cached on disk, for any game."""
    return simulate_inline(
        tree, boards, num_moves, num_simulations, rule, c1, c2, normalize, radius, tree_tactics,
        active, rngs, work, scratch, evaluate, legal_actions, apply_action, result_after,
        placement, priors,
    )  # fmt: skip


def bind_simulations(py_func):
    """Decorates a game's own loop, ``(tree, boards, num_moves, num_simulations, rule, c1, c2,
    normalize, radius, tree_tactics, active, rngs, work, scratch) -> simulations``, written as
    one call of ``simulate_inline`` with the game's kernels, its evaluator and priors (or
    None: random rollouts, uniform priors) named as module globals.

    numba inlines those kernels (a ``FunctionType`` call cannot be inlined, which costs 10-20%
    on small games) and, as they are globals rather than arguments, caches the result. Such a
    loop runs the same simulations as ``run_simulations`` with the same kernels (a test checks).
    """
    return compiled_on_first_call(BOUND_SIMULATIONS_T)(py_func)


@compiled_on_first_call(
    types.none(
        BATCHED_TREE_T,
        BOARDS_T,
        _I64_2D,
        ROOTS_T,
        _I64_1D,
        types.int64,
        types.boolean,
        _BOOL_1D,
        RNGS_T,
        SCRATCH_T,
        *KERNELS_T,
        PRIORS_T,
    )
)
def prepare_roots(
    tree, boards, num_moves, roots, to_play, radius, tactics, active, rngs, scratch,
    legal_actions, apply_action, result_after, priors,
):  # fmt: skip
    """Empties each active tree and expands its root for ``roots[b]`` (`[B, H, W]`, unfinished)
    with ``to_play[b]`` to move, as ``simulate`` expands nodes (without tree tactics).

    With ``tactics`` a winning move becomes the only root slot, and moves that allow the
    opponent an immediate win are dropped unless all do (``root_tactics``).
    """
    for b in range(active.shape[0]):
        if not active[b]:
            continue
        reset_root(tree, b, to_play[b])
        board = boards[b, ROOT_INDEX]
        copy_board(roots[b], board)
        stones = 0
        for cell in range(board.size):
            stones += board.reshape(-1)[cell] != 0
        num_moves[b, ROOT_INDEX] = stones
        num_children, prior = tree.node_num_children[b], tree.children_prior[b]
        actions = tree.children_action[b]
        expand_node(
            num_children, tree.children_index[b], actions, prior, ROOT_INDEX, to_play[b], board,
            stones, radius, False, rngs[b], scratch, legal_actions, apply_action, result_after,
            priors,
        )  # fmt: skip
        if tactics:
            n = num_children[ROOT_INDEX]
            keep = scratch[1]
            m = root_tactics(
                board, to_play[b], stones, actions[ROOT_INDEX], n, keep, scratch[0],
                legal_actions, apply_action, result_after,
            )  # fmt: skip
            for i in range(m):
                actions[ROOT_INDEX, i] = actions[ROOT_INDEX, keep[i]]
                prior[ROOT_INDEX, i] = prior[ROOT_INDEX, keep[i]]
            num_children[ROOT_INDEX] = m
