"""Run inside an install-test venv (python -I install_probe.py): what did dyng choose, and why?

Prints one JSON object: where dyng was imported from, the installed dyng.backends plugins, the
native module selection picked, the BackendWarnings raised while picking it, and (with --sssp)
the result of one sssp computed on the chosen backend next to the sequential one. Standard library
plus dyng only: it runs in a venv that holds nothing but the built wheels and their dependencies.
"""

from __future__ import annotations

import json
import sys
import warnings
from importlib import metadata


def main() -> int:
    report: dict = {}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        import dyng
        from dyng import _backend
        report["dyng_file"] = dyng.__file__
        report["plugins"] = sorted(f"{ep.name}={ep.value}" for ep in
                                   metadata.entry_points(group="dyng.backends"))
        native = _backend.native()
        report["native"] = native.__name__
        report["build_config"] = dict(native.build_config)
        if "--sssp" in sys.argv:
            graph = dyng.Graph.from_edges([0, 0, 2, 1], [1, 2, 1, 3], [4, 1, 2, 5])
            backend = "cuda" if native.build_config.get("cuda") else "openmp"
            chosen = dyng.sssp.compute(graph, source=0, resources=dyng.Resources(backend=backend))
            reference = dyng.sssp.compute(graph, source=0,
                                          resources=dyng.Resources(backend="sequential"))
            report["sssp"] = {"backend": backend,
                              "distances": chosen.distances.to_numpy().tolist(),
                              "reference": reference.distances.to_numpy().tolist()}
    report["warnings"] = [f"{w.category.__name__}: {w.message}" for w in caught
                          if w.category.__name__ == "BackendWarning"]
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
