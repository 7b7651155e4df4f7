"""The files of a project, sorted by what an analysis reads them for:
the code, the docs, example and config files, templates and the rest of
a package's files (``discover`` makes them)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Sources:
    python: list[str]
    docs: list[str]
    docs_explicit: bool
    missing_docs: list[str]
    #: JSON and YAML files: the candidates for config files of the project.
    configs: list[str]
    #: Markdown pages outside ``docs`` that may still show example configs.
    examples: list[str]
    #: Files the configuration names as config files (``config-files``): read
    #: whatever their shape.
    declared_configs: list[str] = field(default_factory=list)
    #: ``config-files`` patterns that match no file.
    missing_configs: list[str] = field(default_factory=list)
    #: Python files that are not the code (tests, examples, scripts): their
    #: config dicts are example configs.
    py_examples: list[str] = field(default_factory=list)
    #: Example environment files (``.env.example``): the variables a
    #: deployment is shown to set.
    env_examples: list[str] = field(default_factory=list)
    #: Folders that could not be listed (no permission): skipped, with a note.
    unreadable: list[str] = field(default_factory=list)
    #: TOML and INI files inside folders (not tests): with the JSON and YAML
    #: files, the candidates for a package's file of defaults.
    data_files: list[str] = field(default_factory=list)
    #: The options files of Sphinx HTML themes (``theme.conf``,
    #: ``theme.toml``) and the templates beside and below them, which read
    #: the options as ``theme_<name>``.
    themes: list[str] = field(default_factory=list)
    templates: list[str] = field(default_factory=list)
    #: The templates inside the code's folders (``.html``, ``.jinja``,
    #: ``.j2``), which read the keys of the contexts they are rendered with.
    rendered: list[str] = field(default_factory=list)
    #: Shell scripts (not tests, not a tool's hidden folder): the command
    #: lines a reader copies, judged where they run the project's program.
    scripts: list[str] = field(default_factory=list)
    #: The other files inside the code's top folders (a package's data:
    #: templates of any markup, schemas, scripts): a key read there is
    #: spelt there, whatever reads the file.
    package_data: list[str] = field(default_factory=list)

    def read(self) -> list[str]:
        """Every file an analysis of these sources reads, once each, sorted."""
        return sorted(
            {
                *self.python,
                *self.docs,
                *self.configs,
                *self.examples,
                *self.declared_configs,
                *self.py_examples,
                *self.env_examples,
                *self.data_files,
                *self.themes,
                *self.templates,
                *self.scripts,
                *self.package_data,
            }
        )
