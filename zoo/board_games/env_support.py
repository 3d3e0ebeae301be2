"""Checks and bot dispatch for :class:`~zoo.board_games.board_game_env.BoardGameEnv`.

Kept apart from the env class so that it stays a thin adapter: config validation, start
position validation, and the choice of the opponent's move (rule, random, MCTS, alpha-beta).
"""

from __future__ import annotations

import numpy as np

from lzero.envs.config import check_positive_int, unknown_name_message
from lzero.errors import ConfigError, IllegalActionError
from lzero.utils.nbrng import randbelow, uniform
from zoo.board_games.common.kinrow import longest_line
from zoo.board_games.common.rules import BoardRules


def check_choice(where: str, kind: str, value, valid) -> None:
    """Raises ``ConfigError`` naming ``where``, the closest valid ``kind`` and the valid set if
    ``value`` is not in ``valid`` (names: a value of another type is named with its type)."""
    if not isinstance(value, str):
        raise ConfigError(
            f"{where}: expected a {kind} name among {sorted(valid)}, got {value!r} of type "
            f"{type(value).__name__}"
        )
    if value not in valid:
        raise ConfigError(f"{where}: " + unknown_name_message(kind, value, valid))


def resolve_bot_type(kind, bot_types, aliases: dict, game: str) -> str:
    """``kind``, or the bot LightZero's older name ``kind`` stands for; checked against
    ``bot_types``.

    Raises:
        ConfigError: an unknown bot type, or a LightZero name for a bot ``game`` has not.
    """
    resolved = aliases.get(kind, kind)
    if resolved != kind and resolved not in bot_types:
        raise ConfigError(
            f"bot_action_type: unknown bot type {kind!r} (LightZero's name for {resolved!r}, "
            f"which {game} has not); valid bot types: {sorted(bot_types)}"
        )
    check_choice("bot_action_type", "bot type", resolved, bot_types)
    return resolved


def check_config(cfg, battle_modes, bot_types, render_modes) -> None:
    """Validates the env config values once, at construction.

    Raises:
        ConfigError: a value is out of its documented set or range; names the valid choices.
    """
    check_choice("battle_mode", "battle mode", cfg.battle_mode, battle_modes)
    check_choice(
        "battle_mode_in_simulation_env",
        "battle mode",
        cfg.battle_mode_in_simulation_env,
        battle_modes,
    )
    check_choice("bot_action_type", "bot type", cfg.bot_action_type, bot_types)
    if cfg.render_mode is not None:
        check_choice("render_mode", "render mode", cfg.render_mode, render_modes)
    for key in ("prob_random_action_in_bot", "prob_random_agent", "prob_expert_agent"):
        value = cfg[key]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
            raise ConfigError(f"{key}: expected a probability in [0, 1], got {value!r}")
    if cfg.prob_random_agent > 0 and cfg.prob_expert_agent > 0:
        raise ConfigError(
            "prob_random_agent and prob_expert_agent: expected at most one of them > 0, got "
            f"{cfg.prob_random_agent} and {cfg.prob_expert_agent}"
        )
    scaling = cfg.screen_scaling
    if isinstance(scaling, bool) or not isinstance(scaling, (int, float)) or scaling <= 0:
        raise ConfigError(f"screen_scaling: expected a positive number, got {scaling!r}")
    check_positive_int(cfg.mcts_bot_num_simulations, "mcts_bot_num_simulations")
    for key in ("channel_last", "scale", "agent_vs_human"):
        if not isinstance(cfg[key], (bool, np.bool_)):
            raise ConfigError(f"{key}: expected a bool, got {cfg[key]!r}")


def check_start_index(index) -> int:
    """Returns ``index`` (``reset``'s ``start_player_index``) as a Python int 0 or 1.

    Raises:
        ValueError: anything else, bools and floats included (``1.0 == 1``, but a float
            player breaks indexing).
    """
    if isinstance(index, (bool, np.bool_)) or not isinstance(index, (int, np.integer)):
        valid = False
    else:
        valid = index in (0, 1)
    if not valid:
        raise ValueError(f"start_player_index: expected 0 or 1, got {index!r}")
    return int(index)


def check_action(action, mask: np.ndarray) -> int:
    """Returns ``action`` as a Python int if it is legal under ``mask`` `[A]`.

    Raises:
        IllegalActionError: not an int, NumPy integer or one-element integer array, or not
            legal now; the message names the legal actions.
    """
    value = action
    if type(value) is not int:
        if isinstance(value, np.ndarray) and value.size == 1:
            value = value.reshape(-1)[0]
        if not isinstance(value, (int, np.integer)) or isinstance(value, (bool, np.bool_)):
            raise IllegalActionError(
                "expected an action as int, NumPy integer or one-element integer array, "
                f"got {action!r}"
            )
        value = int(value)
    if not 0 <= value < mask.shape[0] or not mask[value]:
        legal = np.flatnonzero(mask).tolist()
        raise IllegalActionError(f"expected a legal action, got {value}; legal actions: {legal}")
    return value


