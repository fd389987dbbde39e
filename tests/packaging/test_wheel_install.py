"""The install test's rules (ci/wheelbuild/install_test.py judge), on reports like the probe's."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "ci"))

from wheelbuild import install_test  # noqa: E402

VENV = Path("/tmp/venv-3.12")
SITE = f"{VENV}/lib/python3.12/site-packages/dyng/__init__.py"
WARNING = "BackendWarning: no CUDA plugin is usable: cu13: no NVIDIA driver (libcuda.so.1)"


def report(**changes):
    base = {"dyng_file": SITE, "plugins": ["cu12=dyng_cu12", "cu13=dyng_cu13"],
            "native": "dyng._core", "warnings": [WARNING], "build_config": {"cuda": False}}
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
    assert any("expected 1 BackendWarning" in p
               for p in judge(report(warnings=[WARNING, WARNING])))


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
    assert any("dyng chose dyng._core" in p
               for p in judge(report(sssp=sssp), expect_gpu=True))
    wrong = {**sssp, "distances": [0, 4, 1, 8]}
    assert any("sssp on CUDA gave" in p
               for p in judge(report(native="dyng_cu13._core", sssp=wrong), expect_gpu=True))
    assert any("did not run on CUDA" in p
               for p in judge(report(native="dyng_cu13._core"), expect_gpu=True))


def test_a_cpu_machine_must_not_choose_a_plugin():
    assert any("no GPU here" in p for p in judge(report(native="dyng_cu12._core")))
