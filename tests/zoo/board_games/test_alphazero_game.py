"""AlphaZero's view of the board games: planes equal the env's observations, symmetries are
exact under the rules, the replay buffer augments consistently, and one update lowers the loss."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

torch = pytest.importorskip("torch")

from lzero.envs import ENV_REGISTRY  # noqa: E402
from lzero.mcts.buffer.alphazero_buffer import AlphaZeroReplayBuffer  # noqa: E402
from lzero.policy.alphazero import (  # noqa: E402
    AlphaZeroPolicy,
    _exp_nonpositive,
    priors_and_values,
)
from lzero.policy.alphazero_config import compile_alphazero_config  # noqa: E402
from lzero.policy.board_game import BoardGame  # noqa: E402

GAMES = {
    "tictactoe": {},
    "connect4": {},
    "gomoku": {"board_size": 6},
}


def make_env(name, **cfg):
    return ENV_REGISTRY.build(name, dict(GAMES[name], **cfg))


def random_play(env, moves, rng):
    obs = env.reset()
    for _ in range(moves):
        legal = np.flatnonzero(obs["action_mask"])
        timestep = env.step(int(rng.choice(legal)))
        if timestep.done:
            return env.reset()
        obs = timestep.obs
    return obs


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("scale", [True, False])
def test_planes_equal_the_envs_observation(name, scale):
    env = make_env(name, scale=scale)
    game = BoardGame.from_env(env)
    rng = np.random.default_rng(0)
    for moves in range(12):
        obs = random_play(env, moves, rng)
        planes = game.planes(obs["board"][None], np.array([obs["to_play"]]))
        np.testing.assert_array_equal(planes[0], obs["observation"])


def board_of(planes, to_play):
    """The board behind planes (stones of the mover in plane 0, the opponent's in plane 1)."""
    return np.where(planes[0] > 0, to_play, np.where(planes[1] > 0, 3 - to_play, 0)).astype(np.int8)


@pytest.mark.parametrize("name", sorted(GAMES))
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), moves=st.integers(0, 14))
def test_symmetries_are_exact_under_the_rules(name, seed, moves):
    """Under every symmetry k, the transformed board's legal moves are the transformed legal
    moves, and each move's result (win or not) is that of the move it maps to."""
    env = make_env(name)
    game = BoardGame.from_env(env)
    rules = env.rules
    obs = random_play(env, moves, np.random.default_rng(seed))
    board, player = obs["board"], int(obs["to_play"])
    planes = game.planes(board[None], np.array([player]))
    identity = np.eye(game.action_size, dtype=np.float32)
    for k in range(game.num_symmetries):
        sym_planes, perm = game.symmetry(np.repeat(planes, game.action_size, 0), identity, k)
        image = perm.argmax(axis=1)  # action a maps to image[a]
        assert sorted(image) == list(range(game.action_size))
        sym_board = board_of(sym_planes[0], player)
        assert np.count_nonzero(sym_board) == np.count_nonzero(board)
        mask, sym_mask = np.zeros(game.action_size, np.int8), np.zeros(game.action_size, np.int8)
        rules.legal_mask(board, player, mask)
        rules.legal_mask(sym_board, player, sym_mask)
        np.testing.assert_array_equal(sym_mask[image], mask)
        for a in np.flatnonzero(mask):
            b1, b2 = board.copy(), sym_board.copy()
            n = np.count_nonzero(board) + 1
            r1 = rules.result_after(b1, rules.apply_action(b1, a, player), player, n)
            r2 = rules.result_after(b2, rules.apply_action(b2, image[a], player), player, n)
            assert r1 == r2


