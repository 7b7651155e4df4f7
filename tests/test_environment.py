"""Environment variables read by name as the configuration of an app that
has no other."""

from __future__ import annotations

import textwrap

from helpers import by_key, check_project

_APP = """
import os

API_URL = os.getenv("APP_API_URL", "http://localhost:8080")
HOME = os.environ.get("HOME")


def settings():
    return {
        "token": os.environ["APP_TOKEN"],
        "workers": int(os.environ.get("APP_WORKERS", "4")),
        "debug": os.getenv("APP_DEBUG", "0") == "1",
        "region": os.getenv("APP_REGION"),
    }
"""

_DOCS = """
# Environment

| Variable | Description | Default |
| --- | --- | --- |
| `APP_API_URL` | where the API lives | `http://localhost:8080` |
| `APP_TOKEN` | the secret | |
| `APP_WORKERS` | worker processes | `8` |
| `APP_DEBUG` | verbose output | `0` |
| `APP_TIMEOUT` | documented, never read | `30` |
| `APP_PROXY` | read by the compose file | |
"""


def _run(tmp_path, files):
    analysis, findings = check_project(tmp_path, files, "app")
    return analysis, by_key(findings)


def test_the_variables_an_app_reads_are_its_configuration(tmp_path) -> None:
    compose = "services:\n  app:\n    environment:\n      - APP_PROXY=http://proxy\n"
    analysis, found = _run(
        tmp_path, {"app/main.py": _APP, "docs/env.md": _DOCS, "compose.yml": compose}
    )
    root = analysis.schema
    assert root.model == "the environment" and root.strict is False
    assert set(root.children) == {
        "APP_API_URL",
        "APP_TOKEN",
        "APP_WORKERS",
        "APP_DEBUG",
        "APP_REGION",
    }
    assert ("CD102", "APP_TIMEOUT") in found  # documented, nothing reads it
    assert ("CD102", "APP_PROXY") not in found  # the compose file uses it
    assert ("CD103", "APP_REGION") in found
    assert ("CD104", "APP_WORKERS") in found  # documented 8, read with "4"
    assert not [key for code, key in found if code == "CD202"]
    assert "HOME" not in root.children


def test_an_app_with_a_settings_class_keeps_it(tmp_path) -> None:
    settings = (
        "from pydantic_settings import BaseSettings\n"
        "class Settings(BaseSettings):\n    a: int = 1\n    b: int = 2\n    c: int = 3\n"
    )
    analysis, _ = _run(tmp_path, {"app/main.py": _APP, "app/settings.py": settings})
    assert analysis.schema.model == "Settings"


def test_two_variables_make_no_configuration(tmp_path) -> None:
    code = "import os\nA = os.getenv('APP_A')\nB = os.environ.get('APP_B')\n"
    analysis, _ = _run(tmp_path, {"app/main.py": code})
    assert analysis.schema.children == {}


def test_variables_read_in_a_config_class_body(tmp_path) -> None:
    code = (
        "import os\n"
        "class DockerConfig:\n"
        "    MAIL_SERVER = os.environ.get('MAIL_SERVER') or 'smtp.example.com'\n"
        "    MAIL_PORT = int(os.environ.get('MAIL_PORT') or 587)\n"
        "    SECRET_KEY: str = os.environ['SECRET_KEY']\n"
    )
    analysis, _ = _run(tmp_path, {"app/config.py": code})
    assert set(analysis.schema.children) == {"MAIL_SERVER", "MAIL_PORT", "SECRET_KEY"}


def test_a_helper_that_reads_the_variable_its_caller_names(tmp_path) -> None:
    code = """
    import os


    def envbool(s, default):
        return os.getenv(s, default) == "1"


    def envint(s, default):
        return int(os.environ.get(s, default))


    def label(s, default):
        return s.lower() + default


    DEBUG = envbool("APP_DEBUG", "0")
    PORT = envint("APP_PORT", "80")
    WORKERS = envint("APP_WORKERS", "2")
    HOST = os.getenv("APP_HOST", "localhost")
    NAME = label("APP_NAME", "x")
    """
    page = (
        "# Settings\n\n| Variable | Default |\n| --- | --- |\n| `APP_DEBUG` | `0` |\n"
        "| `APP_PORT` | `80` |\n| `APP_HOST` | `localhost` |\n| `APP_NAME` | `x` |\n"
    )
    analysis, findings = check_project(
        tmp_path, {"app/settings.py": code, "docs/s.md": page}, "app"
    )
    assert set(analysis.schema.children) == {"APP_DEBUG", "APP_PORT", "APP_WORKERS", "APP_HOST"}
    found = by_key(findings)
    assert ("CD103", "APP_WORKERS") in found
    # ``label`` reads no variable: the name it is handed is just a string.
    assert ("CD102", "APP_NAME") in found
    assert not any(key in ("APP_DEBUG", "APP_PORT") for _, key in found)


