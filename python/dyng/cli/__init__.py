"""The ``dyng`` command line (also ``python -m dyng``), spec section 10.

``dyng [--version] [--log-level L] COMMAND ...`` with the commands ``sssp``, ``mosp``,
``cycle_count``, ``components`` and ``pagerank`` (verbs ``compute`` and ``update``), ``prep``,
``convert``, ``generate``, ``config`` and ``demo`` (``dyng.demo``). Each command lives in its
own module with a ``register(commands)`` function that adds its parser and sets ``run``, the
function that does the work;
``dyng.cli._flags`` builds the flag groups they share, ``dyng.cli._batches`` reads an
update's batch, ``dyng.cli._outputs`` makes every command's output files appear
all together or not at all, and ``dyng.cli._errors`` maps failures to exit statuses: 0 ok,
1 failure (``dyng: error: ...``), 2 usage, 130 interrupted.

Parsing, ``--help`` and ``--version``'s parser load no native module; a command selects one
when it first needs it.
"""

from __future__ import annotations

import argparse
import importlib

from dyng import _log
from dyng.cli import _errors, _outputs, _progress

__all__ = ["main"]

# 0.2's --help lists the levels loudest first.
LOG_LEVELS = tuple(reversed(_log.LEVELS))
COMMANDS = (
    "sssp",
    "mosp",
    "cycle_count",
    "components",
    "pagerank",
    "prep",
    "convert",
    "generate",
    "config",
    "demo",
)


class _VersionAction(argparse.Action):
    """Prints the version lazily: reading it selects the native module, which --help must not."""

    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        import dyng

        print(f"dyng {dyng.__version__}")
        parser.exit(0)


def parser():
    """The whole command line's parser."""
    top = argparse.ArgumentParser(
        prog="dyng",
        description="dyng: graph algorithms whose results stay current while the graph changes "
        "in batches. The algorithms (sssp, mosp, cycle_count, components, pagerank) "
        "take the verbs compute and update; prep, convert and generate prepare "
        "their inputs; demo shows them all at work on generated graphs.",
        epilog="See 'dyng COMMAND --help' for a command's flags, e.g. dyng sssp update --help.",
    )
    top.add_argument("--version", action=_VersionAction, help="print the version and exit")
    top.add_argument(
        "--log-level",
        choices=LOG_LEVELS,
        help="the library's log verbosity on stderr (default warn)",
    )
    commands = top.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        importlib.import_module(f"dyng.cli.{name}").register(commands)
    return top


def main(argv=None):
    """Runs the command line; returns the exit status.

    Examples
    --------
    >>> from dyng.cli import main
    >>> main(["config"]) == 0  # doctest: +ELLIPSIS
    version:...
    True
    """
    _outputs.reset()
    try:
        with _errors.warnings_as_lines():
            # Installed before parsing: --version already selects the native module.
            try:
                args = parser().parse_args(argv)
            except SystemExit as exc:
                return _errors.USAGE if exc.code not in (0, None) else _errors.OK
            return _errors.run_guarded(_run, args)
    except KeyboardInterrupt:  # while parsing, or after the command returned
        return _errors.interrupted()


def _run(args):
    import dyng

    if args.log_level is not None:
        dyng.set_log_level(args.log_level)
    _progress.configure(quiet=getattr(args, "quiet", False))
    return _outputs.run(args.run, args)
