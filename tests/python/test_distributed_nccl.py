"""The device world's NCCL binding and communicator (issue 47), without a GPU.

Three ways in: a stand-in library of nccl.h's signatures (_nccl_stub.c, compiled here with the
C compiler that builds dyng) checks every call the binding makes, and that an all-to-all moves
each peer's rows; the real NCCL from NVIDIA's wheel (ci/requirements-dev.txt installs
nvidia-nccl-cu13) checks the calls that need no GPU; and ``mpiexec -n 3`` checks that rank 0's
unique id reaches every rank. The exchange on GPUs runs in the GPU tests.
"""

from __future__ import annotations

import ctypes
import pathlib
import shutil
import subprocess
import sys
import threading
import types

import numpy as np
import pytest

import dyng
from dyng.distributed import _device_comm, _nccl, _transports
from dyng.distributed._context import Context
from dyng.distributed._device_comm import DeviceComm
from dyng.distributed._exchange import peer_spans

STUB_SOURCE = pathlib.Path(__file__).with_name("_nccl_stub.c")
SHARE_SCRIPT = pathlib.Path(__file__).with_name("_distributed_nccl_id_rank.py")
COMPILER = shutil.which("cc") or shutil.which("gcc")


class HostAsDevice:
    """A NumPy array presented through __cuda_array_interface__, for the stub's host memory."""

    def __init__(self, array: np.ndarray, strides=None):
        self.array = array
        self.__cuda_array_interface__ = {
            "shape": array.shape,
            "typestr": array.dtype.str,
            "data": (array.ctypes.data, False),
            "strides": strides,
            "version": 3,
        }


@pytest.fixture(scope="module")
def stub_library(tmp_path_factory):
    if COMPILER is None:
        pytest.skip("no C compiler to build the NCCL stand-in")
    built = tmp_path_factory.mktemp("nccl") / "libnccl_stub.so"
    subprocess.run(
        [COMPILER, "-shared", "-fPIC", "-O1", "-o", str(built), str(STUB_SOURCE)], check=True
    )
    return ctypes.CDLL(str(built))


@pytest.fixture
def stub(stub_library):
    stub_library.stub_reset()
    stub_library.stub_log.restype = ctypes.c_char_p
    return stub_library


def log_of(stub) -> list[str]:
    return stub.stub_log().decode().split()


def device_context(rank=0, size=1, local_rank=0) -> Context:
    launcher = "none" if size == 1 else "mpi"
    return Context(rank, size, local_rank, "device", "nccl" if size > 1 else "none", launcher, None)


def make_comm(stub, local_rank=0):
    used = []
    comm = DeviceComm.create(
        device_context(local_rank=local_rank), nccl=_nccl.Nccl(stub), use_device=used.append
    )
    return comm, used


def test_the_binding_passes_the_unique_id_by_value_and_reads_the_version(stub):
    nccl = _nccl.Nccl(stub)
    assert nccl.version() == 22306
    made = nccl.unique_id()
    raw = made.to_bytes()
    assert len(raw) == _nccl.UNIQUE_ID_BYTES
    assert _nccl.UniqueId.from_bytes(raw).to_bytes() == raw
    assert nccl.init_rank(1, made, 0) != 0
    joined = ctypes.create_string_buffer(128)
    stub.stub_joined_id(joined)
    assert joined.raw == raw  # all 128 bytes arrived, by value
    assert log_of(stub) == ["ncclGetVersion", "ncclGetUniqueId", "ncclCommInitRank"]


def test_a_failed_call_raises_cuda_error_in_nccls_words(stub):
    nccl = _nccl.Nccl(stub)
    with pytest.raises(dyng.CudaError, match=r"ncclCommInitRank failed: stub: invalid argument"):
        nccl.init_rank(2, nccl.unique_id(), 5)  # a rank outside the world
    with pytest.raises(dyng.InvalidArgumentError, match="128 bytes, not 5"):
        _nccl.UniqueId.from_bytes(b"short")


def test_a_library_without_the_calls_is_refused():
    class Partial:
        _name = "libpartial.so"
        ncclGetVersion = object()

    with pytest.raises(dyng.CudaError, match="lacks ncclGetUniqueId.*2.18 or later"):
        _nccl.Nccl(Partial())


def test_create_makes_the_local_device_current_then_joins(stub):
    comm, used = make_comm(stub, local_rank=3)
    assert used == [3]
    assert (comm.rank, comm.size) == (0, 1)
    comm.close()
    comm.close()  # idempotent: NCCL is not called twice
    assert log_of(stub) == [
        "ncclGetUniqueId",
        "ncclCommInitRank",
        "ncclCommDestroy",
    ]
    with pytest.raises(dyng.InvalidArgumentError, match="was closed"):
        comm.all_reduce(HostAsDevice(np.zeros(2)), HostAsDevice(np.zeros(2)))


