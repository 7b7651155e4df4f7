"""An environment no page lists as entries, whose variables the pages
write in prose and command lines, is a configuration admitted by them:
a variable of the package's own prefix that the same module reads beside
a named one, and no page names, is undocumented (CD103). A variable read
apart, another program's, a build script's, or the one a documented
option declares, is not judged."""

from __future__ import annotations

import pytest

from configdrift.rules.environment_docs import abbreviates
from helpers import SMALL_CLI, by_key, check_project

_AUTH = """
import os


def gitlab_domain():
    return os.environ.get("SHOP_GITLAB_DOMAIN", "gitlab.com")


def github_domain():
    return os.environ.get("SHOP_GITHUB_DOMAIN", "github.com")


def tracker():
    return os.environ.get("WANDB_RUN_NAME"), os.environ.get("WANDB_PROJECT")
"""

_CACHE = """
import os

CACHE = os.environ.get("SHOP_CACHE_DIR", "~/.cache/shop")
CHECK = os.environ.get("SHOP_SELF_CHECK")
TESTING = os.environ.get("SHOP_SELF_TESTING")
"""

_BUILD = """
import os

NINJA = os.environ.get("SHOP_ENABLE_NINJA")
DOMAIN = os.environ.get("SHOP_GITLAB_DOMAIN")
"""

_CLI = SMALL_CLI

_PAGE = """# Signing in

Run `shop --port 80`.

Sign in with GitLab: set `SHOP_GITLAB_DOMAIN` to your instance's host.

The cache lives where `SHOP_CACHE_DIR` says. Log runs with `WANDB_PROJECT`.

```console
$ SHOP_CACHE_DIR=/tmp/cache shop
```
"""


def _check(tmp_path, page=_PAGE, files=None, package="shop"):
    analysis, findings = check_project(
        tmp_path,
        {
            f"{package}/auth.py": _AUTH,
            f"{package}/cache.py": _CACHE,
            f"{package}/cli.py": _CLI,
            "setup.py": _BUILD,
            "docs/signin.md": page,
            **(files or {}),
        },
        package,
    )
    env = next((s for s in analysis.surfaces if s.schema.model_kind == "env"), None)
    return env, by_key(findings)


def test_variables_the_pages_name_admit_the_environment(tmp_path) -> None:
    env, found = _check(tmp_path)
    assert env is not None and env.admitted
    # Read beside the named SHOP_GITLAB_DOMAIN, named nowhere.
    finding = found[("CD103", "SHOP_GITHUB_DOMAIN")]
    assert finding.location.line == 10
    assert ("CD103", "SHOP_GITLAB_DOMAIN") not in found
    assert ("CD103", "SHOP_CACHE_DIR") not in found


def test_no_named_variable_admits_nothing(tmp_path) -> None:
    env, found = _check(tmp_path, page="# Signing in\n\nSign in with GitLab.\n")
    assert env is None
    assert ("CD103", "SHOP_GITHUB_DOMAIN") not in found


_APART = _PAGE.replace("`SHOP_CACHE_DIR`", "`SHOP_ENABLE_NINJA`").replace("SHOP_CACHE_DIR=", "X=")


def test_a_variable_read_apart_from_the_named_ones_is_not_judged(tmp_path) -> None:
    # In ``shopper``, SHOP abbreviates the package's name: SHOP_SELF_CHECK is
    # read beside SHOP_CACHE_DIR; without it named, alone.
    env, found = _check(tmp_path, page=_APART, package="shopper")
    assert env is not None
    assert ("CD103", "SHOP_SELF_CHECK") not in found
    _, named = _check(tmp_path / "named", package="shopper")
    assert ("CD103", "SHOP_SELF_CHECK") in named


def test_a_variable_named_for_its_package_is_judged_wherever_it_reads_it(tmp_path) -> None:
    # SHOP is ``shop``'s whole name: SHOP_SELF_CHECK, read apart from the
    # named ones, is the package's own all the same.
    _, found = _check(tmp_path, page=_APART)
    assert found[("CD103", "SHOP_SELF_CHECK")].location.path == "shop/cache.py"
    # Not where no variable of that name read by the package is named (the
    # pages name the build script's and another program's).
    page = _APART.replace("`SHOP_GITLAB_DOMAIN`", "`SHOP_ENABLE_NINJA`, `WANDB_RUN_NAME`")
    env, unnamed = _check(tmp_path / "unnamed", page=page)
    assert env is not None
    assert ("CD103", "SHOP_SELF_CHECK") not in unnamed


def test_a_tests_switch_is_not_the_docs_to_describe(tmp_path) -> None:
    # SHOP_SELF_TESTING is read beside the named SHOP_CACHE_DIR.
    _, found = _check(tmp_path)
    assert ("CD103", "SHOP_SELF_CHECK") in found
    assert ("CD103", "SHOP_SELF_TESTING") not in found


