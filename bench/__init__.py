"""dyng benchmarks, run as ``python -m bench <name>`` from the repository root (see README.md)."""
