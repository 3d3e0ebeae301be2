"""The arrays a board env's kernels write its observations into, and when they may be written
again.

The kernels write an observation (and the reward) into arrays the env owns, from two
alternating sets, and the caller gets fresh views of them (``a.view()``, a quarter of
``np.empty``'s cost). A set's array is written again, two steps or resets later, only if
nobody holds a view of it any more: every view, and every view of a view, references it, so
its only references are then the set's list and getrefcount's argument (CPython's own
``s += t`` and NumPy's temporary elision reuse memory on the same test). Two sets, because a
loop like ``obs, r, d, i = env.step(agent(obs))`` still holds the last observation during the
step, not the one before. While a set's array is held, the kernels write into a new array
that is handed out as it is and never written again. The caller never gets an owned array
itself, so changing a view's shape, dtype or flags in place cannot reach the kernels (numba
trusts them). Builds whose reference counts are not exact (free-threaded, or without
``sys.getrefcount``) get new arrays only.
"""

from __future__ import annotations

import sys
import sysconfig

import numpy as np

_empty, _FLOAT32, _INT8 = np.empty, np.dtype(np.float32), np.dtype(np.int8)


def always_held(array) -> int:
    """``refs`` where reference counts are not exact: every array counts as held."""
    return 3


#: ``sys.getrefcount``: an array referenced only by one container and this call's argument
#: gives 2.
refs = getattr(sys, "getrefcount", None)
if refs is None or sysconfig.get_config_var("Py_GIL_DISABLED"):
    refs = always_held


class OutputSets:
    """Two sets of ``[planes, board, mask, reward]`` arrays for a board env's kernels.

    Args:
        obs_shape: the planes' shape, `[3, H, W]` or `[H, W, 3]` (float32).
        board_shape: `[H, W]` (int8); ``mask_shape``: `[A]` (int8); the reward is `[1]` float32.
    """

    def __init__(self, obs_shape: tuple, board_shape: tuple, mask_shape: tuple) -> None:
        self._obs_shape, self._board_shape, self._mask_shape = obs_shape, board_shape, mask_shape
        #: The two sets; ``slot`` is the one :meth:`next` hands out next.
        self.sets, self.slot = [self._new_set(), self._new_set()], 0

    def _new_set(self) -> list[np.ndarray]:
        return [
            _empty(self._obs_shape, _FLOAT32),
            _empty(self._board_shape, _INT8),
            _empty(self._mask_shape, _INT8),
            _empty(1, _FLOAT32),
        ]

    def next(self) -> tuple:
        """The arrays the kernels write next, ``(obs, board, mask, reward)``, followed by what
        the caller gets of them: a view of a reusable array, or a new array (see above)."""
        own = self.sets[self.slot]
        self.slot ^= 1
        if refs(own[0]) > 2:  # referenced by more than the list and getrefcount's argument
            obs = obs_out = _empty(self._obs_shape, _FLOAT32)
        else:
            obs = own[0]
            obs_out = obs.view()
        if refs(own[1]) > 2:
            board = board_out = _empty(self._board_shape, _INT8)
        else:
            board = own[1]
            board_out = board.view()
        if refs(own[2]) > 2:
            mask = mask_out = _empty(self._mask_shape, _INT8)
        else:
            mask = own[2]
            mask_out = mask.view()
        if refs(own[3]) > 2:
            reward = reward_out = _empty(1, _FLOAT32)
        else:
            reward = own[3]
            reward_out = reward.view()
        return obs, board, mask, reward, obs_out, board_out, mask_out, reward_out


__all__ = ["OutputSets", "always_held", "refs"]