def test_a_helper_named_for_the_environment_reads_a_lowercase_variable(tmp_path) -> None:
    """``getenv_int("app_lua_stack")``: a helper named for the environment
    reads the variable it is handed in any case; another function handed
    a lowercase name (``label``) reads nothing."""
    code = """
    from os import getenv


    def getenv_int(name):
        value = getenv(name, None)
        return None if value is None else int(value)


    def label(name):
        return name.title()


    STACK = getenv_int("app_lua_stack")
    TITLE = label("app_title_case")
    RETRIES = int(getenv("app_retries", 3))
    DELAY = int(getenv("app_delay", 5))
    PREFETCH = int(getenv("app_prefetch", 0))
    """
    analysis, _ = check_project(tmp_path, {"app/settings.py": code}, "app")
    names = {n.key for s in analysis.everything for n in s.schema.walk() if n.path}
    assert "app_lua_stack" in names and "app_retries" in names
    assert "app_title_case" not in names
    # Only a helper named for the environment is asked: a call of any other
    # function with a lowercase string is not kept (facts stay small).
    from configdrift.extract.python.extractor import extract_source

    kept = {c.callee for c in extract_source(textwrap.dedent(code)).registrations}
    assert "getenv_int" in kept and "label" not in kept


def test_a_helper_that_reads_a_suffixed_variable(tmp_path) -> None:
    code = """
    import os


    def envsecret(s):
        path = os.getenv(s + "_FILE")
        if path:
            return open(path).read()
        return os.getenv(s, "")


    TOKEN = envsecret("APP_TOKEN")
    KEY = envsecret("APP_KEY")
    HOST = os.getenv("APP_HOST", "localhost")
    """
    page = (
        "# Settings\n\n| Variable | Default |\n| --- | --- |\n| `APP_TOKEN` | |\n"
        "| `APP_TOKEN_FILE` | |\n| `APP_KEY` | |\n| `APP_HOST` | `localhost` |\n"
    )
    analysis, findings = check_project(
        tmp_path, {"app/settings.py": code, "docs/s.md": page}, "app"
    )
    assert {"APP_TOKEN", "APP_TOKEN_FILE", "APP_KEY", "APP_KEY_FILE"} <= set(
        analysis.schema.children
    )
    found = by_key(findings)
    assert ("CD102", "APP_TOKEN_FILE") not in found
    assert ("CD103", "APP_KEY_FILE") in found


def test_a_variables_string_default_equals_a_documented_boolean() -> None:
    from configdrift.rules.values import parse_doc_value, values_equal

    assert values_equal(parse_doc_value("`True`"), "True") is True
    assert values_equal(parse_doc_value("`false`"), "1") is False
    assert values_equal(parse_doc_value("`true`"), "maybe") is False


def test_a_switchs_state_in_words_equals_the_codes_boolean() -> None:
    from configdrift.rules.values import parse_doc_value, values_equal

    # "disabled" where the variable's default is the text "False" (or 0).
    assert values_equal(parse_doc_value("disabled"), "False") is True
    assert values_equal(parse_doc_value("disabled"), "1") is False
    assert values_equal(parse_doc_value("enabled"), True) is True
    assert values_equal(parse_doc_value("off"), True) is False
    # Words that are no switch's state are compared as written.
    assert values_equal(parse_doc_value("auto"), "False") is False
    assert values_equal(parse_doc_value("disabled"), "disabled") is True


