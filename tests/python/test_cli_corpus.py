"""The command line against 0.2.0's: every case of tests/data/cli/make_corpus.py replayed with
``dyng.cli.main``; exit statuses, stdout, stderr and every file written must match the stored
0.2.0 corpus (measured times masked; see make_corpus.mask)."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import os
import shutil

import pytest

from dyng.cli import main

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "data", "cli")


def _corpus():
    spec = importlib.util.spec_from_file_location(
        "make_corpus", os.path.join(DATA, "make_corpus.py")
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


corpus = _corpus()


def _in_process(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue(), err.getvalue()


# Cases whose recorded answer is that of a machine without CUDA (0.2.0's corpus was made on
# one): where this dyng has a usable CUDA backend the command rightly succeeds instead.
RECORDED_WITHOUT_CUDA = {"sssp_cuda_missing"}


def _cuda_usable():
    import dyng

    return bool(dyng.config()["backends"]["cuda"])


def _params():
    cuda = _cuda_usable()
    for name in sorted(corpus.CASES):
        why = corpus.KNOWN_DIFFERENCES.get(name)
        marks = [pytest.mark.xfail(reason=why, strict=True)] if why else []
        if cuda and name in RECORDED_WITHOUT_CUDA:
            marks.append(
                pytest.mark.skip(reason="recorded where CUDA was missing; it is usable here")
            )
        yield pytest.param(name, marks=marks)


@pytest.mark.parametrize("name", list(_params()))
def test_case_matches_0_2(name, tmp_path, monkeypatch):
    rule, steps = corpus.CASES[name]
    work = tmp_path / "work"
    shutil.copytree(corpus.INPUTS, work)
    monkeypatch.chdir(work)
    got = corpus.run_case(steps, str(work), _in_process)
    folder = os.path.join(corpus.EXPECTED, name)
    with open(os.path.join(folder, "steps.json")) as file:
        want = json.load(file)
    for number, (found, expected) in enumerate(zip(got, want)):
        where = f"{name} step {number}: dyng {' '.join(steps[number])}"
        assert found["rc"] == expected["rc"], f"{where}\n{found['stderr']}"
        assert corpus.mask(found["stdout"]) == corpus.mask(expected["stdout"]), where
        assert corpus.mask_stderr(found["stderr"], rule) == corpus.mask_stderr(
            expected["stderr"], rule
        ), where
    made = corpus.files_under(str(work), corpus.input_names())
    stored = corpus.files_under(os.path.join(folder, "files"), set())
    assert sorted(made) == sorted(stored)
    for relative, data in stored.items():
        assert corpus.comparable(relative, made[relative]) == corpus.comparable(relative, data), (
            f"{name}: {relative} differs"
        )
