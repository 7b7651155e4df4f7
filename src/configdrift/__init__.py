"""configdrift: keep config docs, config schema and config-reading code in agreement.

The library API (the command line is a layer over it)::

    import configdrift

    report = configdrift.check(["."])
    for finding, place in zip(report.findings, report.places):
        print(f"{finding.location}:{place.column} {finding.code} {finding.message}")
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from configdrift.version import __version__

__all__ = ["ConfigError", "Finding", "Report", "SurfaceCount", "__version__", "check"]

if TYPE_CHECKING:
    from configdrift.api import ConfigError, Report, SurfaceCount, check
    from configdrift.model import Finding


def __getattr__(name: str) -> Any:
    # Imported on first use: ``configdrift --version`` and the worker
    # processes do not pay for the analysis modules.
    if name in ("ConfigError", "Report", "SurfaceCount", "check"):
        from configdrift import api

        return getattr(api, name)
    if name == "Finding":
        from configdrift.model import Finding

        return Finding
    raise AttributeError(f"module 'configdrift' has no attribute {name!r}")
