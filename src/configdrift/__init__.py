"""configdrift: keep config docs, config schema and config-reading code in agreement."""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__", "check"]


def check(path: str = ".", **options: object) -> int:
    """Run ``configdrift check`` on ``path``; see :func:`configdrift.cli.check`."""
    from configdrift.cli import check as _check

    return _check(path, **options)  # type: ignore[arg-type]
