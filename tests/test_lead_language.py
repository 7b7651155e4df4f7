"""An untagged block takes the language of the config file the paragraph
before it names ("You can switch it on in ``pytest.ini``::"), or of the
format it names ("this YAML:"): its keys are an example's."""

from __future__ import annotations

import json

from configdrift.extract.docs.leads import lead_language
from configdrift.extract.docs.markdown import extract_markdown
from configdrift.extract.docs.rst import extract_rst
from helpers import make_project, strict_model


def test_a_lead_gives_the_language_of_the_file_or_format_it_names() -> None:
    assert lead_language("You can switch it on in `pytest.ini`:") == "ini"
    assert lead_language("Add this to your ``.coveragerc``:") == "ini"
    assert lead_language("Put it in setup.cfg or tox.ini:") == "ini"
    assert lead_language("This .ini example:") == "ini"
    assert lead_language("In ``pyproject.toml``:") == "toml"
    assert lead_language("Write this to `app.yml`:") == "yaml"
    assert lead_language("Or write this YAML:") == "yaml"


def test_a_lead_that_names_no_one_language_gives_none() -> None:
    # No file, no format.
    assert lead_language("Here is an example profile:") == ""
    # Two files of two languages: which the block is, is not known.
    assert lead_language("Put it in setup.cfg or pyproject.toml:") == ""
    # The file is named in an earlier sentence, not the one that leads in.
    assert lead_language("A profile is a YAML file. Here is one:") == ""
    # A paragraph that does not lead into the block (no colon at its end).
    assert lead_language("Settings live in `pytest.ini`.") == ""
    # A file of a path or an address is not named alone; ``yaml`` in small
    # letters is a word of the sentence, not the format.
    assert lead_language("See https://example.org/a.json for this:") == ""
    assert lead_language("The yaml loader reads this:") == ""


_RST = """\
Usage
=====

{lead}::

    [pytest]
    fail_on_vars = true
"""


def _blocks(facts) -> list[tuple[str, list[tuple[str, ...]]]]:
    return [(b.lang, [k.path for k in b.keys]) for b in facts.blocks]


def test_an_rst_literal_block_after_a_lead_naming_its_file_is_read() -> None:
    page = _RST.format(lead="You can switch it on in ``pytest.ini``").encode()
    assert _blocks(extract_rst(page)) == [("ini", [("pytest",), ("pytest", "fail_on_vars")])]
    # Without the lead the block's language is not known: it is not read.
    assert _blocks(extract_rst(_RST.format(lead="Like so").encode())) == []


def test_a_guessed_block_that_does_not_parse_is_no_unparseable_example() -> None:
    broken = "Usage\n=====\n\nIn ``app.yaml``::\n\n    a: [1, 2\n    b: 3\n"
    assert _blocks(extract_rst(broken.encode())) == []
    # A block the page tags as YAML is judged unparseable, as before.
    tagged = "Usage\n=====\n\n.. code-block:: yaml\n\n    a: [1, 2\n    b: 3\n"
    assert [b.error is not None for b in extract_rst(tagged.encode()).blocks] == [True]


def test_a_markdown_untagged_fence_after_a_lead_naming_its_file_is_read() -> None:
    page = "# Usage\n\nAdd this to your `tox.ini`:\n\n```\n[testenv]\ndeps = pytest\n```\n"
    assert _blocks(extract_markdown(page.encode())) == [
        ("ini", [("testenv",), ("testenv", "deps")])
    ]
    plain = page.replace("Add this to your `tox.ini`:", "Like so:")
    assert _blocks(extract_markdown(plain.encode())) == []
    # A guessed block that does not parse is no unparseable example.
    broken = "# Usage\n\nIn `app.yaml`:\n\n```\na: [1, 2\nb: 3\n```\n"
    assert _blocks(extract_markdown(broken.encode())) == []
    tagged = broken.replace("```\na:", "```yaml\na:")
    assert [b.error is not None for b in extract_markdown(tagged.encode()).blocks] == [True]


