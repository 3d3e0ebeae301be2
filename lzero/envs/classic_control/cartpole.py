"""CartPole (gymnasium's ``CartPole-v0`` and ``CartPole-v1``): a pole balanced on a cart.

Barto, Sutton and Anderson, "Neuronlike adaptive elements that can solve difficult learning
control problems" (1983), with Florian's corrected equations ("Correct equations for the
dynamics of the cart-pole system", 2007), integrated by explicit Euler steps as gymnasium's
``CartPoleEnv`` does. State ``(x, x_dot, theta, theta_dot)`` in float64; the observation is
its float32 cast. Every expression keeps gymnasium's operation order, so the float64 results
are the same bits.
"""

from __future__ import annotations

import math

from numba import njit

from lzero.utils.nbpcg64 import pcg64_double

GRAVITY = 9.8
MASSCART = 1.0
MASSPOLE = 0.1
TOTAL_MASS = MASSPOLE + MASSCART
LENGTH = 0.5  # half the pole's length
POLEMASS_LENGTH = MASSPOLE * LENGTH
FORCE_MAG = 10.0
TAU = 0.02  # seconds between updates
THETA_THRESHOLD = 12 * 2 * math.pi / 360
X_THRESHOLD = 2.4
RESET_LOW, RESET_HIGH = -0.05, 0.05
OBS_DIM = 4


@njit(cache=True)
def reset(rng):
    """A start state: each variable ``U(-0.05, 0.05)`` from ``rng`` (`[4]` PCG64 state)."""
    span = RESET_HIGH - RESET_LOW
    x = RESET_LOW + span * pcg64_double(rng)
    x_dot = RESET_LOW + span * pcg64_double(rng)
    theta = RESET_LOW + span * pcg64_double(rng)
    theta_dot = RESET_LOW + span * pcg64_double(rng)
    return x, x_dot, theta, theta_dot


@njit(cache=True)
def step(x, x_dot, theta, theta_dot, action, u, fresh):
    """One step pushing left (``action`` 0) or right (1); ``u`` and ``fresh`` are unused.

    Returns:
        ``(x, x_dot, theta, theta_dot, reward, terminated)``.
    """
    force = FORCE_MAG if action == 1 else -FORCE_MAG
    costheta = math.cos(theta)
    sintheta = math.sin(theta)
    temp = (force + POLEMASS_LENGTH * (theta_dot * theta_dot) * sintheta) / TOTAL_MASS
    thetaacc = (GRAVITY * sintheta - costheta * temp) / (
        LENGTH * (4.0 / 3.0 - MASSPOLE * (costheta * costheta) / TOTAL_MASS)
    )
    xacc = temp - POLEMASS_LENGTH * thetaacc * costheta / TOTAL_MASS
    x = x + TAU * x_dot
    x_dot = x_dot + TAU * xacc
    theta = theta + TAU * theta_dot
    theta_dot = theta_dot + TAU * thetaacc
    terminated = (
        x < -X_THRESHOLD or x > X_THRESHOLD or theta < -THETA_THRESHOLD or theta > THETA_THRESHOLD
    )
    return x, x_dot, theta, theta_dot, 1.0, terminated


@njit(cache=True)
def observe(x, x_dot, theta, theta_dot, obs, i):
    """Writes the float32 observation into ``obs[i]`` (`[N, 4]`)."""
    obs[i, 0] = x
    obs[i, 1] = x_dot
    obs[i, 2] = theta
    obs[i, 3] = theta_dot
