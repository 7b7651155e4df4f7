"""A Sphinx ``conf.py`` fragment in the docs (it sets or extends
``extensions``, or a comment names ``conf.py``) is an example of the
settings it assigns in small letters; a key one letter from an option the
extension registers, that no code spells, is ignored (CD302)."""

from __future__ import annotations

from configdrift.extract.docs.python_config import read_settings_module
from helpers import by_key, check_project, make_project


def _keys(text: str) -> list[str] | None:
    read = read_settings_module(text)
    return None if read is None else [key.path[0] for key in read.keys]


def test_a_conf_fragment_sets_settings_in_small_letters() -> None:
    fragment = 'extensions = ["sphinx_foo"]\nfoo_show = True\nfoo_text = "Welcome"\n'
    assert _keys(fragment) == ["foo_show", "foo_text"]
    extended = 'extensions.append("sphinx_foo")\nextensions += ["x"]\nfoo_show = True\n'
    assert _keys(extended) == ["foo_show"]
    commented = '# in your conf.py\nfoo_show = True\nfoo_text = "Welcome"\n'
    assert _keys(commented) == ["foo_show", "foo_text"]


def test_python_in_small_letters_is_no_settings_module() -> None:
    # A tutorial's code: no ``extensions``, no ``conf.py``.
    assert _keys('name = "x"\ncount = 2\n') is None
    # Code beside the assignments is not a conf fragment's settings either.
    assert _keys('extensions = ["a"]\nfoo_show = True\nprint(foo_show)\n') is None
    # ``extensions`` named in the middle of a word or a line is no fragment.
    assert _keys('my_extensions = ["a"]\nfoo_show = True\n') is None


_SETUP = """
def setup(app):
    app.add_config_value("foo_show_banner", True, "html")
    app.add_config_value("foo_banner_text", "Hello", "html")
    app.add_config_value("foo_max_items", 10, "env")
"""

_README = """# sphinx-foo

Add it to your `conf.py`:

```python
extensions = ["sphinx_foo"]
html_theme = "alabaster"
foo_show_banner = True
{key} = "Welcome"
```

## Options

- `foo_show_banner` (default `True`): show a banner.
- `foo_banner_text` (default `"Hello"`): the banner's text.
- `foo_max_items` (default `10`): how many items.
"""


def _found(tmp_path, key: str, **more: str) -> dict:
    files = {"sphinx_foo/__init__.py": _SETUP, "README.md": _README.format(key=key), **more}
    _, findings = check_project(tmp_path, files, "sphinx_foo")
    return by_key(findings)


def test_a_key_one_letter_from_a_registered_one_is_ignored(tmp_path) -> None:
    found = _found(tmp_path, "foo_banner_txt")
    finding = found["CD302", "foo_banner_txt"]
    assert finding.location.path == "README.md" and finding.location.line == 9
    assert finding.suggestion == "did you mean `foo_banner_text`?"
    assert finding.related[0].path == "sphinx_foo/__init__.py"
    # Another tool's setting beside it is not judged: the file is open.
    assert ("CD302", "html_theme") not in found


def test_a_key_some_code_spells_or_far_from_any_is_not_judged(tmp_path) -> None:
    assert not [k for k in _found(tmp_path / "far", "foo_colour") if k[0] == "CD302"]
    spelt = {"sphinx_foo/legacy.py": 'OLD = "foo_banner_txt"\n'}
    assert ("CD302", "foo_banner_txt") not in _found(tmp_path / "spelt", "foo_banner_txt", **spelt)
    # Two registered keys one letter from it: which one is meant is unknown.
    setup = _SETUP + '    app.add_config_value("foo_banner_test", "", "html")\n'
    both = {"sphinx_foo/__init__.py": setup}
    assert ("CD302", "foo_banner_tet") not in _found(tmp_path / "two", "foo_banner_tet", **both)