def test_a_variable_the_code_sets_for_a_child_is_not_unread(tmp_path) -> None:
    """A page lists the variables the app sets for the processes it starts:
    the code spells the name (``env["APP_CHILD_PORT"] = ...``), so it is no
    documented variable nothing reads; one the code never spells still is."""
    spawn = "def child_env(port):\n    env = {}\n    env['APP_CHILD_PORT'] = str(port)\n    return env\n"
    docs = _DOCS + "| `APP_CHILD_PORT` | set for each child | |\n"
    _, found = _run(tmp_path, {"app/main.py": _APP, "app/spawn.py": spawn, "docs/env.md": docs})
    assert ("CD102", "APP_CHILD_PORT") not in found
    assert ("CD102", "APP_TIMEOUT") in found


def test_a_suffixed_variable_does_not_inherit_its_base_variable_s_default(tmp_path) -> None:
    code = """
    import os


    def envsecret(s, d):
        path = os.getenv(s + "_FILE")
        if path:
            return open(path).read()
        return os.getenv(s, d)


    TOKEN = envsecret("APP_TOKEN", "dev-token")
    KEY = envsecret("APP_KEY", "dev-key")
    HOST = os.getenv("APP_HOST", "localhost")
    """
    page = (
        "# Settings\n\n| Variable | Default |\n| --- | --- |\n| `APP_TOKEN` | `dev-token` |\n"
        "| `APP_TOKEN_FILE` | `tokenfile` |\n| `APP_KEY` | `other` |\n"
        "| `APP_KEY_FILE` | `keyfile` |\n| `APP_HOST` | `localhost` |\n"
    )
    _, findings = check_project(tmp_path, {"app/settings.py": code, "docs/s.md": page}, "app")
    found = by_key(findings)
    # The file's path has no default of the code's: the token's is not its.
    assert ("CD104", "APP_TOKEN_FILE") not in found
    assert ("CD104", "APP_KEY_FILE") not in found
    assert "dev-key" in found[("CD104", "APP_KEY")].message


def test_a_variable_read_in_a_module_of_no_documented_variable_is_judged_by_its_words(
    tmp_path,
) -> None:
    # `app/paths.py` reads no documented variable: the project's own
    # (`APP_CACHE_DIR`) is undocumented all the same; the platform's
    # (`PATHEXT`) and another program's (`TOX_ENV_DIR`) are not asked for.
    paths = (
        "import os\n\n\ndef cache():\n    return os.getenv('APP_CACHE_DIR'), "
        "os.getenv('PATHEXT'), os.getenv('TOX_ENV_DIR')\n"
    )
    _, found = _run(tmp_path, {"app/main.py": _APP, "app/paths.py": paths, "docs/env.md": _DOCS})
    undocumented = {key for code, key in found if code == "CD103"}
    assert undocumented == {"APP_REGION", "APP_CACHE_DIR"}


_READ_WITH_LIBRARIES = {
    "decouple": (
        "from decouple import config\n\n"
        'PORT = config("APP_PORT", default=8000, cast=int)\n'
        'HOST = config("APP_HOST", default="127.0.0.1")\n'
        'DEBUG = config("APP_DEBUG", default=False, cast=bool)\n'
    ),
    "environs": (
        "from environs import Env\n\nenv = Env()\n\n"
        'PORT = env.int("APP_PORT", 8000)\n'
        'HOST = env.str("APP_HOST", "127.0.0.1")\n'
        'DEBUG = env.bool("APP_DEBUG", False)\n'
    ),
    "django-environ": (
        "import environ\n\nenv = environ.Env()\n\n"
        'PORT = env.int("APP_PORT", default=8000)\n'
        'HOST = env("APP_HOST", default="127.0.0.1")\n'
        'DEBUG = env.bool("APP_DEBUG", default=False)\n'
    ),
}

_LIBRARY_DOCS = (
    "# Environment\n\n| Variable | Default | Description |\n| --- | --- | --- |\n"
    "| `APP_PORT` | `8080` | Port |\n| `APP_HOST` | `127.0.0.1` | Host |\n"
    "| `APP_DEBUG` | `False` | Debug |\n| `APP_TIMEOUT` | `30` | Timeout |\n"
)


def test_variables_a_library_reads_by_name_are_the_environment(tmp_path) -> None:
    # python-decouple's ``config``, environs' and django-environ's ``Env``.
    for name, code in _READ_WITH_LIBRARIES.items():
        files = {"app/settings.py": code, "docs/env.md": _LIBRARY_DOCS}
        _, findings = check_project(tmp_path / name, files, "app")
        found = by_key(findings)
        assert "8000" in found["CD104", "APP_PORT"].message, name
        assert ("CD102", "APP_TIMEOUT") in found, name
        assert ("CD104", "APP_HOST") not in found, name


