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


def test_an_input_kept_for_internal_use_is_no_setting(tmp_path) -> None:
    action = _ACTION.replace(
        "  only:\n",
        "  expected-code:\n    description: (Internal use only) What the self-test expects.\n"
        "    default: '0'\n  extras:\n    description: What the internal installer adds\n"
        "    default: ''\n"
        "  only:\n",
    )
    analysis, findings = _check(tmp_path, action)
    (surface,) = [s for s in analysis.everything if s.schema.model_kind == "action"]
    assert "expected-code" not in surface.schema.children
    undocumented = {key for code, key in by_key(findings) if code == "CD103"}
    assert undocumented == {"extras"}


_STEP = """# Use it

Add a step to your workflow:

```yaml
- uses: actions/checkout@v4
  with:
    fetch-depth: 0
- uses: shop/shop@v1
  with:
    package-dir: src
    output-dir: out
```
"""


def test_inputs_a_step_of_the_docs_sets_under_with_document_the_action(tmp_path) -> None:
    # ``verbose`` is named in prose only; ``only`` is a key of another
    # config the page shows, not set under a step's ``with:``.
    page = _STEP + "\nSet `verbose` to hear more.\n\n```yaml\nbuild:\n  only: all\n```\n"
    analysis, findings = _check(tmp_path, page=page)
    (action,) = [s for s in analysis.everything if s.schema.model_kind == "action"]
    found = {key for code, key in by_key(findings) if code == "CD103"}
    # Set in the step (though no prose names them), or named in prose:
    # shown; the other is undocumented. Another action's input is none of
    # its.
    assert "only" in found
    assert not found & {"package-dir", "output-dir", "verbose", "fetch-depth"}
    assert action.schema.child("fetch-depth") is None


def test_one_input_set_of_two_is_no_evidence_of_an_action(tmp_path) -> None:
    two = _ACTION.split("  verbose:")[0] + "runs:" + _ACTION.split("runs:")[1]
    one = _STEP.replace("    output-dir: out\n", "")
    analysis, _ = _check(tmp_path, two, one)
    assert not [s for s in analysis.everything if s.schema.model_kind == "action"]
    analysis, _ = _check(tmp_path, two, _STEP)
    assert [s for s in analysis.everything if s.schema.model_kind == "action"]


def test_an_action_of_the_projects_own_ci_is_no_surface(tmp_path) -> None:
    import subprocess

    files = {
        "action.yml": _ACTION,
        ".github/actions/shop/action.yml": _ACTION,
        "docs/github-action.md": _STEP,
        "shop/cli.py": _CLI,
    }
    from helpers import make_project

    make_project(tmp_path, files)
    # A repository: git lists the files under ``.github/``.
    subprocess.run(["git", "-C", str(tmp_path), "init", "-q"], check=True)
    subprocess.run(["git", "-C", str(tmp_path), "add", "-A"], check=True)
    analysis, _ = check_project(tmp_path, files, "shop")
    actions = [s for s in analysis.everything if s.schema.model_kind == "action"]
    assert [s.schema.model_location.path for s in actions] == ["action.yml"]
