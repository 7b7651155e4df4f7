"""The MkDocs plugin: ``plugins: [configdrift]`` in ``mkdocs.yml`` checks
the project while its docs are built.

Each finding at or above the project's ``fail-on`` is a build warning
that names its doc page and line (``strict: true`` then fails the build
on drift); the others are logged as information. The option ``root``
(relative to the folder of ``mkdocs.yml``) names the project when it is
not the one ``configdrift check`` finds from there (``api.project_of``);
``enabled: false`` turns the check off.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mkdocs.config import config_options
from mkdocs.config.base import Config
from mkdocs.plugins import BasePlugin

log = logging.getLogger("mkdocs.plugins.configdrift")


class ConfigdriftConfig(Config):  # type: ignore[no-untyped-call]
    root = config_options.Optional(config_options.Type(str))
    enabled = config_options.Type(bool, default=True)


class ConfigdriftPlugin(BasePlugin[ConfigdriftConfig]):  # type: ignore[no-untyped-call]
    """Check the project once per build, before the pages are written."""

    def on_pre_build(self, *, config: Any) -> None:
        from configdrift.config import ConfigError
        from configdrift.docs_build import build_findings, project_root, relative_to

        if not self.config.enabled:
            return
        site = Path(config.config_file_path or ".").parent
        root = project_root(site, self.config.root)
        docs = Path(config.docs_dir)
        try:
            findings, messages = build_findings(root, docs)
        except ConfigError as exc:
            log.warning("configdrift: %s", exc)
            return
        for message in messages:
            log.info(message)
        named = _shown(docs.resolve(), relative_to(root))
        for finding in findings:
            # At its own place, said once; the other places follow it.
            own, line, _ = finding.places[0]
            text = f"{named(own)}:{line}: {finding.text((own, line), named)}"
            if finding.fails:
                log.warning(text)
            else:
                log.info(text)


def _shown(docs: Path, elsewhere: Callable[[Path], str]) -> Callable[[Path], str]:
    """A page as MkDocs names it (relative to ``docs_dir``), any other
    file from the project's root."""

    def shown(path: Path) -> str:
        return path.relative_to(docs).as_posix() if path.is_relative_to(docs) else elsewhere(path)

    return shown