def test_another_programs_prefix_is_not_judged(tmp_path) -> None:
    # WANDB_RUN_NAME is read beside the named WANDB_PROJECT, in shop.
    _, found = _check(tmp_path)
    assert ("CD103", "WANDB_RUN_NAME") not in found


def test_a_build_script_at_the_root_is_not_the_package(tmp_path) -> None:
    # setup.py reads SHOP_ENABLE_NINJA beside the named SHOP_GITLAB_DOMAIN.
    _, found = _check(tmp_path, files={"shop/auth.py": _AUTH.replace("GITLAB", "GITLAB2")})
    assert ("CD103", "SHOP_ENABLE_NINJA") not in found


def test_the_variable_of_a_documented_option_is_documented_with_it(tmp_path) -> None:
    # SHOP_PORT is the option --port by the project's convention.
    reads = _AUTH + (
        "\n\ndef port():\n    return os.environ.get('SHOP_PORT'), os.environ.get('SHOP_HOST')\n"
        "\n\ndef debug():\n    return os.environ.get('SHOP_DEBUG')\n"
    )
    page = _PAGE + "\n## Options\n\n`--port`, `--host` and `--debug` set the server.\n"
    _, found = _check(tmp_path, page=page, files={"shop/auth.py": reads})
    assert ("CD103", "SHOP_GITHUB_DOMAIN") in found
    assert ("CD103", "SHOP_PORT") not in found


@pytest.mark.parametrize(
    ("word", "name", "expected"),
    [
        ("CIBW", "cibuildwheel", True),
        ("DS", "deepspeed", True),
        ("SHOP", "shop", True),
        ("SKB", "scikit_build_core", True),
        ("WANDB", "torchtitan", False),
        ("OTEL", "locust", False),
        ("DS", "sd", False),
        ("SHOPS", "shop", False),
    ],
)
def test_a_prefix_abbreviates_its_package(word, name, expected) -> None:
    assert abbreviates(word, name) is expected


_MORE = (
    _AUTH
    + """

def more():
    os.environ["SHOP_CHILD"] = "1"
    return (
        os.environ.get("SHOP_CHILD"),
        os.environ.get("SHOP_CHATTY"),
        os.environ.get("SHOP_NEW_HOST", os.environ.get("SHOP_OLD_HOST")),
    )
"""
)


def test_what_the_code_names_or_sets_itself_is_not_left_to_the_pages(tmp_path) -> None:
    cli = _CLI.replace('help="Debug."', 'help="Debug (SHOP_CHATTY turns it on too)."')
    _, found = _check(tmp_path, files={"shop/auth.py": _MORE, "shop/cli.py": cli})
    assert ("CD103", "SHOP_NEW_HOST") in found
    assert ("CD103", "SHOP_OLD_HOST") not in found  # the older spelling
    assert ("CD103", "SHOP_CHILD") not in found  # set for a process it starts
    assert ("CD103", "SHOP_CHATTY") not in found  # the help text names it
    _, plain = _check(tmp_path / "plain", files={"shop/auth.py": _MORE})
    assert ("CD103", "SHOP_CHATTY") in plain


def _reading(tmp_path, function: str) -> dict:
    """The findings where ``shop/auth.py`` has ``function`` too."""
    return _check(tmp_path, files={"shop/auth.py": _AUTH + "\n\n" + function})[1]


def test_a_variable_the_code_says_is_no_longer_supported_is_not_asked_for(tmp_path) -> None:
    errors = (
        "def errors():\n"
        "    if 'SHOP_LEGACY_DOMAIN' in os.environ:\n"
        "        yield 'SHOP_LEGACY_DOMAIN environment variable is no longer supported.'\n"
    )
    assert ("CD103", "SHOP_LEGACY_DOMAIN") not in _reading(tmp_path, errors)
    kept = _reading(tmp_path / "kept", errors.replace("no longer", ""))
    assert ("CD103", "SHOP_LEGACY_DOMAIN") in kept


def test_the_variables_a_module_names_are_its_help_texts_and_written_keys() -> None:
    from configdrift.extract.python.named_variables import variables_named

    source = (
        'p.add_argument("--a", help="Use it (env var: SHOP_A).")\n'
        'p.add_argument("--b", default=os.environ.get("SHOP_B"), help="B")\n'
        'p.add_argument("--c", help=("first "\n    "then SHOP_C"))\n'
        'opt = Option(help="Don\'t [env var: SHOP_D]"\n    " and SHOP_E", default=os.getenv("SHOP_F"))\n'
        'env["SHOP_G"] = "1"\n'
        'if env["SHOP_H"] == "1":\n    pass\n'
    )
    # The next argument's read (SHOP_B, SHOP_F) is no part of a help text,
    # nor is a key compared (SHOP_H).
    assert variables_named(source) == ["SHOP_A", "SHOP_C", "SHOP_D", "SHOP_E", "SHOP_G"]


