"""A plain-Python Gumbel MuZero search (Danihelka et al. 2022), written from the paper apart
from ``lzero.mcts.gumbel``: a tree of dicts, one simulation at a time, every formula spelled
out with ``math``.

The search is generic over a model given as two callables:

- ``evaluate(state) -> (priors, value)``: ``priors`` a dict of the state's moves to their
  probabilities, ``value`` for the player to move there;
- ``step(state, action) -> (child, reward, discount, terminal)``: the reward for the mover and
  the edge's discount (``-1`` in two-player games, ``gamma`` in one-player tasks).
"""

from __future__ import annotations

import math

TINY = 1.1754943508222875e-38  # float32's smallest normal: the floor under a probability


def schedule(m: int, n: int) -> list[int]:
    """Sequential Halving's considered visit counts (the paper's section 3): phase after phase,
    each of the ``s`` moves still considered gets ``max(1, floor(n / (ceil(log2 m) * s)))``
    more visits, one round (every such move once) at a time; then ``s`` halves (at least 2).
    Entry ``i`` is the visits the move searched at simulation ``i`` already has."""
    if m <= 1:
        return list(range(n))
    phases = []  # (moves considered, rounds, visits each has at the phase's start)
    s, start, length = m, 0, 0
    while length < n:
        rounds = max(1, n // (math.ceil(math.log2(m)) * s))
        phases.append((s, rounds, start))
        start += rounds
        length += rounds * s
        s = max(2, s // 2)
    out = []
    for s, rounds, first in phases:
        for r in range(rounds):
            out += [first + r] * s
    return out[:n]


class Node:
    def __init__(self, state, reward: float, discount: float, terminal: bool):
        self.state, self.reward, self.discount, self.terminal = state, reward, discount, terminal
        self.children: dict[int, Node] = {}
        self.priors: dict[int, float] | None = None  # None until expanded
        self.raw_value = 0.0
        self.visits, self.value_sum = 0, 0.0

    def q(self) -> float:
        """The value of the edge into this node for the parent's mover."""
        return self.reward + self.discount * self.value_sum / self.visits


def completed_sigma(node: Node, maxvisit_init: float, value_scale: float) -> dict[int, float]:
    """``sigma(completedQ(a))`` of each move of ``node`` (eqs. 8 and 10, appendix D)."""
    moves = list(node.priors)
    seen = [a for a in moves if a in node.children]
    total = sum(node.children[a].visits for a in seen)
    if seen:
        mass = sum(max(node.priors[a], TINY) for a in seen)
        mean = sum(max(node.priors[a], TINY) * node.children[a].q() for a in seen) / mass
    else:
        mean = 0.0
    mixed = (node.raw_value + total * mean) / (1 + total)
    completed = {a: node.children[a].q() if a in node.children else mixed for a in moves}
    lo, hi = min(completed.values()), max(completed.values())
    most = max((node.children[a].visits for a in seen), default=0)
    scale = (maxvisit_init + most) * value_scale
    return {a: scale * (c - lo) / max(hi - lo, 1e-8) for a, c in completed.items()}


def improved_policy(node: Node, maxvisit_init: float, value_scale: float) -> dict[int, float]:
    """``softmax(log p + sigma(completedQ))`` over ``node``'s moves (eq. 11)."""
    sigma = completed_sigma(node, maxvisit_init, value_scale)
    logits = {a: math.log(max(p, TINY)) + sigma[a] for a, p in node.priors.items()}
    top = max(logits.values())
    weights = {a: math.exp(x - top) for a, x in logits.items()}
    total = sum(weights.values())
    return {a: w / total for a, w in weights.items()}


class GumbelSearch:
    """The search; ``gumbel`` maps each root move to its (scaled) Gumbel draw."""

    def __init__(self, evaluate, step, *, num_simulations, max_considered, maxvisit_init=50.0,
                 value_scale=0.1):  # fmt: skip
        self.evaluate, self.step = evaluate, step
        self.n, self.m = num_simulations, max_considered
        self.c_visit, self.c_scale = maxvisit_init, value_scale

    def _expand(self, node: Node) -> float:
        priors, value = self.evaluate(node.state)
        total = sum(max(p, 0.0) for p in priors.values())
        node.priors = {
            a: (max(p, 0.0) / total if total > 0 else 1.0 / len(priors))
            for a, p in sorted(priors.items())
        }
        node.raw_value = value
        return value

    def _root_move(self, root: Node, gumbel: dict[int, float], sim: int) -> int:
        moves = list(root.priors)
        wanted = schedule(min(self.m, len(moves)), self.n)[sim]
        sigma = completed_sigma(root, self.c_visit, self.c_scale)
        top = max(math.log(max(p, TINY)) for p in root.priors.values())
        best, best_score = None, -math.inf
        for a in moves:
            visits = root.children[a].visits if a in root.children else 0
            if visits != wanted:
                continue
            logit = math.log(max(root.priors[a], TINY)) - top
            score = max(-1e9, gumbel[a] + logit + sigma[a])
            if score > best_score:
                best, best_score = a, score
        return best

    def _interior_move(self, node: Node) -> int:
        pi = improved_policy(node, self.c_visit, self.c_scale)
        total = sum(c.visits for c in node.children.values())
        best, best_score = None, -math.inf
        for a in node.priors:
            visits = node.children[a].visits if a in node.children else 0
            score = pi[a] - visits / (1 + total)
            if score > best_score:
                best, best_score = a, score
        return best

    def run(self, state, gumbel: dict[int, float]):
        """Searches ``state``; returns ``(root, action, improved policy)``."""
        root = Node(state, 0.0, 1.0, False)
        self._backup([root], self._expand(root))
        for sim in range(self.n):
            path, node = [root], root
            action = self._root_move(root, gumbel, sim)
            while action in node.children:
                node = node.children[action]
                path.append(node)
                if node.terminal or node.priors is None:
                    break
                action = self._interior_move(node)
            else:
                child, reward, discount, terminal = self.step(node.state, action)
                node.children[action] = node = Node(child, reward, discount, terminal)
                path.append(node)
            value = 0.0 if node.terminal else self._expand(node)
            self._backup(path, value)
        pi = improved_policy(root, self.c_visit, self.c_scale)
        most = max(c.visits for c in root.children.values())
        sigma = completed_sigma(root, self.c_visit, self.c_scale)
        action, best = None, -math.inf
        for a, p in root.priors.items():
            if a in root.children and root.children[a].visits == most:
                score = gumbel[a] + math.log(max(p, TINY)) + sigma[a]
                if score > best:
                    action, best = a, score
        return root, action, pi

    @staticmethod
    def _backup(path: list[Node], value: float) -> None:
        for node in reversed(path):
            node.visits += 1
            node.value_sum += value
            value = node.reward + node.discount * value