def test_a_model_open_to_a_base_elsewhere_is_not_judged(tmp_path) -> None:
    # A dataclass whose base is another library's may take ``max_item``
    # from it: a letter off ``max_items`` is no proof of a misspelling.
    code = (
        "from dataclasses import dataclass\n\nfrom otherlib import BaseConfig\n\n\n"
        "@dataclass\nclass Config(BaseConfig):\n"
        "    host: str = 'a'\n    port: int = 1\n    workers: int = 2\n    max_items: int = 3\n\n\n"
        "def load(data):\n    return Config(**data)\n"
    )
    page = (
        "# Configuration\n\n- `host`: the host.\n- `port`: the port.\n- `workers`: workers.\n"
        "- `max_items`: items.\n\n```yaml\nhost: a\nport: 2\nworkers: 3\nmax_item: 4\n```\n"
    )
    files = {"app/config.py": code, "docs/config.md": page}
    analysis, findings = check_project(tmp_path, files, "app", {"": "app.config:Config"})
    assert analysis.schema.strict is None and analysis.blocks
    assert ("CD302", "max_item") not in by_key(findings)


# An option the docs present and the code reads from Sphinx's config,
# that no ``add_config_value`` registers (CD201).

_EXTENSION = """
def on_build(app, exception, self_like=None):
    if app.config.foo_show_banner:
        print(app.config.foo_banner_text, app.config.html_theme)
    print(self_like.app.config.{read})


def setup(app):
{setup}    app.add_config_value("foo_show_banner", True, "html")
    app.add_config_value("foo_banner_text", "Hello", "html")
    app.add_config_value("foo_max_items", 10, "env")
    app.connect("build-finished", on_build)
"""

_OPTIONS = """# Options

- `foo_show_banner` (default `True`): show a banner.
- `foo_banner_text` (default `"Hello"`): the banner's text.
- `foo_max_items` (default `10`): how many items.
- `foo_theme_color` (default `"blue"`): the colour.
- `html_theme`: the theme, as Sphinx takes it.
"""


def _read(tmp_path, read: str = "foo_theme_color", setup: str = "", **more: str) -> dict:
    code = _EXTENSION.format(read=read, setup=setup)
    files = {"sphinx_foo/__init__.py": code, "docs/options.md": _OPTIONS, **more}
    _, findings = check_project(tmp_path, files, "sphinx_foo")
    return by_key(findings)


def test_an_option_read_but_never_registered_fails_at_the_read(tmp_path) -> None:
    found = _read(tmp_path)
    finding = found["CD201", "foo_theme_color"]
    assert finding.severity.value == "error"
    assert (finding.location.path, finding.location.line) == ("sphinx_foo/__init__.py", 5)
    assert "AttributeError" in finding.message
    assert [r.path for r in finding.related] == ["docs/options.md", "sphinx_foo/__init__.py"]
    # Sphinx's own value, documented beside and read: not the extension's.
    assert ("CD201", "html_theme") not in found


def test_an_option_registered_set_or_quoted_is_not_judged(tmp_path) -> None:
    registered = '    app.add_config_value("foo_theme_color", "blue", "html")\n'
    assert ("CD201", "foo_theme_color") not in _read(tmp_path / "registered", setup=registered)
    # Set by the extension itself before it is read.
    written = '    app.config.foo_theme_color = "blue"\n'
    assert ("CD201", "foo_theme_color") not in _read(tmp_path / "written", setup=written)
    # A name the code quotes may be registered or guarded (``hasattr``).
    quoted = {
        "sphinx_foo/guard.py": 'def has(app):\n    return hasattr(app.config, "foo_theme_color")\n'
    }
    assert ("CD201", "foo_theme_color") not in _read(tmp_path / "quoted", **quoted)


def test_a_name_registered_at_run_time_may_be_any(tmp_path) -> None:
    computed = '    for name in NAMES:\n        app.add_config_value(name, None, "html")\n'
    assert ("CD201", "foo_theme_color") not in _read(tmp_path, setup=computed)


