"""Policies: MuZero's learner and actor."""

from lzero.policy.muzero import MUZERO_POLICY_CONFIG, MuZeroPolicy, policy_config

__all__ = ["MUZERO_POLICY_CONFIG", "MuZeroPolicy", "policy_config"]
