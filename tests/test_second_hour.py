"""What a user learns in the second hour on a real project: the command
line is the package's, not a release script's; a reference rendered from
the parser needs no comparison; reference pages no configuration explains
are named; a TypedDict's keys are read as a dict's."""

from __future__ import annotations

import json

from helpers import by_key, check_project, make_project

_PACKAGE_CLI = """
import click


@click.command()
@click.option("--host", default="localhost", help="The address.")
@click.option("--port", default=8000, help="The port.")
@click.option("--reload", is_flag=True, help="Reload on change.")
@click.option("--workers", default=1, help="Worker processes.")
def main(host, port, reload, workers):
    return host, port, reload, workers
"""

_RELEASE_SCRIPT = """
import click


@click.command()
@click.option("--sign", is_flag=True)
@click.option("--notarize", is_flag=True)
@click.option("--upload", is_flag=True)
def build(sign, notarize, upload):
    return sign, notarize, upload
"""

_RUNS = '\n\nif __name__ == "__main__":\n    build()\n'


def test_a_script_outside_the_packages_is_no_part_of_the_command_line(tmp_path) -> None:
    analysis, _ = check_project(
        tmp_path,
        {"release/build_pkg.py": _RELEASE_SCRIPT + _RUNS, "app/cli.py": _PACKAGE_CLI},
        "app",
    )
    keys = set(analysis.schema.children)
    assert {"host", "port", "reload", "workers"} <= keys
    assert not keys & {"sign", "notarize", "upload"}
    assert analysis.schema.model_location.path == "app/cli.py"


def test_a_plugin_of_a_namespace_package_is_no_script(tmp_path) -> None:
    """Negative case: ``plugins/`` holds no ``__init__.py`` and the module
    does not run itself: it is imported (by name, at runtime)."""
    analysis, _ = check_project(
        tmp_path, {"plugins/release.py": _RELEASE_SCRIPT, "app/cli.py": _PACKAGE_CLI}, "app"
    )
    assert {"host", "sign", "upload"} <= set(analysis.schema.children)


def test_a_script_counts_where_the_packages_declare_no_command_line(tmp_path) -> None:
    """Negative case: the script is the only command line there is."""
    analysis, _ = check_project(
        tmp_path, {"release/build_pkg.py": _RELEASE_SCRIPT + _RUNS, "app/core.py": "X = 1\n"}, "app"
    )
    assert {"sign", "notarize", "upload"} <= set(analysis.schema.children)


_GENERATED = "# Command line\n\n::: mkdocs-click\n    :module: app.cli\n    :command: main\n"


def test_a_rendered_reference_is_counted_and_no_thin_run(cli, tmp_path) -> None:
    options = "".join(
        f'@click.option("--opt-{n}", default={n}, help="Option {n}.")\n' for n in range(12)
    )
    code = f"import click\n\n\n@click.command()\n{options}def main(**kw):\n    return kw\n"
    make_project(tmp_path, {"app/__init__.py": "", "app/cli.py": code, "docs/cli.md": _GENERATED})
    result = cli("check", str(tmp_path))
    assert "rendered at build time: 12" in result.out
    assert "compared" not in result.err
    report = json.loads(cli("check", str(tmp_path), "--format", "json").out)
    assert report["summary"]["keys"]["rendered"] == 12
    assert report["summary"]["thin"] is False
    # Negative case: without the rendering page nothing is rendered.
    (tmp_path / "docs" / "cli.md").write_text("# Command line\n\nRun `app`.\n")
    plain = json.loads(cli("check", str(tmp_path), "--format", "json").out)
    assert plain["summary"]["keys"]["rendered"] == 0


_PAGES_NO_CODE_EXPLAINS = {
    "app/__init__.py": "",
    "app/config.py": """
        import json

        from pydantic import BaseModel, ConfigDict


        class Config(BaseModel):
            model_config = ConfigDict(extra="forbid")
            name: str = "app"
            debug: bool = False
            port: int = 80


        def load(path):
            return Config(**json.load(open(path)))
        """,
    "docs/config.md": (
        "# Config\n\n- `name` (str): the name.\n- `debug` (bool): debug.\n"
        "- `port` (int): the port.\n"
    ),
    "docs/build-config.md": "# Build options\n\n"
    + "".join(f"- `target_{n}` (str): target {n}.\n" for n in range(6)),
}


