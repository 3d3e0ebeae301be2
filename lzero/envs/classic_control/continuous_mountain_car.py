"""MountainCarContinuous (gymnasium's ``MountainCarContinuous-v0``): the hill with a throttle.

gymnasium's ``Continuous_MountainCarEnv`` keeps its state as a float32 array after the first
step, and NumPy 2 computes a float32 scalar with a Python float in float32 (NEP 50); only the
first step after a reset starts from the float64 reset state. So the arithmetic is float32
except there, where gymnasium itself works in Python floats (``math.cos``, the force when the
action is clipped, the reward), and where a float64 action makes NumPy promote. ``fresh`` says which case a step is in; every
cast below is one NumPy makes, in the same place.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from lzero.utils.nblibm import is_double, libm_pow
from lzero.utils.nbpcg64 import pcg64_double

MIN_ACTION, MAX_ACTION = -1.0, 1.0
MIN_POSITION, MAX_POSITION = -1.2, 0.6
MAX_SPEED = 0.07
GOAL_POSITION = 0.45
POWER = 0.0015
RESET_LOW, RESET_HIGH = -0.6, -0.4
OBS_DIM = 2

_F32 = np.float32
_SPEED32, _MIN32, _MAX32, _GOAL32 = (
    _F32(MAX_SPEED), _F32(MIN_POSITION), _F32(MAX_POSITION), _F32(GOAL_POSITION)
)  # fmt: skip


@njit(cache=True)
def reset(rng):
    """A start state: position ``U(-0.6, -0.4)`` from ``rng`` (`[4]` PCG64 state), velocity 0."""
    return RESET_LOW + (RESET_HIGH - RESET_LOW) * pcg64_double(rng), 0.0, 0.0, 0.0


@njit(cache=True)
def _push(position, velocity, u, fresh):
    """The velocity after the throttle ``u`` and gravity, before clipping, and whether it is a
    float64 (else float32) in gymnasium's arithmetic."""
    pos3 = 3.0 * position if fresh else np.float64(_F32(3.0) * _F32(position))
    slope = 0.0025 * math.cos(pos3)
    if u < MIN_ACTION or u > MAX_ACTION:  # Python's min/max return the bound, a Python float
        delta, strong = (MIN_ACTION if u < MIN_ACTION else MAX_ACTION) * POWER - slope, False
    elif is_double(u):  # an np.float64 force: float64 from here on
        delta, strong = np.float64(u) * POWER - slope, True
    else:  # an np.float32 force: float32 arithmetic
        delta, strong = np.float64(_F32(_F32(u) * _F32(POWER)) - _F32(slope)), False
    if fresh or strong:
        return velocity + delta, True
    return np.float64(_F32(velocity) + _F32(delta)), False


@njit(cache=True)
def step(position, velocity, pad0, pad1, action, u, fresh):
    """One step with throttle ``u`` (float32 as the pool passes it, or float64: NumPy's
    arithmetic follows its dtype; any value, clipped to [-1, 1] for the force).

    Args:
        fresh: the state is the float64 reset state (first step of an episode), else the
            float32 values gymnasium stores after a step.

    Returns:
        ``(position, velocity, 0, 0, reward, terminated)``, the state float32-valued.
    """
    velocity, wide = _push(position, velocity, u, fresh)
    if wide:  # np.float64 velocity; a clipped one is a Python float
        clipped = velocity > MAX_SPEED or velocity < -MAX_SPEED
        velocity = min(max(velocity, -MAX_SPEED), MAX_SPEED)
    else:
        v32 = _F32(velocity)
        clipped = v32 > _SPEED32 or v32 < -_SPEED32
        velocity = np.float64(min(max(v32, -_SPEED32), _SPEED32))
    if fresh or (wide and not clipped):  # np.float64 position
        position = position + velocity
        position = min(max(position, MIN_POSITION), MAX_POSITION)
        at_wall = position == MIN_POSITION
        terminated = position >= GOAL_POSITION
    else:  # np.float32 position (a Python float velocity is taken as a float32)
        p32 = min(max(_F32(position) + _F32(velocity), _MIN32), _MAX32)
        position = np.float64(p32)
        at_wall = p32 == _MIN32
        terminated = p32 >= _GOAL32
    if at_wall and velocity < 0:
        velocity = 0.0
    terminated = terminated and velocity >= 0
    reward = (100.0 if terminated else 0.0) - libm_pow(np.float64(u), 2.0) * 0.1
    return np.float64(_F32(position)), np.float64(_F32(velocity)), 0.0, 0.0, reward, terminated


@njit(cache=True)
def observe(position, velocity, pad0, pad1, obs, i):
    """Writes the float32 observation into ``obs[i]`` (`[N, 2]`)."""
    obs[i, 0] = position
    obs[i, 1] = velocity