def test_create_refuses_a_host_world(stub):
    host = Context(0, 1, 0, "host", "none", "none", None)
    with pytest.raises(dyng.InvalidArgumentError, match='init\\("device"\\)'):
        DeviceComm.create(host, nccl=_nccl.Nccl(stub), use_device=lambda d: None)


@pytest.mark.parametrize(
    ("rows", "count"),
    [((6,), 6), ((6,), 4), ((5, 3), 5), ((5, 3), 2), ((4,), 0)],
)
def test_all_to_all_moves_the_counted_rows(stub, rows, count):
    comm, _ = make_comm(stub)
    send = np.arange(int(np.prod(rows)), dtype=np.int64).reshape(rows) * 3 + 1
    recv = np.full_like(send, -1)
    comm.all_to_all(HostAsDevice(send), [count], HostAsDevice(recv), [count])
    np.testing.assert_array_equal(recv[:count], send[:count])
    assert (recv[count:] == -1).all()
    calls = log_of(stub)
    inner = calls[calls.index("ncclGroupStart") + 1 : calls.index("ncclGroupEnd")]
    assert inner == (["ncclSend", "ncclRecv"] if count else [])
    comm.close()


def test_all_to_all_between_three_ranks_moves_each_peers_rows(stub):
    """Three ranks as threads of this process: rank r sends peer p r + p + 1 rows (r, p, i);
    each must receive, in rank order, every peer's rows meant for it (the peers' offsets)."""
    nccl, size = _nccl.Nccl(stub), 3
    shared_id = nccl.unique_id()
    received, errors = {}, []

    def rank_main(rank):
        try:
            comm = DeviceComm(nccl, nccl.init_rank(size, shared_id, rank), rank, size)
            send_counts = [rank + p + 1 for p in range(size)]
            recv_counts = [p + rank + 1 for p in range(size)]
            rows = [(rank, p, i) for p in range(size) for i in range(send_counts[p])]
            send = np.array(rows, dtype=np.int64)
            recv = np.full((sum(recv_counts), 3), -1, dtype=np.int64)
            comm.all_to_all(HostAsDevice(send), send_counts, HostAsDevice(recv), recv_counts)
            comm.close()
            received[rank] = recv.tolist()
        except Exception as error:  # reported below, with the rank
            errors.append((rank, error))

    ranks = [threading.Thread(target=rank_main, args=(r,)) for r in range(size)]
    for thread in ranks:
        thread.start()
    for thread in ranks:
        thread.join(timeout=30)
    assert not errors
    for rank in range(size):
        expected = [[p, rank, i] for p in range(size) for i in range(p + rank + 1)]
        assert received[rank] == expected


def test_all_to_all_refuses_what_does_not_fit(stub):
    comm, _ = make_comm(stub)
    send, recv = np.zeros((4, 2), np.int32), np.zeros((4, 2), np.int32)
    with pytest.raises(dyng.InvalidArgumentError, match="one count per rank"):
        comm.all_to_all(HostAsDevice(send), [5], HostAsDevice(recv), [4])
    with pytest.raises(dyng.InvalidArgumentError, match="one count per rank"):
        comm.all_to_all(HostAsDevice(send), [1, 1], HostAsDevice(recv), [2])
    with pytest.raises(dyng.InvalidArgumentError, match="one dtype and row shape"):
        comm.all_to_all(HostAsDevice(send), [4], HostAsDevice(np.zeros((4, 3), np.int32)), [4])
    with pytest.raises(dyng.InvalidArgumentError, match="not C-contiguous"):
        comm.all_to_all(HostAsDevice(send, strides=(4, 16)), [4], HostAsDevice(recv), [4])
    with pytest.raises(dyng.InvalidArgumentError, match="not an array in device memory"):
        comm.all_to_all(send, [4], HostAsDevice(recv), [4])
    with pytest.raises(dyng.InvalidArgumentError, match="carries no"):
        complex_rows = np.zeros(4, np.complex64)
        comm.all_to_all(HostAsDevice(complex_rows), [4], HostAsDevice(complex_rows.copy()), [4])
    comm.close()


def test_a_failing_send_still_closes_the_group(stub):
    comm, _ = make_comm(stub)
    send, recv = np.zeros(4, np.float64), np.zeros(2, np.float64)
    # Two rows out, one in: NCCL (the stub) refuses the unpaired lengths at the group's end.
    with pytest.raises(dyng.CudaError, match="ncclGroupEnd failed"):
        comm.all_to_all(HostAsDevice(send), [2], HostAsDevice(recv), [1])
    assert log_of(stub)[-1] == "ncclGroupEnd"
    comm.close()


