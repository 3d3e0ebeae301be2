"""A plain-Python UCT, written the way Python MCTS bots usually are, as a reference.

Node objects hold a copy of their board and a list of children; the game is reached through
the same kernels, and the random generator is consumed in exactly the order of the array
search (slot shuffles, rollout moves), so with the same seed both return the same visit
counts. Tests use it as an independent implementation of the algorithm; the benchmark
(``benchmarks/bench_mcts.py``) uses it as the speed baseline. Not for play: it is slow.
"""

from __future__ import annotations

import math

import numpy as np

from lzero.envs.board_rules import DRAW, ONGOING
from lzero.mcts.game import GameKernels, randbelow_fast
from lzero.mcts.rollout import check_near_width
from lzero.utils.nbrng import make_rng_state


class _Node:
    __slots__ = (
        "board", "to_play", "result", "actions", "priors", "children", "visits", "value_sum",
        "mean",
    )  # fmt: skip

    def __init__(self, board: np.ndarray, to_play: int, result: int) -> None:
        self.board = board
        self.to_play = to_play
        self.result = result
        self.actions: list[int] | None = None
        self.priors: list[float] = []
        self.children: list[_Node | None] = []
        self.visits = 0
        self.value_sum = 0.0  # from the view of the player who moved into this node
        self.mean = 0.0


def _value(result: int, player: int) -> float:
    return 1.0 if result == player else (0.0 if result == DRAW else -1.0)


