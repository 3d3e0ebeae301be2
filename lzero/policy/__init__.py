"""Policies: MuZero's learner and actor."""

from lzero.policy.muzero import MuZeroPolicy
from lzero.policy.muzero_config import MUZERO_POLICY_CONFIG, policy_config

__all__ = ["MUZERO_POLICY_CONFIG", "MuZeroPolicy", "policy_config"]
