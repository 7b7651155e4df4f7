"""An environment no page lists as entries, whose variables the pages
write in prose and command lines, is a configuration admitted by them:
a variable of the package's own prefix that the same module reads beside
a named one, and no page names, is undocumented (CD103). A variable read
apart, another program's, a build script's, or the one a documented
option declares, is not judged."""

from __future__ import annotations

import pytest

from configdrift.rules.environment_docs import abbreviates
from helpers import by_key, check_project

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
TESTING = os.environ.get("SHOP_SELF_TESTING")
"""

_BUILD = """
import os

NINJA = os.environ.get("SHOP_ENABLE_NINJA")
DOMAIN = os.environ.get("SHOP_GITLAB_DOMAIN")
"""

_CLI = """
import argparse


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", default=8000, help="The port.")
    parser.add_argument("--host", default="::", help="The host.")
    parser.add_argument("--debug", action="store_true", help="Debug.")
    return parser.parse_args()
"""

_PAGE = """# Signing in

Run `shop --port 80`.

Sign in with GitLab: set `SHOP_GITLAB_DOMAIN` to your instance's host.

The cache lives where `SHOP_CACHE_DIR` says. Log runs with `WANDB_PROJECT`.

```console
$ SHOP_CACHE_DIR=/tmp/cache shop
```
"""


def _check(tmp_path, page=_PAGE, files=None):
    analysis, findings = check_project(
        tmp_path,
        {
            "shop/auth.py": _AUTH,
            "shop/cache.py": _CACHE,
            "shop/cli.py": _CLI,
            "setup.py": _BUILD,
            "docs/signin.md": page,
            **(files or {}),
        },
        "shop",
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


def test_a_variable_read_apart_from_the_named_ones_is_not_judged(tmp_path) -> None:
    # SHOP_SELF_TESTING is read beside SHOP_CACHE_DIR; without it named, alone.
    page = _PAGE.replace("`SHOP_CACHE_DIR`", "`SHOP_ENABLE_NINJA`").replace("SHOP_CACHE_DIR=", "X=")
    env, found = _check(tmp_path, page=page)
    assert env is not None
    assert ("CD103", "SHOP_SELF_TESTING") not in found
    _, named = _check(tmp_path / "named")
    assert ("CD103", "SHOP_SELF_TESTING") in named


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
