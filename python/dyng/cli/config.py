"""``dyng config``: the build, backends and plugins of this install (``dyng.show_config()``)."""

from __future__ import annotations

from dyng.cli import _flags


def register(commands):
    parser = _flags.command(
        commands,
        "config",
        help="show the build, backends and plugins",
        description="Show how this install was built, which backends it "
        "can run and which CUDA plugin (if any) it chose.",
        example="dyng config",
    )
    parser.set_defaults(run=_run)


def _run(args):
    import dyng

    dyng.show_config()
