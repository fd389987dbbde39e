"""The wheel driver's library: toolchain providers, rendering, repair, checks (issue 4).

``ci/build.py`` is the command; this package holds its parts so that tests can call each one.
"""
