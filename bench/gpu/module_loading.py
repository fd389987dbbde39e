# Is a process's first-call tax CUDA's lazy loading of kernels? (issue 44, "no first-call tax")
#
# Since CUDA 12.2 the runtime loads a kernel on its first launch, not when the library is opened
# (CUDA_MODULE_LOADING=LAZY is the default; EAGER loads every module of the process when its
# context is made). A first apply in a fresh process took 4.25 ms against 0.64 steady (H100,
# bench/README.md); a warm-up on a small grid takes most of that away, which loading would explain
# and so would the pool's first memory. This script tells the two apart: it runs the same cold
# measurements in fresh processes, once per loading mode, so the difference between the modes'
# first figures is the loading, and the startup figures say what eager loading costs up front.
# Modes: UNSET (CUDA_MODULE_LOADING not set: lazy, and dyng preloads its own kernels when it
# builds its first device graph, src/dyng/backend/cuda/module_preload.hpp, where the build has
# it), LAZY (set explicitly: dyng preloads nothing) and EAGER (every module of the process at
# context creation). Per mode:
#   startup: import dyng, a 1,000-vertex graph on the device, its first sssp compute and first
#            weak components compute (wall ms of each; EAGER pays every module in the first);
#   cold:    first_call_stages.py --cold --plain (first call against steady, no warm-up).
# Run from the repository root on the GPU machine:
#   PYTHONPATH=<dyng>:.:bench/gpu python3 bench/gpu/module_loading.py [--graphs rmat22] [--others]
import argparse
import os
import pathlib
import subprocess
import sys

parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument("--graphs", default="rmat22")
parser.add_argument("--others", action="store_true", help="first_call_stages.py --others")
parser.add_argument(
    "--modes", default="UNSET,LAZY,EAGER", help="CUDA_MODULE_LOADING values (UNSET: not set)"
)
parser.add_argument("--timeout", type=float, default=240.0, help="seconds per child process")
args = parser.parse_args()

here = pathlib.Path(__file__).resolve().parent

STARTUP = """
import time
t0 = time.perf_counter()
import numpy as np
import dyng
t1 = time.perf_counter()
src = np.arange(1000, dtype=np.int64)
dst = (src * 7 + 1) % 1000
g = dyng.Graph.from_edges(src, dst, np.ones(1000), num_vertices=1000,
                          resources=dyng.Resources.cuda())
t2 = time.perf_counter()
native = dyng._backend.native()
unloaded = native.cuda_unloaded_kernels(0) if hasattr(native, "cuda_unloaded_kernels") else None
np.asarray(dyng.sssp.compute(g, 0).distances)
t3 = time.perf_counter()
np.asarray(dyng.components.compute(g).labels)
t4 = time.perf_counter()
ms = [1e3 * (b - a) for a, b in ((t0, t1), (t1, t2), (t2, t3), (t3, t4))]
print("import %.1f ms, first device graph %.1f ms, first sssp compute %.1f ms, "
      "first weak compute %.1f ms" % tuple(ms))
print("dyng kernels not loaded after the first graph:",
      "not reported by this build" if unloaded is None else unloaded)
"""


def run(title, command, mode):
    env = {k: v for k, v in os.environ.items() if k != "CUDA_MODULE_LOADING"}
    if mode != "UNSET":
        env["CUDA_MODULE_LOADING"] = mode
    print(f"== {title}, CUDA_MODULE_LOADING={mode}", flush=True)
    try:
        done = subprocess.run(
            command, env=env, capture_output=True, text=True, timeout=args.timeout, check=False
        )
    except subprocess.TimeoutExpired:
        print(f"   timed out after {args.timeout:.0f} s", flush=True)
        return
    sys.stdout.write(done.stdout)
    if done.returncode != 0:
        sys.stdout.write(done.stderr[-4000:])
        print(f"   exit status {done.returncode}")
    sys.stdout.flush()


for mode in (m.strip().upper() for m in args.modes.split(",") if m.strip()):
    run("startup", [sys.executable, "-c", STARTUP], mode)
    cold = [sys.executable, str(here / "first_call_stages.py"), "--graphs", args.graphs]
    cold += ["--cold", "--plain"] + (["--others"] if args.others else [])
    run("first calls of a fresh process", cold, mode)
