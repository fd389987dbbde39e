"""Where the demo runs, in one line: the GPU when dyng can use one, else the CPU backend."""

from __future__ import annotations

from dyng import _plugins

__all__ = ["describe"]


def describe(resources, config):
    """One line naming the backend of `resources` (and why not the GPU, on a CPU).

    `config` is ``dyng.config()``.
    """
    chosen = [p for p in config["plugins"] if p["state"] == "chosen"]
    if resources.backend == "cuda":
        via = config["native_module"]
        if chosen:
            plugin = chosen[0]
            driver = plugin["driver_version"]
            via = f"plugin {plugin['distribution']} {plugin['version']}" + (
                f", driver CUDA {_plugins.format_driver(driver)}" if driver else ""
            )
        return f"running on the GPU: CUDA device {resources.device} ({via})"
    threads = resources.num_threads or config["openmp_max_threads"]
    how = (
        f"the OpenMP backend, {threads} threads"
        if resources.backend == "openmp"
        else "the sequential backend, 1 thread"
    )
    return f"running on the CPU: {how} ({_why_not_gpu(config)})"


def _why_not_gpu(config):
    plugins = [p for p in config["plugins"] if p["state"] != "ignored"]
    if config["backends"]["cuda"] or plugins:
        reasons = "; ".join(f"{p['name']}: {p['reason']}" for p in plugins)
        return f"no usable GPU: {reasons}" if reasons else "no usable GPU"
    return 'no GPU: no CUDA plugin is installed (pip install "dyng[cu13]" adds one)'