def test_all_reduce_and_its_refusals(stub):
    comm, _ = make_comm(stub)
    send = np.array([1.5, -2.0, 7.25])
    recv = np.zeros(3)
    comm.all_reduce(HostAsDevice(send), HostAsDevice(recv), "max")
    np.testing.assert_array_equal(recv, send)
    with pytest.raises(dyng.InvalidArgumentError, match="op='mean'"):
        comm.all_reduce(HostAsDevice(send), HostAsDevice(recv), "mean")
    with pytest.raises(dyng.InvalidArgumentError, match="one dtype and shape"):
        comm.all_reduce(HostAsDevice(send), HostAsDevice(np.zeros(2)))
    comm.close()


def test_leaving_a_block_by_an_error_aborts_instead_of_destroying(stub):
    with pytest.raises(KeyError), make_comm(stub)[0]:
        raise KeyError("the caller's own error")
    assert log_of(stub)[-1] == "ncclCommAbort"
    with make_comm(stub)[0]:
        pass
    assert log_of(stub)[-1] == "ncclCommDestroy"


def test_peer_spans_lay_the_peers_end_to_end():
    assert peer_spans([2, 0, 3], 8) == [(0, 16), (16, 0), (16, 24)]
    with pytest.raises(dyng.InvalidArgumentError, match="a count is -1"):
        peer_spans([1, -1], 4)


def test_a_world_of_one_shares_its_own_id():
    one = device_context()
    assert _device_comm.share_unique_id(one, b"x" * 128) == b"x" * 128
    with pytest.raises(dyng.InvalidArgumentError, match="makes its own id"):
        _device_comm.share_unique_id(one, None)


def test_torchrun_without_torch_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)  # import torch then fails
    monkeypatch.setitem(sys.modules, "torch.distributed", None)
    world = Context(1, 2, 1, "device", "nccl", "torchrun", "localhost:29500")
    with pytest.raises(dyng.NotSupportedError, match="install torch, or launch with mpiexec"):
        _device_comm.share_unique_id(world, None)


class StandInStore:
    """torch.distributed.TCPStore's calls that share_unique_id makes, over one dict."""

    made: list = []
    values: dict = {}

    def __init__(self, host, port, world_size, is_master):
        StandInStore.made.append((host, port, world_size, is_master))

    def set(self, key, value):
        StandInStore.values[key] = bytes(value)

    def get(self, key):
        return StandInStore.values[key]


@pytest.mark.parametrize("agent", [True, False])
def test_torchrun_shares_the_id_through_torchs_store(monkeypatch, agent):
    fake = types.ModuleType("torch.distributed")
    fake.TCPStore = StandInStore
    monkeypatch.setitem(sys.modules, "torch", types.ModuleType("torch"))
    monkeypatch.setitem(sys.modules, "torch.distributed", fake)
    monkeypatch.setattr(StandInStore, "made", [])
    monkeypatch.setattr(StandInStore, "values", {})
    if agent:
        monkeypatch.setenv("TORCHELASTIC_USE_AGENT_STORE", "True")
    else:
        monkeypatch.delenv("TORCHELASTIC_USE_AGENT_STORE", raising=False)
    worlds = [Context(r, 2, r, "device", "nccl", "torchrun", "node0:29500") for r in (0, 1)]
    raw = bytes(range(128))
    assert _device_comm.share_unique_id(worlds[0], raw, generation=3) == raw
    assert _device_comm.share_unique_id(worlds[1], None, generation=3) == raw
    assert list(StandInStore.values) == ["dyng/nccl-unique-id/3"]
    # Under torchrun's agent every worker is a client; without it rank 0 serves the store.
    assert StandInStore.made == [("node0", 29500, 2, not agent), ("node0", 29500, 2, False)]


def real_nccl():
    try:
        return _nccl.Nccl(_transports.load_nccl("the binding's test"))
    except dyng.NotSupportedError:
        return None


@pytest.mark.skipif(real_nccl() is None, reason="NVIDIA's NCCL wheel is not installed")
def test_the_real_library_answers_the_calls_that_need_no_gpu():
    nccl = real_nccl()
    assert nccl.version() >= 21800
    first, second = nccl.unique_id().to_bytes(), nccl.unique_id().to_bytes()
    assert len(first) == 128 and first != second
    # A rank outside the world is refused before any device is touched.
    with pytest.raises(dyng.CudaError, match="ncclCommInitRank failed"):
        nccl.init_rank(2, _nccl.UniqueId.from_bytes(first), 5)


def test_rank_zeros_id_reaches_every_rank_over_mpi():
    pytest.importorskip("mpi4py")
    from test_distributed_mpi import MPIEXEC, run_ranks

    if MPIEXEC is None:
        pytest.skip("no mpiexec (pip install mpich, or a system MPI)")
    answers = run_ranks(SHARE_SCRIPT, 3)
    assert sorted(a["rank"] for a in answers) == [0, 1, 2]
    assert len({a["id"] for a in answers}) == 1
    assert len(bytes.fromhex(answers[0]["id"])) == 128
