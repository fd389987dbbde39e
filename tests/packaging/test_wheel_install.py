"""The install test's rules (ci/wheelbuild/install_test.py judge), on reports like the probe's,
and the probe's NVTX question (install_probe.nvtx_of) on stand-in plugin packages."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "ci"))

from wheelbuild import device_check, install_probe, install_test  # noqa: E402

VENV = Path("/tmp/venv-3.12")
SITE = f"{VENV}/lib/python3.12/site-packages/dyng/__init__.py"
WARNING = "BackendWarning: no CUDA plugin is usable: cu13: no NVIDIA driver (libcuda.so.1)"


def report(**changes):
    base = {
        "dyng_file": SITE,
        "plugins": ["cu12=dyng_cu12", "cu13=dyng_cu13"],
        "native": "dyng._core",
        "warnings": [WARNING],
        "build_config": {"cuda": False},
        "nvtx": {"cu12": True, "cu13": True},
    }
    return {**base, **changes}


def judge(rep, plugins=("cu12", "cu13"), expect_gpu=False):
    return install_test.judge(rep, plugins=list(plugins), expect_gpu=expect_gpu, venv=VENV)


def test_cpu_fallback_with_one_warning_passes():
    assert judge(report()) == []


def test_no_plugins_means_no_warning():
    assert judge(report(plugins=[], warnings=[]), plugins=()) == []
    assert judge(report(plugins=[]), plugins=()) != []


def test_fallback_must_warn_exactly_once():
    assert any("expected 1 BackendWarning" in p for p in judge(report(warnings=[])))
    assert any("expected 1 BackendWarning" in p for p in judge(report(warnings=[WARNING, WARNING])))


def test_dyng_from_the_checkout_is_caught():
    found = judge(report(dyng_file="/work/main/python/dyng/__init__.py"))
    assert any("not from" in p for p in found)


def test_undiscovered_plugin_is_caught():
    found = judge(report(plugins=["cu13=dyng_cu13"]))
    assert any("plugin cu12 is installed but not discovered" in p for p in found)


def test_gpu_machine_must_choose_a_plugin_and_run_cuda():
    sssp = {"backend": "cuda", "distances": [0, 3, 1, 8], "reference": [0, 3, 1, 8]}
    good = report(native="dyng_cu13._core", warnings=[], sssp=sssp)
    assert judge(good, expect_gpu=True) == []
    assert any("dyng chose dyng._core" in p for p in judge(report(sssp=sssp), expect_gpu=True))
    wrong = {**sssp, "distances": [0, 4, 1, 8]}
    assert any(
        "sssp on CUDA gave" in p
        for p in judge(report(native="dyng_cu13._core", sssp=wrong), expect_gpu=True)
    )
    assert any(
        "did not run on CUDA" in p for p in judge(report(native="dyng_cu13._core"), expect_gpu=True)
    )


def test_a_cpu_machine_must_not_choose_a_plugin():
    assert any("no GPU here" in p for p in judge(report(native="dyng_cu12._core")))


def test_a_plugin_without_nvtx_fails_the_install_test():
    found = judge(report(nvtx={"cu12": True, "cu13": False}))
    assert len(found) == 1
    assert "dyng_cu13._core emits no NVTX ranges" in found[0] and "cu13.txt" in found[0]
    # On the GPU machine too, where the same rule runs inside the expect_gpu judgement.
    sssp = {"backend": "cuda", "distances": [0, 3, 1, 8], "reference": [0, 3, 1, 8]}
    gpu = report(native="dyng_cu13._core", warnings=[], sssp=sssp, nvtx={"cu13": False})
    assert any("emits no NVTX" in p for p in judge(gpu, plugins=["cu13"], expect_gpu=True))


def test_an_unanswered_nvtx_question_is_a_problem_too():
    error = "ImportError: libfoo.so: cannot open shared object file"
    found = judge(report(nvtx={"cu12": True, "cu13": error}))
    assert any("could not ask dyng_cu13._core" in p and "libfoo" in p for p in found)
    assert any("no nvtx entry" in p for p in judge({**report(), "nvtx": None}))
    # A CPU-only install has no plugin to ask.
    assert judge(report(plugins=[], warnings=[], nvtx={}), plugins=()) == []


def test_device_check_import_only_still_checks_nvtx():
    config = {
        "plugin": "cu12",
        "cuda": True,
        "cuda_toolkit": "12.9.79",
        "cuda_runtime": "static",
        "cuda_architectures": "75-real;120",
    }
    probe = {"module": {"build_config": config, "device_count": 1}, "nvtx": {"cu12": True}}
    assert device_check.judge_device(probe, "cu12", VENV, import_only=True) == []
    probe["nvtx"] = {"cu12": False}
    found = device_check.judge_device(probe, "cu12", VENV, import_only=True)
    assert any("dyng_cu12._core emits no NVTX" in p for p in found)


def stand_in_plugin(root: Path, name: str, core: str | None) -> None:
    package = root / name
    package.mkdir()
    (package / "__init__.py").write_text("")
    if core is not None:
        (package / "_core.py").write_text(core)


def test_probe_asks_each_plugin_module(tmp_path, monkeypatch):
    stand_in_plugin(tmp_path, "nvtx_yes", "def nvtx_available():\n    return True\n")
    stand_in_plugin(tmp_path, "nvtx_no", "def nvtx_available():\n    return False\n")
    stand_in_plugin(tmp_path, "nvtx_old", "build_config = {}\n")  # built before the function
    stand_in_plugin(tmp_path, "nvtx_broken", None)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert install_probe.nvtx_of("nvtx_yes") is True
    assert install_probe.nvtx_of("nvtx_no") is False
    assert "AttributeError" in install_probe.nvtx_of("nvtx_old")
    assert "ModuleNotFoundError" in install_probe.nvtx_of("nvtx_broken")
