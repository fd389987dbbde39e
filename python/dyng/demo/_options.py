"""The demo's flags (shared by ``dyng demo`` and ``python -m dyng.demo``)."""

from __future__ import annotations

import argparse

__all__ = ["SIZES", "DEFAULT_BATCHES", "add_arguments", "scale"]

#: The named sizes as scales of the default.
SIZES = {"small": 0.25, "default": 1.0, "large": 4.0}
DEFAULT_BATCHES = 60
# Scale 8 is about 64 million follows, several GiB of memory.
_LARGEST = 8.0


def scale(text):
    """A --size value: a name of SIZES or a positive number (the default is 1)."""
    if text in SIZES:
        return SIZES[text]
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value <= _LARGEST:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a size; use {', '.join(SIZES)} or a scale in (0, {_LARGEST:g}] "
            "(1 is the default size)"
        )
    return value


def _positive(text):
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive whole number")
    return value


def add_arguments(parser):
    """Adds the demo's flags to `parser`."""
    parser.add_argument(
        "--size",
        type=scale,
        default=1.0,
        metavar="SIZE",
        help="how big the graphs are: small, default, large, or a scale of the "
        "default (0.5: half the edges; default: default)",
    )
    parser.add_argument(
        "--batches",
        type=_positive,
        default=DEFAULT_BATCHES,
        metavar="N",
        help=f"batches streamed into every graph (default {DEFAULT_BATCHES})",
    )
    parser.add_argument(
        "--out",
        default="dyng-demo",
        metavar="DIR",
        help="folder for the chart (demo.png) and the numbers (demo.json); "
        "made if missing (default ./dyng-demo)",
    )
    parser.add_argument(
        "--no-plot",
        dest="plot",
        action="store_false",
        help="draw no chart (the JSON is still written)",
    )
    parser.add_argument(
        "--seed", type=int, default=1, help="seed of the generated graphs and batches (default 1)"
    )
    parser.add_argument(
        "--quiet", action="store_true", help="no progress bar (it shows only on a terminal anyway)"
    )
