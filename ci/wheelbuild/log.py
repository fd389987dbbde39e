"""One logged line per step, with elapsed time, and commands that show what they are doing.

Every step of the driver runs inside :func:`step`, which prints when it starts and how long it
took (or that it failed); :func:`run` echoes each command and streams its output, so a long
compile shows progress instead of minutes of silence.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

_start = time.monotonic()


def say(message: str) -> None:
    """A driver line on stderr, stamped with the time since the driver started."""
    print(f"[build {time.monotonic() - _start:7.1f}s] {message}", file=sys.stderr, flush=True)


@contextlib.contextmanager
def step(name: str) -> Iterator[None]:
    """Logs the start, the duration and the outcome of one step."""
    say(f"{name} ...")
    began = time.monotonic()
    try:
        yield
    except BaseException:
        say(f"{name}: FAILED after {time.monotonic() - began:.1f} s")
        raise
    say(f"{name}: done in {time.monotonic() - began:.1f} s")


class CommandError(RuntimeError):
    """A command of the build failed; the message names it and its exit status."""


def run(
    command: Sequence[str | os.PathLike[str]],
    *,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    capture: bool = False,
    quiet: bool = False,
) -> str:
    """Runs a command, echoing it; raises CommandError naming it when it fails.

    With ``capture`` the output is returned (and shown only on failure); otherwise it streams to
    the terminal (stdout to stderr, so that the driver's stdout stays free for results).
    """
    args = [str(a) for a in command]
    if not quiet:
        say("$ " + shlex.join(args) + (f"   (in {cwd})" if cwd else ""))
    full_env = None if env is None else {**os.environ, **env}
    if capture:
        done = subprocess.run(
            args, cwd=cwd, env=full_env, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        if done.returncode != 0:
            sys.stderr.write(done.stdout)
            raise CommandError(
                f"command failed with exit status {done.returncode}: {shlex.join(args)}"
            )
        return done.stdout
    done = subprocess.run(args, cwd=cwd, env=full_env, stdout=sys.stderr)
    if done.returncode != 0:
        raise CommandError(f"command failed with exit status {done.returncode}: {shlex.join(args)}")
    return ""


def verdict(label: str, problems: Sequence[str], detail: str = "") -> bool:
    """Prints ``label: ok`` or ``label: FAILED`` (plus `detail`) and one line per problem, as
    the checking commands report; returns True when there were problems."""
    print(f"{label}: {'ok' if not problems else 'FAILED'}{': ' + detail if detail else ''}")
    for problem in problems:
        print(f"  - {problem}")
    return bool(problems)
