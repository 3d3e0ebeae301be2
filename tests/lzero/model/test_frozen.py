"""Frozen inference copies (lzero.model.frozen): the bfloat16 copy against the float32 model,
and how the inference dtype is chosen from the CPU's flags."""

from __future__ import annotations

import io

import pytest

torch = pytest.importorskip("torch")
from lzero.model import frozen  # noqa: E402
from lzero.model.alphazero_model import AlphaZeroModel  # noqa: E402

needs_bf16 = pytest.mark.skipif(not frozen.native_bfloat16(), reason="no native bfloat16")


@needs_bf16
@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # torch.jit's
def test_a_bfloat16_copy_matches_the_float32_model_to_its_rounding_and_leaves_it_alone():
    torch.manual_seed(0)
    model = AlphaZeroModel((3, 9, 9), 81, num_res_blocks=2, num_channels=32, line_features=5)
    model.eval()
    before = {k: v.clone() for k, v in model.state_dict().items()}
    x = torch.rand(7, 9, 9, 9)
    net = frozen.freeze(model, x, torch.bfloat16)
    with torch.no_grad():
        logits, value = model(x)
        got_logits, got_value = net(x)
    assert got_logits.dtype == torch.float32 and got_value.dtype == torch.float32
    assert got_logits.shape == logits.shape and got_value.shape == value.shape
    # 8 significant bits per layer: outputs of order 1 agree to a few hundredths, not exactly
    torch.testing.assert_close(got_logits, logits, atol=5e-2, rtol=5e-2)
    torch.testing.assert_close(got_value, value, atol=2e-2, rtol=0)
    assert not torch.equal(got_logits, logits)  # it did run in bfloat16
    for k, v in model.state_dict().items():
        assert v.dtype == before[k].dtype and torch.equal(v, before[k])
    # another batch size through the same traced copy
    with torch.no_grad():
        torch.testing.assert_close(net(x[:2])[0], logits[:2], atol=5e-2, rtol=5e-2)


class _Step(torch.nn.Module):
    """A recurrent step's shape of module: a float state and integer actions in, a float and
    an integer tensor out."""

    def __init__(self):
        super().__init__()
        self.embed = torch.nn.Embedding(4, 3)
        self.linear = torch.nn.Linear(3, 3)

    def forward(self, state, action):
        out = self.linear(state + self.embed(action))
        return out, out.argmax(1)


@needs_bf16
@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # torch.jit's
def test_a_bfloat16_copy_keeps_integer_inputs_and_outputs():
    torch.manual_seed(1)
    step = _Step().eval()
    state, action = torch.rand(5, 3), torch.tensor([0, 1, 2, 3, 1])
    net = frozen.freeze(step, (state, action), torch.bfloat16)
    out, best = net(state, action)
    with torch.no_grad():
        want, _ = step(state, action)
    assert out.dtype == torch.float32 and best.dtype == torch.int64
    torch.testing.assert_close(out, want, atol=3e-2, rtol=3e-2)
    assert torch.equal(best, out.argmax(1))


def test_the_dtype_follows_the_setting_and_the_cpu(monkeypatch):
    for native in (False, True):
        monkeypatch.setattr(frozen, "native_bfloat16", lambda native=native: native)
        assert frozen.inference_dtype("float32") == torch.float32
        assert frozen.inference_dtype("auto") == (torch.bfloat16 if native else torch.float32)
    assert frozen.inference_dtype("bfloat16") == torch.bfloat16
    monkeypatch.setattr(frozen, "native_bfloat16", lambda: False)
    with pytest.raises(ValueError, match="use 'float32', or 'auto'"):
        frozen.inference_dtype("bfloat16")
    with pytest.raises(ValueError, match=r"expected inference_dtype in \['float32', 'bfloat16'"):
        frozen.inference_dtype("half")


@pytest.mark.parametrize(
    "flags, native",
    [
        ("fpu sse avx2 avx512f avx512bw", False),
        ("fpu avx2 avx512f avx512_bf16 avx512_vnni", True),
        ("fpu avx2 amx_bf16 amx_tile", True),
        ("fpu avx512_bf16x", False),  # a whole flag, not a prefix
    ],
)
def test_native_bfloat16_reads_the_cpu_flags(monkeypatch, flags, native):
    cpuinfo = f"processor\t: 0\nmodel name\t: test\nflags\t\t: {flags}\n\n"
    monkeypatch.setattr(frozen.sys, "platform", "linux")
    monkeypatch.setattr(frozen, "open", lambda path: io.StringIO(cpuinfo), raising=False)
    frozen.native_bfloat16.cache_clear()
    try:
        assert frozen.native_bfloat16() is native
    finally:
        monkeypatch.undo()
        frozen.native_bfloat16.cache_clear()


def test_native_bfloat16_is_false_where_it_cannot_be_told(monkeypatch):
    def unreadable(path):
        raise PermissionError(path)

    monkeypatch.setattr(frozen.sys, "platform", "linux")
    monkeypatch.setattr(frozen, "open", unreadable, raising=False)
    frozen.native_bfloat16.cache_clear()
    try:
        assert frozen.native_bfloat16() is False
        monkeypatch.setattr(frozen.sys, "platform", "darwin")
        frozen.native_bfloat16.cache_clear()
        assert frozen.native_bfloat16() is False
    finally:
        monkeypatch.undo()
        frozen.native_bfloat16.cache_clear()


def _cache():
    torch.manual_seed(0)
    model = torch.nn.Linear(3, 2)
    return model, frozen.FrozenCache(model, lambda: object())


def test_a_pinned_block_keeps_its_build_and_refuses_a_weight_change_inside_it():
    model, cache = _cache()
    first = cache.get()
    with pytest.raises(RuntimeError, match="weights changed inside a pinned"):
        with cache.pinned() as pinned:
            assert pinned is first and cache.get() is first
            with torch.no_grad():
                model.weight.add_(1.0)
            assert cache.get() is first  # not checked inside the block
            with cache.pinned():  # nested: only the outermost block's end checks
                pass
    assert cache.get() is not first  # the change is seen after it


def test_a_pinned_block_checks_once_at_its_end_and_lets_an_error_through():
    model, cache = _cache()
    with cache.pinned() as first:
        with cache.pinned():
            pass  # the inner block's end does not check
    assert cache.get() is first  # unchanged weights: no rebuild
    with pytest.raises(KeyError):  # the block's own error, not the weight check's
        with cache.pinned():
            with torch.no_grad():
                model.bias.add_(1.0)
            raise KeyError("inside")
    assert cache.get() is not first
