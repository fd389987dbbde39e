"""dyng.distributed.init(): the launchers' variables, the single-process world, the errors.

No launcher runs here: the environment is passed in, and the transports' loaders are replaced
by fakes, so the tests see what init() asks for and when (mpi4py and NCCL only when a world of
several processes, or an MPI launcher, needs them).
"""

from __future__ import annotations

import sys
import types

import pytest

import dyng
import dyng.distributed as dd
from dyng.distributed import _transports

TORCHRUN = {
    "RANK": "3",
    "WORLD_SIZE": "4",
    "LOCAL_RANK": "1",
    "MASTER_ADDR": "node0",
    "MASTER_PORT": "29500",
}
OPEN_MPI = {
    "OMPI_COMM_WORLD_RANK": "1",
    "OMPI_COMM_WORLD_SIZE": "2",
    "OMPI_COMM_WORLD_LOCAL_RANK": "1",
}
HYDRA = {"PMI_RANK": "2", "PMI_SIZE": "3", "MPI_LOCALRANKID": "0"}


class Loaded:
    """Fake loaders that record what init() opened."""

    def __init__(self, monkeypatch, mpi_world=None, nccl=True):
        self.opened = []

        def load_mpi(why):
            self.opened.append("mpi")
            if mpi_world is None:
                raise dyng.NotSupportedError(f"fake: {why} needs mpi4py; {_transports.MPI_HINT}")
            rank, size = mpi_world
            world = types.SimpleNamespace(Get_rank=lambda: rank, Get_size=lambda: size)
            return types.SimpleNamespace(COMM_WORLD=world)

        def load_nccl(why):
            self.opened.append("nccl")
            if not nccl:
                raise dyng.NotSupportedError(f"fake: {why} needs NCCL; {_transports.NCCL_HINT}")
            return object()

        monkeypatch.setattr(_transports, "load_mpi", load_mpi)
        monkeypatch.setattr(_transports, "load_nccl", load_nccl)


def test_without_a_launcher_the_world_is_one_process_and_nothing_is_loaded(monkeypatch):
    loaded = Loaded(monkeypatch)
    for space in ("host", "device"):
        ctx = dd.init(space, env={"PATH": "/bin"})
        assert (ctx.rank, ctx.size, ctx.local_rank, ctx.transport) == (0, 1, 0, "none")
        assert ctx.is_single and ctx.launcher == "none" and ctx.rendezvous is None
    assert loaded.opened == []


def test_torchrun_device_world_uses_nccl_and_its_rendezvous(monkeypatch):
    loaded = Loaded(monkeypatch)
    ctx = dd.init("device", env=TORCHRUN)
    assert (ctx.rank, ctx.size, ctx.local_rank) == (3, 4, 1)
    assert (ctx.transport, ctx.launcher, ctx.rendezvous) == ("nccl", "torchrun", "node0:29500")
    assert loaded.opened == ["nccl"]


def test_torchrun_without_nccl_says_which_extra_to_install(monkeypatch):
    Loaded(monkeypatch, nccl=False)
    with pytest.raises(dyng.NotSupportedError, match=r"dyng\[cu13-dist\]"):
        dd.init("device", env=TORCHRUN)


def test_torchrun_for_host_graphs_on_several_ranks_asks_for_mpiexec(monkeypatch):
    Loaded(monkeypatch)
    with pytest.raises(dyng.InvalidArgumentError, match="mpiexec -n 4"):
        dd.init("host", env=TORCHRUN)


def test_one_rank_of_torchrun_needs_no_transport(monkeypatch):
    loaded = Loaded(monkeypatch)
    ctx = dd.init("host", env={"RANK": "0", "WORLD_SIZE": "1"})
    assert (ctx.size, ctx.transport, ctx.launcher) == (1, "mpi", "torchrun")
    assert loaded.opened == []


@pytest.mark.parametrize(("env", "rank", "size", "local"), [(OPEN_MPI, 1, 2, 1), (HYDRA, 2, 3, 0)])
def test_mpi_launchers_are_read_and_checked_against_mpi4py(monkeypatch, env, rank, size, local):
    loaded = Loaded(monkeypatch, mpi_world=(rank, size))
    ctx = dd.init("host", env=env)
    assert (ctx.rank, ctx.size, ctx.local_rank) == (rank, size, local)
    assert (ctx.transport, ctx.launcher, ctx.rendezvous) == ("mpi", "mpi", None)
    assert loaded.opened == ["mpi"]


