"""The ``dyng`` command line (also ``python -m dyng``).

This version offers ``dyng --version`` and ``dyng config``; the algorithm commands follow.
Exit status: 0 ok, 1 failure (``dyng: error: ...`` on stderr), 2 usage, 130 interrupted; warnings
(such as the BackendWarning of a CPU fallback) print as ``dyng: warning: ...`` on stderr.
"""

from __future__ import annotations

import argparse
import sys
import warnings

_LOG_LEVELS = ("off", "error", "warn", "info", "debug", "trace")


class _VersionAction(argparse.Action):
    """Prints the version lazily: reading it loads the native module, which --help must not."""

    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        import dyng

        print(f"dyng {dyng.__version__}")
        parser.exit(0)


def _parser():
    parser = argparse.ArgumentParser(
        prog="dyng", description="Dynamic graph algorithms: results kept current under batches."
    )
    parser.add_argument("--version", action=_VersionAction, help="print the version and exit")
    parser.add_argument("--log-level", choices=_LOG_LEVELS, help="log verbosity (default warn)")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.add_parser("config", help="show the build, backends and plugins of this install")
    return parser


def main(argv=None):
    """Runs the command line; returns the exit status.

    Examples
    --------
    >>> from dyng.__main__ import main
    >>> main(["config"]) == 0  # doctest: +ELLIPSIS
    version:...
    True
    """
    with warnings.catch_warnings():
        # Installed before parsing: --version already selects the native module.
        warnings.showwarning = _show_warning
        parser = _parser()
        args = parser.parse_args(argv)
        import dyng

        return _run(parser, args, dyng)


def _show_warning(message, category, filename, lineno, file=None, line=None):
    # The command line's form (spec section 10): no file name, line number or source line.
    print(f"dyng: warning: {message}", file=sys.stderr)


def _run(parser, args, dyng):
    try:
        if args.log_level is not None:
            dyng.set_log_level(args.log_level)
        if args.command is None:
            parser.print_usage(sys.stderr)
            print("dyng: error: a COMMAND is required (try dyng --help)", file=sys.stderr)
            return 2
        if args.command == "config":
            dyng.show_config()
            return 0
        parser.error(f"unknown command {args.command!r}")
    except KeyboardInterrupt:
        print("dyng: interrupted", file=sys.stderr)
        return 130
    except (dyng.Error, OSError, ValueError) as exc:
        print(f"dyng: error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
