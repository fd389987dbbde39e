# Where the CUDA near-far search's work goes, round by round: a host model (NumPy) for issue 44's
# compute bars. It runs near-far's schedule (docs/developer/gpu-sssp.md, "Method") with rounds
# made synchronous: a round relaxes the out-rows of its near queue from the distances the round
# started with, an improved vertex goes to the next near queue below the bound and to the far
# pile above it, and an empty near queue splits the far pile against max(bound, far minimum) +
# width. The GPU's atomics let a round see some of its own improvements, so the device does
# fewer rounds and relaxations than this model; the model's totals are an upper bound, and its
# shape (which rounds carry the work) is what it is for. Per round it prints the near queue, the
# edges it relaxes (push), the vertices it improves, and what a pull round over the same
# improvements would read instead: the in-rows of every vertex with an in-neighbour in the queue
# (no atomics, rows read whole). The width is pick_bucket_width's (bucket_width.hpp) unless
# --width is given.
# bench/tests/test_sssp_rounds_model.py checks the schedule's distances against dyng.sssp.
#   PYTHONPATH=. python bench/gpu/sssp_rounds_model.py [--graphs rmat20,uniform20] [--width W]
import argparse

import numpy as np

from bench import generators

INFINITY = np.iinfo(np.int64).max


def bucket_width(mean_weight: float, mean_degree: float, max_degree: float) -> int:
    """detail/bucket_width.hpp's pick_bucket_width, which is not bound to Python; the bench test
    pins this copy to the C++ test's cases (tests/cpp/sssp/test_sssp_bucket_width.cpp)."""
    flat = max_degree <= 4.0 * mean_degree
    factor = 2.0 if flat and mean_degree >= 8.0 else 64.0
    return max(1, int(mean_weight * factor))


def library_width(graph, ptr: np.ndarray, weights: np.ndarray) -> int:
    """The width from the first weight of every non-empty row, as the prepare pass samples them."""
    degrees = np.diff(ptr)
    first = ptr[:-1][degrees > 0]
    mean_degree = graph.num_edges / graph.num_vertices
    return bucket_width(float(weights[first].mean()), mean_degree, float(degrees.max()))


def row_slots(ptr: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """The slot indices of `rows`' out-rows, row after row."""
    begins, lengths = ptr[rows], ptr[rows + 1] - ptr[rows]
    starts = np.repeat(begins - np.concatenate([[0], np.cumsum(lengths)[:-1]]), lengths)
    return starts + np.arange(int(lengths.sum()))


def schedule(graph, width: int = 0, source: int = 0):
    """Runs the modelled search on a bench graph (`generators.EdgeGraph`); returns the width,
    one record per round (round, "near" or "split", queue or pile size, pushed edges,
    improved vertices, pull in-edges) and the distances (INFINITY where unreached)."""
    n = graph.num_vertices
    ptr = graph.row_ptr()
    dst = graph.dst.astype(np.int64)
    weights = np.asarray(graph.weights).reshape(graph.num_edges, -1)[:, 0].astype(np.int64)
    in_degree = np.bincount(dst, minlength=n)
    width = width or library_width(graph, ptr, weights)
    dist = np.full(n, INFINITY, dtype=np.int64)
    dist[source] = 0
    near = np.array([source], dtype=np.int64)
    far = np.zeros(n, dtype=bool)
    bound, rounds, records = width, 0, []
    while True:
        if near.size == 0:
            waiting = np.flatnonzero(far)
            if waiting.size == 0:
                break
            new_bound = max(bound, int(dist[waiting].min())) + width
            # Entries below the old bound were relaxed at their current distance: dropped.
            keep = dist[waiting] >= bound
            near = waiting[keep & (dist[waiting] < new_bound)]
            far[waiting[(~keep) | (dist[waiting] < new_bound)]] = False
            bound = new_bound
            records.append((rounds, "split", waiting.size, 0, 0, 0))
            rounds += 1
            continue
        slots = row_slots(ptr, near)
        sources = np.repeat(near, ptr[near + 1] - ptr[near])
        candidates = dist[sources] + weights[slots]
        targets = dst[slots]
        best = np.full(n, INFINITY, dtype=np.int64)
        np.minimum.at(best, targets, candidates)
        touched = np.unique(targets)
        improved = touched[best[touched] < dist[touched]]
        dist[improved] = best[improved]
        pull = int(in_degree[touched].sum())
        records.append((rounds, "near", near.size, slots.size, improved.size, pull))
        below = dist[improved] < bound
        near = improved[below]
        far[improved[~below]] = True
        rounds += 1
    return width, records, dist


def report(name, graph, width, records, dist, rows: int) -> None:
    m = graph.num_edges
    reached = int(np.count_nonzero(dist < INFINITY))
    pushes = sum(r[3] for r in records)
    improvements = sum(r[4] for r in records)
    near_rounds = [r for r in records if r[1] == "near"]
    print(
        f"{name}: n {graph.num_vertices:,}, m {m:,}, width {width}; {len(records)} rounds "
        f"({len(records) - len(near_rounds)} splits); relaxations {pushes:,} = "
        f"{pushes / m:.2f} per edge; improvements {improvements:,} for {reached:,} reached "
        f"vertices ({improvements / max(reached, 1):.2f} each)"
    )
    heavy = sorted(near_rounds, key=lambda r: -r[3])[:rows]
    share = sum(r[3] for r in heavy) / max(pushes, 1)
    print(f"  the {len(heavy)} heaviest rounds relax {share:.0%} of the edges")
    print("  round  near queue  push edges  (of m)  improved  pull in-edges  (pull/push)")
    for r in sorted(heavy):
        print(
            f"  {r[0]:5d}  {r[2]:10,d}  {r[3]:10,d}  {r[3] / m:6.1%}  {r[4]:8,d}  "
            f"{r[5]:13,d}  {r[5] / max(r[3], 1):10.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--graphs", default="rmat20,uniform20")
    parser.add_argument("--width", type=int, default=0, help="bucket width (0: the library's)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rows", type=int, default=40, help="rounds printed (the heaviest)")
    args = parser.parse_args()
    for name in args.graphs.split(","):
        graph = generators.by_name(name, args.seed)
        report(name, graph, *schedule(graph, args.width), args.rows)


if __name__ == "__main__":
    main()
