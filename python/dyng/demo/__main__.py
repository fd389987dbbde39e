"""``python -m dyng.demo``: the same as ``dyng demo``."""

from __future__ import annotations

import sys

from dyng.demo import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
