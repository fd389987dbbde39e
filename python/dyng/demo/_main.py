"""The demo from start to end: say where it runs, build the graphs, stream the batches, print
the table, write the JSON and the chart, and return the exit status (1 when a check failed)."""

from __future__ import annotations

import dataclasses
import os
import time

from dyng.demo import _data, _device, _report, _run, _workloads

__all__ = ["run"]

CHART = "demo.png"
NUMBERS = "demo.json"


def run(args):
    """Runs the demo for parsed flags `args` (see ``dyng.demo._options``)."""
    import dyng
    from dyng.cli import _progress

    started = time.perf_counter()
    resources = dyng.get_default_resources()
    config = dyng.config()
    sizes = _data.sizes(args.size)
    where = _device.describe(resources, config)
    print(f"dyng {config['version']} demo: {where}")
    print(f"data (seed {args.seed}): {sizes.describe()}")
    print(f"{args.batches} batches, each: {sizes.describe_batch()}")
    with _progress.step("generating the graphs"):
        workloads = _workloads.build(sizes, args.seed)
    for workload in workloads:
        names = ", ".join(t.label for t in workload.tracked)
        print(f"  {workload.name}: {workload.description}; keeps {names} current")
    bar = _progress.Bar("batches", args.batches)
    try:
        measurements = _run.run(
            workloads, args.batches, bar, sync_device=resources.backend == "cuda"
        )
    finally:
        bar.close()
    print()
    print(_report.table(measurements))
    print(_report.apply_line(measurements))
    failures = _report.failure_lines(measurements)
    for line in failures:
        print(f"CHECK FAILED {line}")
    setup = {
        "version": config["version"],
        "device": where,
        "backend": resources.backend,
        "seed": args.seed,
        "batches": args.batches,
        "size": args.size,
        "sizes": dataclasses.asdict(sizes),
        "descriptions": {w.name: w.description for w in workloads},
    }
    _write_outputs(args, measurements, setup, failed=bool(failures))
    print(f"done in {time.perf_counter() - started:.1f} s")
    return 1 if failures else 0


def _write_outputs(args, measurements, setup, *, failed):
    from dyng.cli import _outputs

    if failed:
        print(f"no files written to {args.out}: a check failed (the table above says which)")
        return
    numbers = os.path.join(args.out, NUMBERS)
    _outputs.write_text(numbers, _report.as_json(measurements, setup), "dyng demo")
    written = [numbers]
    if args.plot:
        chart = _chart_bytes(measurements, setup)
        if chart is not None:
            path = os.path.join(args.out, CHART)
            _outputs.write_bytes(path, chart, "dyng demo")
            written.append(path)
    print("wrote " + ", ".join(written))


def _chart_bytes(measurements, setup):
    from dyng.demo import _chart

    try:
        return _chart.png(
            measurements, f"dyng demo: update vs fresh compute per batch ({setup['backend']})"
        )
    except ImportError as error:
        print(f"no chart: {error}")
        return None
