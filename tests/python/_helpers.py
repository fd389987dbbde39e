"""Small helpers shared by the Python test suites (imported as a plain module)."""

import numpy as np
from hypothesis import settings

from dyng.testing.oracles import SUMMARY_FIELDS

HOST_BACKENDS = ("sequential", "openmp2")


def make_resources(name):
    import dyng

    return dyng.Resources.sequential() if name == "sequential" else dyng.Resources.openmp(2)


def edge_dict(graph):
    """{(u, v): weights tuple} from graph.edges(); fails on a repeated pair."""
    src, dst, w = graph.edges()
    src = np.asarray(src).tolist()
    dst = np.asarray(dst).tolist()
    if w is None:
        rows = [()] * len(src)
    else:
        w = np.asarray(w)
        rows = [tuple(r) for r in (w[:, None] if w.ndim == 1 else w).tolist()]
    result = {}
    for key, row in zip(zip(src, dst), rows):
        assert key not in result, f"pair {key} stored twice"
        result[key] = row
    return result


def csr_lists(graph):
    """graph.to_csr() as plain lists (weights None or a list of K-lists)."""
    csr = graph.to_csr()
    w = None if csr.weights is None else np.asarray(csr.weights).tolist()
    return np.asarray(csr.row_ptr).tolist(), np.asarray(csr.col_ind).tolist(), w


def graph_state(graph):
    """Everything observable about a graph's content, to assert "unchanged after a failure"."""
    return (graph.version, graph.num_vertices, graph.num_edges, csr_lists(graph))


def result_state(result):
    """The observable content of an sssp result."""
    return (
        result.graph_version,
        result.source,
        np.asarray(result.distances).tolist(),
        np.asarray(result.parents).tolist(),
    )


def summary_dict(summary):
    return {name: int(getattr(summary, name)) for name in SUMMARY_FIELDS}


def assert_tree_equal(result, dist, parents, context=""):
    got_d = np.asarray(result.distances).tolist()
    got_p = np.asarray(result.parents).tolist()
    assert got_d == list(dist), f"{context}distances {got_d} != expected {list(dist)}"
    assert got_p == list(parents), f"{context}parents {got_p} != expected {list(parents)}"


def scaled_examples(fraction):
    """Hypothesis settings with a fraction of the active profile's max_examples (for the costlier
    properties), so that HYPOTHESIS_PROFILE=thorough scales them too."""
    return settings(max_examples=max(5, int(settings.default.max_examples * fraction)))
