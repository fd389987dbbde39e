"""Which plugin this package is, learnt from its own name.

Both CUDA wheels are built from the one directory ``python/plugin/dyng_plugin``, which the wheel
build copies to ``dyng_cu12`` or ``dyng_cu13`` (scikit-build-core wants a package's directory to
carry its name). The package name is therefore the only thing that tells the two plugins apart.
The un-renamed template is no plugin: it reports ``None`` throughout so that tests can import it.
"""

from __future__ import annotations

import re

__all__ = ["PACKAGE", "PLUGIN", "CUDA_MAJOR", "DISTRIBUTION", "distribution_version"]

PACKAGE = __name__.rpartition(".")[0]

_name = re.fullmatch(r"dyng_(cu([0-9]+))", PACKAGE)

PLUGIN: str | None = _name.group(1) if _name else None
CUDA_MAJOR: int | None = int(_name.group(2)) if _name else None
DISTRIBUTION: str | None = f"dyng-{PLUGIN}" if PLUGIN else None


def distribution_version() -> str | None:
    """Version of the installed distribution that carries this plugin.

    Returns
    -------
    str or None
        ``importlib.metadata.version(DISTRIBUTION)``; None for the template package and for a
        copy that no installed distribution owns (a source tree, a test's temporary copy).

    Examples
    --------
    >>> from dyng_cu13 import _identity
    >>> _identity.PLUGIN, _identity.CUDA_MAJOR, _identity.DISTRIBUTION
    ('cu13', 13, 'dyng-cu13')
    >>> version = _identity.distribution_version()  # "0.2.0" once installed from the wheel
    """
    if DISTRIBUTION is None:
        return None
    from importlib import metadata

    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return None
