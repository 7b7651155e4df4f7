"""A dict a project function returns from a loader (``def
load_config(path): return yaml.safe_load(f)``) is a loaded file's dict
wherever it is called: what the caller reads of it by key is the
configuration read from that file, in the same module or another, kept
on ``self`` or in a local. A function that returns anything else hands
back no loaded dict."""

from __future__ import annotations

import pytest

from helpers import by_key, check_project

_LOADER = """
import yaml


def load_config(path):
    with open(path) as f:
        return yaml.safe_load(f) or {}
"""

_READER = """
{imports}


class Bot:
    def __init__(self, config_path="bot.yaml"):
        self.config = load_config(config_path)

    def run(self):
        token = self.config.get("token")
        prefix = self.config.get("command_prefix", "!")
        retries = self.config.get("max_retries", 3)
        timeout = self.config.get("timeout", 30)
        owner = self.config.get("owner_id")
        return token, prefix, retries, timeout, owner
"""

_DOCS = """Configuration
=============

``token``
   The bot's token.

``command_prefix``
   What commands start with.

``max_retries``
   How often to retry. Defaults to ``5``.

``timeout``
   Seconds to wait.

``log_channel``
   Where to log.
"""


@pytest.mark.parametrize("apart", [False, True])
def test_what_a_loader_function_returns_is_read_as_a_config_file(tmp_path, apart) -> None:
    if apart:
        files = {
            "bot/loading.py": _LOADER,
            "bot/core.py": _READER.format(imports="from bot.loading import load_config"),
        }
    else:
        files = {"bot/core.py": _LOADER + _READER.format(imports="")}
    _, findings = check_project(tmp_path, {**files, "docs/config.rst": _DOCS}, "bot")
    found = by_key(findings)
    assert ("CD103", "owner_id") in found
    assert ("CD102", "log_channel") in found
    assert "5" in found[("CD104", "max_retries")].message


def test_a_function_that_returns_no_loaded_dict_hands_back_none(tmp_path) -> None:
    # (beside a loader function the bot does not call)
    loader = _LOADER.replace("yaml.safe_load(f) or {}", "dict(path=path)")
    loader += "\n\ndef load_raw(path):\n    return yaml.safe_load(path)\n"
    files = {"bot/core.py": loader + _READER.format(imports="")}
    _, findings = check_project(tmp_path, {**files, "docs/config.rst": _DOCS}, "bot")
    assert not [k for k in by_key(findings) if k[0].startswith("CD1")]


@pytest.mark.parametrize(
    ("returned", "calls"),
    [
        ("yaml.safe_load(f)", [("load", "yaml.safe_load")]),
        ("yaml.safe_load(f) or {}", [("load", "yaml.safe_load")]),
        ("yaml.safe_load(f) or []", [("load", "yaml.safe_load")]),
        # Another value in its place: not only what the call returns.
        ("yaml.safe_load(f) or DEFAULTS", []),
        ('yaml.safe_load(f) or {"a": 1}', []),
        ("yaml.safe_load(f) and {}", []),
    ],
)
def test_a_function_returns_a_call_or_nothing(returned, calls) -> None:
    from configdrift.extract.python.extractor import extract_source

    facts = extract_source(f"def load(f):\n    return {returned}\n")
    assert facts.return_calls == calls
