"""ci/build.py's sdist target and --sdist option (issue 46): CI builds the core sdist once and
every wheel from that artifact, so a wheel job must refuse an sdist of another version, and the
options that make no sense together are refused before any toolchain is set up."""

from __future__ import annotations

import importlib.util
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def load_driver():
    spec = importlib.util.spec_from_file_location("dyng_build_driver", ROOT / "ci" / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fake_sdist(folder: Path, version: str) -> Path:
    """An sdist with only VERSION in it: the checker's own complaints come with the version's."""
    top = folder / f"dyng-{version}"
    top.mkdir()
    (top / "VERSION").write_text(version + "\n")
    path = folder / f"dyng-{version}.tar.gz"
    with tarfile.open(path, "w:gz") as archive:
        archive.add(top, arcname=top.name)
    return path


def test_a_wheel_is_not_built_from_an_sdist_of_another_version(tmp_path):
    driver = load_driver()
    args = driver.parse_args(["cpu", "--sdist", str(fake_sdist(tmp_path, "0.0.1"))])
    with pytest.raises(SystemExit, match=r"it is not dyng 9\.9\.9"):
        driver.core_sdist(args, toolchain=None, version="9.9.9", env={})


def test_an_sdist_of_this_version_passes_the_version_check(tmp_path):
    driver = load_driver()
    args = driver.parse_args(["cpu", "--sdist", str(fake_sdist(tmp_path, "9.9.9"))])
    with pytest.raises(SystemExit) as refused:  # the fake lacks what the plugins need
        driver.core_sdist(args, toolchain=None, version="9.9.9", env={})
    assert "python/plugin" in str(refused.value) and "not dyng" not in str(refused.value)


@pytest.mark.parametrize(
    "argv", [["sdist", "--sdist", "x.tar.gz"], ["sdist", "--install-test-only"]]
)
def test_the_sdist_target_refuses_the_wheel_options(argv, capsys):
    with pytest.raises(SystemExit):
        load_driver().parse_args(argv)
    assert "the sdist target builds the sdist" in capsys.readouterr().err