class PythonUCT:
    """UCT with UCB1, one node per simulation and random rollouts, in plain Python; or PUCT
    over move priors with a leaf evaluator (AlphaZero's selection, Silver et al. 2018).

    Args:
        kernels: the game.
        c_uct: exploration constant.
        radius: near-stone candidate radius (placement games, at most ``rollout.MAX_NEAR_WIDTH``
            columns wide), 0 for all legal moves.
        tactics: the root filter ``lzero.mcts.tactics.root_tactics``.
        tree_tactics: decisive moves below the root (``lzero.mcts.tactics.decisive_moves``).
        seed: seed, as for one tree of ``BatchedSearch`` (tree ``b`` uses ``seed + b``).
        selection: ``'ucb1'`` or ``'puct'`` (``c_uct`` is then ``c1``, and ``c2`` its base).
        evaluate: a numba leaf evaluator (``lzero.mcts.rollout.EVALUATE_T``) instead of the
            random rollouts, called from Python.
        priors: numba move priors (``lzero.mcts.game.PRIORS_T``) instead of uniform ones.
    """

    def __init__(
        self, kernels: GameKernels, *, c_uct=1.4, radius=0, tactics=True, tree_tactics=False,
        seed=0, selection="ucb1", c2=math.inf, evaluate=None, priors=None,
    ):  # fmt: skip
        check_near_width(radius, kernels.board_shape[1])
        self.selection, self.c2 = selection, c2
        self.evaluate, self.priors = evaluate, priors
        self.k = kernels
        self.tree_tactics = tree_tactics
        self.c = c_uct
        self.radius = radius
        self.tactics = tactics
        self.rng = make_rng_state(seed)
        self._buf = np.zeros(kernels.action_size, np.int64)

    def _legal(self, board: np.ndarray, player: int) -> list[int]:
        return self._buf[: self.k.legal_actions(board, player, self._buf)].tolist()

    def _near(self, board: np.ndarray) -> np.ndarray:
        h, w = board.shape
        r = self.radius
        near = np.zeros((h, w), bool)
        for row, col in zip(*np.nonzero(board)):
            near[max(0, row - r) : row + r + 1, max(0, col - r) : col + r + 1] = True
        return near.reshape(-1)

    def _candidates(self, board: np.ndarray, player: int) -> list[int]:
        legal = self._legal(board, player)
        if self.radius > 0 and board.any():
            near = self._near(board)
            legal = [a for a in legal if near[a]]
        return legal

    def _decisive(self, node: _Node, actions: list[int]) -> list[int]:
        me, opponent = node.to_play, 3 - node.to_play
        for a in actions:
            if self._play(node.board, a, me)[1] == me:
                return [a]
        blocks = [a for a in actions if self._play(node.board, a, opponent)[1] == opponent]
        return blocks or actions

    def _expand(self, node: _Node, tactics: bool = False) -> None:
        actions = self._candidates(node.board, node.to_play)
        if tactics:
            actions = self._decisive(node, actions)
        for i in range(len(actions) - 1, 0, -1):
            j = randbelow_fast(self.rng, i + 1)
            actions[i], actions[j] = actions[j], actions[i]
        node.actions = actions
        node.children = [None] * len(actions)
        node.priors = [1.0 / max(len(actions), 1)] * len(actions)
        if self.priors is not None:
            out = np.zeros(self.k.action_size, np.float32)
            self.priors(
                node.board, node.to_play, np.array(actions + [0], np.int64), len(actions), out
            )
            node.priors = out[: len(actions)].tolist()

    def _play(self, board: np.ndarray, action: int, player: int) -> tuple[np.ndarray, int]:
        child = board.copy()
        cell = self.k.apply_action(child, action, player)
        return child, self.k.result_after(child, cell, player, int(np.count_nonzero(child)))

    def _filter_root(self, root: _Node) -> None:
        me, opponent = root.to_play, 3 - root.to_play
        for a in root.actions:
            if self._play(root.board, a, me)[1] == me:
                keep = [root.actions.index(a)]
                break
        else:
            keep = []
            for i, a in enumerate(root.actions):
                after, result = self._play(root.board, a, me)
                if result != ONGOING or all(
                    self._play(after, reply, opponent)[1] != opponent
                    for reply in self._legal(after, opponent)
                ):
                    keep.append(i)
        if 0 < len(keep) < len(root.actions):
            root.actions = [root.actions[i] for i in keep]
            root.priors = [root.priors[i] for i in keep]
            root.children = [None] * len(keep)

    def _rollout(self, board: np.ndarray, to_play: int) -> float:
        board = board.copy()
        player = to_play
        flat = board.reshape(-1)
        if not self.k.placement:
            while True:
                legal = self._legal(board, player)
                action = legal[randbelow_fast(self.rng, len(legal))]
                board, result = self._play(board, action, player)
                if result != ONGOING:
                    return _value(result, to_play)
                player = 3 - player
        if self.radius > 0 and board.any():
            near = self._near(board)
            cand = [c for c in range(flat.size) if near[c] and flat[c] == 0]
        else:
            cand = [c for c in range(flat.size) if flat[c] == 0]
        h, w = board.shape
        while cand:
            i = randbelow_fast(self.rng, len(cand))
            cell = cand[i]
            cand[i] = cand[-1]
            cand.pop()
            board, result = self._play(board, cell, player)
            if result != ONGOING:
                return _value(result, to_play)
            if self.radius > 0:
                row, col = divmod(cell, w)
                for r in range(max(0, row - self.radius), min(h, row + self.radius + 1)):
                    for c in range(max(0, col - self.radius), min(w, col + self.radius + 1)):
                        if board[r, c] == 0 and r * w + c not in cand:
                            cand.append(r * w + c)
            player = 3 - player
        return 0.0

    def search(self, board: np.ndarray, to_play: int, num_simulations: int) -> np.ndarray:
        """Runs the search; returns `[A]` int64 root visits per action."""
        root = _Node(np.array(board, np.int8), to_play, ONGOING)
        self._expand(root)
        if self.tactics:
            self._filter_root(root)
        for _ in range(num_simulations):
            node, path = root, [root]
            while True:
                if node.result != ONGOING:
                    value = _value(node.result, 3 - node.to_play)
                    break
                if node.actions is None:
                    self._expand(node, self.tree_tactics)
                slot = self._select(node)
                child = node.children[slot]
                if child is None:
                    after, result = self._play(node.board, node.actions[slot], node.to_play)
                    child = node.children[slot] = _Node(after, 3 - node.to_play, result)
                    path.append(child)
                    if result != ONGOING:
                        value = _value(result, node.to_play)
                    elif self.evaluate is not None:
                        value = -self.evaluate(
                            after.copy(), child.to_play, int(np.count_nonzero(after)),
                            self.radius, self.rng, np.zeros((4, self.k.action_size), np.int64),
                            self.k.legal_actions, self.k.apply_action, self.k.result_after,
                        )  # fmt: skip
                    else:
                        value = -self._rollout(after, child.to_play)
                    break
                node = child
                path.append(node)
            for n in reversed(path):
                n.visits += 1
                n.value_sum += value
                n.mean = n.value_sum / n.visits
                value = -value
        visits = np.zeros(self.k.action_size, np.int64)
        for a, child in zip(root.actions, root.children):
            visits[a] = child.visits if child is not None else 0
        return visits

    def _select(self, node: _Node) -> int:
        if self.selection == "puct":
            n = max(node.visits, 1)
            # log((n + c2 + 1) / c2) as log1p((n + 1) / c2), the array search's rounding: one
            # ulp apart, near-equal scores of different children could rank the other way
            c = self.c + math.log1p((n + 1.0) / self.c2)
            scale = c * math.sqrt(n)  # first, as the array search: equal scores tie alike
            best_k, best = 0, -math.inf
            for k, child in enumerate(node.children):
                q, visits = (child.mean, child.visits) if child is not None else (0.0, 0)
                score = q + scale * node.priors[k] / (1 + visits)
                if score > best:
                    best_k, best = k, score
            return best_k
        scale = self.c * math.sqrt(math.log(max(node.visits, 1)))
        best_k, best = 0, -math.inf
        for k, child in enumerate(node.children):
            if child is None:
                return k
            score = child.mean + scale * (1.0 / math.sqrt(child.visits))
            if score > best:
                best_k, best = k, score
        return best_k