def test_a_paragraph_that_leads_into_conf_py_makes_its_block_a_fragment() -> None:
    from configdrift.extract.docs.markdown import extract_markdown
    from configdrift.extract.docs.rst import extract_rst

    markdown = (
        "# X\n\nAdd this to your `conf.py`:\n\n```python\nfoo_show = True\nfoo_text = 'a'\n```\n\n"
        "```python\nname = 'z'\ncount = 1\n```\n\n"  # the block after it is not led into
        "Some code:\n\n```python\nname = 'x'\ncount = 2\n```\n\n"
        "The `conf.py` file is read first.\n\n```python\nname = 'y'\ncount = 3\n```\n"
    )
    blocks = extract_markdown(markdown.encode()).blocks
    assert [[k.path[0] for k in b.keys] for b in blocks] == [["foo_show", "foo_text"]]
    rst = (
        "X\n=\n\nAdd this to your ``conf.py``::\n\n    foo_show = True\n    foo_text = 'a'\n\n"
        "In ``conf.py``:\n\n.. code-block:: python\n\n    foo_max = 3\n    foo_min = 1\n\n"
        "Some code::\n\n    name = 'x'\n    count = 2\n"
    )
    blocks = extract_rst(rst.encode()).blocks
    assert [[k.path[0] for k in b.keys] for b in blocks] == [
        ["foo_show", "foo_text"],
        ["foo_max", "foo_min"],
    ]


_LOOSE = """# sphinx-foo

## Options

- `foo_show_banner` (default `True`): show a banner.
- `foo_banner_text` (default `"Hello"`): the banner's text.
- `foo_max_items` (default `10`): how many items.

To change the text:

```python
foo_show_banner = True
BLOCK
```
"""


def _loose(tmp_path, block: str, setup: str = _SETUP, page: str = _LOOSE, mount=None) -> dict:
    files = {"sphinx_foo/__init__.py": setup, "README.md": page.replace("BLOCK", block)}
    _, findings = check_project(tmp_path, files, "sphinx_foo", mount)
    return by_key(findings)


def test_settings_in_small_letters_with_no_lead_in_that_set_a_registered_key_are_examples(
    tmp_path,
) -> None:
    found = _loose(tmp_path, 'foo_banner_txt = "Welcome"')
    finding = found["CD302", "foo_banner_txt"]
    assert finding.location.line == 13
    assert finding.suggestion == "did you mean `foo_banner_text`?"


def test_small_letters_that_set_no_registered_key_or_compute_a_value_are_no_example(
    tmp_path,
) -> None:
    # No registered key among them: a script's variables.
    alone = _LOOSE.replace("foo_show_banner = True\n", "")
    found = _loose(tmp_path / "alone", 'foo_banner_txt = "Welcome"', page=alone)
    assert ("CD302", "foo_banner_txt") not in found
    # A value computed, or code beside the assignments: not settings.
    computed = _loose(tmp_path / "computed", 'foo_banner_txt = make_text("Welcome")')
    assert ("CD302", "foo_banner_txt") not in computed
    code = _loose(tmp_path / "code", 'foo_banner_txt = "Welcome"\nprint(foo_banner_txt)')
    assert ("CD302", "foo_banner_txt") not in code


_MODEL = """
import yaml
from pydantic import BaseModel, ConfigDict


class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    foo_show_banner: bool = True
    foo_banner_text: str = "Hello"
    foo_max_items: int = 10


def load(path):
    with open(path) as f:
        return Settings.model_validate(yaml.safe_load(f))
"""


def test_settings_in_small_letters_are_no_example_of_a_model(tmp_path) -> None:
    # Only keys a file registers by name (Sphinx's ``conf.py``) are set so.
    found = _loose(
        tmp_path, 'foo_banner_txt = "Welcome"', setup=_MODEL, mount={"": "sphinx_foo:Settings"}
    )
    assert ("CD103", "foo_max_items") not in found  # the page documents the model
    assert not [key for key in found if key[0] in ("CD301", "CD302")]


def test_the_summary_counts_settings_with_no_lead_in_among_the_examples_read(cli, tmp_path) -> None:
    # The block with no lead-in is read and checked: one example of one,
    # never more checked than read.
    files = {"sphinx_foo/__init__.py": _SETUP, "README.md": _LOOSE.replace("BLOCK\n", "")}
    make_project(tmp_path, files)
    result = cli("check", str(tmp_path), "--exit-zero")
    assert "Example configs: 1 read, 1 checked" in result.out, result.out
