"""Run inside an install-test venv (python -I install_probe.py): what did dyng choose, and why?

Prints one JSON object: where dyng was imported from, the installed dyng.backends plugins, the
native module selection picked, the BackendWarnings raised while picking it, whether each plugin's
native module emits NVTX ranges, and (with --sssp) the result of one sssp computed on the chosen
backend next to the sequential one. Standard library plus dyng only: it runs in a venv that holds
nothing but the built wheels and their dependencies.
"""

from __future__ import annotations

import importlib
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
        report["plugins"] = sorted(
            f"{ep.name}={ep.value}" for ep in metadata.entry_points(group="dyng.backends")
        )
        native = _backend.native()
        report["native"] = native.__name__
        report["build_config"] = dict(native.build_config)
        if "--sssp" in sys.argv:
            graph = dyng.Graph.from_edges([0, 0, 2, 1], [1, 2, 1, 3], [4, 1, 2, 5])
            backend = "cuda" if native.build_config.get("cuda") else "openmp"
            chosen = dyng.sssp.compute(graph, source=0, resources=dyng.Resources(backend=backend))
            reference = dyng.sssp.compute(
                graph, source=0, resources=dyng.Resources(backend="sequential")
            )
            report["sssp"] = {
                "backend": backend,
                "distances": chosen.distances.to_numpy().tolist(),
                "reference": reference.distances.to_numpy().tolist(),
            }
    report["warnings"] = [
        f"{w.category.__name__}: {w.message}"
        for w in caught
        if w.category.__name__ == "BackendWarning"
    ]
    report["nvtx"] = {
        name: nvtx_of(module)
        for name, module in (point.split("=", 1) for point in report["plugins"])
    }
    print(json.dumps(report))
    return 0


def nvtx_of(package: str) -> bool | str:
    """``nvtx_available()`` of a plugin's native module, or why it could not be asked.

    Imported after the selection above, so that it cannot change what dyng chose. The module
    loads without a GPU or driver (the static CUDA runtime opens libcuda only when CUDA is first
    used), so a build without NVTX headers shows here, on the machine that built it. Its bundled
    libomp is then a second OpenMP runtime in the process, harmless while nothing runs on it.
    """
    try:
        return bool(importlib.import_module(f"{package}._core").nvtx_available())
    except Exception as exc:  # reported, and judged as a problem, rather than ending the probe
        return f"{type(exc).__name__}: {exc}"


if __name__ == "__main__":
    sys.exit(main())
