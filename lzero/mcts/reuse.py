"""Tree reuse: finding the position of a new search in the tree of the last one."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from lzero.mcts.tree import ROOT_INDEX, UNVISITED, Tree


def find_reusable(
    tree: Tree | None, board: np.ndarray, to_play: int, apply_action: Callable
) -> int:
    """Returns the node of ``tree`` at ``board`` (`[H, W]` int8) with ``to_play`` to move, at
    most two plies below its root, or -1; ``apply_action`` is the game's kernel."""
    if tree is None or tree.meta[0] == 0:
        return -1
    nodes = [(ROOT_INDEX, tree.root_board)]
    for _ in range(2):
        if any(np.array_equal(b, board) for _, b in nodes):
            break
        nodes = [
            (child, _after(b, tree, parent, k, apply_action))
            for parent, b in nodes
            for k in range(max(int(tree.node_num_children[parent]), 0))
            if (child := int(tree.children_index[parent, k])) != UNVISITED
        ]
    for node, b in nodes:
        if np.array_equal(b, board) and tree.node_to_play[node] == to_play:
            return node
    return -1


def _after(
    board: np.ndarray, tree: Tree, parent: int, slot: int, apply_action: Callable
) -> np.ndarray:
    b = board.copy()
    apply_action(b, int(tree.children_action[parent, slot]), int(tree.node_to_play[parent]))
    return b
