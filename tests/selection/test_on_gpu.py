"""Selection with the real driver and a real plugin wheel (marker ``gpu``).

These describe the lent machine: one H200 (compute capability 9.0) on a CUDA 13 driver, with
dyng and dyng-cu13 installed from wheels. Elsewhere they skip, saying why; on another GPU set
DYNG_TEST_GPU_CAPABILITIES (e.g. "8.0,8.0") to what that machine has. Each case runs in a fresh
interpreter of the ordinary environment (not the sealed one of the other tests).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.gpu

EXPECTED_CAPABILITIES = [
    [int(part) for part in pair.split(".")]
    for pair in os.environ.get("DYNG_TEST_GPU_CAPABILITIES", "9.0").split(",")
]


def _python(code, env=None, timeout=300):
    environment = dict(os.environ)
    environment.update(env or {})
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=environment,
        timeout=timeout,
    )


def _report(code, env=None):
    done = _python(
        f"import json\n{code}\nprint('REPORT ' + json.dumps(REPORT, default=repr))\n", env
    )
    assert done.returncode == 0, f"child failed:\n{done.stdout}\n{done.stderr}"
    line = [line for line in done.stdout.splitlines() if line.startswith("REPORT ")][-1]
    return json.loads(line[len("REPORT ") :]), done.stderr


@pytest.fixture(scope="module")
def real_plugin():
    """The chosen plugin's config row; skips unless a real CUDA plugin is chosen here."""
    done = _python("import json, dyng; print(json.dumps(dyng.config()))")
    if done.returncode != 0:
        pytest.skip(f"dyng.config() failed in a child: {done.stderr.strip()[-300:]}")
    config = json.loads(done.stdout.strip().splitlines()[-1])
    chosen = [plugin for plugin in config["plugins"] if plugin["state"] == "chosen"]
    if not chosen:
        found = "; ".join(f"{p['name']}: {p['state']}: {p['reason']}" for p in config["plugins"])
        pytest.skip(
            f"no usable CUDA plugin here ({config['selection']}{'; ' + found if found else ''})"
        )
    return chosen[0]


def test_the_real_probe_sees_the_machine(real_plugin):
    report, _ = _report(f"""
import importlib, json
import dyng
REPORT = {{"config": dyng.config()}}
status = importlib.import_module({real_plugin["module"]!r}).status()
REPORT["status"] = status._asdict()
""")
    status = report["status"]
    # NVML answers on a machine without MIG; with MIG the driver is asked in a child process.
    assert status["usable"] and status["probe"] in ("nvml", "child")
    assert status["driver_version"] >= 13000
    assert status["device_count"] == len(EXPECTED_CAPABILITIES)
    assert status["capabilities"] == EXPECTED_CAPABILITIES
    assert report["config"]["native_module"] == f"{real_plugin['module']}._core"
    assert report["config"]["backends"]["cuda"] is True
    assert report["config"]["build"]["cuda_runtime"]  # a real CUDA build says which runtime


def test_no_visible_device_makes_the_plugin_unusable(real_plugin):
    report, stderr = _report(
        """
import warnings
warnings.simplefilter("always")
import dyng
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    REPORT = {"config": dyng.config()}
REPORT["warnings"] = [str(w.message) for w in caught if w.category is dyng.BackendWarning]
""",
        env={"CUDA_VISIBLE_DEVICES": ""},
    )
    config = report["config"]
    assert config["native_module"] == "dyng._core" and config["backends"]["cuda"] is False
    plugin = [p for p in config["plugins"] if p["name"] == real_plugin["name"]][0]
    assert plugin["state"] == "unusable"
    assert "no visible CUDA device (CUDA_VISIBLE_DEVICES='')" in plugin["reason"]
    (warning,) = report["warnings"]
    assert "no CUDA plugin is usable" in warning and real_plugin["name"] in warning


GPU_WORK = """
import os, sys
import dyng
graph = dyng.Graph.from_edges([0, 0, 2], [1, 2, 1], [4, 1, 2], resources=dyng.Resources.cuda())
result = dyng.sssp.compute(graph, 0)
assert result.distances.tolist() == [0, 3, 1], result.distances.tolist()
"""

FORK_AFTER_GPU_WORK = (
    GPU_WORK
    + """
pid = os.fork()
if pid == 0:
    host = dyng.Graph.from_edges([0, 1], [1, 2], [2, 3], resources=dyng.Resources.sequential())
    ok = dyng.sssp.compute(host, 0).distances.tolist() == [0, 2, 5]
    if EXIT == "os._exit":
        os._exit(0 if ok else 3)
    sys.exit(0 if ok else 3)  # a normal exit: the inherited device objects are finalised here
_, status = os.waitpid(pid, 0)
print("CHILD", os.waitstatus_to_exitcode(status))
"""
)


@pytest.mark.parametrize("exit_with", ["os._exit", "sys.exit"])
def test_a_fork_after_gpu_work_runs_cpu_work_in_the_child(real_plugin, exit_with):
    done = _python(f"EXIT = {exit_with!r}\n" + FORK_AFTER_GPU_WORK)
    assert done.returncode == 0, done.stderr
    assert "CHILD 0" in done.stdout.splitlines(), done.stdout + done.stderr


def test_a_process_that_did_gpu_work_exits_cleanly(real_plugin):
    # graph and result stay alive until interpreter exit, where no CUDA call may fail or hang.
    done = _python(GPU_WORK + "print('DONE')\n")
    assert done.returncode == 0 and done.stdout.splitlines()[-1] == "DONE", done.stderr
    assert "terminate" not in done.stderr and "error" not in done.stderr.lower()
