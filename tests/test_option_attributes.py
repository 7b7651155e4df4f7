"""Options declared as attributes of a class or a module, a call of one
option class each (resolve/mechanisms/option_attributes), and a
configuration the code alone shows (its options name environment
variables) admitted without a page."""

from __future__ import annotations

from helpers import by_key, check_project

_SETTINGS = """
from typing import Generic, TypeVar

T = TypeVar("T")


class Setting(Generic[T]):
    def __init__(self, name, env_var=None, default=None, help=""):
        self.name = name
        self.env_var = env_var
        self.default = default
        self.help = help


class Settings:
    browser: Setting[str | None] = Setting("browser", "APP_BROWSER", default=None, help="Browser.")
    cdn_version: Setting[str | None] = Setting("version", "APP_CDN_VERSION", help="CDN.")
    log_level: Setting[str] = Setting("log_level", "APP_LOG_LEVEL", default="info", help="Level.")
    minified: Setting[bool] = Setting("minified", "APP_MINIFIED", default=True, help="Minify.")
    port: Setting[int] = Setting("port", "APP_PORT", 5006, help="Port.")
    secret: Setting[str | None] = Setting("secret_key", "APP_SECRET_KEY")


settings = Settings()
"""

_READS = """
from app.settings import settings


def serve():
    return settings.port, settings.browser, settings.log_level, settings.minified
"""

_DOCS = """
# Settings

## `browser`

The browser.

## `log_level`

Default: `warn`

## `port`

Default: `5006`

## `cdn_version`

Which CDN.

## `APP_MINIFIED`

Minify the scripts.
"""


def _check(tmp_path, files):
    return check_project(tmp_path, {"app/serve.py": _READS, **files}, "app")


def test_attributes_calling_one_option_class_are_a_configuration(tmp_path) -> None:
    analysis, findings = _check(tmp_path, {"app/settings.py": _SETTINGS, "docs/settings.md": _DOCS})
    (surface,) = analysis.surfaces
    options = surface.schema.children
    assert set(options) == {"browser", "cdn_version", "log_level", "minified", "port", "secret"}
    # The attribute is what the code reads; the first string is the key
    # users write, the upper-case one its variable.
    assert options["cdn_version"].spellings == ("version", "APP_CDN_VERSION")
    assert options["port"].default is not None and options["port"].default.value == 5006
    assert options["log_level"].default.value == "info"
    found = by_key(findings)
    assert ("CD104", "log_level") in found  # documented `warn`, declared "info"
    # The doc names the attribute, which no config file or variable spells.
    assert ("CD102", "cdn_version") in found
    # The variable's entry documents ``minified``; ``secret`` has none.
    assert not any(key == "minified" for _, key in found)
    assert ("CD103", "secret") in found


def test_a_model_of_an_api_is_no_configuration(tmp_path) -> None:
    # Properties of a class its users build with values (``Band(lower=1)``),
    # named by their attributes: no object of it made once, no variables.
    model = """
class Prop:
    def __init__(self, default=None, help=""):
        self.default = default


class Band:
    lower = Prop(default=0, help="Lower.")
    upper = Prop(default=1, help="Upper.")
    fill_color = Prop(default="grey", help="Fill.")
    line_color = Prop(default="black", help="Line.")
    level = Prop(default="underlay", help="Level.")

_band = Band()
"""
    docs = "# Band\n\n## `lower`\n\n## `upper`\n\n## `fill_color`\n\nDefault: `red`\n"
    analysis, findings = _check(tmp_path, {"app/models.py": model, "docs/band.md": docs})
    assert analysis.surfaces == []
    # Only the note that no configuration holds the page's keys.
    assert {f.code for f in findings} == {"CD501"}


def test_another_librarys_objects_without_help_are_no_options(tmp_path) -> None:
    # Columns of a table: calls of an imported class, with no help text.
    model = """
from sqlalchemy import Column, Integer, String


class User:
    id = Column("id", Integer, default=0)
    name = Column("name", String, default="")
    email = Column("email", String, default="")
    city = Column("city", String, default="")
    zip_code = Column("zip_code", String, default="")

users = User()
"""
    docs = "# Users\n\n## `id`\n\n## `name`\n\n## `email`\n\nDefault: `x`\n"
    analysis, _ = _check(tmp_path, {"app/models.py": model, "docs/users.md": docs})
    assert analysis.surfaces == []


def test_options_that_name_variables_are_admitted_without_a_page(tmp_path) -> None:
    analysis, findings = _check(tmp_path, {"app/settings.py": _SETTINGS})
    (surface,) = analysis.surfaces
    assert "environment variable" in surface.admitted
    undocumented = {key for code, key in by_key(findings) if code == "CD103"}
    assert undocumented == {"browser", "cdn_version", "log_level", "minified", "port", "secret"}


