"""``python -m dyng``: the command line of ``dyng.cli``.

Examples
--------
>>> from dyng.__main__ import main
>>> main(["config"]) == 0  # doctest: +ELLIPSIS
version:...
True
"""

from __future__ import annotations

import sys

from dyng.cli import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