def test_replay_buffer_samples_consistent_symmetries():
    env = make_env("tictactoe")
    game = BoardGame.from_env(env)
    board = np.array([[1, 0, 0], [0, 2, 0], [0, 0, 0]], np.int8)
    planes = game.planes(board[None], np.array([1]))
    pi = np.zeros((1, 9), np.float32)
    pi[0, 1] = 1.0  # the move next to player 1's corner stone, on the same edge
    buffer = AlphaZeroReplayBuffer(4, game, augment=True)
    buffer.push(planes, pi, np.array([0.5], np.float32))
    seen = set()
    rng = np.random.default_rng(0)
    for _ in range(20):
        p, q, v, d = buffer.sample(8, rng)
        assert (v == 0.5).all() and (d == 0.0).all()  # pushed without draw flags: none drawn
        for planes_k, pi_k in zip(p, q):
            b = board_of(planes_k, 1)
            corner = int(np.flatnonzero(b.ravel() == 1)[0])
            move = int(pi_k.argmax())
            # The move stays an edge cell adjacent to the corner stone.
            assert (
                move in (1, 3, 5, 7)
                and abs(move // 3 - corner // 3) + abs(move % 3 - corner % 3) == 1
            )
            seen.add((corner, move))
    assert len(seen) == 8


def test_replay_buffer_keeps_the_last_positions():
    game = BoardGame.from_env(make_env("connect4"))
    buffer = AlphaZeroReplayBuffer(5, game, augment=False)
    planes = np.zeros((7, 3, 6, 7), np.float32)
    value, draw = np.arange(7, dtype=np.float32), np.array([0, 1, 0, 1, 1, 0, 1], np.float32)
    buffer.push(planes, np.zeros((7, 7), np.float32), value, draw)
    assert len(buffer) == 5 and sorted(buffer.value.tolist()) == [2, 3, 4, 5, 6]
    _, _, v, d = buffer.sample(50, np.random.default_rng(0))
    np.testing.assert_array_equal(d, draw[v.astype(int)])  # each flag stays with its position
    with pytest.raises(ValueError, match="positive int"):
        AlphaZeroReplayBuffer(0, game)


def tiny_policy(
    seed=0,
    line_features=0,
    ema_decay=0.0,
    draw_head=False,
    contempt=0.0,
    nn_cache_size=0,
    inference_dtype="float32",
    learn_dtype="float32",
    eval_fpu_reduction=None,
    **mcts,
):
    cfg = compile_alphazero_config(
        [
            dict(
                policy=dict(
                    model=dict(
                        observation_shape=(3, 3, 3),
                        action_space_size=9,
                        num_channels=8,
                        line_features=line_features,
                        draw_head=draw_head,
                    ),
                    ema_decay=ema_decay,
                    contempt=contempt,
                    nn_cache_size=nn_cache_size,
                    inference_dtype=inference_dtype,
                    learn_dtype=learn_dtype,
                    eval_fpu_reduction=eval_fpu_reduction,
                    mcts=mcts,
                )
            ),
            dict(env=dict(type="tictactoe")),
        ]
    )
    torch.manual_seed(seed)
    return AlphaZeroPolicy(cfg.policy, BoardGame.from_env(make_env("tictactoe")), seed=seed)


def fixed_batch(seed):
    """Random planes `[32, 3, 3, 3]`, policy targets and outcomes of TicTacToe."""
    rng = np.random.default_rng(seed)
    planes = rng.integers(0, 2, (32, 3, 3, 3)).astype(np.float32) * 0.5
    pi = rng.dirichlet(np.ones(9), 32).astype(np.float32)
    z = rng.choice([-1.0, 0.0, 1.0], 32).astype(np.float32)
    return planes, pi, z


@pytest.mark.parametrize("line_features", [0, 3])
def test_one_update_on_a_fixed_batch_lowers_its_loss(line_features):
    policy = tiny_policy(line_features=line_features)
    planes, pi, z = fixed_batch(1)
    first = policy.learn(planes, pi, z)["total_loss"]
    for _ in range(5):
        last = policy.learn(planes, pi, z)["total_loss"]
    assert last < first


def test_the_draw_head_learns_the_draw_flags_and_needs_them():
    """``model.draw_head``: a logistic loss on whether the game was drawn, weighted like the
    value's, falls on a fixed batch; the evaluator returns the head's probabilities."""
    policy = tiny_policy(draw_head=True)
    planes, pi, z = fixed_batch(2)
    draw = (z == 0).astype(np.float32)
    first = policy.learn(planes, pi, z, draw)
    for _ in range(20):
        last = policy.learn(planes, pi, z, draw)
    assert last["draw_loss"] < first["draw_loss"] and last["total_loss"] < first["total_loss"]
    assert first["total_loss"] == pytest.approx(
        first["policy_loss"] + first["value_loss"] + first["draw_loss"], rel=1e-5
    )
    with pytest.raises(ValueError, match="draw flags .* got draw=None"):
        policy.learn(planes, pi, z)
    boards = np.zeros((4, 3, 3), np.int8)
    boards[1, 1, 1] = 1
    out = policy.evaluate(boards, np.array([1, 2, 1, 2]), np.ones((4, 9), bool))
    assert len(out) == 3 and out[2].shape == (4,) and ((out[2] > 0) & (out[2] < 1)).all()
    policy.model.eval()
    with torch.no_grad():
        x = torch.from_numpy(policy.model_input(policy.game.planes(boards, [1, 2, 1, 2])))
        want = torch.sigmoid(policy.model(x)[2][:, 0]).numpy()
    np.testing.assert_allclose(out[2], want, atol=1e-5)
    assert "draw_loss" not in tiny_policy().learn(planes, pi, z)  # off: LightZero's losses


def test_contempt_needs_the_draw_head_and_a_value_in_0_1():
    from lzero.agent import Agent
    from lzero.errors import ConfigError

    with pytest.raises(ConfigError, match="needs model.draw_head=True"):
        tiny_policy(contempt=0.3)
    for bad in (-0.1, 1.5, True):
        with pytest.raises(ConfigError, match=r"expected contempt in \[0, 1\]"):
            tiny_policy(draw_head=True, contempt=bad)
    with pytest.raises(ValueError, match="without a draw head"):
        Agent(tiny_policy(), 8, contempt=0.3)
    assert Agent(tiny_policy(draw_head=True, contempt=0.3), 8).contempt == 0.3
    assert Agent(tiny_policy(draw_head=True, contempt=0.3), 8, contempt=0.0).contempt == 0.0


def test_eval_fpu_reduction_is_checked_and_agents_search_with_it():
    """``eval_fpu_reduction``: refused unless None or a finite number >= 0; an agent's search
    is the batched search with it (moves those of ``BatchedSearch.search(fpu_reduction=...)``,
    which differ from AlphaZero's rule on some positions), unless the agent is told
    otherwise."""
    from lzero.agent import Agent
    from lzero.errors import ConfigError

    for bad in (-0.5, float("inf"), True, "0.2"):
        with pytest.raises(ConfigError, match="expected eval_fpu_reduction None or a"):
            tiny_policy(eval_fpu_reduction=bad)
    policy = tiny_policy(eval_fpu_reduction=0.3)
    boards, to_play = random_ttt_positions(np.random.default_rng(6), 30)
    legal = boards.reshape(len(boards), -1) == 0
    agent = Agent(policy, 30)
    assert agent.fpu_reduction == 0.3
    moves = agent.act_batch(boards, to_play, legal)
    want = policy.search.search(
        boards, to_play, policy.evaluate, num_simulations=30, fpu_reduction=0.3
    )
    np.testing.assert_array_equal(moves, want.visits.argmax(axis=1))
    plain = Agent(policy, 30, fpu_reduction=None)
    assert plain.fpu_reduction is None
    assert (plain.act_batch(boards, to_play, legal) != moves).any()
    assert Agent(tiny_policy(), 30).fpu_reduction is None  # the default: AlphaZero's rule
    with pytest.raises(ValueError, match="expected fpu_reduction None or a"):
        Agent(policy, 30, fpu_reduction=-1.0)


@pytest.mark.parametrize("reuse", [True, False])
def test_an_agent_with_reuse_tree_goes_on_from_its_earlier_searches(reuse):
    """``reuse_tree``: in games against the rule bot (both colours, so the agent's searches
    alternate between the two games' positions) the agent's searches after the first move
    mostly start from a kept subtree (the root not evaluated again: a NaN raw
    value, and its visits kept); a fresh agent's never do; a non-bool is refused."""
    from lzero.agent import Agent
    from lzero.worker.alphazero_evaluator import play_games

    policy = tiny_policy()
    search, searched = policy.search.search, []

    def record(*args, **kwargs):
        result = search(*args, **kwargs)
        assert kwargs["reuse_tree"] is reuse
        stones = np.count_nonzero(args[0].reshape(len(args[0]), -1), axis=1)
        kept = np.isnan(result.raw_value)
        searched.extend(zip(stones, kept, result.visits.sum(axis=1)))
        return result

    policy.search.search = record
    agent = Agent(policy, 40, reuse_tree=reuse)
    play_games(agent.act_batch, {"type": "tictactoe"}, {}, "rule", 4, seed=0)
    # The empty board is no node of a tree; the agent's first move as O is one move below
    # the roots of its searches as X, which came just before.
    first = [kept for stones, kept, _ in searched if stones == 0]
    later = [(kept, visits) for stones, kept, visits in searched if stones > 0]
    assert len(first) == 2 and not any(first) and len(later) >= 10
    if reuse:
        assert np.mean([kept for kept, _ in later]) >= 0.75
        assert any(visits > 40 for kept, visits in later if kept)
        assert all(visits == 40 for kept, visits in later if not kept)
    else:
        assert not any(kept for kept, _ in later) and all(v == 40 for _, v in later)
    with pytest.raises(ValueError, match="expected reuse_tree True or False"):
        Agent(tiny_policy(), 40, reuse_tree="yes")


def random_ttt_positions(rng, count):
    """``count`` unfinished TicTacToe positions of 2-5 stones `[count, 3, 3]` and their
    movers."""
    lines = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
    boards, to_play = [], []
    while len(boards) < count:
        cells = np.zeros(9, np.int8)
        stones = rng.permutation(9)[: rng.integers(2, 6)]
        cells[stones[::2]], cells[stones[1::2]] = 1, 2
        if not any(cells[a] and cells[a] == cells[b] == cells[c] for a, b, c in lines):
            boards.append(cells.reshape(3, 3))
            to_play.append(1 + (len(stones) % 2))
    return np.stack(boards), np.array(to_play)


def test_an_agent_with_contempt_searches_with_it():
    """The agent's search is the batched search with the config's contempt: its moves are
    those of ``BatchedSearch.search(contempt=...)`` on the network, which differ from the
    search without it on some positions."""
    from lzero.agent import Agent

    policy = tiny_policy(draw_head=True, contempt=1.0)
    boards, to_play = random_ttt_positions(np.random.default_rng(5), 30)
    legal = boards.reshape(len(boards), -1) == 0
    moves = Agent(policy, 30).act_batch(boards, to_play, legal)
    want = policy.search.search(boards, to_play, policy.evaluate, num_simulations=30, contempt=1.0)
    np.testing.assert_array_equal(moves, want.visits.argmax(axis=1))
    plain = Agent(policy, 30, contempt=0.0).act_batch(boards, to_play, legal)
    assert (plain != moves).any()


def eager_outputs(policy, boards, to_play):
    """Priors over every move and values of the plain (eager, eval-mode) model."""
    policy.model.eval()
    with torch.no_grad():
        planes = policy.model_input(policy.game.planes(boards, to_play))
        logits, value = policy.model(torch.from_numpy(planes))
    return torch.softmax(logits, -1).numpy(), value[:, 0].numpy()


def native_bfloat16():
    from lzero.model.frozen import native_bfloat16

    return native_bfloat16()


BFLOAT16 = pytest.param(
    "bfloat16",
    marks=pytest.mark.skipif(not native_bfloat16(), reason="CPU without native bfloat16"),
)


@pytest.mark.parametrize("line_features", [0, 3])
@pytest.mark.parametrize("nn_cache_size", [0, 64])
@pytest.mark.parametrize("dtype", ["float32", BFLOAT16])
def test_the_evaluator_follows_every_change_of_the_weights(line_features, nn_cache_size, dtype):
    """The search's evaluator runs a frozen copy of the model; it must give the eager model's
    outputs after updates, after a weight load (as a Ray actor's sync does it) and for any
    batch size, and must not be rebuilt while the weights stand still. With the evaluation
    cache, the positions asked for again are answered from it, never from older weights. In
    bfloat16 (8 significant bits) the eager float32 model is matched to its rounding."""
    policy = tiny_policy(
        line_features=line_features, nn_cache_size=nn_cache_size, inference_dtype=dtype
    )
    atol = 1e-5 if dtype == "float32" else 3e-2
    rng = np.random.default_rng(3)
    boards = rng.choice(np.array([0, 1, 2], np.int8), (5, 3, 3))
    to_play = rng.integers(1, 3, 5)
    legal = np.ones((5, 9), bool)
    planes, pi, z = fixed_batch(3)
    other = tiny_policy(seed=7, line_features=line_features)
    seen = []
    for change in ("none", "update", "update", "load"):
        if change == "update":
            policy.learn(planes, pi, z)
        elif change == "load":
            policy.model.load_state_dict(other.model.state_dict())
        for n in (1, 5):
            priors, values = policy.evaluate(boards[:n], to_play[:n], legal[:n])
            want_p, want_v = eager_outputs(policy, boards[:n], to_play[:n])
            np.testing.assert_allclose(priors, want_p, atol=atol)
            np.testing.assert_allclose(values, want_v, atol=atol)
        seen.append(policy.inference_model())
        assert policy.inference_model() is seen[-1]  # not rebuilt without a change
    assert len({id(m) for m in seen}) == 4  # rebuilt after each change
    if nn_cache_size:  # per weights, position 0 is asked for twice: once from the cache
        cache = policy.nn_cache
        assert (cache.hits, cache.lookups) == (4 * 1, 4 * 6)


def test_a_pinned_policy_evaluates_as_outside_and_refuses_an_update_inside():
    """``policy.pinned()`` (a collector's search) skips the per-call weight check: inside it
    the evaluators give what they give outside, and a weight load inside it (as a Ray sync
    does it) is an error at its end, after which the new weights are used."""
    policy = tiny_policy(ema_decay=0.5)
    rng = np.random.default_rng(4)
    boards = rng.choice(np.array([0, 1, 2], np.int8), (4, 3, 3))
    to_play, legal = rng.integers(1, 3, 4), np.ones((4, 9), bool)
    outside = policy.evaluate(boards, to_play, legal)
    averaged = policy.evaluator()(boards, to_play, legal)
    with policy.pinned():
        assert torch.is_inference_mode_enabled()
        inside = policy.evaluate(boards, to_play, legal)
        np.testing.assert_array_equal(inside[0], outside[0])
        np.testing.assert_array_equal(inside[1], outside[1])
        np.testing.assert_array_equal(policy.evaluator()(boards, to_play, legal)[0], averaged[0])
    other = tiny_policy(seed=7)
    with pytest.raises(RuntimeError, match="weights changed inside a pinned"):
        with policy.pinned():
            policy.model.load_state_dict(other.model.state_dict())
    after = policy.evaluate(boards[:1], to_play[:1], legal[:1])
    np.testing.assert_allclose(
        after[0], eager_outputs(policy, boards[:1], to_play[:1])[0], atol=1e-5
    )


def test_a_cached_position_reads_the_legal_moves_it_is_asked_with():
    """The cache keeps the network's logits, so a position met again with other legal moves
    (the root's are narrowed by tactics) gets priors over those."""
    cached, plain = tiny_policy(nn_cache_size=16), tiny_policy()
    boards = np.array([[[1, 2, 0], [0, 0, 0], [0, 0, 0]]] * 2, np.int8)
    to_play = np.array([1, 1])
    legal = np.array([[0, 0, 1, 1, 1, 1, 1, 1, 1], [0, 0, 0, 0, 1, 0, 0, 1, 1]], bool)
    for rows in ([0], [1], [0, 1], [1, 0]):
        got = cached.evaluate(boards[rows], to_play[rows], legal[rows])
        want = plain.evaluate(boards[rows], to_play[rows], legal[rows])
        np.testing.assert_allclose(got[0], want[0], atol=1e-6)
        np.testing.assert_allclose(got[1], want[1], atol=1e-6)
        assert (got[0][~legal[rows]] == 0).all()
    assert cached.nn_cache.hits == 5


@pytest.mark.parametrize("size", [-1, 2.5, True, "big"])
def test_a_bad_nn_cache_size_is_refused(size):
    from lzero.errors import ConfigError

    with pytest.raises(ConfigError, match=r"expected nn_cache_size to be an int >= 0 \(0: off\)"):
        tiny_policy(nn_cache_size=size)


@pytest.mark.parametrize("dtype", ["float16", "bf16", None, 32])
def test_a_bad_inference_dtype_is_refused(dtype):
    from lzero.errors import ConfigError

    match = r"main_config.policy: expected inference_dtype in \['float32', 'bfloat16', 'auto'\]"
    with pytest.raises(ConfigError, match=match):
        tiny_policy(inference_dtype=dtype)


def test_bfloat16_is_refused_on_a_cpu_that_would_emulate_it(monkeypatch):
    from lzero.errors import ConfigError
    from lzero.model import frozen

    monkeypatch.setattr(frozen, "native_bfloat16", lambda: False)
    with pytest.raises(ConfigError, match="needs a CPU with native bfloat16 arithmetic"):
        tiny_policy(inference_dtype="bfloat16")
    policy = tiny_policy(inference_dtype="auto")  # falls back to float32 there, as documented
    assert policy.inference_dtype == torch.float32


@pytest.mark.skipif(not native_bfloat16(), reason="CPU without native bfloat16")
def test_a_bfloat16_training_step_follows_the_float32_step_to_its_rounding():
    """``learn_dtype='bfloat16'`` (autocast): from the same weights, on the same batches, its
    losses stay within bfloat16's rounding of the float32 policy's (the reference), and its
    weights move the same way: no weight further than Adam's bound on two diverging paths
    (``2 n lr`` after n steps), the two updates aligned (cosine above 0.95), yet not equal (it
    did run in bfloat16). The weights, the optimizer's state and the losses stay float32, and
    the loss falls."""
    ref, low = tiny_policy(), tiny_policy(learn_dtype="bfloat16")
    start = {k: v.clone() for k, v in ref.model.state_dict().items()}
    first, steps = None, 6
    for seed in range(steps):
        batch = fixed_batch(seed % 2)
        want, got = ref.learn(*batch), low.learn(*batch)
        first = first or got["total_loss"]
        for key, value in want.items():
            assert got[key] == pytest.approx(value, rel=2e-2, abs=2e-2), key
    assert got["total_loss"] < first
    bound = 2 * steps * ref.cfg.learning_rate
    moved_ref, moved_low = [], []
    for name, w in ref.model.state_dict().items():
        v = low.model.state_dict()[name]
        assert v.dtype == w.dtype, name
        if w.dtype.is_floating_point and name.split(".")[-1] in ("weight", "bias"):
            assert float((v - w).abs().max()) <= bound, name
            moved_ref.append((w - start[name]).flatten())
            moved_low.append((v - start[name]).flatten())
    a, b = torch.cat(moved_ref), torch.cat(moved_low)
    assert float(torch.nn.functional.cosine_similarity(a, b, dim=0)) > 0.95
    assert not torch.equal(a, b)
    for state in low.optimizer.state.values():
        assert all(t.dtype == torch.float32 for t in state.values() if t.is_floating_point())


@pytest.mark.parametrize("dtype", ["float16", None])
def test_a_bad_learn_dtype_is_refused(dtype):
    from lzero.errors import ConfigError

    match = r"main_config.policy: expected learn_dtype in \['float32', 'bfloat16', 'auto'\]"
    with pytest.raises(ConfigError, match=match):
        tiny_policy(learn_dtype=dtype)


def test_bfloat16_training_is_refused_on_a_cpu_that_would_emulate_it(monkeypatch):
    """Refused by the config check, naming the setting; 'auto' trains in float32 there (the
    same step as 'float32'); a policy built without that check (a checkpoint's agent) only
    resolves its training dtype when it first learns."""
    from lzero.errors import ConfigError
    from lzero.model import frozen

    monkeypatch.setattr(frozen, "native_bfloat16", lambda: False)
    with pytest.raises(ConfigError, match="learn_dtype='bfloat16' needs a CPU with native"):
        tiny_policy(learn_dtype="bfloat16")
    batch = fixed_batch(3)
    assert tiny_policy(learn_dtype="auto").learn(*batch) == tiny_policy().learn(*batch)
    policy = tiny_policy()
    policy.cfg.learn_dtype = "bfloat16"  # as a checkpoint's config read on another CPU
    with pytest.raises(ValueError, match="learn_dtype='bfloat16' needs a CPU with native"):
        policy.learn(*batch)


def test_the_weights_average_follows_the_ema_recurrence_and_leaves_training_alone():
    """With ``ema_decay`` d the average after step n is ``d_n e + (1 - d_n) w_n``, ``d_n =
    min(d, (1 + n) / (10 + n))``, from the initial weights, for every float weight and
    batch-norm statistic (recomputed here in float64 from the network's weights after each
    step); the network's own steps are those of a policy without the average."""
    averaged, plain = tiny_policy(ema_decay=0.8), tiny_policy()
    assert plain.ema_model is None and "ema_model" not in plain.state_dict()
    ref = {k: v.double().clone() for k, v in averaged.model.state_dict().items()}
    for n in range(1, 41):
        batch = fixed_batch(n)
        averaged.learn(*batch)
        plain.learn(*batch)
        d = min(0.8, (1 + n) / (10 + n))
        for k, w in averaged.model.state_dict().items():
            ref[k] = d * ref[k] + (1 - d) * w.double() if w.is_floating_point() else w.double()
    assert d == 0.8  # the warm-up is over: the configured decay rules
    ema = averaged.state_dict()["ema_model"]
    for k, want in ref.items():
        np.testing.assert_allclose(ema[k].double().numpy(), want.numpy(), rtol=1e-5, atol=1e-6)
    for a, b in zip(averaged.model.state_dict().values(), plain.model.state_dict().values()):
        assert torch.equal(a, b)
    moved = [k for k in ref if not torch.equal(ema[k], averaged.model.state_dict()[k])]
    assert moved  # the average is not the network


@pytest.mark.parametrize("nn_cache_size", [0, 64])
def test_the_averaged_evaluator_plays_the_average_and_follows_its_updates(nn_cache_size):
    policy = tiny_policy(ema_decay=0.5, nn_cache_size=nn_cache_size)
    rng = np.random.default_rng(4)
    boards = rng.choice(np.array([0, 1, 2], np.int8), (5, 3, 3))
    to_play, legal = rng.integers(1, 3, 5), np.ones((5, 9), bool)
    net = tiny_policy()  # a policy without the average, to run the average's weights eagerly
    for _ in range(2):
        for _ in range(3):
            policy.learn(*fixed_batch(int(rng.integers(1 << 30))))
        net.model.load_state_dict(policy.ema_model.state_dict())
        priors, values = policy.evaluator()(boards, to_play, legal)
        want_p, want_v = eager_outputs(net, boards, to_play)
        np.testing.assert_allclose(priors, want_p, atol=1e-5)
        np.testing.assert_allclose(values, want_v, atol=1e-5)
        raw_p, _ = policy.evaluator(averaged=False)(boards, to_play, legal)
        np.testing.assert_allclose(raw_p, eager_outputs(policy, boards, to_play)[0], atol=1e-5)
        assert np.abs(raw_p - priors).max() > 1e-4
    # A checkpoint without an average (or a bare network) starts the average from its network.
    policy.load_state_dict({"model": net.model.state_dict()})
    for a, b in zip(policy.ema_model.state_dict().values(), net.model.state_dict().values()):
        assert torch.equal(a, b)


@pytest.mark.parametrize("decay", [-0.1, 1.0, True, "slow"])
def test_ema_decay_outside_0_1_is_refused(decay):
    from lzero.errors import ConfigError

    with pytest.raises(ConfigError, match=r"expected ema_decay in \[0, 1\) \(0: off\), got"):
        tiny_policy(ema_decay=decay)


@pytest.mark.parametrize("tactics", [False, True])
def test_the_tactics_setting_reaches_the_search(tactics):
    """With ``mcts.tactics`` the policy's search plays a win at once even when the untrained
    network and every simulation would rather look elsewhere."""
    policy = tiny_policy(tactics=tactics, num_simulations=4)
    boards = np.array([[[1, 1, 0], [2, 2, 0], [0, 0, 0]]], np.int8)  # X wins at 2
    visits = policy.search.search(boards, np.array([1]), policy.evaluate).visits[0]
    assert (visits[2] == 4) == tactics


def test_network_priors_are_zero_on_illegal_moves():
    policy = tiny_policy()
    boards = np.array([[[1, 2, 0], [0, 0, 0], [0, 0, 0]]], np.int8)
    legal = boards.reshape(1, 9) == 0
    priors, values = policy.evaluate(boards, np.array([1]), legal)
    assert priors[0, :2].tolist() == [0.0, 0.0] and priors[0].sum() == pytest.approx(1.0, abs=1e-5)
    assert -1 <= values[0] <= 1


@pytest.mark.parametrize("mode", ["self_play_mode", "play_with_bot_mode"])
def test_collected_outcomes_follow_the_mode(mode):
    """Self-play stores both players' positions with alternating outcomes; bot mode stores the
    agent's (player 1's) positions, each with the game's result for the agent."""
    from lzero.worker.alphazero_collector import AlphaZeroCollector

    policy = tiny_policy()
    collector = AlphaZeroCollector(policy, "tictactoe", {"battle_mode": mode}, num_envs=3, seed=0)
    data = collector.collect(6)
    collector.close()
    planes, z = data["planes"], data["value"]
    assert data["episodes"] >= 6 and len(data["returns"]) == data["episodes"]
    assert set(np.unique(z)) <= {-1.0, 0.0, 1.0}
    stones = (planes[:, :2] > 0).sum(axis=(1, 2, 3))
    starts = np.flatnonzero(stones == 0)
    assert len(starts) == data["episodes"] and starts[0] == 0
    for game, (a, b) in enumerate(zip(starts, [*starts[1:], len(z)])):
        mover = planes[a:b, 2, 0, 0] * 2  # plane 2 holds the mover's id (halved by scale)
        if mode == "self_play_mode":
            np.testing.assert_array_equal(mover, [1 + (i % 2) for i in range(b - a)])
            np.testing.assert_array_equal(z[a + 1 : b], -z[a : b - 1])
            assert data["returns"][game] == (z[a] if mover[0] == 1 else -z[a])
        else:
            assert (mover == 1).all() and (z[a:b] == data["returns"][game]).all()
        # Without the root value mixed in, a drawn game is the one whose outcome is 0.
        assert (data["draw"][a:b] == float(data["returns"][game] == 0)).all()


@pytest.mark.parametrize("mode", ["self_play_mode", "play_with_bot_mode"])
def test_value_targets_mix_the_outcome_with_the_searched_root_value(mode):
    """``root_value_target_weight`` w: each position's target is ``(1 - w) z + w q``, z the
    game's outcome and q the root value its search returned, both for the player to move."""
    from lzero.worker.alphazero_collector import AlphaZeroCollector

    targets, roots = {}, {}
    for w in (0.0, 1.0, 0.25):
        policy = tiny_policy()
        policy.cfg.root_value_target_weight = w
        search, seen = policy.search.search, []

        def record(*args, search=search, seen=seen, **kwargs):
            result = search(*args, **kwargs)
            seen.extend(result.value.astype(np.float32).tolist())
            return result

        policy.search.search = record
        collector = AlphaZeroCollector(policy, "tictactoe", {"battle_mode": mode}, 2, seed=0)
        targets[w] = collector.collect(2)["value"]
        collector.close()
        roots[w] = seen
    z, q = targets[0.0], targets[1.0]
    assert len(z) == len(q) == len(targets[0.25]) > 0  # one seed: the same games each time
    assert set(np.unique(z)) <= {-1.0, 0.0, 1.0}
    assert set(q.tolist()) <= set(roots[1.0]) and len(np.unique(q)) > 3
    np.testing.assert_allclose(targets[0.25], 0.75 * z + 0.25 * q, atol=1e-6)


@pytest.mark.parametrize("mode", ["self_play_mode", "play_with_bot_mode"])
def test_discount_factor_discounts_each_outcome_by_the_plies_left(mode):
    """``discount_factor`` g: a position k plies before its game's last move gets ``g**k z``.
    The plies are counted off the stored boards (a TicTacToe board holds one stone a ply), the
    game's length off its last stored board (bot mode: the bot may have made the last move)."""
    from lzero.worker.alphazero_collector import AlphaZeroCollector

    data = {}
    for gamma in (1.0, 0.5):
        policy = tiny_policy()
        policy.cfg.discount_factor = gamma
        collector = AlphaZeroCollector(policy, "tictactoe", {"battle_mode": mode}, 3, seed=0)
        data[gamma] = collector.collect(6)
        collector.close()
    planes, z = data[1.0]["planes"], data[1.0]["value"]
    np.testing.assert_array_equal(planes, data[0.5]["planes"])  # one seed: the same games
    ply = (planes[:, :2] > 0).sum(axis=(1, 2, 3))
    starts = np.flatnonzero(ply == 0)
    expected = np.zeros_like(z)
    for game, (a, b) in enumerate(zip(starts, [*starts[1:], len(z)])):
        # The last stored board's move ended the game, or (a game the agent lost to the bot)
        # the bot's answer to it did. A draw's targets are 0 whatever its length.
        lost_to_bot = mode == "play_with_bot_mode" and data[1.0]["returns"][game] < 0
        length = ply[b - 1] + 1 + lost_to_bot
        expected[a:b] = z[a:b] * 0.5 ** (length - 1 - ply[a:b])
    assert len(z) > 0 and (np.abs(z) == 1).any()
    np.testing.assert_allclose(data[0.5]["value"], expected, atol=1e-6)


def test_completed_q_policy_targets_are_the_searches_improved_policies():
    """``policy_target='completed_q'``: each stored policy target is ``completed_q_policy`` of
    the search that chose the move, not its visit distribution."""
    from lzero.mcts.batched_search import completed_q_policy
    from lzero.worker.alphazero_collector import AlphaZeroCollector

    policy = tiny_policy()
    policy.cfg.policy_target = "completed_q"
    search, improved, by_visits = policy.search.search, [], []

    def record(*args, **kwargs):
        result = search(*args, **kwargs)
        improved.extend(completed_q_policy(result).astype(np.float32))
        by_visits.extend(result.visits / result.visits.sum(axis=1, keepdims=True))
        return result

    policy.search.search = record
    collector = AlphaZeroCollector(policy, "tictactoe", {}, 2, seed=0)
    targets = collector.collect(2)["policy"]
    collector.close()
    rows = {tuple(t) for t in np.asarray(improved).round(6)}
    assert len(targets) > 0 and all(tuple(t) in rows for t in targets.round(6))
    np.testing.assert_allclose(targets.sum(axis=1), 1.0, rtol=1e-5)
    differ = [not np.allclose(t, v, atol=1e-3) for t, v in zip(improved, by_visits)]
    assert np.mean(differ) > 0.5  # all but positions with one sensible move


def test_gumbel_self_play_plays_the_halving_winner_and_learns_the_improved_policy():
    """Type 'gumbel_alphazero': every move of self-play is its search's Sequential Halving
    winner (the result's action, under the search's Gumbel noise) and every stored target is
    that search's improved policy with the config's maxvisit_init and value_scale."""
    from lzero.mcts.batched_search import completed_q_policy
    from lzero.worker.alphazero_collector import AlphaZeroCollector

    cfg = compile_alphazero_config(
        [
            dict(
                policy=dict(
                    model=dict(observation_shape=(3, 3, 3), action_space_size=9, num_channels=8),
                    nn_cache_size=0,
                    mcts=dict(num_simulations=8, max_num_considered_actions=4, value_scale=0.2),
                )
            ),
            dict(env=dict(type="tictactoe"), policy=dict(type="gumbel_alphazero")),
        ]
    )
    torch.manual_seed(0)
    policy = AlphaZeroPolicy(cfg.policy, BoardGame.from_env(make_env("tictactoe")), seed=0)
    assert policy.search.rule == 2 and policy.search.value_scale == 0.2
    search, improved, chosen = policy.search.search, [], []

    def record(*args, **kwargs):
        result = search(*args, **kwargs)
        assert kwargs["add_noise"]
        improved.append(completed_q_policy(result, c_visit=50.0, c_scale=0.2).astype(np.float32))
        chosen.append(result.action)
        return result

    policy.search.search = record
    collector = AlphaZeroCollector(policy, "tictactoe", {}, 2, seed=0)
    played = []
    step = collector.pool.step
    collector.pool.step = lambda actions: (played.append(actions.copy()), step(actions))[1]
    targets = collector.collect(2)["policy"]
    collector.close()
    for actions, want in zip(played, chosen):
        np.testing.assert_array_equal(actions, want)
    rows = {tuple(t) for t in np.concatenate(improved).round(6)}
    assert len(targets) > 0 and all(tuple(t) in rows for t in targets.round(6))


def test_collect_fpu_reduction_searches_self_play_with_it_below_the_root():
    """``collect_fpu_reduction`` r: self-play is the run whose searches take
    ``fpu_reduction=r, root_fpu_reduction=0`` (the root's value unreduced), and differs from
    AlphaZero's rule; bad values are refused by the config check."""
    from lzero.errors import ConfigError
    from lzero.worker.alphazero_collector import AlphaZeroCollector

    def collect(policy):
        collector = AlphaZeroCollector(policy, "tictactoe", {}, 2, seed=3)
        data = collector.collect(4)
        collector.close()
        return data

    policy = tiny_policy(seed=1)
    policy.cfg.collect_fpu_reduction = 0.6
    with_key = collect(policy)
    policy = tiny_policy(seed=1)
    search = policy.search.search

    def forced(*args, **kwargs):
        assert kwargs.pop("fpu_reduction") is None and kwargs.pop("root_fpu_reduction") is None
        return search(*args, fpu_reduction=0.6, root_fpu_reduction=0.0, **kwargs)

    policy.search.search = forced
    by_hand = collect(policy)
    plain = collect(tiny_policy(seed=1))
    for key in ("planes", "policy", "value"):
        np.testing.assert_array_equal(with_key[key], by_hand[key])
    assert with_key["policy"].shape != plain["policy"].shape or not np.array_equal(
        with_key["policy"], plain["policy"]
    )
    for bad in (-0.5, float("nan"), True, "0.2"):
        with pytest.raises(ConfigError, match="expected collect_fpu_reduction None or a"):
            compile_alphazero_config(
                [dict(policy=dict(collect_fpu_reduction=bad)), dict(env=dict(type="tictactoe"))]
            )


def test_collect_forced_playouts_force_the_root_and_prune_the_policy_targets():
    """``collect_forced_playouts`` k: every self-play search is made with ``forced_playouts=k``,
    and each stored policy target is the pruned visit distribution of the search that chose
    the move (KataGo's policy target pruning), not its raw visits; bad values are refused."""
    from lzero.errors import ConfigError
    from lzero.mcts.batched_search import prune_forced_playouts, visit_policy
    from lzero.worker.alphazero_collector import AlphaZeroCollector

    policy = tiny_policy(seed=2)
    policy.cfg.collect_forced_playouts = 2.0
    search, pruned, raw, ks = policy.search.search, [], [], []

    def record(*args, **kwargs):
        ks.append(kwargs["forced_playouts"])
        result = search(*args, **kwargs)
        c1, c2 = policy.search.c1, policy.search.c2
        pruned.extend(visit_policy(prune_forced_playouts(result, 2.0, c1, c2), 1.0))
        raw.extend(visit_policy(result.visits, 1.0))
        return result

    policy.search.search = record
    collector = AlphaZeroCollector(policy, "tictactoe", {}, 2, seed=0)
    targets = collector.collect(2)["policy"]
    collector.close()
    assert set(ks) == {2.0}
    rows = {tuple(t) for t in np.asarray(pruned, np.float32).round(6)}
    assert len(targets) > 0 and all(tuple(t) in rows for t in targets.round(6))
    differ = [not np.allclose(p, r, atol=1e-6) for p, r in zip(pruned, raw)]
    assert np.mean(differ) > 0.3  # the pruning takes visits back from most roots
    for bad in (-1.0, float("nan"), True, "2", None):
        with pytest.raises(ConfigError, match="expected collect_forced_playouts a"):
            compile_alphazero_config(
                [dict(policy=dict(collect_forced_playouts=bad)), dict(env=dict(type="tictactoe"))]
            )


def test_collect_reuse_tree_continues_each_game_from_its_last_search():
    """``collect_reuse_tree``: every self-play search is made with ``reuse_tree=True``, and a
    game's next root holds, besides this search's simulations, the visits its previous search
    gave the move played (less the one that expanded it) where that subtree fits, else none;
    the run repeats from its seed; plain self-play never carries visits over."""
    from lzero.errors import ConfigError
    from lzero.worker.alphazero_collector import AlphaZeroCollector

    def run(reuse):
        policy = tiny_policy(seed=4)
        policy.cfg.collect_reuse_tree = reuse
        search, steps = policy.search.search, []

        def record(*args, **kwargs):
            assert kwargs["reuse_tree"] is reuse
            result = search(*args, **kwargs)
            steps.append([result.visits.copy()])
            return result

        policy.search.search = record
        collector = AlphaZeroCollector(policy, "tictactoe", {}, 3, seed=5)
        step = collector.pool.step

        def step_and_record(actions):
            steps[-1].append(np.asarray(actions).copy())
            out = step(actions)
            steps[-1].append(out[2].copy())  # done
            return out

        collector.pool.step = step_and_record
        data = collector.collect(6)
        collector.close()
        return data, steps, policy.search.num_simulations

    data, steps, sims = run(True)
    carried = 0
    for (visits, actions, done), (after, _, _) in zip(steps, steps[1:]):
        for b in np.flatnonzero(~done):
            total, kept = after[b].sum(), visits[b, actions[b]] - 1
            assert total in (sims, sims + kept)
            carried += total > sims
    assert carried > 0.3 * sum(int((~s[2]).sum()) for s in steps[:-1])
    again, _, _ = run(True)
    for key in ("planes", "policy", "value"):
        np.testing.assert_array_equal(data[key], again[key])
    _, plain, _ = run(False)
    assert all(s[0].sum(axis=1).max() == sims for s in plain)
    for bad in (1, "yes", None, np.bool_(True)):
        with pytest.raises(ConfigError, match="expected collect_reuse_tree to be True or False"):
            compile_alphazero_config(
                [dict(policy=dict(collect_reuse_tree=bad)), dict(env=dict(type="tictactoe"))]
            )
    with pytest.raises(ConfigError, match="collect_reuse_tree=True .* needs env.battle_mode='self"):
        compile_alphazero_config(
            [
                dict(
                    env=dict(battle_mode="play_with_bot_mode"), policy=dict(collect_reuse_tree=True)
                ),
                dict(env=dict(type="tictactoe")),
            ]
        )


def test_an_unknown_policy_target_is_refused_with_the_allowed_ones():
    with pytest.raises(ValueError, match=r"policy_target in \['visit_count', 'completed_q'\]"):
        compile_alphazero_config(
            [dict(policy=dict(policy_target="visits")), dict(env=dict(type="tictactoe"))]
        )


@pytest.mark.parametrize("w", [-0.1, 1.5, True, "half"])
def test_root_value_target_weight_outside_0_1_is_refused(w):
    with pytest.raises(ValueError, match="root_value_target_weight in \\[0, 1\\]"):
        compile_alphazero_config(
            [dict(policy=dict(root_value_target_weight=w)), dict(env=dict(type="tictactoe"))]
        )


@pytest.mark.parametrize("gamma", [0, -0.5, 1.01, True, "0.99"])
def test_discount_factor_outside_0_1_is_refused(gamma):
    with pytest.raises(
        ValueError, match="discount_factor to be a number in \\(0, 1\\] \\(1: off\\)"
    ):
        compile_alphazero_config(
            [dict(policy=dict(discount_factor=gamma)), dict(env=dict(type="tictactoe"))]
        )


@pytest.mark.parametrize(
    ("model", "match"),
    [
        (dict(num_channels=0), "expected num_channels to be a positive int, got 0"),
        (dict(value_head_hidden_channels=2.5), "expected value_head_hidden_channels to be a"),
        (dict(num_res_blocks=-1), "expected num_res_blocks to be an int >= 0, got -1"),
    ],
)
def test_a_network_size_that_builds_no_network_is_refused(model, match):
    with pytest.raises(ValueError, match=f"main_config.policy.model: {match}"):
        compile_alphazero_config([dict(policy=dict(model=model)), dict(env=dict(type="tictactoe"))])


def _winner(board):
    """Plain-Python TicTacToe: the player with three in a row on ``board`` `[3, 3]`, or 0."""
    lines = [[(r, c) for c in range(3)] for r in range(3)]
    lines += [[(r, c) for r in range(3)] for c in range(3)]
    lines += [[(i, i) for i in range(3)], [(i, 2 - i) for i in range(3)]]
    for line in lines:
        values = {int(board[r][c]) for r, c in line}
        if len(values) == 1 and values != {0}:
            return values.pop()
    return 0


def test_bot_games_store_the_agents_positions_with_its_result_and_the_bots_moves():
    """``bot_opponent_share=1``: every game has the rule bot on one side, both sides occur; the
    stored positions are the agent's alone, the bot's moves between them are moves the rule bot
    makes there, and each target is the game's result for the agent (read off the final board
    by a plain-Python line check)."""
    from lzero.utils.nbrng import make_rng_state
    from lzero.worker.alphazero_collector import AlphaZeroCollector

    rule_bot = ENV_REGISTRY.get("tictactoe").rule_bot
    policy = tiny_policy()
    policy.cfg.bot_opponent_share = 1.0
    collector = AlphaZeroCollector(policy, "tictactoe", {}, num_envs=3, seed=0)
    finals, step = [], collector.pool.step

    def record(actions):
        obs, reward, done, info = step(actions)
        finals.extend(obs["board"][i].copy() for i in np.flatnonzero(done))
        return obs, reward, done, info

    collector.pool.step = record
    data = collector.collect(12)
    collector.close()
    planes, z = data["planes"], data["value"]
    stones = (planes[:, :2] > 0).sum(axis=(1, 2, 3))
    starts = [0] + [k for k in range(1, len(z)) if stones[k] <= stones[k - 1]]
    assert len(starts) == data["episodes"] == len(finals) >= 12
    colours = set()
    for (a, b), final in zip(zip(starts, [*starts[1:], len(z)]), finals):
        agent = int(round(planes[a, 2, 0, 0] * 2))  # plane 2: the mover's id (halved by scale)
        colours.add(agent)
        assert (planes[a:b, 2] * 2 == agent).all()
        assert stones[a] == agent - 1 and (np.diff(stones[a:b]) == 2).all()
        boards = [agent * (p[0] > 0) + (3 - agent) * (p[1] > 0) for p in planes[a:b]]
        if agent == 2:  # the bot opened on the empty board
            boards.insert(0, np.zeros((3, 3), np.int64))
        for before, after in zip(boards, boards[1:]):
            new = np.argwhere((after != before).reshape(-1)).ravel()
            bot_cell = next(int(c) for c in new if after.reshape(-1)[c] == 3 - agent)
            board = np.where(np.arange(9) == bot_cell, 0, after.reshape(-1)).reshape(3, 3)
            choices = {
                int(rule_bot(board.astype(np.int8), 3 - agent, make_rng_state(s)))
                for s in range(20)
            }
            assert bot_cell in choices
        winner = _winner(final)
        expected = 0.0 if winner == 0 else (1.0 if winner == agent else -1.0)
        assert (z[a:b] == expected).all()
    assert colours == {1, 2}


@pytest.mark.parametrize("share", [-0.5, 1.5, True, "some"])
def test_bot_opponent_share_outside_0_1_is_refused(share):
    with pytest.raises(ValueError, match="bot_opponent_share in \\[0, 1\\]"):
        compile_alphazero_config(
            [dict(policy=dict(bot_opponent_share=share)), dict(env=dict(type="tictactoe"))]
        )


def test_bot_opponent_share_outside_self_play_is_refused():
    env = dict(type="tictactoe", battle_mode="play_with_bot_mode")
    with pytest.raises(ValueError, match="needs env.battle_mode='self_play_mode'"):
        compile_alphazero_config(
            [dict(policy=dict(bot_opponent_share=0.5), env=env), dict(env=dict(type="tictactoe"))]
        )


def test_the_bot_mode_variant_of_a_self_play_config_compiles_without_its_self_play_keys():
    """A self-play config with bot games, random openings and tree reuse (each refused in
    play_with_bot_mode) yields a bot-mode config (``bot_mode_variant``) that compiles, every
    game there against the bot, and leaves the self-play config as it was."""
    from types import SimpleNamespace

    from easydict import EasyDict

    from lzero.errors import ConfigError
    from lzero.policy.alphazero_config import bot_mode_variant

    self_play_only = dict(bot_opponent_share=0.5, collect_opening_moves=2, collect_reuse_tree=True)
    create = EasyDict(env=dict(type="tictactoe"))
    for key, value in self_play_only.items():
        bot_env = dict(battle_mode="play_with_bot_mode")
        with pytest.raises(ConfigError, match=f"{key}=.* needs env.battle_mode='self_play_mode'"):
            compile_alphazero_config([dict(policy={key: value}, env=bot_env), create])
    main = EasyDict(dict(policy=dict(self_play_only), env=dict()))
    sp = SimpleNamespace(main_config=main, create_config=create, max_env_step=10)
    bot_main, create, _ = bot_mode_variant(sp, "exp")
    cfg = compile_alphazero_config([bot_main, create])
    assert cfg.env.battle_mode == "play_with_bot_mode"
    assert (cfg.policy.bot_opponent_share, cfg.policy.collect_opening_moves) == (0, 0)
    assert cfg.policy.collect_reuse_tree is False
    again = compile_alphazero_config([main, create]).policy
    assert {k: again[k] for k in self_play_only} == self_play_only


def test_moves_past_num_sampling_moves_are_greedy_without_overflow():
    """Past ``num_sampling_moves`` every game plays its most visited move; no visit count is
    raised to a huge power on the way (numpy would warn of an overflow)."""
    import warnings

    from lzero.worker.alphazero_collector import AlphaZeroCollector

    policy = tiny_policy()
    policy.cfg.num_sampling_moves = 0
    chosen = []
    search = policy.search.search

    def record(*args, **kwargs):
        result = search(*args, **kwargs)
        chosen.append(result.visits.copy())
        return result

    policy.search.search = record
    collector = AlphaZeroCollector(policy, "tictactoe", {"battle_mode": "self_play_mode"}, 2, 0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        data = collector.collect(2)
    collector.close()
    # the two games' first moves (stored in the order the games ended) are the most visited
    # moves of the first search, one per env
    assert data["episodes"] >= 2
    boards = data["planes"][:, :2].sum(axis=1)  # stones of both players, [positions, 3, 3]
    second = [k + 1 for k in np.flatnonzero(boards.sum(axis=(1, 2)) == 0)[:2]]
    played = sorted(int(boards[k].reshape(-1).argmax()) for k in second)
    assert played == sorted(chosen[0].argmax(axis=1).tolist())


@settings(max_examples=50, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    batch=st.integers(0, 6),
    actions=st.integers(1, 12),
    draw=st.booleans(),
)
def test_priors_and_values_are_the_masked_softmax_of_the_outputs(seed, batch, actions, draw):
    """The evaluator's outputs from the network's raw ones: softmax over the legal moves (a
    plain float64 reference), the value column, the draw logit's sigmoid; a row without a
    legal move has NaN priors, as a masked torch softmax gives."""
    rng = np.random.default_rng(seed)
    table = (rng.normal(size=(batch, actions + 1 + draw)) * 10).astype(np.float32)
    legal = rng.random((batch, actions)) < 0.6
    out = priors_and_values(table, legal, actions)
    assert len(out) == 2 + draw and out[0].dtype == np.float32
    for i in range(batch):
        logits = table[i, :actions].astype(np.float64)
        if not legal[i].any():
            assert np.isnan(out[0][i]).all()
            continue
        e = np.where(legal[i], np.exp(logits - logits[legal[i]].max()), 0.0)
        np.testing.assert_allclose(out[0][i], e / e.sum(), rtol=1e-5, atol=1e-7)
        assert (out[0][i][~legal[i]] == 0).all()
    np.testing.assert_array_equal(out[1], table[:, actions].astype(np.float64))
    if draw:
        want = 1 / (1 + np.exp(-table[:, actions + 1].astype(np.float64)))
        np.testing.assert_allclose(out[2], want, rtol=1e-12)


@njit
def _exps(xs, out):
    for i in range(xs.shape[0]):
        out[i] = _exp_nonpositive(xs[i])


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.floats(-87.33650207519531, 0.0, width=32, allow_subnormal=False), min_size=1, max_size=64
    )
)
def test_the_softmax_exp_is_within_one_float32_ulp_of_the_exact_exp(values):
    """The priors' vectorizable ``exp`` against the float64 ``exp`` rounded to float32: at
    most one unit in the last place apart, on random points and on a grid of the whole range
    (``exp(0) = 1`` exactly); below the range it gives the range's end; NaN stays NaN."""
    xs = np.concatenate([np.float32(values), -np.linspace(0, 87.33, 20001, dtype=np.float32)])
    out = np.empty_like(xs)
    _exps(xs, out)
    want = np.exp(xs.astype(np.float64)).astype(np.float32)
    ulps = np.abs(out.view(np.int32).astype(np.int64) - want.view(np.int32))
    assert ulps.max() <= 1, xs[ulps.argmax()]
    assert out[xs == 0].tolist() == [1.0] * int((xs == 0).sum())
    edge = np.float32([-87.33654, -100.0, -np.inf, np.nan])
    out = np.empty_like(edge)
    _exps(edge, out)
    assert out[0] == out[1] == out[2] == np.float32(np.exp(np.float64(edge[0])))
    assert np.isnan(out[3])