def test_only_a_variable_read_as_the_fallback_is_an_older_spelling(tmp_path) -> None:
    found = _reading(
        tmp_path,
        "def host(settings):\n"
        "    return os.environ.get('SHOP_HOST', settings.get('SHOP_CONF_HOST')),"
        " os.environ.get('SHOP_CONF_HOST')\n",
    )
    # A dict's key given as the default is no variable's older spelling.
    assert ("CD103", "SHOP_CONF_HOST") in found


_SETTINGS = 'import os\n\nPATH = os.environ.get("TOOL_SETTINGS_PATH")\n'
_VCS = 'import os\n\nCACHE = os.environ.get("TOOL_CACHE_DIR")\nX = os.environ.get("TOOL_TESTONLY_FAST")\n'


def _tool(tmp_path, settings=_SETTINGS, vcs=_VCS, files=None):
    page = "# Settings\n\nThe settings file is where `TOOL_SETTINGS_PATH` says.\n"
    analysis, findings = check_project(
        tmp_path,
        {
            "tool/settings.py": settings,
            "tool/vcs.py": vcs,
            "tool/cli.py": _CLI,
            "docs/settings.md": page,
            **(files or {}),
        },
        "tool",
    )
    env = next((s for s in analysis.surfaces if s.schema.model_kind == "env"), None)
    return env, by_key(findings)


def test_variables_named_for_the_package_admit_the_environment_by_one(tmp_path) -> None:
    # One variable named, of two read: too few, but for their name.
    env, found = _tool(tmp_path)
    assert env is not None and "named for the package" in env.admitted
    assert found[("CD103", "TOOL_CACHE_DIR")].location.path == "tool/vcs.py"
    assert ("CD103", "TOOL_TESTONLY_FAST") not in found
    other_env, other_found = _tool(
        tmp_path / "other",
        settings=_SETTINGS.replace("TOOL_", "KIT_"),
        vcs=_VCS.replace("TOOL_", "KIT_"),
        files={"docs/settings.md": "# Settings\n\nSee `KIT_SETTINGS_PATH`.\n"},
    )
    assert other_env is None
    assert ("CD103", "KIT_CACHE_DIR") not in other_found
    # Named for the package, but none of them named in the pages.
    unnamed_env, _ = _tool(tmp_path / "unnamed", files={"docs/settings.md": "# Settings\n"})
    assert unnamed_env is None


def test_a_script_beside_the_package_that_sets_a_variable_leaves_it_alone(tmp_path) -> None:
    script = 'import os\n\nos.environ["TOOL_CACHE_DIR"] = "/tmp/x"\n'
    _, found = _tool(tmp_path, files={"scripts/release.py": script})
    assert ("CD103", "TOOL_CACHE_DIR") not in found
    # A test setting it (for the tests' own isolation) says nothing of the docs.
    _, tested = _tool(tmp_path / "tested", files={"scripts/release_test.py": script})
    assert ("CD103", "TOOL_CACHE_DIR") in tested


@pytest.mark.parametrize(
    ("name", "module", "expected"),
    [
        ("COPIER_CACHE_DIR", "copier._vcs", True),
        ("HTTPIE_NO_MAN_PAGES", "httpie.output.ui", True),
        ("COPIER_CACHE_DIR", "copierx._vcs", False),
        ("CIBW_BUILD", "cibuildwheel.options", False),
        ("TESTS_DIR", "tests.conftest", False),
        ("COPIER", "copier", False),
    ],
)
def test_a_variable_is_named_for_its_package_by_the_whole_name(name, module, expected) -> None:
    from configdrift.index.platform_variables import named_for_package

    assert named_for_package(name, module) is expected


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("BORG_TESTONLY_WEAKEN_KDF", True),
        ("SQLFLUFF_TESTENV", True),
        ("HATCH_SELF_TESTING", True),
        ("TESTAPP_CACHE_DIR", False),
        ("BORG_CACHE_DIR", False),
        ("APP_LATEST", False),
    ],
)
def test_a_tests_switch_has_a_word_beginning_test(name, expected) -> None:
    from configdrift.index.platform_variables import test_switch

    assert test_switch(name) is expected


def test_the_keywords_of_an_update_of_the_environment_are_written() -> None:
    from configdrift.extract.python.named_variables import variables_named

    source = (
        "os.environ.update(\n    SHOP_LEVEL=str(level) if level else '',\n    SHOP_FILE=f(x),\n)\n"
        "run(SHOP_OTHER=1)\n"
    )
    # Another call's keyword after the update's closing bracket is no write.
    assert variables_named(source) == ["SHOP_FILE", "SHOP_LEVEL"]