def test_without_variables_an_undocumented_class_is_not_admitted(tmp_path) -> None:
    plain = _SETTINGS.replace('"APP_', '"app_')
    analysis, findings = _check(tmp_path, {"app/settings.py": plain})
    assert analysis.surfaces == []
    assert not any(code == "CD103" for code, _ in by_key(findings))


def test_a_page_that_renders_the_module_documents_its_described_options(tmp_path) -> None:
    page = "Settings\n========\n\n.. automodule:: app.settings\n"
    analysis, findings = _check(tmp_path, {"app/settings.py": _SETTINGS, "docs/settings.rst": page})
    (surface,) = analysis.surfaces
    assert surface.autodoc == {"Settings"}
    undocumented = {key for code, key in by_key(findings) if code == "CD103"}
    # Rendered with its help text, each option is documented; ``secret``
    # has none to render.
    assert undocumented == {"secret"}


def test_a_projects_own_directive_naming_the_module_renders_it(tmp_path) -> None:
    from configdrift.commands.map import project_map

    for page in (
        "Settings\n========\n\n.. app-settings:: app.settings\n",
        "# Settings\n\n```{app-settings} app.settings\n```\n",
    ):
        name = "docs/settings.rst" if page.startswith("Settings") else "docs/settings.md"
        root = tmp_path / name.rsplit(".", 1)[1]
        analysis, findings = _check(root, {"app/settings.py": _SETTINGS, name: page})
        (surface,) = analysis.surfaces
        assert surface.autodoc == {"Settings"}
        assert {key for code, key in by_key(findings) if code == "CD103"} == {"secret"}
        # ``map`` names the directive's place.
        (shown,) = project_map(analysis, False)["surfaces"][1:]
        (place,) = shown["rendered_by"]
        assert place.endswith(f"{name}:{4 if name.endswith('rst') else 3}")


def test_a_directive_that_only_names_the_module_renders_nothing(tmp_path) -> None:
    # ``.. module::`` says what the page is about; ``.. app-settings::
    # app.settingsx`` names another module.
    page = "Settings\n========\n\n.. module:: app.settings\n\n.. app-settings:: app.settingsx\n"
    analysis, findings = _check(tmp_path, {"app/settings.py": _SETTINGS, "docs/settings.rst": page})
    (surface,) = analysis.surfaces
    assert surface.autodoc == set() and surface.rendering == []
    undocumented = {key for code, key in by_key(findings) if code == "CD103"}
    assert undocumented == {"browser", "cdn_version", "log_level", "minified", "port", "secret"}


def _running(describe: str, directive: str) -> dict[str, str]:
    """The settings, a module that imports them, and a page that runs a
    command at build time."""
    return {
        "app/settings.py": _SETTINGS,
        "app/describe.py": describe,
        "docs/settings.rst": "Settings\n========\n\n" + directive,
    }


def test_a_page_running_python_that_describes_the_options_renders_them(tmp_path) -> None:
    describe = (
        "from app.settings import Settings\n\n\n"
        "def describe_all_settings():\n    return [Settings]\n"
    )
    direct = '.. program-output:: python -c "from app.settings import Settings; print(Settings)"\n'
    through = (
        ".. program-output:: python -c "
        '"from app.describe import describe_all_settings; print(describe_all_settings())"\n'
    )
    for name, page in (("direct", direct), ("through", through)):
        analysis, findings = _check(tmp_path / name, _running(describe, page))
        (surface,) = analysis.surfaces
        assert surface.autodoc == {"Settings"}, name
        assert [r.line for r in surface.rendering] == [4]
        assert {key for code, key in by_key(findings) if code == "CD103"} == {"secret"}


def test_a_page_running_other_python_renders_nothing(tmp_path) -> None:
    # The module that imports the settings is run, but for something else;
    # a shell command that only names the module runs no Python.
    describe = "from app.settings import Settings\n\n\ndef version():\n    return 1\n"
    for name, page in (
        ("other", '.. program-output:: python -c "from app.describe import version; version()"\n'),
        ("shell", ".. program-output:: cat app/settings.py\n"),
    ):
        analysis, findings = _check(tmp_path / name, _running(describe, page))
        (surface,) = analysis.surfaces
        assert surface.rendering == [], name
        assert len([key for code, key in by_key(findings) if code == "CD103"]) == 6


def test_map_says_why_the_code_alone_makes_it_a_configuration(tmp_path) -> None:
    from configdrift.commands.map import project_map

    analysis, _ = _check(tmp_path, {"app/settings.py": _SETTINGS})
    (surface,) = project_map(analysis, False)["surfaces"][1:]
    assert surface["admitted"] == "6 of its options name an environment variable"
    assert surface["docs"] == []
    # Options that name no variable are a configuration by their docs alone.
    plain = _SETTINGS.replace('"APP_', '"app_')
    documented, _ = _check(tmp_path, {"app/settings.py": plain, "docs/settings.md": _DOCS})
    surfaces = project_map(documented, False)["surfaces"]
    assert [(s["name"], s["admitted"]) for s in surfaces][1:] == [("Settings", None)]