def test_a_call_of_another_reader_is_no_variable(tmp_path) -> None:
    # A function or an object of another library spelt like them.
    for name, code in _READ_WITH_LIBRARIES.items():
        code = code.replace("decouple", "otherlib").replace("environs", "otherlib")
        code = code.replace("environ.Env", "otherlib.Env").replace(
            "import environ", "import otherlib"
        )
        files = {"app/settings.py": code, "docs/env.md": _LIBRARY_DOCS}
        _, findings = check_project(tmp_path / name, files, "app")
        assert ("CD104", "APP_PORT") not in by_key(findings), name


def test_a_variable_the_code_names_or_reads_as_an_attribute_is_not_unread(tmp_path) -> None:
    """A variable the code names in a string (a table of flags' variables)
    or reads as the attribute that holds it (``settings.APP_DEPTH``) is read
    there; one the code only assigns to an attribute is not."""
    settings = (
        "FLAG_VARIABLES = {'skip': 'APP_SKIP'}\n\n\n"
        "class Settings:\n"
        "    def __init__(self, lookup):\n"
        "        self.APP_DEPTH = int(lookup('DEPTH', 3))\n"
        "        self.APP_TIMEOUT = int(lookup('TIMEOUT', 30))\n\n\n"
        "def depth(settings):\n    return settings.APP_DEPTH\n"
    )
    docs = _DOCS + "| `APP_SKIP` | skip it | |\n| `APP_DEPTH` | how deep | |\n"
    files = {"app/main.py": _APP, "app/settings.py": settings, "docs/env.md": docs}
    _, found = _run(tmp_path, files)
    assert ("CD102", "APP_SKIP") not in found
    assert ("CD102", "APP_DEPTH") not in found
    assert ("CD102", "APP_TIMEOUT") in found


_PREFIXED = """
import os


def from_env(arg, prefix="SHOP", default=None):
    lookup = arg
    if prefix:
        lookup = f"{prefix}_{arg}"
    return os.environ.get(lookup, default)


def env(name):
    return os.getenv("SHOP_" + name + "_VALUE")


CACHE = from_env("CACHE_DIR", default="/tmp")
WORKERS = from_env("WORKERS")
REGION = from_env("REGION", prefix="CLOUD")
LEVEL = env("LEVEL")
HOST = os.getenv("SHOP_HOST", "localhost")
"""

_PREFIXED_PAGE = (
    "# Settings\n\n| Variable | Default |\n| --- | --- |\n| `SHOP_CACHE_DIR` | `/var` |\n"
    "| `SHOP_HOST` | `localhost` |\n| `SHOP_LEVEL_VALUE` | |\n"
)


def test_a_helper_that_reads_the_variable_with_a_prefix_of_its_own(tmp_path) -> None:
    analysis, findings = check_project(
        tmp_path, {"app/settings.py": _PREFIXED, "docs/s.md": _PREFIXED_PAGE}, "app"
    )
    variables = set(analysis.schema.children)
    # The prefix a parameter's default gives, through a local or in place.
    assert {"SHOP_CACHE_DIR", "SHOP_WORKERS", "SHOP_LEVEL_VALUE", "SHOP_HOST"} <= variables
    # A caller that gives the prefix reads another variable: not this one.
    assert "SHOP_REGION" not in variables
    found = by_key(findings)
    assert ("CD103", "SHOP_WORKERS") in found
    assert ("CD102", "SHOP_LEVEL_VALUE") not in found
    # A prefixed read takes no default of its caller's (which the helper
    # may take in another place).
    assert ("CD104", "SHOP_CACHE_DIR") not in found