def test_priors_and_values_refuse_mismatched_shapes():
    with pytest.raises(ValueError, match=r"outputs \[B, 10\] or \[B, 11\], got \(2, 9\)"):
        priors_and_values(np.zeros((2, 9), np.float32), np.ones((2, 9), bool), 9)
    with pytest.raises(ValueError, match=r"legal moves of shape \(2, 9\), got \(2, 8\)"):
        priors_and_values(np.zeros((2, 10), np.float32), np.ones((2, 8), bool), 9)


@pytest.mark.parametrize("k", [2, 6])
def test_self_play_games_open_with_random_moves_that_are_not_stored(k):
    """``collect_opening_moves`` k: every stored game starts after 0 to k random moves of both
    players (each number occurs), the openings vary, the positions after them are stored move
    by move; a game that its opening ends (TicTacToe has a line of three after 5 or 6 random
    moves) is not counted."""
    from lzero.worker.alphazero_collector import AlphaZeroCollector

    policy = tiny_policy()
    policy.cfg.collect_opening_moves = k
    collector = AlphaZeroCollector(policy, "tictactoe", {}, num_envs=3, seed=0)
    finished, step = [], collector.pool.step

    def record(actions):
        obs, reward, done, info = step(actions)
        for i in np.flatnonzero(done):  # stones at the end, and the game's opening moves
            finished.append((int(np.count_nonzero(obs["board"][i])), int(collector.opening[i])))
        return obs, reward, done, info

    collector.pool.step = record
    data = collector.collect(30)
    collector.close()
    planes = data["planes"]
    stones = (planes[:, :2] > 0).sum(axis=(1, 2, 3))
    mover = np.rint(planes[:, 2, 0, 0] * 2).astype(int)[:, None, None]  # scaled planes
    boards = mover * (planes[:, 0] > 0) + (3 - mover) * (planes[:, 1] > 0)
    follows = [  # one more stone, every earlier stone in place: the game's next position
        stones[i] == stones[i - 1] + 1
        and ((boards[i] == boards[i - 1]) | (boards[i - 1] == 0)).all()
        for i in range(1, len(stones))
    ]
    starts = [0] + [i for i in range(1, len(stones)) if not follows[i - 1]]
    assert len(starts) == data["episodes"] == len(data["returns"]) >= 30
    assert set(stones[starts].tolist()) == set(range(k + 1))
    assert len({planes[a, :2].tobytes() for a in starts if stones[a] > 0}) > 3
    if k == 6:  # games ended by their opening: finished, yet neither counted nor stored
        early = sum(n <= opening for n, opening in finished)
        assert early >= 1 and len(finished) == data["episodes"] + early