def has_line(board: np.ndarray, win_length: int) -> bool:
    """True if some stone of ``board`` `[H, W]` lies on a line of ``win_length`` or more."""
    w = board.shape[1]
    for cell in np.flatnonzero(board):
        r, c = divmod(int(cell), w)
        if longest_line(board, r, c, board[r, c]) >= win_length:
            return True
    return False


def position_result(board: np.ndarray, rules: BoardRules) -> int:
    """The result code of ``board`` `[H, W]` judged whole (not from a last move): the game's
    own ``position_result`` if it has one, else :func:`board_result` by its lines."""
    if rules.position_result is not None:
        return int(rules.position_result(board))
    return board_result(board, rules.win_length)


def board_result(board: np.ndarray, win_length: int) -> int:
    """The result code of ``board`` `[H, W]` judged whole (not from a last move): the owner of
    a line of ``win_length`` or more, else ``DRAW`` (3) when full, else ``ONGOING`` (0)."""
    w = board.shape[1]
    for cell in np.flatnonzero(board):
        r, c = divmod(int(cell), w)
        if longest_line(board, r, c, board[r, c]) >= win_length:
            return int(board[r, c])
    return 3 if board.all() else 0


def check_board(value, rules: BoardRules, *, name: str = "init_state") -> np.ndarray:
    """Returns ``value`` as a fresh `[H, W]` int8 board of 0/1/2 (stones resting on the bottom
    with gravity); a flat `[H * W]` board is reshaped.

    Raises:
        ValueError: wrong shape or values, or a floating stone; the message starts with
            ``name``.
    """
    h, w = rules.height, rules.width
    arr = np.asarray(value)
    if arr.shape == (h * w,):
        arr = arr.reshape(h, w)
    if arr.shape != (h, w):
        raise ValueError(f"{name}: expected shape ({h}, {w}) or ({h * w},), got {arr.shape}")
    if not np.isin(arr, (0, 1, 2)).all():
        raise ValueError(
            f"{name}: expected values in {{0, 1, 2}}, got {sorted(set(arr.ravel().tolist()))}"
        )
    # A copy even when ``arr`` is already C-ordered int8 (ascontiguousarray would return it
    # as is, and the game would play its moves into the caller's array).
    board = np.array(arr, dtype=np.int8, order="C", copy=True)
    if rules.gravity:
        below_empty = (board[:-1] != 0) & (board[1:] == 0)
        if below_empty.any():
            r, c = np.argwhere(below_empty)[0]
            raise ValueError(
                f"{name}: expected stones resting on the bottom, got a floating stone at row {r}, column {c}"
            )
    return board


def validate_init_state(init_state, rules: BoardRules) -> np.ndarray:
    """Returns ``init_state`` as a fresh `[H, W]` int8 board, checking it is a running game.

    Raises:
        ValueError: wrong shape or values, a floating stone (gravity), a line already won,
            or a full board.
    """
    board = check_board(init_state, rules)
    if rules.position_result is not None:
        if rules.position_result(board) != 0:
            raise ValueError("init_state: expected a running game, got a finished one")
        return board
    if has_line(board, rules.win_length):
        raise ValueError(
            f"init_state: expected a running game, got a line of {rules.win_length} already"
        )
    if board.all():
        raise ValueError("init_state: expected a running game, got a full board")
    return board


def bot_move(env, kind: str) -> int:
    """The move of a ``kind`` bot for ``env``'s player to move (``prob_random_action_in_bot``
    first gives a random move)."""
    p = env._cfg.prob_random_action_in_bot
    if kind == "random" or (p > 0 and uniform(env._rng_state) < p):
        return env._random_move(env._rng_state)
    if kind == "rule":
        return int(env.rule_bot(env.board, env.current_player, env._rng_state))
    if kind == "alpha_beta" and env.alpha_beta_bot is not None:  # a depth-limited search
        return int(env.alpha_beta_bot(env.board, env.current_player, env._rng_state))
    if kind in ("alpha_beta", "perfect"):  # the game's optimal moves (perfect_moves)
        # Ties between optimal moves are broken from the env's seeded stream, so that a
        # series against the perfect bot is not one game repeated.
        best = np.flatnonzero(env.perfect_moves(env.board, env.current_player))
        return int(best[randbelow(env._rng_state, len(best))])
    if kind == "mcts":
        bot = env._bots.get("mcts")
        if bot is None:
            from zoo.board_games.mcts_bot import MCTSBot

            # A new bot per episode, seeded from the episode's stream: same seed, same games.
            seed = int(randbelow(env._rng_state, 2**62))
            bot = MCTSBot(env, "mcts_player", env.mcts_bot_num_simulations, seed=seed)
            env._bots["mcts"] = bot
        return int(bot.get_actions(env.board, player_index=env.current_player_index))
    raise ConfigError(f"bot_action_type: unknown bot type {kind!r}")
