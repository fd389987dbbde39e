"""``dyng demo`` (also ``python -m dyng.demo``): dyng's job in about a minute, on generated data.

It builds three seeded graphs (``dyng.generators.graphs``, sized by ``_data``): a street
grid with travel times, an R-MAT follower network and a payment graph; computes the results
users keep current on them (sssp and dynamic_bfs from the centre of the roads, weak and strong
components and pagerank of the followers, the histogram of payment cycles up to 6 long); then
streams batches into every graph (``dyng.demo._stream``: road closures, re-openings and
travel-time changes; follows and unfollows; new and expiring payments). Each batch is applied
once per graph by ``dyng.update``, which repairs all the graph's results, and every repaired
result is checked against a fresh compute (bit for bit; pagerank within its documented bound).
It prints a table of median update and recompute times per result with the speed-up and whether
every answer was equal, writes the numbers as JSON and a chart of both times per batch, and exits
with status 1 when any check failed.

The modules: ``_options`` (the flags), ``_data`` (the graphs' sizes), ``_stream`` (the batches),
``_workloads`` (which results on which graph, and how each is checked), ``_run`` (the loop and
its timings), ``_checks`` (update vs fresh compute), ``_report`` (table, JSON), ``_chart`` (PNG),
``_device`` (where it runs) and ``_main`` (the whole run).
"""

from __future__ import annotations

__all__ = ["main"]


def main(argv=None):
    """Runs the demo with command-line flags `argv` (``dyng demo --help`` lists them); returns
    the exit status: 0 when every update equalled a fresh compute, 1 otherwise, 2 for bad flags.

    Examples
    --------
    >>> import contextlib, io, tempfile
    >>> from dyng.demo import main
    >>> text = io.StringIO()
    >>> with tempfile.TemporaryDirectory() as out, contextlib.redirect_stdout(text):
    ...     status = main(["--size", "0.001", "--batches", "2", "--no-plot", "--out", out])
    >>> status, "all answers equal" in text.getvalue()
    (0, True)
    """
    from dyng import cli

    return cli.main(["demo", *([] if argv is None else argv)])