def test_fast_search_steps_are_searched_briefly_without_noise_and_not_stored():
    """``fast_search_prob`` (playout cap randomisation): a step is fast (fewer simulations, no
    root noise) or full (the config's simulations, noise); the stored positions are exactly
    the full steps' positions of the finished games, each game's in order."""
    from lzero.worker.alphazero_collector import AlphaZeroCollector

    policy = tiny_policy(num_simulations=8)
    policy.cfg.fast_search_prob, policy.cfg.fast_search_simulations = 0.5, 3
    collector = AlphaZeroCollector(policy, "tictactoe", {}, num_envs=3, seed=0)
    search, step, calls = policy.search.search, collector.pool.step, []

    def spy(boards, to_play, evaluator, **kwargs):
        result = search(boards, to_play, evaluator, **kwargs)
        calls.append((kwargs["num_simulations"], kwargs["add_noise"], result.visits.sum(axis=1)))
        return result

    playing = [[] for _ in range(3)]  # each env's game so far: (board, full step)
    expected = []  # the boards of the finished games' full steps, in the order games finish

    def record(actions):
        fast = calls[-1][0] is not None
        for i in range(3):
            playing[i].append((collector.obs["board"][i].copy(), not fast))
        obs, reward, done, info = step(actions)
        for i in np.flatnonzero(done):
            expected.extend(board for board, full in playing[i] if full)
            playing[i] = []
        return obs, reward, done, info

    policy.search.search, collector.pool.step = spy, record
    data = collector.collect(12)
    collector.close()
    sims = [c[0] for c in calls]
    assert {None, 3} == set(sims)  # both kinds of step occur
    for n, noise, visits in calls:  # visits: the simulations, the root's own evaluation not
        assert noise == (n is None) and (visits == (8 if n is None else 3)).all()
    planes = data["planes"]
    mover = np.rint(planes[:, 2, 0, 0] * 2).astype(int)[:, None, None]  # scaled planes
    boards = mover * (planes[:, 0] > 0) + (3 - mover) * (planes[:, 1] > 0)
    assert 0 < len(expected) < data["env_steps"]
    np.testing.assert_array_equal(boards, np.stack(expected))
    assert len(data["policy"]) == len(data["value"]) == len(data["draw"]) == len(expected)


