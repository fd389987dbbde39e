"""Vertex counts whose row storage cannot fit in memory raise instead of killing the process."""

import subprocess
import sys

import numpy as np
import pytest

import dyng

HUGE_ID = 2**40  # 2**40 rows of int64 offsets: tens of TiB, more than any test machine has.


def test_from_edges_with_a_huge_id_raises_out_of_memory():
    src = np.array([0], dtype=np.int64)
    dst = np.array([HUGE_ID], dtype=np.int64)
    with pytest.raises(dyng.OutOfMemoryError, match=str(HUGE_ID + 1)):
        dyng.Graph.from_edges(src, dst, [1])


def test_batch_growing_to_a_huge_id_raises_and_changes_nothing():
    graph = dyng.Graph.from_edges(
        np.array([0, 1], dtype=np.int64), np.array([1, 2], dtype=np.int64), [3, 4]
    )
    result = dyng.sssp.compute(graph, 0)
    before = graph.to_csr()
    batch = dyng.EdgeBatch(
        insert=(np.array([0], dtype=np.int64), np.array([HUGE_ID], dtype=np.int64), [1])
    )
    with pytest.raises(dyng.OutOfMemoryError, match="vertex id"):
        dyng.sssp.update(graph, batch, result)
    after = graph.to_csr()
    assert graph.version == 0 and graph.num_vertices == 3
    assert np.array_equal(before.row_ptr, after.row_ptr)
    assert np.array_equal(before.col_ind, after.col_ind)
    assert result.distances.tolist() == [0, 3, 7]


def test_messages_give_the_bytes_needed_and_available():
    with pytest.raises(dyng.OutOfMemoryError) as info:
        dyng.Graph.from_edges(np.array([0], np.int64), np.array([HUGE_ID], np.int64), [1])
    message = str(info.value)
    assert "GiB" in message and "at most" in message and "Graph.from_edges()" in message


# Isolated vertices cost no memory (issue 11, item 4): their row offsets stay on zero pages and
# the build walks only the rows that have edges. Before, n=1e8 with 3 edges took 4.5 GB (and the
# 700-million-vertex graph below was SIGKILLed at 24.4 GB on a 24 GiB machine); 0.2.0 takes
# 1.3 GB and 20.5 GB. Measured in a child process, whose peak RSS is its own, on a host backend
# (the children pin one, as conftest.py does for the tests in this process: where a CUDA plugin
# is installed the default would put the graph on the device).
PIN_HOST = "import dyng; dyng.set_default_resources('sequential')\n"
PEAK_RSS_CHILD = (
    PIN_HOST
    + """
import resource, sys
import dyng
n = int(sys.argv[1])
g = dyng.Graph.from_edges([0, 1, 2], [1, 2, 0], [1, 1, 1], num_vertices=n)
g.apply(dyng.EdgeBatch(insert=([5, n + 10], [n - 1, 3], [2, 2])))  # growth: new rows stay empty
assert g.num_vertices == n + 11 and g.num_edges == 5
src, dst, _ = g.edges()
assert sorted(zip(src.tolist(), dst.tolist())) == [(0, 1), (1, 2), (2, 0), (5, n - 1), (n + 10, 3)]
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)  # KiB on Linux
"""
)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ru_maxrss in KiB: Linux")
@pytest.mark.parametrize("num_vertices", [100_000_000, 700_000_000])
def test_isolated_vertices_cost_no_memory(num_vertices):
    baseline = _child_peak_kib(PIN_HOST + "dyng.Graph.from_edges([0], [1], [1])", [])
    peak = _child_peak_kib(PEAK_RSS_CHILD, [str(num_vertices)])
    assert peak - baseline < 200 * 1024, f"{(peak - baseline) / 1024:.0f} MiB above an empty build"


# A device graph's rows come back to the host when something reads them there (edges() here):
# the offsets of its empty rows stay on zero pages as a host graph's do. Before, the download
# wrote every offset: 1.8 GB of host RSS for 1e8 vertices, 15.5 GB for 7e8 (H200).
DEVICE_CHILD = """
import sys
import dyng
n = int(sys.argv[1])
cuda = dyng.Resources.cuda()
g = dyng.Graph.from_edges([0, 1, 2], [1, 2, 0], [1, 1, 1], num_vertices=n, resources=cuda)
assert g.space == "device"
g.apply(dyng.EdgeBatch(insert=([5, n + 10], [n - 1, 3], [2, 2])))
src, dst, _ = g.edges()
assert sorted(zip(src.tolist(), dst.tolist())) == [(0, 1), (1, 2), (2, 0), (5, n - 1), (n + 10, 3)]
"""


@pytest.mark.gpu
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ru_maxrss in KiB: Linux")
def test_isolated_vertices_of_a_device_graph_cost_no_host_memory():
    baseline = _child_peak_kib(DEVICE_CHILD, ["10"])
    peak = _child_peak_kib(DEVICE_CHILD, ["100000000"])
    assert peak - baseline < 200 * 1024, f"{(peak - baseline) / 1024:.0f} MiB above a small graph"


def _child_peak_kib(code, argv):
    if "ru_maxrss" not in code:
        code += "\nimport resource; print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
    out = subprocess.run(
        [sys.executable, "-c", code, *argv], capture_output=True, text=True, timeout=300, check=True
    )
    return int(out.stdout.split()[-1])
