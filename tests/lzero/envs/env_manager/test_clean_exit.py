"""A process that uses a SubprocessEnvManager and exits leaves nothing on stderr.

Python's resource tracker prints ``KeyError: '/psm_...'`` tracebacks, or "leaked
shared_memory" warnings, when shared-memory segments are registered or released the wrong
number of times; they appear only at exit, in a fresh process, hence this test's form.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent(
    """
    import os
    import signal
    import sys
    from lzero.envs.env_manager import SubprocessEnvManager
    from lzero.envs.get_wrapped_env import get_wrappered_env

    def main(context, close):
        wrapper = dict(env_id="CartPole-v1", continuous=False, manually_discretization=False,
                       each_dim_disc_size=4, is_train=True)
        factory = get_wrappered_env(wrapper, "CartPole-v1")
        collector = SubprocessEnvManager([factory] * 2, dict(context=context))
        evaluator = SubprocessEnvManager([factory] * 2, dict(context=context))
        for manager in (collector, evaluator):
            manager.seed(0)
            manager.launch()
            for _ in range(20):
                manager.step(dict.fromkeys(manager.ready_obs, 0))
        os.kill(collector.worker_pids[0], signal.SIGKILL)  # a dead worker: a restart
        bad = collector.step({{0: 0, 1: 0}})[0]
        assert bad.info["abnormal"], bad
        evaluator.reset()
        if close:
            collector.close()
            evaluator.close()
        print("done")

    if __name__ == "__main__":
        main(sys.argv[1], sys.argv[2] == "close")
    """
)


@pytest.mark.parametrize("context,close", [("fork", "close"), ("fork", "exit"), ("spawn", "close")])
def test_stderr_is_clean_at_exit(tmp_path, context, close):
    script = tmp_path / "use_manager.py"
    script.write_text(SCRIPT.replace("{{", "{").replace("}}", "}"))
    proc = subprocess.run(
        [sys.executable, "-W", "ignore", str(script), context, close],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0 and proc.stdout.strip() == "done", proc.stderr
    assert proc.stderr == ""
