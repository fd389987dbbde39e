"""On the GPU: the device world's NCCL communicator (issue 47) moving device arrays.

A world of one runs on any GPU machine with NVIDIA's NCCL wheel and CuPy; the mpiexec run needs
one GPU per rank (NCCL refuses two ranks on one device), so it runs where at least two are
visible: the multi-GPU kinds of the device tool.
"""

from __future__ import annotations

import pathlib

import numpy as np
import pytest

import dyng
from dyng.distributed._context import Context
from dyng.distributed._device_comm import DeviceComm

pytestmark = pytest.mark.gpu
EXCHANGE_SCRIPT = pathlib.Path(__file__).with_name("_distributed_nccl_exchange_rank.py")


def nccl_or_skip():
    from dyng.distributed import _nccl, _transports

    try:
        _transports.load_nccl("the GPU test")
    except dyng.NotSupportedError:
        pytest.skip('NVIDIA\'s NCCL is not installed (pip install "dyng[cu13-dist]")')
    return _nccl


def test_a_world_of_one_exchanges_and_reduces_device_arrays():
    cupy = pytest.importorskip("cupy")
    nccl_or_skip()
    one = Context(0, 1, 0, "device", "none", "none", None)
    with DeviceComm.create(one) as comm:
        send = cupy.arange(12, dtype=cupy.int64).reshape(6, 2)
        recv = cupy.full((6, 2), -1, dtype=cupy.int64)
        comm.all_to_all(send, [4], recv, [4])
        weights = cupy.asarray(np.array([2.5, -1.0]))
        total = cupy.zeros(2)
        comm.all_reduce(weights, total, "sum")
        cupy.cuda.Device().synchronize()
        np.testing.assert_array_equal(recv.get()[:4], send.get()[:4])
        assert (recv.get()[4:] == -1).all()
        np.testing.assert_array_equal(total.get(), weights.get())


def test_ranks_on_their_own_gpus_exchange_over_nccl():
    cupy = pytest.importorskip("cupy")
    pytest.importorskip("mpi4py")
    from test_distributed_mpi import MPIEXEC, run_ranks

    nccl_or_skip()
    devices = cupy.cuda.runtime.getDeviceCount()
    if devices < 2 or MPIEXEC is None:
        pytest.skip(f"needs 2 or more GPUs and mpiexec ({devices} visible)")
    answers = run_ranks(EXCHANGE_SCRIPT, min(devices, 8))
    assert len(answers) == min(devices, 8) and all(a["ok"] for a in answers), answers
