"""Exit statuses and the one place that turns exceptions into them (spec section 10).

0 ok, 1 failure (``dyng: error: <message>``), 2 usage, 130 interrupted (``dyng: interrupted;
<what was left>``: the previous outputs or all the new ones, see ``dyng.cli._outputs``).
Warnings, such as the BackendWarning of a CPU fallback, print as ``dyng: warning: <message>``.
"""

from __future__ import annotations

import contextlib
import sys
import warnings

OK, FAILURE, USAGE, INTERRUPTED = 0, 1, 2, 130


class CliError(Exception):
    """A failure the command explains itself (exit status 1)."""

    status = FAILURE


class UsageError(CliError):
    """Flags that parse but do not fit together (exit status 2, no usage block)."""

    status = USAGE


def print_error(message):
    print(f"dyng: error: {message}", file=sys.stderr)


def _show_warning(message, category, filename, lineno, file=None, line=None):
    # The command line's form: no file name, line number or source line.
    print(f"dyng: warning: {message}", file=sys.stderr)


@contextlib.contextmanager
def warnings_as_lines():
    """Prints warnings raised inside as ``dyng: warning: ...`` lines."""
    with warnings.catch_warnings():
        warnings.showwarning = _show_warning
        yield


def interrupted():
    """Says that Ctrl-C stopped the command and which outputs it left; returns 130."""
    from dyng.cli import _outputs

    print(f"dyng: interrupted; {_outputs.interrupt_outcome()}", file=sys.stderr)
    return INTERRUPTED


def run_guarded(command, args):
    """Runs ``command(args)`` and returns its exit status, mapping every expected exception."""
    import dyng

    try:
        status = command(args)
        return OK if status is None else status
    except KeyboardInterrupt:
        return interrupted()
    except CliError as exc:
        print_error(exc)
        return exc.status
    except (
        dyng.Error,
        OSError,
        ValueError,
        TypeError,
        OverflowError,
        NotImplementedError,
        MemoryError,
    ) as exc:
        # TypeError too: a flag's value of the wrong kind for the library (a seed past 2^32)
        # is the user's to fix, not a traceback.
        print_error(_describe(exc))
        return FAILURE


def _describe(exc):
    # An OSError's str() reads "[Errno 2] No such file or directory: 'x'"; say it as a sentence.
    from dyng import Error

    if isinstance(exc, OSError) and not isinstance(exc, Error) and exc.filename:
        return f"{exc.filename}: {exc.strerror or exc}; check the path and its permissions"
    return str(exc)
