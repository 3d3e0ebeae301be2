"""The arrays a board env's kernels write its observations into, and when they may be written
again.

The kernels write an observation (planes, board, mask and reward) into one float32 buffer the
env owns, from two alternating sets, and the caller gets fresh views of the buffer's parts
(``a.view()``, a quarter of ``np.empty``'s cost). One buffer per set, because each array a
kernel takes costs its call about 55 ns to unbox, and one reference count then tells whether
any part is held. A set is written again, two steps or resets later, only if nobody holds a
view of it any more: every view, and every view of a view, references the buffer (NumPy
points a view's ``base`` at the array that owns the memory), so its only references are then
the set's tuple, the set's own four views and getrefcount's argument (CPython's own
``s += t`` and NumPy's temporary elision reuse memory on the same test). Two sets, because a
loop like ``obs, r, d, i = env.step(agent(obs))`` still holds the last observation during the
step, not the one before. While a set is held, the kernels write into new arrays that are
handed out as they are and never written again. The caller never gets the buffer or the set's
own views, so changing a view's shape, dtype or flags in place cannot reach the kernels
(numba trusts them) nor the next caller. Builds whose reference counts are not exact
(free-threaded, or without ``sys.getrefcount``) get new sets only.
``tests/zoo/board_games/test_board_env_outputs.py`` guards all of this.
"""

from __future__ import annotations

import sys
import sysconfig

import numpy as np

_empty, _FLOAT32, _INT8 = np.empty, np.dtype(np.float32), np.dtype(np.int8)

#: ``refs(own[0])`` of a set nobody holds: its tuple, its four views, getrefcount's argument.
FREE = 6


def always_held(array) -> int:
    """``refs`` where reference counts are not exact: every set counts as held."""
    return sys.maxsize


#: ``sys.getrefcount``.
refs = getattr(sys, "getrefcount", None)
if refs is None or sysconfig.get_config_var("Py_GIL_DISABLED"):
    refs = always_held


def buffer_size(obs_shape: tuple, board_shape: tuple, mask_shape: tuple) -> int:
    """float32 items of a set's buffer: the planes, the reward, then the int8 board and mask
    (padded to whole float32 items). The kernels write it in this order."""
    planes, ints = int(np.prod(obs_shape)), int(np.prod(board_shape)) + mask_shape[0]
    return planes + 1 + (ints + 3) // 4


class OutputSets:
    """Two output sets for a board env's kernels, each ``(buffer, planes, board, mask,
    reward)``: a float32 buffer and views of its parts, the planes `[3, H, W]` or `[H, W, 3]`
    float32, the board `[H, W]` int8, the mask `[A]` int8 and the reward `[1]` float32.
    """

    def __init__(self, obs_shape: tuple, board_shape: tuple, mask_shape: tuple) -> None:
        self._obs_shape, self._board_shape, self._mask_shape = obs_shape, board_shape, mask_shape
        self._planes = int(np.prod(obs_shape))
        self._cells = int(np.prod(board_shape))
        self._size = buffer_size(obs_shape, board_shape, mask_shape)
        #: The two sets; ``slot`` is the one :meth:`next` hands out next.
        self.sets, self.slot = [self._new_set(), self._new_set()], 0

    def _new_set(self) -> tuple:
        buf = _empty(self._size, _FLOAT32)
        p, n = self._planes, self._cells
        ints = buf[p + 1 :].view(_INT8)
        return (
            buf,
            buf[:p].reshape(self._obs_shape),
            ints[:n].reshape(self._board_shape),
            ints[n : n + self._mask_shape[0]],
            buf[p : p + 1],
        )

    def new_arrays(self) -> tuple:
        """Four new arrays ``(planes, board, mask, reward)``, for the kernels to write while
        the set in turn is held (a new set's views would cost three times as much, and a
        trajectory collector holds every step)."""
        return (
            _empty(self._obs_shape, _FLOAT32),
            _empty(self._board_shape, _INT8),
            _empty(self._mask_shape, _INT8),
            _empty(1, _FLOAT32),
        )

    def next(self) -> tuple:
        """``(buffer, planes, board, mask, reward)``: the buffer the kernels write next and
        the caller's views of its parts, or, while that set is held, a new set. (The env's
        step writes this out, taking :meth:`new_arrays` instead of a new set.)"""
        slot = self.slot
        own = self.sets[slot]
        self.slot = slot ^ 1
        if refs(own[0]) > FREE:  # some view of it is held
            return self._new_set()
        return own[0], own[1].view(), own[2].view(), own[3].view(), own[4].view()


__all__ = ["FREE", "OutputSets", "always_held", "buffer_size", "refs"]
