"""A model built from a whole dict the code does not show the origin of
(``AppConfig(**raw)``) is a configuration where a configuration reference
page documents three of its keys and half: never on a page whose path
says nothing of configuration (an event's fields), never on two keys."""

from __future__ import annotations

import pytest

from helpers import APP_CONFIG, by_key, check_project

_PAGE = """
Configuration
=============

host
   The host to bind. Default: ``localhost``.

port
   The port. Default: ``8080``.

workers
   How many workers. Default: ``1``.

timeout
   Seconds before a request is dropped. Default: ``30``.
"""


def _check(tmp_path, page: str = "docs/configuration.rst", text: str = _PAGE):
    return check_project(tmp_path, {"app/config.py": APP_CONFIG, page: text}, "app")


def test_a_model_built_from_a_whole_dict_is_the_configuration_its_page_documents(
    tmp_path,
) -> None:
    analysis, findings = _check(tmp_path)
    assert "AppConfig" in [s.surface for s in analysis.everything]
    found = by_key(findings)
    assert found[("CD101", "timeout")].severity.value == "error"
    assert "raises a ValidationError" in found[("CD101", "timeout")].message
    assert "the code's default is 8000" in found[("CD104", "port")].message
    assert ("CD103", "debug") in found


def test_a_page_that_is_no_configuration_reference_is_no_evidence(tmp_path) -> None:
    # The same fields on a page of events: the model may be a record of data.
    analysis, findings = _check(tmp_path, page="docs/events.rst")
    assert "AppConfig" not in [s.surface for s in analysis.everything]
    assert not any(f.key == "timeout" for f in findings)


def test_two_documented_keys_are_no_evidence(tmp_path) -> None:
    page = _PAGE.replace("workers\n   How many workers. Default: ``1``.\n", "")
    analysis, _ = _check(tmp_path, text=page)
    assert "AppConfig" not in [s.surface for s in analysis.everything]


_LOADER = """
import yaml


def read(path):
    with open(path) as f:
        cfg = yaml.safe_load(f)
    for extra in cfg.pop("include", []):
        cfg.update(read(extra))
    return cfg
"""


def test_a_key_the_loader_takes_out_of_the_file_is_not_rejected(tmp_path) -> None:
    """``cfg.pop("include")`` on a loaded file: the loader's directive
    never reaches the strict model, so an example that sets it is right."""
    example = "   include: base.yaml\n   host: example.org\n   port: 80\n   workers: 2\n"
    page = _PAGE + "\nExample:\n\n.. code-block:: yaml\n\n" + example
    files = {"app/config.py": APP_CONFIG, "docs/configuration.rst": page}
    _, findings = check_project(tmp_path, {**files, "app/loader.py": _LOADER}, "app")
    assert not [k for c, k in by_key(findings) if c == "CD301"]
    # Without the loader, ``include`` is a key the model forbids.
    _, findings = check_project(tmp_path / "bare", files, "app")
    assert [k for c, k in by_key(findings) if c == "CD301"] == ["include"]


@pytest.mark.parametrize(
    "loader",
    [
        # Read, not taken out: the model still receives it.
        _LOADER.replace('cfg.pop("include", [])', 'cfg.get("include", [])'),
        # Taken out of a dict that is no loaded file.
        'def strip(options):\n    options.pop("include", None)\n    return options\n',
    ],
)
def test_a_key_read_or_taken_from_another_dict_is_still_rejected(tmp_path, loader) -> None:
    example = "   include: base.yaml\n   host: example.org\n   port: 80\n   workers: 2\n"
    page = _PAGE + "\nExample:\n\n.. code-block:: yaml\n\n" + example
    files = {"app/config.py": APP_CONFIG, "docs/configuration.rst": page, "app/loader.py": loader}
    _, findings = check_project(tmp_path, files, "app")
    assert [k for c, k in by_key(findings) if c == "CD301"] == ["include"]
