"""An example block that restates the defaults, as its lead says ("The
default configuration is as follows:") or as its title shows (it is what
a command prints): a value that differs from the code's default is CD104,
where most of the block's values are the code's defaults."""

from __future__ import annotations

import pytest

from configdrift.extract.docs.leads import shown_defaults
from helpers import check_project

_CODE = """
from dataclasses import dataclass
from typing import Optional

import yaml


@dataclass
class Settings:
    name: str = "job"
    workers: int = 4
    timeout: int = 60
    retries: int = 3
    color: bool = True
    cpus: Optional[int] = None
    queue: Optional[str] = None
    label: str = ""


def load(path):
    with open(path) as fh:
        return Settings(**yaml.safe_load(fh))
"""

_ENTRIES = """# Settings

- `name` (str): the job's name.
- `workers` (int): how many workers.
- `timeout` (int): seconds to wait.
- `retries` (int): how many retries.
- `color` (bool): colour the output.
- `cpus` (int): cpus per task.
- `queue` (str): the queue.
- `label` (str): a label.

"""

_BLOCK = """name: job
workers: 4
timeout: 30
retries: 3
color: true
cpus: 2
queue: null
"""


def _restated(tmp_path, page: str, code: str = _CODE) -> dict[str, str]:
    """The CD104 findings of a project whose settings page is ``page``,
    by key, each with its line and message."""
    files = {"pkg/config.py": code, "docs/settings.md": _ENTRIES + page}
    _, findings = check_project(tmp_path, files, "pkg")
    return {f.key: f"{f.location.line}: {f.message}" for f in findings if f.code == "CD104"}


def _fenced(lead: str, block: str = _BLOCK, info: str = "yaml") -> str:
    return f"{lead}\n\n```{info}\n{block}```\n"


def test_a_value_of_a_block_of_the_defaults_that_differs_from_the_code(tmp_path) -> None:
    found = _restated(tmp_path, _fenced("The default configuration is as follows:"))
    assert set(found) == {"timeout", "cpus"}
    assert found["timeout"].startswith("17: `timeout` is 30 in a block the page says lists")
    assert "the code's default is 60" in found["timeout"]
    # ``null`` for the queue's ``None``: the block writes ``None`` so, and
    # a value where the code has ``None`` is no value computed at run time.
    assert "the code's default is None" in found["cpus"]


def test_none_in_the_code_is_not_compared_where_the_block_writes_no_null(tmp_path) -> None:
    block = _BLOCK.replace("queue: null\n", "")
    found = _restated(tmp_path, _fenced("The default configuration is as follows:", block))
    assert set(found) == {"timeout"}


def test_a_block_a_command_prints_compares_none_and_leaves_what_it_sets(tmp_path) -> None:
    block = _BLOCK.replace("queue: null\n", "")
    found = _restated(tmp_path, _fenced("", block, 'yaml title="$ app --print-config"'))
    assert set(found) == {"timeout", "cpus"}
    assert "in what `app --print-config` prints" in found["cpus"]
    # A value the command line sets is what it prints, not a default.
    set_by_command = 'yaml title="$ app --print-config timeout=30"'
    assert set(_restated(tmp_path / "set", _fenced("", block, set_by_command))) == {"cpus"}


def test_an_rst_literal_block_after_a_lead_of_defaults(tmp_path) -> None:
    block = "".join(f"    {line}\n" for line in _BLOCK.splitlines())
    page = f"Settings\n========\n\nThe defaults are:\n\n.. code-block:: yaml\n\n{block}"
    code = _CODE
    files = {"pkg/config.py": code, "docs/settings.rst": page, "docs/list.md": _ENTRIES}
    _, findings = check_project(tmp_path, files, "pkg")
    assert {f.key for f in findings if f.code == "CD104"} == {"timeout", "cpus"}


@pytest.mark.parametrize(
    "lead",
    [
        # An example, with no word that its values are the defaults.
        "Here is an example configuration:",
        # A change of the defaults.
        "To change the default configuration, write:",
        # Not a lead into the block (no colon at its end).
        "The default configuration is below.",
    ],
)
def test_a_block_whose_lead_says_no_defaults_is_not_compared(tmp_path, lead) -> None:
    assert _restated(tmp_path, _fenced(lead)) == {}


def test_a_block_most_of_whose_values_differ_sets_its_own(tmp_path) -> None:
    block = "name: other\nworkers: 8\ntimeout: 30\nretries: 3\ncolor: true\nqueue: null\n"
    assert _restated(tmp_path, _fenced("The default configuration is:", block)) == {}


def test_a_block_of_one_value_equal_and_one_not_is_no_list_of_defaults(tmp_path) -> None:
    block = "name: job\ntimeout: 30\n"
    assert _restated(tmp_path, _fenced("The default configuration is:", block)) == {}


def test_a_value_not_comparable_with_the_code_is_not_judged(tmp_path) -> None:
    # ``1m`` may be a duration the code converts: not comparable with 60.
    block = _BLOCK.replace("timeout: 30", "timeout: 1m")
    found = _restated(tmp_path, _fenced("The default configuration is as follows:", block))
    assert set(found) == {"cpus"}


def test_a_null_for_an_empty_default_is_unset_either_way(tmp_path) -> None:
    block = _BLOCK.replace("cpus: 2\n", "label: null\n")
    found = _restated(tmp_path, _fenced("The default configuration is as follows:", block))
    assert set(found) == {"timeout"}


def test_a_placeholder_stands_for_a_value_and_is_not_compared(tmp_path) -> None:
    block = _BLOCK.replace("name: job", 'name: "<your job>"')
    found = _restated(tmp_path, _fenced("The default configuration is as follows:", block))
    assert set(found) == {"timeout", "cpus"}


def test_a_value_the_code_puts_in_place_of_a_falsy_default(tmp_path) -> None:
    code = _CODE.replace("workers: int = 4", "workers: int = 0")
    code += "\n\ndef pool(settings):\n    return settings.workers or 4\n"
    block = _BLOCK.replace("cpus: 2\n", "")
    found = _restated(tmp_path, _fenced("The default configuration is as follows:", block), code)
    assert set(found) == {"timeout"}


def test_a_lead_says_the_block_holds_the_defaults() -> None:
    for lead in (
        "The default configuration is as follows:",
        "Default configuration:",
        "Here are all the options with their default values:",
        "These entries have the default values:",
        "The defaults are:",
        "A first sentence. The default options look like this:",
    ):
        assert shown_defaults(lead) == "stated", lead
    assert shown_defaults("", 'yaml title="$ app --cfg job"') == "$ app --cfg job"


def test_a_lead_of_a_change_or_of_something_else_says_nothing() -> None:
    for lead in (
        "The benchmark files specify the deltas from the default configuration:",
        "To change the default port, set:",
        "You can override the defaults in your file:",
        "Reset to default settings:",
        "Run with default settings:",
        "If we run the tool with its default settings we get:",
        "Here is an example:",
        "The default is 5.",
        # "default" in an earlier sentence, not the one that leads in.
        "The default is 5. Here is an example:",
    ):
        assert shown_defaults(lead) == "", lead
    # A title that is no command line.
    assert shown_defaults("", 'yaml title="settings.yml"') == ""
