"""Acrobot (gymnasium's ``Acrobot-v1``): swing a two-link arm's tip above a line.

Sutton, "Generalization in reinforcement learning: successful examples using sparse coarse
coding" (NIPS 1996), with the dynamics of Sutton and Barto's book ("book", gymnasium's
default ``book_or_nips``), no torque noise, integrated over ``dt = 0.2`` by one classical
Runge-Kutta step as gymnasium's ``rk4`` does, in float64. gymnasium's reset state is float32
(``astype``), its later states float64; NumPy's scalar ``**`` calls the C library's ``pow``,
so do the squares here. Every expression keeps gymnasium's operation order.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from lzero.utils.nblibm import libm_pow
from lzero.utils.nbpcg64 import pcg64_double

DT = 0.2
LINK_LENGTH_1 = 1.0
LINK_MASS_1 = 1.0
LINK_MASS_2 = 1.0
LINK_COM_POS_1 = 0.5
LINK_COM_POS_2 = 0.5
LINK_MOI = 1.0
GRAVITY = 9.8
MAX_VEL_1 = 4 * math.pi
MAX_VEL_2 = 9 * math.pi
RESET_LOW, RESET_HIGH = -0.1, 0.1
OBS_DIM = 6

m1, m2, l1, lc1, lc2 = LINK_MASS_1, LINK_MASS_2, LINK_LENGTH_1, LINK_COM_POS_1, LINK_COM_POS_2
I1 = I2 = LINK_MOI
g = GRAVITY
pi = math.pi


@njit(cache=True)
def reset(rng):
    """A start state: each of the 4 variables ``U(-0.1, 0.1)`` from ``rng``, cast to float32."""
    span = RESET_HIGH - RESET_LOW
    out = [np.float64(np.float32(RESET_LOW + span * pcg64_double(rng))) for _ in range(4)]
    return out[0], out[1], out[2], out[3]


@njit(cache=True)
def _dsdt(theta1, theta2, dtheta1, dtheta2, a):
    """The state's time derivative under torque ``a`` (book dynamics)."""
    d1 = m1 * lc1**2 + m2 * (l1**2 + lc2**2 + 2 * l1 * lc2 * math.cos(theta2)) + I1 + I2
    d2 = m2 * (lc2**2 + l1 * lc2 * math.cos(theta2)) + I2
    phi2 = m2 * lc2 * g * math.cos(theta1 + theta2 - pi / 2.0)
    phi1 = (
        -m2 * l1 * lc2 * libm_pow(dtheta2, 2.0) * math.sin(theta2)
        - 2 * m2 * l1 * lc2 * dtheta2 * dtheta1 * math.sin(theta2)
        + (m1 * lc1 + m2 * l1) * g * math.cos(theta1 - pi / 2)
        + phi2
    )
    ddtheta2 = (
        a + d2 / d1 * phi1 - m2 * l1 * lc2 * libm_pow(dtheta1, 2.0) * math.sin(theta2) - phi2
    ) / (m2 * lc2**2 + I2 - libm_pow(d2, 2.0) / d1)
    ddtheta1 = -(d2 * ddtheta2 + phi1) / d1
    return dtheta1, dtheta2, ddtheta1, ddtheta2


@njit(cache=True)
def _wrap(x, lo, hi):
    diff = hi - lo
    while x > hi:
        x = x - diff
    while x < lo:
        x = x + diff
    return x


@njit(cache=True)
def step(s0, s1, s2, s3, action, u, fresh):
    """One RK4 step of ``dt`` with torque -1, 0 or +1 (``action`` 0, 1, 2).

    Returns:
        ``(theta1, theta2, dtheta1, dtheta2, reward, terminated)``.
    """
    a = np.float64(action - 1)
    h, h2 = DT - 0, DT / 2.0
    k1 = _dsdt(s0, s1, s2, s3, a)
    k2 = _dsdt(s0 + h2 * k1[0], s1 + h2 * k1[1], s2 + h2 * k1[2], s3 + h2 * k1[3], a)
    k3 = _dsdt(s0 + h2 * k2[0], s1 + h2 * k2[1], s2 + h2 * k2[2], s3 + h2 * k2[3], a)
    k4 = _dsdt(s0 + h * k3[0], s1 + h * k3[1], s2 + h * k3[2], s3 + h * k3[3], a)
    w = h / 6.0
    n0 = s0 + w * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0])
    n1 = s1 + w * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1])
    n2 = s2 + w * (k1[2] + 2 * k2[2] + 2 * k3[2] + k4[2])
    n3 = s3 + w * (k1[3] + 2 * k2[3] + 2 * k3[3] + k4[3])
    n0 = _wrap(n0, -pi, pi)
    n1 = _wrap(n1, -pi, pi)
    n2 = min(max(n2, -MAX_VEL_1), MAX_VEL_1)
    n3 = min(max(n3, -MAX_VEL_2), MAX_VEL_2)
    terminated = -math.cos(n0) - math.cos(n1 + n0) > 1.0
    return n0, n1, n2, n3, 0.0 if terminated else -1.0, terminated


@njit(cache=True)
def observe(s0, s1, s2, s3, obs, i):
    """Writes ``(cos, sin)`` of both angles and both velocities into ``obs[i]`` (`[N, 6]`)."""
    obs[i, 0] = math.cos(s0)
    obs[i, 1] = math.sin(s0)
    obs[i, 2] = math.cos(s1)
    obs[i, 3] = math.sin(s1)
    obs[i, 4] = s2
    obs[i, 5] = s3
