"""Config merging: user dicts over documented defaults, with unknown keys rejected."""

from __future__ import annotations

import copy
import difflib
import math
import warnings
from collections.abc import Callable, Mapping, MutableMapping, Sequence
from typing import Any

import numpy as np
from easydict import EasyDict

from lzero.errors import ConfigError

#: The values of AlphaZero's ``inference_dtype`` and ``learn_dtype`` (ours), here without torch
#: so that the command line can check ``--dtype`` before a checkpoint loads.
INFERENCE_DTYPES = ("float32", "bfloat16", "auto")


def deep_merge_dicts(default: Mapping, user: Mapping | None) -> EasyDict:
    """Returns ``default`` updated by ``user``: the user wins, nested dicts merge.

    Neither argument is modified; the result shares no mutable state with them.

    Args:
        default: the base config.
        user: values to put on top; ``None`` means no change.

    Returns:
        A new EasyDict.
    """
    merged = copy.deepcopy(dict(default))
    for key, value in (user or {}).items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), Mapping):
            merged[key] = deep_merge_dicts(merged[key], value)
        else:
            merged[key] = copy.deepcopy(value)
    return EasyDict(merged)


def closest_key(key: str, valid: list[str] | tuple[str, ...] | set[str]) -> str | None:
    """Returns the valid name closest to ``key``, or None when nothing is close."""
    matches = difflib.get_close_matches(str(key), [str(v) for v in valid], n=1, cutoff=0.5)
    return matches[0] if matches else None


def unknown_name_message(
    kind: str, name: str, valid, *, listing: str | None = None, full: bool = False
) -> str:
    """Formats "unknown <kind> 'name'; did you mean 'x'? valid: [...]" for error messages.

    With ``listing`` (where to see every name, e.g. "`lzero envs` lists them") or more than
    :data:`MAX_LISTED` valid names, only the close matches are named, then ``listing``: a
    message naming a hundred gymnasium ids helps nobody. ``full`` keeps the first form
    whatever the count: a config's keys are the dict the user is editing.
    """
    valid = sorted(str(v) for v in valid)
    if full or (listing is None and len(valid) <= MAX_LISTED):
        hint = closest_key(name, valid)
        did_you_mean = f"; did you mean {hint!r}?" if hint else "."
        return f"unknown {kind} {name!r}{did_you_mean} Valid {kind}s: {valid}"
    lower = {v.lower(): v for v in valid}  # 'CartPole-v1' is close to 'cartpole_lightzero'
    close = [lower[v] for v in difflib.get_close_matches(str(name).lower(), lower, 5, 0.5)]
    found = f"; close matches: {close}." if close else "; nothing close."
    return f"unknown {kind} {name!r}{found} {listing or f'There are {len(valid)} {kind}s.'}"


#: Above this many valid names, an unknown name's message names only the close ones.
MAX_LISTED = 30


def merge_config(
    default: Mapping, user: Mapping | None, *, where: str = "config", open_keys: tuple = ()
) -> EasyDict:
    """Like :func:`deep_merge_dicts`, but every user key must exist in ``default``.

    Nested dicts are checked recursively, except the dicts named in ``open_keys``, whose
    contents are free-form (for example a ``wrapper`` dict passed on to another class).

    Args:
        default: the documented defaults; its keys are the valid ones.
        user: the user's overrides, or None.
        where: the config's name, used in error messages (``'Connect4Env config'``).
        open_keys: top-level keys whose dict values are merged without key checks.

    Returns:
        A new EasyDict.

    Raises:
        ConfigError: user keys that are not in ``default``, at any depth: one message names
            them all (one line each: the key, the closest valid key and the valid set), so
            that a config with several typos is mended in one go.
    """
    if user is not None and not isinstance(user, Mapping):
        raise ConfigError(f"{where}: expected a dict, got {type(user).__name__}")
    raise_unknown_keys(unknown_keys(default, user or {}, where, open_keys))
    return deep_merge_dicts(default, user)


def raise_unknown_keys(problems: list[str]) -> None:
    """Raises one ConfigError naming every problem of :func:`unknown_keys`, if there are any."""
    if len(problems) == 1:
        raise ConfigError(problems[0])
    if problems:
        raise ConfigError(f"{len(problems)} unknown keys:\n  " + "\n  ".join(problems))


def unknown_keys(default: Mapping, user: Mapping, where: str, open_keys: tuple = ()) -> list[str]:
    """One message per key of ``user`` (recursively) that ``default`` does not have.

    An empty dict in ``default``, like the keys in ``open_keys`` (top level only), takes any
    keys: another class checks them.
    """
    problems = []
    for key, value in user.items():
        if key not in default:
            message = unknown_name_message("key", key, default.keys(), full=True)
            # A key of a section one level down (AlphaZero's mcts.num_simulations, which
            # MuZero's config has at the top) is named exactly, not by a look-alike.
            nested = [k for k, v in default.items() if isinstance(v, Mapping) and key in v]
            if nested:
                message = (
                    f"unknown key {key!r} here; it is a key of {where}.{nested[0]}: set it "
                    f"there. Valid keys here: {sorted(str(k) for k in default)}"
                )
            problems.append(f"{where}: {message}")
            continue
        sub = default[key]
        if key not in open_keys and isinstance(sub, Mapping) and sub and isinstance(value, Mapping):
            problems += unknown_keys(sub, value, f"{where}.{key}", ())
    return problems


