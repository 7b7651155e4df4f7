"""A model a page constructs (a Python block calls the class with keyword
arguments) is a configuration where the page is about it: three of the
page's entries and three quarters of them are its fields, whatever other
configuration holds the same keys or the model within it. A documented
key it lacks is not judged there (the page may list an environment
variable beside); a field no keyword sets (``field(init=False)``) is no
key of it. Never where the page does not construct it, nor where it
documents other keys as much."""

from __future__ import annotations

from helpers import by_key, check_project

_IMAGES = """
import dataclasses


@dataclasses.dataclass
class Image:
    base_image: str = ""
    distro: str = "debian"
    python_version: str = "3.11"
    lock_packages: bool = True
    pack_git: bool = True
    scripts: dict = dataclasses.field(default_factory=dict, init=False)


@dataclasses.dataclass
class Service:
    name: str = ""
    image: Image = None
    workers: int = 1
    timeout: int = 30
    port: int = 3000
"""

#: A reference page of the model that holds ``Image`` in a field.
_SETTINGS = """Settings
========

``name``
    The service's name.
``image``
    Its runtime image.
``workers``
    How many workers.
``timeout``
    Seconds to wait.
``port``
    The port.
"""

_PAGE = """Runtime environment
===================

Create an ``Image``:

.. code-block:: python

    import app

    image = app.Image(python_version="3.11", distro="alpine")

Constructor parameters
----------------------

- ``python_version``: the Python version.
- ``distro``: the Linux distribution.
- ``base_image``: a base image of your own.
- ``lock_packages``: whether to lock the packages.
- ``APP_NO_LOCAL``: set to skip the local build.
"""

#: A root of its own that holds three of the same keys, documented on its page.
_ROOT = """
from pydantic import BaseModel


class Docker(BaseModel):
    distro: str = "debian"
    python_version: str = "3.11"
    base_image: str = ""
    cuda: str = ""


def load(d):
    return Docker(**d.get("docker", {}))
"""

_ROOT_PAGE = """# Docker options

| Option | Description |
| --- | --- |
| `docker.distro` | The distribution |
| `docker.python_version` | The Python version |
| `docker.base_image` | A base image |
| `docker.cuda` | The CUDA version |
"""


def _check(tmp_path, page: str = _PAGE, **more: str):
    files = {"app/images.py": _IMAGES, "docs/runtime.rst": page, **more}
    return check_project(tmp_path, files, "app")


def _surfaces(analysis) -> list[str]:
    return [s.surface for s in analysis.everything]


def test_a_page_that_constructs_a_model_and_lists_its_fields_documents_it(tmp_path) -> None:
    analysis, findings = _check(tmp_path)
    assert "Image" in _surfaces(analysis)
    found = by_key(findings)
    assert ("CD103", "pack_git") in found
    # Not a keyword of its constructor; an environment variable beside.
    assert not any(f.key == "scripts" for f in findings)
    assert not any(f.key == "APP_NO_LOCAL" for f in findings)


def test_keys_another_configuration_holds_are_still_this_pages(tmp_path) -> None:
    analysis, findings = _check(tmp_path, **{"app/docker.py": _ROOT, "docs/docker.md": _ROOT_PAGE})
    assert "Image" in _surfaces(analysis)
    assert ("CD103", "pack_git") in by_key(findings)


_WORKER = """
import dataclasses


@dataclasses.dataclass
class Worker:
    a1: int = 1
    a2: int = 2
    a3: int = 3
    a4: int = 4
    a5: int = 5
"""

_OPTIONS = "Options\n=======\n\n" + "".join(f"``a{i}``\n    Option {i}.\n" for i in range(1, 6))


def test_a_model_another_candidate_holds_in_a_field_is_still_the_pages(tmp_path) -> None:
    # ``Service`` (which holds ``Image``) and ``Worker`` are documented
    # alike, five keys each: neither is guessed; ``Image`` is its page's.
    analysis, findings = _check(
        tmp_path,
        **{"docs/settings.rst": _SETTINGS, "app/worker.py": _WORKER, "docs/options.rst": _OPTIONS},
    )
    assert "Service" not in _surfaces(analysis)
    assert "Image" in _surfaces(analysis)
    assert ("CD103", "pack_git") in by_key(findings)


def test_a_model_its_page_is_about_is_never_one_to_guess_between(tmp_path) -> None:
    # The page documents five of its fields, as the two reference pages
    # document five of ``Service``'s and of ``Worker``'s: those two are
    # not guessed between; ``Image`` has a page of its own.
    page = _PAGE + "- ``pack_git``: whether to pack git packages.\n"
    analysis, _ = _check(
        tmp_path,
        page,
        **{"docs/settings.rst": _SETTINGS, "app/worker.py": _WORKER, "docs/options.rst": _OPTIONS},
    )
    assert "Image" in _surfaces(analysis)


def test_a_page_that_does_not_construct_it_is_not_about_it(tmp_path) -> None:
    page = _PAGE.replace('app.Image(python_version="3.11", distro="alpine")', "app.build()")
    analysis, findings = _check(tmp_path, page)
    assert "Image" not in _surfaces(analysis)
    assert not any(f.key == "pack_git" for f in findings)


def test_a_page_of_a_small_part_of_its_fields_is_not_about_it(tmp_path) -> None:
    # Four of fourteen fields: a guide to its use, not its reference.
    more = "".join(f"    extra{i}: int = {i}\n" for i in range(9))
    images = _IMAGES.replace("    pack_git: bool = True\n", "    pack_git: bool = True\n" + more)
    analysis, _ = _check(tmp_path, **{"app/images.py": images})
    assert "Image" not in _surfaces(analysis)


def test_a_page_of_other_keys_as_much_is_not_about_it(tmp_path) -> None:
    # Four fields of seven entries: not three quarters.
    page = _PAGE + "- ``APP_CACHE``: the cache.\n- ``APP_HOME``: the home.\n"
    analysis, _ = _check(tmp_path, page)
    assert "Image" not in _surfaces(analysis)