_CONVERTED = """
def convert_bool(value):
    return value if isinstance(value, bool) else value.lower() in ("1", "true", "yes")


class Setting:
    def __init__(self, name, env_var=None, default=None, convert=None, help=""):
        self.name = name


class Settings:
    dev = Setting("dev", "APP_DEV", default=False, convert=convert_bool, help="Dev.")
    minified = Setting("minified", "APP_MINIFIED", default=True, convert=convert_bool, help="Min.")
    pretty = Setting("pretty", "APP_PRETTY", default=False, help="Pretty.")
    plain = Setting("plain", default=False, help="Not from the environment.")
    port = Setting("port", "APP_PORT", default=5006, help="Port.")
    level = Setting("level", "APP_LEVEL", default="info", help="Level.")


settings = Settings()
"""


def _unconverted(tmp_path, settings: str) -> list[str]:
    _, findings = _check(tmp_path, {"app/settings.py": settings, "docs/settings.md": _DOCS})
    return sorted(f.key for f in findings if f.code == "CD105")


def test_a_bool_option_without_its_siblings_converter_reads_text(tmp_path) -> None:
    """``pretty`` passes no ``convert=`` where the other bool options pass
    ``convert_bool``: ``APP_PRETTY=false`` is a true string. Not ``plain``
    (no variable), nor the options of other defaults."""
    assert _unconverted(tmp_path, _CONVERTED) == ["APP_PRETTY"]


def test_one_converted_sibling_or_two_converters_say_nothing(tmp_path) -> None:
    one = _CONVERTED.replace(
        'default=True, convert=convert_bool, help="Min."', 'default=True, help="Min."'
    )
    assert _unconverted(tmp_path / "one", one) == []
    two = _CONVERTED.replace("default=True, convert=convert_bool", "default=True, convert=bool")
    assert _unconverted(tmp_path / "two", two) == []


_VALIDATED = """
from dynaconf import LazySettings, Validator


class _IsSubclassValidator(Validator):
    pass


class _ProjectSettings(LazySettings):
    _HOOKS = Validator("HOOKS", default=tuple())
    _CONF_SOURCE = Validator("CONF_SOURCE", default="conf")
    _CONTEXT_CLASS = _IsSubclassValidator("CONTEXT_CLASS", default="app.Context")
    _STORE_ARGS = Validator("STORE_ARGS", default={})
    _LOADER_ARGS = Validator("LOADER_ARGS", default={"base_env": "base"})
    _VALIDATION = Validator("VALIDATION", default=True)


settings = _ProjectSettings()
"""

_VALIDATED_DOCS = """# Settings

| Setting | Default value | Use |
| --- | --- | --- |
| `HOOKS` | `tuple()` | The hooks. |
| `CONF_SOURCE` | `"conf"` | Where the configuration is. |
| `CONTEXT_CLASS` | `app.Context` | The context. |
| `STORE_ARGS` | `dict()` | The store's arguments. |
| `LOADER_ARGS` | `dict()` | The loader's arguments. |
"""


def test_validators_of_settings_names_held_as_private_attributes_are_options(tmp_path) -> None:
    # Another library's validator class, and a subclass of it the project
    # declares, each naming a setting in capitals with its default.
    analysis, findings = _check(
        tmp_path, {"app/settings.py": _VALIDATED, "docs/settings.md": _VALIDATED_DOCS}
    )
    (surface,) = analysis.surfaces
    assert set(surface.schema.children) == {
        "HOOKS",
        "CONF_SOURCE",
        "CONTEXT_CLASS",
        "STORE_ARGS",
        "LOADER_ARGS",
        "VALIDATION",
    }
    found = by_key(findings)
    assert ("CD103", "VALIDATION") in found
    # ``dict()`` documented where the code's default holds keys; an empty
    # one, and ``tuple()``, say the same as the code.
    assert {key for code, key in found if code == "CD104"} == {"LOADER_ARGS"}


def test_validators_of_lower_case_names_are_another_library_s_objects(tmp_path) -> None:
    lower = _VALIDATED.replace('Validator("HOOKS"', 'Validator("hooks"')
    analysis, _ = _check(tmp_path, {"app/settings.py": lower, "docs/settings.md": _VALIDATED_DOCS})
    assert analysis.surfaces == []
    # Nor capitals with no default: names of another library's objects.
    bare = _VALIDATED.replace('Validator("HOOKS", default=tuple())', 'Validator("HOOKS")')
    files = {"app/settings.py": bare, "docs/settings.md": _VALIDATED_DOCS}
    analysis, _ = _check(tmp_path / "bare", files)
    assert analysis.surfaces == []
