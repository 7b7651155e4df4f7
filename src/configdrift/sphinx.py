"""The Sphinx extension: ``extensions = ["configdrift.sphinx"]`` in
``conf.py`` checks the project while its docs are built.

Each finding at or above the project's ``fail-on`` is a build warning at
its doc page and line (``sphinx-build -W`` then fails on drift); the
others are logged as information. ``configdrift_root`` (relative to the
folder of ``conf.py``) names the project when it is not the one
``configdrift check`` finds from there (``api.project_of``);
``configdrift_enabled = False`` turns the check off.
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
    from configdrift.docs_build import build_findings, project_root, relative_to

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
    shown = relative_to(root)
    for finding in findings:
        docname = env.path2doc(str(finding.path))
        location: Any = (
            (docname, finding.line) if docname else f"{shown(finding.path)}:{finding.line}"
        )
        text = finding.text((finding.path, finding.line), shown)
        if finding.fails or finding.code == _PARSE_PROBLEM:
            # A page configdrift could not read is said whatever fail-on
            # is: a build that reads nothing must not pass in silence.
            logger.warning(text, location=location, type="configdrift", subtype="drift")
        else:
            logger.info(text, location=location)


#: The code of a file that could not be read.
_PARSE_PROBLEM = "CD503"