_PAGE = """\
# Configuration

<i>**m**</i>: [dictionary]

<i>**m:a**</i>: [integer]

<i>**m:b**</i>: [integer]

{lead}

```
m:
  a: 1
  grad_hooks: true
```
"""


def test_a_key_a_guessed_example_sets_is_judged(cli, tmp_path) -> None:
    files = strict_model("a: int = 1", "b: int = 2")
    page = _PAGE.format(lead="Put this in your `config.yaml`:")
    make_project(tmp_path, {**files, "docs/config.md": page})
    result = cli("check", str(tmp_path), "--format", "json", "--select", "CD30")
    found = [(f["code"], f["key"], f["line"]) for f in json.loads(result.out)["findings"]]
    assert found == [("CD301", "m.grad_hooks", 14)]
    # The same block after a paragraph that names no file is not read.
    make_project(tmp_path, {**files, "docs/config.md": _PAGE.format(lead="Like so:")})
    result = cli("check", str(tmp_path), "--format", "json", "--select", "CD30")
    assert json.loads(result.out)["findings"] == []


_SNIFFED = "host: 0.0.0.0\nport: 9000\n# a comment\nworkers:\n  - 2\n"


def test_an_untagged_block_that_is_a_yaml_config_is_read_as_yaml() -> None:
    from configdrift.extract.docs.python_config import yaml_config

    assert yaml_config(_SNIFFED)
    # A ``--help`` output and commit messages give their keys prose alone.
    assert not yaml_config("Usage: app [OPTIONS]\n\nOptions:\n  --help  Show this.\n")
    assert not yaml_config("fix: a bug\nfeat: a feature\n")
    # A key without a value is no structure either.
    assert not yaml_config("name: shop\nsummary:\n")
    # One key, a line at the left that is no key, a block that does not parse.
    assert not yaml_config("port: 9000\n")
    assert not yaml_config("Server name: shop\nport: 9000\n")
    assert not yaml_config("port: 9000\nworkers: [2\n")


def test_an_untagged_yaml_config_of_a_page_is_an_example() -> None:
    rst = "Example\n=======\n\nLike so::\n\n" + "".join(
        f"    {line}\n" for line in _SNIFFED.splitlines()
    )
    markdown = f"# Example\n\nLike so:\n\n```\n{_SNIFFED}```\n"
    expected = [("yaml", [("host",), ("port",), ("workers",)])]
    assert _blocks(extract_rst(rst.encode())) == expected
    assert _blocks(extract_markdown(markdown.encode())) == expected
    # A block the page tags as text stays text.
    text = markdown.replace("```\nhost", "```text\nhost")
    assert _blocks(extract_markdown(text.encode())) == []


def test_an_untagged_yaml_example_of_a_strict_model_is_judged(tmp_path) -> None:
    from helpers import check_project

    settings = (
        "import yaml\nfrom pydantic import BaseModel, ConfigDict\n\n\n"
        "class Settings(BaseModel):\n"
        '    model_config = ConfigDict(extra="forbid")\n\n'
        '    host: str = "127.0.0.1"\n    port: int = 8000\n    workers: int = 4\n\n\n'
        "def load(path):\n    with open(path) as fh:\n        return Settings(**yaml.safe_load(fh))\n"
    )
    page = (
        "Configuration\n=============\n\nhost\n   The address.\n\nport\n   The port.\n\n"
        "workers\n   How many.\n\nExample::\n\n    host: 0.0.0.0\n    port: 9000\n    wrokers: 2\n"
    )
    files = {"app/__init__.py": "", "app/settings.py": settings, "docs/configuration.rst": page}
    _, findings = check_project(tmp_path, files, "app")
    assert [(f.code, f.key, f.location.line) for f in findings if f.code == "CD301"] == [
        ("CD301", "wrokers", 17)
    ]