def test_reference_pages_no_configuration_explains_are_named(cli, tmp_path) -> None:
    make_project(tmp_path, _PAGES_NO_CODE_EXPLAINS)
    result = cli("check", str(tmp_path))
    assert "6 entries of pages that look like configuration references" in result.err
    assert "docs/build-config.md (6 entries)" in result.err
    # Negative case: a page of two entries is too little to say so.
    (tmp_path / "docs" / "build-config.md").write_text(
        "# Build options\n\n- `target_1` (str): one.\n- `target_2` (str): two.\n"
    )
    assert "look like configuration references" not in cli("check", str(tmp_path)).err


_TYPED = """
from typing import TypedDict


class UserSettings(TypedDict, total=False):
    logLevel: str
    \"\"\"The log level.\"\"\"

    path: list[str]
    \"\"\"The executable.\"\"\"

    showErrors: bool
    \"\"\"Show syntax errors.\"\"\"

    unused: bool
    \"\"\"Nothing reads it.\"\"\"


class WorkspaceSettings(UserSettings):
    cwd: str
"""

_TYPED_READS = """
from app.settings import UserSettings, WorkspaceSettings

GLOBAL_SETTINGS: UserSettings = {}


def defaults():
    return GLOBAL_SETTINGS.get("logLevel", "error")


def lint(settings: WorkspaceSettings):
    if settings.get("showErrors", True):
        return settings["path"], settings["cwd"]
"""

_TYPED_DOC = """
# Settings

- `logLevel` (str): the log level. Default: `error`.
- `path` (list): the executable.
- `showErrors` (bool): show syntax errors. Default: `true`.
- `unused` (bool): nothing reads it.
"""


def test_a_typed_dicts_keys_are_read_as_a_dicts(tmp_path) -> None:
    analysis, findings = check_project(
        tmp_path,
        {"app/settings.py": _TYPED, "app/server.py": _TYPED_READS, "docs/settings.md": _TYPED_DOC},
        "app",
        mount={"": "app.settings:UserSettings"},
    )
    found = by_key(findings)
    # Read through an annotated parameter and an annotated global.
    for key in ("logLevel", "path", "showErrors"):
        assert ("CD202", key) not in found
    # Negative case: a key nothing reads is still inert.
    assert ("CD202", "unused") in found
    # A key only the extending TypedDict declares is not the settings'.
    assert "cwd" not in analysis.schema.children
    assert ("CD103", "cwd") not in found


_GATEWAY = """
def make_gateway(options: dict):
    provider = options.get("provider", "stripe")
    retries = options.get("retries", 3)
    return provider, retries, configure(options)


def configure(options):
    return options.get("sandbox", True)


def unused(options):
    return options
"""

_GATEWAY_DOC = """
# Payments

- `provider` (str): the provider. Default: `stripe`.
- `retries` (int): retries of a failed call. Default: `5`.
- `sandbox` (bool): test mode. Default: `true`.
"""


def test_a_surface_can_be_a_dict_a_function_reads_key_by_key(tmp_path) -> None:
    from configdrift.config import Config
    from configdrift.engine import analyse
    from configdrift.rules.run import run_rules

    make_project(
        tmp_path,
        {"app/__init__.py": "", "app/payments.py": _GATEWAY, "docs/payments.md": _GATEWAY_DOC},
    )
    wanted = {"payments": ("app.payments:make_gateway.options", ("docs/payments.md",))}
    analysis = analyse(Config(root=tmp_path, surfaces=wanted), jobs=1)
    payments = next(s for s in analysis.everything if s.surface == "payments")
    # Read in the function and in the helper it hands the dict to.
    assert set(payments.schema.children) == {"provider", "retries", "sandbox"}
    found = by_key(f for f in run_rules(analysis) if f.surface == "payments")
    assert ("CD104", "retries") in found
    assert ("CD102", "sandbox") not in found


def test_a_dict_surface_that_reads_nothing_is_a_configuration_error(tmp_path) -> None:
    """Negative case: the parameter is handed on whole, never read."""
    import pytest

    from configdrift.config import Config, ConfigError
    from configdrift.engine import analyse

    make_project(tmp_path, {"app/__init__.py": "", "app/payments.py": _GATEWAY})
    wanted = {"payments": ("app.payments:unused.options", ())}
    with pytest.raises(ConfigError, match="the code reads no key of it"):
        analyse(Config(root=tmp_path, surfaces=wanted), jobs=1)