def test_mpi_launch_for_device_graphs_opens_both(monkeypatch):
    loaded = Loaded(monkeypatch, mpi_world=(1, 2))
    assert dd.init("device", env=OPEN_MPI).transport == "nccl"
    assert loaded.opened == ["mpi", "nccl"]


def test_mpi_launch_without_mpi4py_says_what_to_install(monkeypatch):
    Loaded(monkeypatch)
    with pytest.raises(dyng.NotSupportedError, match=r"dyng\[dist\]"):
        dd.init("host", env=OPEN_MPI)


def test_an_mpi4py_of_another_mpi_is_refused(monkeypatch):
    Loaded(monkeypatch, mpi_world=(0, 1))
    with pytest.raises(dyng.InvalidArgumentError, match="rank 0 of 1 but the launcher says"):
        dd.init("host", env=OPEN_MPI)


def test_launchers_that_agree_are_accepted(monkeypatch):
    Loaded(monkeypatch, mpi_world=(1, 2))
    env = {**OPEN_MPI, "RANK": "1", "WORLD_SIZE": "2", "MASTER_ADDR": "a", "MASTER_PORT": "1"}
    for space in ("host", "device"):
        ctx = dd.init(space, env=env)
        assert (ctx.launcher, ctx.rank, ctx.size, ctx.rendezvous) == ("mpi", 1, 2, "a:1")


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"RANK": "0"}, "RANK is set but WORLD_SIZE is not"),
        ({"PMI_SIZE": "2"}, "PMI_SIZE is set but PMI_RANK is not"),
        ({"RANK": "x", "WORLD_SIZE": "2"}, "RANK='x' is not an integer"),
        ({"RANK": "2", "WORLD_SIZE": "2"}, "is not a rank of the world"),
        ({"RANK": "0", "WORLD_SIZE": "0"}, "is not a rank of the world"),
        ({**TORCHRUN, "LOCAL_RANK": "4"}, "LOCAL_RANK=4 does not fit"),
        ({"RANK": "0", "WORLD_SIZE": "2"}, "MASTER_ADDR and MASTER_PORT are not set"),
        ({**TORCHRUN, "MASTER_PORT": "70000"}, "MASTER_PORT=70000 is not a TCP port"),
        ({**TORCHRUN, **OPEN_MPI}, "the launch variables disagree"),
    ],
)
def test_bad_launch_variables_say_what_is_wrong_and_what_to_do(monkeypatch, env, message):
    loaded = Loaded(monkeypatch, mpi_world=(0, 2))
    with pytest.raises(dyng.InvalidArgumentError, match=message) as caught:
        dd.init("device", env=env)
    assert str(caught.value).startswith("dyng.distributed.init(): ") and "; " in str(caught.value)
    assert loaded.opened == []


def test_an_imported_mpi4py_describes_a_world_no_variable_names(monkeypatch):
    loaded = Loaded(monkeypatch, mpi_world=(2, 3))
    world = types.SimpleNamespace(Get_rank=lambda: 2, Get_size=lambda: 3)
    monkeypatch.setitem(sys.modules, "mpi4py.MPI", types.SimpleNamespace(COMM_WORLD=world))
    for name in (*TORCHRUN, *OPEN_MPI, *HYDRA):
        monkeypatch.delenv(name, raising=False)
    ctx = dd.init("host")
    assert (ctx.rank, ctx.size, ctx.launcher, ctx.transport) == (2, 3, "mpi", "mpi")
    assert loaded.opened == ["mpi"]


def test_an_unknown_space_is_refused():
    with pytest.raises(dyng.InvalidArgumentError, match="space='gpu'"):
        dd.init("gpu", env={})


def test_the_real_loaders_fail_with_the_install_hint_when_absent(monkeypatch):
    monkeypatch.setattr(_transports, "_nccl_candidates", lambda: ["/nonexistent/libnccl.so.2"])
    with pytest.raises(dyng.NotSupportedError, match=r"needs NCCL.*dyng\[cu13-dist\]"):
        _transports.load_nccl("a test")
    monkeypatch.setitem(sys.modules, "mpi4py.MPI", None)
    with pytest.raises(dyng.NotSupportedError, match=r"needs mpi4py.*dyng\[dist\]"):
        _transports.load_mpi("a test")


def test_importing_dyng_distributed_imports_no_transport():
    import subprocess

    code = (
        "import sys, dyng.distributed as dd; dd.init(env={}); "
        "print(sorted(m for m in sys.modules if m.startswith(('mpi4py', 'nvidia'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
