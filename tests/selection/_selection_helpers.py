"""Reading the REPORT of a selection child (see conftest.Runner)."""

from __future__ import annotations


def plugins_by_name(report):
    """``{name: plugin dict}`` from a child's ``dyng.config()``."""
    return {plugin["name"]: plugin for plugin in report["config"]["plugins"]}


def backend_warnings(report):
    """The messages of the BackendWarnings a child saw."""
    return [w["message"] for w in report["warnings"] if w["category"] == "BackendWarning"]