def test_a_collect_of_fast_steps_only_stores_nothing():
    from lzero.worker.alphazero_collector import AlphaZeroCollector

    policy = tiny_policy(num_simulations=8)
    policy.cfg.fast_search_prob, policy.cfg.fast_search_simulations = 0.5, 3
    collector = AlphaZeroCollector(policy, "tictactoe", {}, num_envs=2, seed=0)
    collector.fast_rng = SimpleNamespace(random=lambda: 0.0)  # every step fast
    data = collector.collect(2)
    collector.close()
    assert data["episodes"] >= 2 and data["env_steps"] >= 10
    assert data["planes"].shape == (0, 3, 3, 3) and data["policy"].shape == (0, 9)
    assert data["value"].shape == data["draw"].shape == (0,)


@pytest.mark.parametrize("simulations", [30, 0])
def test_an_agents_analysis_is_its_search(simulations):
    """``Agent.analyze``: the move it plays, the batched search's visit shares and root value
    (the network's priors and value without a search)."""
    from lzero.agent import Agent

    policy = tiny_policy(seed=2)
    agent = Agent(policy, simulations)
    boards, to_play = random_ttt_positions(np.random.default_rng(9), 10)
    for board, player in zip(boards, to_play):
        legal = board.reshape(-1) == 0
        view = agent.analyze({"board": board, "to_play": int(player)})
        assert view.action == agent.act({"board": board, "to_play": int(player)})
        assert view.num_simulations == simulations and view.policy[~legal].sum() == 0
        if simulations:
            want = policy.search.search(
                board[None], np.array([player]), policy.evaluate, num_simulations=simulations
            )
            np.testing.assert_allclose(view.policy, want.visits[0] / want.visits[0].sum())
            assert view.value == pytest.approx(float(want.value[0]))
        else:
            priors, values = policy.evaluate(board[None], np.array([player]), legal[None])[:2]
            np.testing.assert_allclose(view.policy, np.where(legal, priors[0], 0.0))
            assert view.value == pytest.approx(float(values[0]))
