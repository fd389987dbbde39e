"""Selection happens on first use, not at import; exactly once per process; thread and fork safe."""

from __future__ import annotations

import pytest
from _selection_helpers import backend_warnings, plugins_by_name

IMPORT_CODE = r"""
import dyng
REPORT["after_import"] = {
    "modules": plugin_modules(),
    "cpu_module": "dyng._core" in sys.modules,
    "metadata": "importlib.metadata" in sys.modules,
    "mapped": mapped("libcuda", "libnvidia-ml", "libcudart", "/dyng/_core.", "/dyng_cu13/"),
    "chosen": dyng._backend.native_module_name(),
}
native = dyng._backend.native()
# The control: first use does load the (fake) driver libraries and the plugin's module.
REPORT["after_use"] = {
    "modules": [name for name in plugin_modules() if name.split(".")[1:] == ["_core"]],
    "mapped": mapped("libcuda.so.1", "libnvidia-ml.so.1"),
    "chosen": dyng._backend.native_module_name(),
}
"""


def test_import_selects_nothing_and_loads_no_cuda_library(site, run):
    site.plugin(13)
    report = run(IMPORT_CODE)
    assert report["after_import"] == {
        "modules": [],
        "cpu_module": False,
        "metadata": False,
        "mapped": [],
        "chosen": None,
    }
    assert report["after_use"] == {
        "modules": ["dyng_cu13._core"],
        "mapped": ["libcuda.so.1", "libnvidia-ml.so.1"],
        "chosen": "dyng_cu13._core",
    }


@pytest.mark.parametrize(
    "first_use",
    [
        "dyng.__version__",
        "dyng.Resources.sequential()",
        # On a host backend: the stand-in plugin reports a GPU but cannot run CUDA work.
        "dyng.Graph.from_edges([0], [1], [1], resources='sequential')",
        "dyng.config()",
    ],
)
def test_each_first_use_selects(site, run, first_use):
    site.plugin(13)
    report = run(f"""
import dyng
before = dyng._backend.native_module_name()
value = {first_use}
REPORT["chosen"] = [before, dyng._backend.native_module_name()]
""")
    assert report["chosen"] == [None, "dyng_cu13._core"]


THREADS_CODE = r"""
import dyng
from dyng import _backend
decisions, activations = [], []
real_decide = _backend._decide
def counting_decide():
    decisions.append(threading.get_ident())
    return real_decide()
_backend._decide = counting_decide
_backend.on_activate(lambda module: activations.append(module.__name__))
start = threading.Barrier(8)
found = []
def work():
    start.wait()
    found.append(_backend.native().__name__)
threads = [threading.Thread(target=work) for _ in range(8)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
REPORT.update(found=found, decisions=len(decisions), activations=activations)
_backend.native(); dyng.config()  # later uses select nothing new
REPORT["decisions_after"] = len(decisions)
"""


@pytest.mark.parametrize(
    "devices, module",
    [("9.0/GPU-1111aaaa/1/-1", "dyng_cu13._core"), ("", "dyng._core")],
    ids=["plugin", "fallback"],
)
def test_concurrent_first_uses_select_once(site, run, devices, module):
    site.plugin(13)
    report = run(THREADS_CODE, env={"FAKE_NVML_DEVICES": devices})
    assert report["found"] == [module] * 8
    assert report["decisions"] == report["decisions_after"] == 1
    assert report["activations"] == [module]
    assert len(backend_warnings(report)) == (1 if module == "dyng._core" else 0)


FORK_CODE = r"""
import signal
import dyng
from dyng import _backend
if SELECT_FIRST:
    REPORT["parent"] = _backend.native().__name__
# Another thread holds the selection lock while this one forks, as a busy program may.
held, release = threading.Event(), threading.Event()
def hold():
    with _backend._lock:
        held.set()
        release.wait()
holder = threading.Thread(target=hold)
holder.start()
held.wait()
pid = os.fork()
if pid == 0:
    signal.alarm(20)  # a deadlocked child dies instead of hanging the test
    graph = dyng.Graph.from_edges([0, 1], [1, 2], [2, 3], resources=dyng.Resources.sequential())
    ok = dyng.sssp.compute(graph, 0).distances.tolist() == [0, 2, 5]
    os.write(1, ("CHILD " + _backend.native().__name__ + "\n").encode())
    os._exit(0 if ok else 3)
release.set()
holder.join()
_, status = os.waitpid(pid, 0)
REPORT["child_status"] = status
"""


@pytest.mark.parametrize("select_first", [True, False], ids=["selected-before", "selected-after"])
def test_a_fork_while_another_thread_holds_the_lock_works(site, run, select_first):
    site.plugin(13)
    report = run(f"SELECT_FIRST = {select_first}\n" + FORK_CODE)
    assert report["child_status"] == 0
    assert "CHILD dyng_cu13._core" in report["stdout"].splitlines()
    if select_first:
        assert report["parent"] == "dyng_cu13._core"


def test_a_plugin_that_uses_dyng_while_loading_fails_cleanly(site, run):
    site.plugin(13, core="reentrant")
    report = run()
    plugin = plugins_by_name(report)["cu13"]
    assert plugin["state"] == "failed" and "selection was re-entered" in plugin["reason"]
    assert report["config"]["native_module"] == "dyng._core"


def test_a_warning_filter_that_raises_does_not_undo_the_choice(site, run):
    site.plugin(13)
    report = run(
        r"""
warnings.simplefilter("error")
import dyng
try:
    dyng._backend.native()
except dyng.BackendWarning as exc:
    REPORT["raised"] = str(exc)[:40]
REPORT["chosen"] = dyng._backend.native().__name__
""",
        env={"FAKE_NVML_DEVICES": ""},
    )
    assert report["raised"].startswith("no CUDA plugin is usable")
    assert report["chosen"] == "dyng._core"
