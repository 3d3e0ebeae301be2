"""MountainCar (gymnasium's ``MountainCar-v0``): drive an underpowered car up a hill.

Moore, "Efficient memory-based learning for robot control" (PhD thesis, 1990), as
gymnasium's ``MountainCarEnv`` steps it, all in float64 (``math.cos`` of the position, then
velocity and position clipped); the observation is the state's float32 cast. The second state
variables are padding, so that every classic task shares the stepper's four-float state.
"""

from __future__ import annotations

import math

from numba import njit

from lzero.utils.nbpcg64 import pcg64_double

MIN_POSITION, MAX_POSITION = -1.2, 0.6
MAX_SPEED = 0.07
GOAL_POSITION = 0.5
FORCE = 0.001
GRAVITY = 0.0025
RESET_LOW, RESET_HIGH = -0.6, -0.4
OBS_DIM = 2


@njit(cache=True)
def reset(rng):
    """A start state: position ``U(-0.6, -0.4)`` from ``rng`` (`[4]` PCG64 state), velocity 0."""
    return RESET_LOW + (RESET_HIGH - RESET_LOW) * pcg64_double(rng), 0.0, 0.0, 0.0


@njit(cache=True)
def step(position, velocity, pad0, pad1, action, u, fresh):
    """One step pushing left (``action`` 0), not at all (1) or right (2).

    Returns:
        ``(position, velocity, 0, 0, reward, terminated)``.
    """
    velocity = velocity + ((action - 1) * FORCE + math.cos(3 * position) * (-GRAVITY))
    velocity = min(max(velocity, -MAX_SPEED), MAX_SPEED)
    position = position + velocity
    position = min(max(position, MIN_POSITION), MAX_POSITION)
    if position == MIN_POSITION and velocity < 0:
        velocity = 0.0
    terminated = position >= GOAL_POSITION and velocity >= 0
    return position, velocity, 0.0, 0.0, -1.0, terminated


@njit(cache=True)
def observe(position, velocity, pad0, pad1, obs, i):
    """Writes the float32 observation into ``obs[i]`` (`[N, 2]`)."""
    obs[i, 0] = position
    obs[i, 1] = velocity