def test_a_typed_dict_the_docs_document_is_a_surface_without_configuration(tmp_path) -> None:
    analysis, findings = check_project(
        tmp_path,
        {"app/settings.py": _TYPED, "app/server.py": _TYPED_READS, "docs/settings.md": _TYPED_DOC},
        "app",
    )
    surface = next(s for s in analysis.everything if s.surface == "UserSettings")
    assert "a TypedDict the code reads as a dict" in surface.how
    found = by_key(f for f in findings if f.surface == "UserSettings")
    assert ("CD202", "unused") in found and ("CD202", "logLevel") not in found
    assert "cwd" not in surface.schema.children


def test_a_typed_dicts_key_a_template_of_the_package_reads_is_read(tmp_path) -> None:
    """``{{ unused }}`` in a template beside the code: the template reads the
    context's key; one in a test's template, or none, leaves it unread."""
    files = {
        "app/settings.py": _TYPED,
        "app/server.py": _TYPED_READS,
        "docs/settings.md": _TYPED_DOC,
    }
    template = "<p>{{ unused }}</p>\n"
    _, findings = check_project(
        tmp_path / "a", {**files, "app/templates/page.html": template}, "app"
    )
    assert ("CD202", "unused") not in by_key(f for f in findings if f.surface == "UserSettings")
    _, findings = check_project(tmp_path / "b", {**files, "tests/page.html": template}, "app")
    assert ("CD202", "unused") in by_key(f for f in findings if f.surface == "UserSettings")


def test_a_typed_dict_no_page_documents_or_no_code_reads_is_no_surface(tmp_path) -> None:
    """Negative cases: the same TypedDict without its page, and with its
    page but annotated nowhere."""
    undocumented, _ = check_project(
        tmp_path / "a", {"app/settings.py": _TYPED, "app/server.py": _TYPED_READS}, "app"
    )
    assert all(s.surface != "UserSettings" for s in undocumented.everything)
    unread, _ = check_project(
        tmp_path / "b", {"app/settings.py": _TYPED, "docs/settings.md": _TYPED_DOC}, "app"
    )
    assert all(s.surface != "UserSettings" for s in unread.everything)


_SITE = """
site_name: app
markdown_extensions:
  - pymdownx.superfences:
      custom_fences:
        - name: mermaid
          format: !!python/name:pymdownx.superfences.fence_code_format
nav:
  - Home: index.md
  - Reference:
      - reference/cli.md
      - reference/configuration.md
  - Changelog: changelog.md
  - Sponsor: https://example.org/sponsor.md
"""


def test_reference_pages_built_with_the_site_are_named(cli, tmp_path) -> None:
    """The nav lists pages the tree does not hold (a hook writes them when
    the site is built): the run says they were not compared."""
    make_project(
        tmp_path,
        {
            "mkdocs.yml": _SITE,
            "docs/index.md": "# App\n",
            "docs/reference/cli.md": "# CLI\n",
            "app/__init__.py": "",
        },
    )
    err = cli("check", str(tmp_path)).err
    assert (
        "configdrift: docs/reference/configuration.md is in mkdocs.yml's nav but not in the "
        "tree: a page generated when the site is built is not compared." in err
    )
    # Negative cases: a page that is there (cli.md), a missing page that is
    # no reference (changelog.md), a link out of the site.
    assert "cli.md is" not in err and "changelog" not in err and "sponsor" not in err


def test_a_list_of_names_is_written_out_with_how_many_more() -> None:
    from configdrift.wording import listed

    assert listed(["a"]) == "a"
    assert listed(["a", "b"]) == "a and b"
    assert listed(["a", "b", "c"]) == "a, b and c"
    assert listed(["a", "b", "c", "d", "e"]) == "a, b, c and 2 more"


def test_a_nav_page_outside_the_tree_is_not_looked_at(tmp_path) -> None:
    from configdrift.site_pages import built_pages

    nav = "site_name: app\nnav:\n  - reference/configuration.md\n  - ../../outside/reference/options.md\n"
    make_project(tmp_path, {"mkdocs.yml": nav, "docs/index.md": "# App\n"})
    assert built_pages(tmp_path) == ["docs/reference/configuration.md"]
    # A docs folder out of the tree holds none of its pages.
    outside = nav.replace("nav:", "docs_dir: ../site\nnav:")
    make_project(tmp_path, {"mkdocs.yml": outside})
    assert built_pages(tmp_path) == []