def is_int(value: Any) -> bool:
    """An int or NumPy integer, not a bool (``True`` is an int to Python)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def is_number(value: Any) -> bool:
    """An int or float, Python's or NumPy's, not a bool."""
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)


def check_positive_int(value: Any, name: str) -> int:
    """``value`` as an int, or ConfigError unless it is an int >= 1 (Python's or NumPy's, not a
    bool). The message reads ``"<name>: expected a positive int, got <value>"``."""
    if not is_int(value) or value < 1:
        raise ConfigError(f"{name}: expected a positive int, got {value!r}")
    return int(value)


def check_opening_moves(moves: int, cells: int, name: str = "opening_moves") -> None:
    """Raises ConfigError if ``moves`` random opening moves fill a board of ``cells`` cells
    or more: no such opening leaves the game unfinished."""
    if moves >= cells:
        raise ConfigError(
            f"{name}: expected fewer random opening moves than the board's {cells} cells (no "
            f"longer opening leaves the game unfinished), got {moves}"
        )


def check_positive_ints(cfg: Mapping, keys: tuple[str, ...], *, where: str) -> None:
    """Raises ConfigError unless every ``cfg[key]`` for ``key`` in ``keys`` is an int >= 1
    (not a bool: ``True`` passed as 1, and crashed the replay's sampling mid-run).

    The message reads ``"<where>: expected <key> to be a positive int, got <value>"``.
    """
    for key in keys:
        if isinstance(cfg[key], bool) or not isinstance(cfg[key], int) or cfg[key] < 1:
            raise ConfigError(f"{where}: expected {key} to be a positive int, got {cfg[key]!r}")


def check_positive_or_none(cfg: Mapping, key: str, *, where: str) -> None:
    """Raises ConfigError unless ``cfg[key]`` is None or a finite number > 0 (not a bool).

    The message reads ``"<where>: expected <key> to be a number > 0 or None, got <value>"``.
    """
    value = cfg[key]
    if value is not None and not (is_number(value) and 0 < value < math.inf):
        raise ConfigError(f"{where}: expected {key} to be a number > 0 or None, got {value!r}")


def check_playout_cap(cfg: Mapping, full: int, *, where: str, full_key: str) -> float:
    """``cfg.fast_search_prob`` (AlphaZero's and MuZero's playout cap randomisation), checked
    to be in ``[0, 1)``, and, when above 0, ``cfg.fast_search_simulations`` an int from 1 to
    fewer than ``full`` (the config's ``full_key``); ConfigError otherwise."""
    prob = cfg["fast_search_prob"]
    if not (is_number(prob) and 0 <= prob < 1):
        raise ConfigError(f"{where}: expected fast_search_prob in [0, 1) (0: off), got {prob!r}")
    fast = cfg["fast_search_simulations"]
    if prob > 0 and not (is_int(fast) and 1 <= fast < full):
        raise ConfigError(
            f"{where}: fast_search_prob > 0 needs fast_search_simulations, an int from 1 to "
            f"{full - 1} (fewer than {full_key}={full}), got {fast!r}"
        )
    return float(prob)


def check_nonnegative_int(cfg: Mapping, key: str, *, where: str, note: str = "") -> int:
    """``cfg[key]``, or ConfigError unless it is an int >= 0 (not a bool).

    The message reads ``"<where>: expected <key> to be an int >= 0<note>, got <value>"``.
    """
    value = cfg[key]
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ConfigError(f"{where}: expected {key} to be an int >= 0{note}, got {value!r}")
    return value


def check_discount_factor(cfg: Mapping, *, where: str, note: str = "") -> float:
    """``cfg.discount_factor``, or ConfigError unless it is a number in (0, 1] (not a bool).

    The message reads ``"<where>: expected discount_factor to be a number in (0, 1]<note>,
    got <value>"``.
    """
    value = cfg["discount_factor"]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 1:
        raise ConfigError(
            f"{where}: expected discount_factor to be a number in (0, 1]{note}, got {value!r}"
        )
    return float(value)


def check_model_path(cfg: Mapping, *, where: str) -> None:
    """Raises ConfigError unless ``cfg.model_path`` (LightZero's key: the checkpoint an entry
    starts from) is a path string or None."""
    if cfg["model_path"] is not None and not isinstance(cfg["model_path"], str):
        raise ConfigError(
            f"{where}: expected model_path to be a checkpoint path or None, got "
            f"{cfg['model_path']!r}"
        )


def check_cuda(cfg: Mapping, *, where: str) -> None:
    """``cfg.cuda``, a bool. LightZero's configs set True; DI-engine then trains on the CPU
    when torch finds no GPU. This build always trains on the CPU: True is taken with a
    warning saying so, not refused, so that those configs run.

    Raises:
        ConfigError: ``cfg.cuda`` is not a bool.
    """
    if not isinstance(cfg["cuda"], bool):
        raise ConfigError(f"{where}: expected cuda to be True or False, got {cfg['cuda']!r}")
    if cfg["cuda"]:
        warnings.warn(
            f"{where}: cuda=True, but this build trains on the CPU only; training on the CPU "
            "(as DI-engine does when it finds no GPU)",
            UserWarning,
            stacklevel=2,
        )


def dotted(cfg: Mapping, key: str) -> Any:
    """``cfg``'s value at ``key``, a dotted key naming a nested section's key
    (``model.downsample``) or a plain one."""
    for part in key.split("."):
        cfg = cfg[part]
    return cfg


def check_fixed(cfg: Mapping, fixed: Sequence[tuple[str, object, str]], *, where: str) -> None:
    """Each ``(key, value, why)`` of ``fixed``: ``cfg[key]`` must be ``value`` (a bool that
    bool, a number that number, a string that string), LightZero's setting that leaves off a
    feature not built here. A dotted key (``model.downsample``) names a nested section's key.

    Raises:
        ConfigError: another value, naming the key, the value allowed and ``why``.
    """
    for key, value, why in fixed:
        got = dotted(cfg, key)
        if isinstance(value, bool):
            ok = got is value
        elif isinstance(value, str):
            ok = got == value
        else:
            ok = isinstance(got, (int, float)) and not isinstance(got, bool) and got == value
        if not ok:
            raise ConfigError(f"{where}: expected {key}={value!r} ({why}), got {got!r}")


def take_renamed(user: Mapping, cfg: MutableMapping, new: str, old: str, *, where: str) -> None:
    """LightZero's configs name the key ``old`` also ``new`` (a renamed key). When ``user`` (the
    section as the user wrote it) sets ``new`` (not None), ``cfg[old]`` (the merged section,
    which keeps ``new`` too) takes its value.

    Raises:
        ConfigError: ``user`` sets both names to different values.
    """
    if user.get(new) is None:
        return
    if user.get(old) is not None and user[old] != user[new]:
        raise ConfigError(
            f"{where}: expected one of {new} (LightZero's other name of {old}) and {old}, or "
            f"both equal, got {new}={user[new]!r} and {old}={user[old]!r}"
        )
    cfg[old] = user[new]


def merge_config_pair(
    input_cfg: Sequence[Mapping],
    create_defaults: Mapping,
    policy_type: str | Sequence[str],
    main_defaults: Mapping | None = None,
    main_open_keys: Callable[[EasyDict], tuple[str, ...]] = lambda create: (),
) -> tuple[dict, EasyDict]:
    """Reads LightZero's ``[main_config, create_config]``: the create config merged over
    ``create_defaults`` with its policy type checked, and a deep copy of the main config.

    With ``main_defaults``, the main config's keys are checked against it too, and one error
    names every unknown key of both configs, so that typos in several sections are mended in
    one go. ``main_open_keys(create)`` names the main config's sections whose keys another
    class checks (a board game's ``env``, for instance).

    Raises:
        ConfigError: not a pair of dicts, an unknown key, or another policy type.
    """
    if (
        not isinstance(input_cfg, Sequence)
        or len(input_cfg) != 2
        or not all(isinstance(c, Mapping) for c in input_cfg)
    ):
        raise ConfigError(
            f"expected input_cfg = [main_config, create_config] (two dicts), got {input_cfg!r:.120}"
        )
    main_user, create_user = (copy.deepcopy(dict(c)) for c in input_cfg)
    create = deep_merge_dicts(create_defaults, create_user)
    # The type first: another algorithm's config (Gumbel MuZero, Sampled AlphaZero, ...) has
    # keys of its own, which are not typos of ours.
    types = (policy_type,) if isinstance(policy_type, str) else tuple(policy_type)
    if create.policy.type not in types:
        want = repr(types[0]) if len(types) == 1 else f"in {list(types)}"
        raise ConfigError(
            f"create_config.policy: expected type {want}, got {create.policy.type!r}"
            f" (this entry trains {' and '.join(map(repr, types))}; the README's porting "
            "section lists the algorithms implemented here)"
        )
    problems = unknown_keys(create_defaults, create_user, "create_config")
    if main_defaults is not None:
        problems += unknown_keys(main_defaults, main_user, "main_config", main_open_keys(create))
    raise_unknown_keys(problems)
    return main_user, create