def test_a_name_a_helper_builds_from_what_it_computes_is_not_known(tmp_path) -> None:
    code = _PREFIXED.replace('lookup = f"{prefix}_{arg}"', 'lookup = f"{prefix.upper()}_{arg}"')
    code = code.replace('"SHOP_" + name', "PREFIX + name")
    # The name without the parameter, or with one of no default.
    code += 'def fixed(arg, prefix="SHOP"):\n    return os.getenv(prefix + "_FIXED")\n'
    code += "def bare(arg, prefix):\n    return os.getenv(prefix + arg)\n"
    code += 'X = fixed("A")\nY = bare("B", "SHOP_")\nPORT = os.getenv("SHOP_PORT")\n'
    page = _PREFIXED_PAGE + "| `SHOP_PORT` | |\n"
    analysis, _ = check_project(tmp_path, {"app/settings.py": code, "docs/s.md": page}, "app")
    variables = {k for surface in analysis.everything for k in surface.schema.children}
    assert not {"SHOP_CACHE_DIR", "SHOP_WORKERS", "SHOP_LEVEL_VALUE", "SHOP_B"} & variables
    assert "SHOP_HOST" in variables  # the module is read all the same


def test_a_variable_takes_the_first_default_a_read_gives(tmp_path) -> None:
    code = 'import os\n\nA = os.getenv("SHOP_PORT")\nB = os.getenv("SHOP_PORT", "8000")\nC = os.getenv("SHOP_HOST")\n'
    page = "# Settings\n\n| Variable | Default |\n| --- | --- |\n| `SHOP_PORT` | `9000` |\n| `SHOP_HOST` | |\n"
    analysis, _ = check_project(tmp_path, {"app/settings.py": code, "docs/s.md": page}, "app")
    (port,) = [
        s.schema.children["SHOP_PORT"]
        for s in analysis.everything
        if "SHOP_PORT" in s.schema.children
    ]
    assert port.default.value == "8000"


_OVERLAY = """


def overlay(namespace):
    for dest in vars(namespace):
        key = LOOKUP.get(dest, NAME)
        raw = os.environ.get(key)
        if raw is not None:
            setattr(namespace, dest, raw)
"""


#: A command line whose options the variables of ``_OVERLAY`` may set.
_CLI = """
import argparse


def main():
    parser = argparse.ArgumentParser(prog="app")
    parser.add_argument("--timeout", type=int, default=30, help="seconds")
    parser.add_argument("--retries", type=int, default=3, help="tries")
    parser.add_argument("--verbose", action="store_true", help="talk")
    return parser.parse_args()
"""

_CLI_PAGE = (
    "# Command line\n\n- `--timeout`: seconds.\n- `--retries`: tries.\n- `--verbose`: talk.\n"
)


def _overlaid(tmp_path, name: str, code: str = _OVERLAY) -> dict:
    app = _APP + code.replace("NAME", name)
    files = {"app/main.py": app, "app/cli.py": _CLI, "docs/env.md": _DOCS, "docs/cli.md": _CLI_PAGE}
    _, found = _run(tmp_path, files)
    return found


def test_a_variable_a_read_builds_from_its_text_may_be_read(tmp_path) -> None:
    # ``f"APP_{dest.upper()}"``: the variable of each key of the project
    # there (``--timeout``'s), not any that begins with ``APP_``.
    found = _overlaid(tmp_path, 'f"APP_{dest.upper()}"')
    assert ("CD102", "APP_TIMEOUT") not in found
    assert ("CD102", "APP_PROXY") in found
    # A name of two holes may be any it fits.
    found = _overlaid(tmp_path / "two", 'f"APP_{dest.upper()}{SUFFIX}"')
    assert ("CD102", "APP_PROXY") not in found
    # Also where the name is built in place.
    inline = _OVERLAY.replace("key = LOOKUP.get(dest, NAME)", "key = None").replace(
        "os.environ.get(key)", "os.environ.get(NAME)"
    )
    found = _overlaid(tmp_path / "inline", 'f"APP_{dest.upper()}"', inline)
    assert ("CD102", "APP_TIMEOUT") not in found
    # Either of two names a local may be bound to.
    either = '(f"OTHER_{dest}" if dest.islower() else f"APP_{dest}")'
    assert ("CD102", "APP_TIMEOUT") not in _overlaid(tmp_path / "either", either)


def test_a_name_built_with_no_text_first_says_nothing_of_a_variable(tmp_path) -> None:
    # ``f"{prefix}_{dest}"``: no text anchors it; ``f"OTHER_{dest}"`` never
    # builds a variable of another beginning.
    for built in ('f"{PREFIX}_{dest.upper()}"', 'f"OTHER_{dest.upper()}"'):
        assert ("CD102", "APP_TIMEOUT") in _overlaid(tmp_path / built[3:8], built)
