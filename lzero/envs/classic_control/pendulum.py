"""Pendulum (gymnasium's ``Pendulum-v1``): swing a pendulum up and hold it, with a torque.

gymnasium's ``PendulumEnv``: state ``(theta, theta_dot)`` in float64, the torque a float32
clipped to [-2, 2]. NumPy 2 keeps a float32 scalar with a Python float in float32 (NEP 50),
so ``3.0 * u`` and ``0.001 * u ** 2`` are float32 products here too (float64 ones for a float64
torque), and the squares are the C library's ``pow`` as NumPy's scalar ``**`` calls it. The observation is
``(cos theta, sin theta, theta_dot)`` cast to float32; the episode never terminates, only
its 200-step time limit ends it.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from lzero.utils.nblibm import libm_pow, square, weak
from lzero.utils.nbpcg64 import pcg64_double

MAX_SPEED = 8
MAX_TORQUE = 2.0
DT = 0.05
G = 10.0
M = 1.0
L = 1.0
RESET_HIGH_THETA, RESET_HIGH_SPEED = math.pi, 1.0
OBS_DIM = 3


@njit(cache=True)
def reset(rng):
    """A start state: ``theta ~ U(-pi, pi)``, ``theta_dot ~ U(-1, 1)`` from ``rng`` (`[4]`)."""
    lo_t, lo_s = -RESET_HIGH_THETA, -RESET_HIGH_SPEED
    theta = lo_t + (RESET_HIGH_THETA - lo_t) * pcg64_double(rng)
    theta_dot = lo_s + (RESET_HIGH_SPEED - lo_s) * pcg64_double(rng)
    return theta, theta_dot, 0.0, 0.0


@njit(cache=True)
def angle_normalize(x):
    """``x`` wrapped into ``[-pi, pi)``, as gymnasium's (Python's float ``%``)."""
    return ((x + math.pi) % (2 * math.pi)) - math.pi


@njit(cache=True)
def step(th, thdot, pad0, pad1, action, u, fresh):
    """One step with torque ``u`` (float32 as the pool passes it, or float64: NumPy's
    arithmetic follows the torque's dtype; any value, clipped to [-2, 2]).

    Returns:
        ``(theta, theta_dot, 0, 0, reward, False)``: the reward is minus the cost.
    """
    u = min(max(u, -weak(MAX_TORQUE, u)), weak(MAX_TORQUE, u))
    costs = (
        libm_pow(angle_normalize(th), 2.0)
        + 0.1 * libm_pow(thdot, 2.0)
        + np.float64(weak(0.001, u) * square(u))
    )
    torque_term = np.float64(weak(3.0 / (M * L**2), u) * u)
    newthdot = thdot + (3 * G / (2 * L) * math.sin(th) + torque_term) * DT
    newthdot = min(max(newthdot, -MAX_SPEED), MAX_SPEED)
    newth = th + newthdot * DT
    return newth, newthdot, 0.0, 0.0, -costs, False


@njit(cache=True)
def observe(th, thdot, pad0, pad1, obs, i):
    """Writes ``(cos, sin, theta_dot)`` as float32 into ``obs[i]`` (`[N, 3]`)."""
    obs[i, 0] = math.cos(th)
    obs[i, 1] = math.sin(th)
    obs[i, 2] = thdot
