"""The Sphinx extension: ``extensions = ["configdrift.sphinx"]`` in
``conf.py`` checks the project while its docs are built.

Each finding at or above the project's ``fail-on`` is a build warning at
its doc page and line (``sphinx-build -W`` then fails on drift); the
others are logged as information. ``configdrift_root`` (relative to the
folder of ``conf.py``) names the project when it is not the first folder
up from there that holds a ``pyproject.toml``, a ``configdrift.toml`` or
``.git``; ``configdrift_enabled = False`` turns the check off.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from configdrift.version import __version__


def setup(app: Any) -> dict[str, Any]:
    """Register the extension's settings and its check."""
    app.add_config_value("configdrift_root", None, "env", [str, type(None)])
    app.add_config_value("configdrift_enabled", True, "env", [bool])
    app.connect("env-check-consistency", _check)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}


def _check(app: Any, env: Any) -> None:
    from sphinx.util import logging

    from configdrift.config import ConfigError
    from configdrift.docs_build import build_findings, project_root

    logger = logging.getLogger("configdrift")
    if not app.config.configdrift_enabled:
        return
    root = project_root(Path(app.confdir), app.config.configdrift_root)
    try:
        findings, messages = build_findings(root, Path(app.srcdir))
    except ConfigError as exc:
        logger.warning("configdrift: %s", exc, type="configdrift", subtype="config")
        return
    for message in messages:
        logger.info(message)
    for finding in findings:
        docname = env.path2doc(str(finding.path))
        location: Any = (docname, finding.line) if docname else f"{finding.path}:{finding.line}"
        if finding.fails:
            logger.warning(finding.text, location=location, type="configdrift", subtype="drift")
        else:
            logger.info(finding.text, location=location)
