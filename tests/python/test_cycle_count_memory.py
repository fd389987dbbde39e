"""Counting every cycle takes memory in proportion to the graph, not to the number of cycles
(issue 40): a child process counts the 10,976,173 cycles of the complete digraph on 11 vertices
by compute, then updates the count for a batch that removes most of them, with its address space
capped a little above what it holds once the graph is built. A count that kept a record per
cycle or per search step (the build before this test needed about 60 MB more on this graph,
500 MB on 12 vertices) runs out of memory under the cap."""

import json
import subprocess
import sys
from math import comb, factorial

import pytest

pytestmark = pytest.mark.skipif(
    sys.platform != "linux", reason="RLIMIT_AS caps the address space on Linux only"
)

HEADROOM_MB = 24

CHILD = r"""
import json, resource, sys
import numpy as np
import dyng

n, headroom = int(sys.argv[1]), int(sys.argv[2]) << 20
res = dyng.Resources.sequential()  # no team: no thread stacks to map
u, v = np.meshgrid(np.arange(n, dtype=np.int32), np.arange(n, dtype=np.int32), indexing="ij")
keep = u != v
graph = dyng.Graph.from_edges(u[keep], v[keep], properties="cycle_enum_compatible",
                              resources=res)
# Warm every path once on a tiny graph, so the cap meets no first-use allocation.
tiny = dyng.Graph.from_edges([0, 1], [1, 0], properties="cycle_enum_compatible", resources=res)
small = dyng.cycle_count.compute(tiny, resources=res)
dyng.cycle_count.update(tiny, dyng.EdgeBatch(delete=([0], [1])), small, resources=res)
with open("/proc/self/status") as status:
    size = next(int(line.split()[1]) << 10 for line in status if line.startswith("VmSize:"))
resource.setrlimit(resource.RLIMIT_AS, (size + headroom, resource.RLIM_INFINITY))
result = dyng.cycle_count.compute(graph, resources=res)
computed = [int(c) for c in result.counts.to_numpy()]
# Delete every edge between the first six vertices.
pairs = [(a, b) for a in range(6) for b in range(6) if a != b]
batch = dyng.EdgeBatch(delete=([a for a, _ in pairs], [b for _, b in pairs]))
stats = dyng.cycle_count.update(graph, batch, result, resources=res)
print(json.dumps({"computed": computed, "updated": [int(c) for c in result.counts.to_numpy()],
                  "path": stats.path}))
"""


def complete_counts(n):
    return [0, 0] + [comb(n, length) * factorial(length - 1) for length in range(2, n + 1)]


def cycles_without_a_clique_edge(n, k):
    """Cycles of the complete digraph on n vertices that use no edge between two of the first k:
    such a cycle visits j of those k vertices with a vertex of the other n - k between any two."""
    counts = [0] * (n + 1)
    for length in range(2, n + 1):
        total = 0
        for j in range(0, min(k, length // 2) + 1):
            others = length - j
            if others > n - k:
                continue
            # Arrange the `others` outer vertices in a cycle, then put the j inner vertices in
            # distinct gaps between them, in order.
            ring = comb(n - k, others) * factorial(others - 1)
            total += ring * comb(others, j) * comb(k, j) * factorial(j)
        counts[length] = total
    return counts


def test_every_cycle_of_k11_fits_a_small_address_space():
    n = 11
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(n), str(HEADROOM_MB)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, (
        f"counting every cycle of K_{n} needed more than {HEADROOM_MB} MB beyond the graph:\n"
        f"{done.stderr[-2000:]}"
    )
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["computed"] == complete_counts(n)
    assert out["updated"] == cycles_without_a_clique_edge(n, 6)
