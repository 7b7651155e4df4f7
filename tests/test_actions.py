"""A GitHub Action's inputs (``action.yml``) are a configuration where the
docs name three of them: each with its default, an input no doc describes
undocumented; never a YAML file that runs nothing, and never a setting of
the command line by a shared name."""

from __future__ import annotations

from helpers import by_key, check_project

_ACTION = """name: shop
description: Builds the shop
inputs:
  package-dir:
    description: Where the package is
    required: false
    default: .
  output-dir:
    description: Where the wheels go
    required: false
    default: wheelhouse
  verbose:
    description: How much to say
    required: false
    default: "1"
  only:
    description: Build one wheel only
    required: false
    default: ''
runs:
  using: composite
  steps:
    - run: shop --output-dir ${{ inputs.output-dir }}
      shell: bash
"""

_PAGE = """# The GitHub Action

## Inputs

- `package-dir`: where the package is. Default: `.`
- `output-dir`: where the wheels go. Default: `dist`
- `verbose`: how much to say. Default: `1`
- `only`: the one wheel to build. Default: `all`
"""

_CLI_PAGE = """# Command line

- `--verbose`: how much to say.
- `--output-dir`: where the wheels go.
- `--color`: colors.
"""

_CLI = """
import argparse


def main(argv=None):
    parser = argparse.ArgumentParser(prog="shop")
    parser.add_argument("--verbose", type=int, default=0, help="how much to say")
    parser.add_argument("--output-dir", default="wheelhouse", help="where wheels go")
    parser.add_argument("--color", action="store_true", help="colors")
    return parser.parse_args(argv)
"""


def _check(tmp_path, action: str = _ACTION, page: str = _PAGE):
    files = {
        "action.yml": action,
        "docs/github-action.md": page,
        "docs/cli.md": _CLI_PAGE,
        "shop/cli.py": _CLI,
        "shop/__main__.py": "from shop.cli import main\n\nmain()\n",
        "pyproject.toml": '[project]\nname = "shop"\n\n[project.scripts]\nshop = "shop.cli:main"\n',
    }
    return check_project(tmp_path, files, "shop")


def test_an_actions_inputs_are_a_configuration_its_page_documents(tmp_path) -> None:
    analysis, findings = _check(tmp_path)
    (action,) = [s for s in analysis.everything if s.schema.model_kind == "action"]
    assert sorted(action.schema.children) == ["only", "output-dir", "package-dir", "verbose"]
    assert action.schema.children["verbose"].location.line == 12
    found = by_key(findings)
    assert "`dist`" in found[("CD104", "output-dir")].message.replace('"', "`")
    # An input the file gives no default (or an empty one, which a step may
    # read as anything) says nothing of the docs' default.
    assert not [k for c, k in found if c == "CD104" and k != "output-dir"]


def test_an_inputs_name_links_it_to_no_flag(tmp_path) -> None:
    """``verbose: "1"`` is what the action's step turns into flags, not the
    command line's ``--verbose`` with another default."""
    analysis, findings = _check(tmp_path)
    assert {s.schema.model_kind for s in analysis.everything} >= {"argparse", "action"}
    assert not [f for f in findings if f.code.startswith("CD6")]


def test_a_yaml_file_that_runs_nothing_is_no_action(tmp_path) -> None:
    action = _ACTION.split("runs:")[0]
    analysis, _ = _check(tmp_path, action)
    assert not [s for s in analysis.everything if s.schema.model_kind == "action"]


def test_an_action_whose_inputs_the_docs_do_not_name_is_none(tmp_path) -> None:
    page = _PAGE.split("- `output-dir`")[0]
    analysis, _ = _check(tmp_path, page=page)
    assert not [s for s in analysis.everything if s.schema.model_kind == "action"]


def test_an_input_no_doc_describes_is_undocumented_unless_deprecated(tmp_path) -> None:
    action = _ACTION.replace(
        "  only:\n", "  extras:\n    description: What to install\n    default: ''\n  only:\n"
    )
    _, findings = _check(tmp_path, action)
    assert by_key(findings)[("CD103", "extras")].location.path == "action.yml"
    action = action.replace(
        "    description: What to install\n",
        "    description: What to install\n    deprecationMessage: use only\n",
    )
    analysis, findings = _check(tmp_path, action)
    (surface,) = [s for s in analysis.everything if s.schema.model_kind == "action"]
    assert surface.schema.children["extras"].deprecated
    assert ("CD103", "extras") not in by_key(findings)
