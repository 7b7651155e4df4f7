"""A read is judged against the type the code has narrowed it to: reads
guarded by ``isinstance``, ``hasattr`` or ``type(...) is``, and reads of a
field that a subclass declares, are not certain to fail (CD201 stays
silent); the same read without the guard, or through an expression that was
not tested, still is."""

from __future__ import annotations

from helpers import by_key, check_project

_MODELS = """
from pydantic import BaseModel, ConfigDict


class Backend(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = "local"


class Remote(Backend):
    url: str = ""


class Config(BaseModel):
    model_config = ConfigDict(extra="forbid")
    backend: Backend = Backend()
    other: Backend = Backend()
    epochs: int = 1
"""

_DOCS = """
# Settings

- `epochs` (int): passes.
- `backend` (dict): where to run.
- `backend.name` (str): the backend.
- `other` (dict): another backend.
- `other.name` (str): its name.
"""

_RUNNER = """
from pkg.models import Config, Remote


class Runner:
    def __init__(self, d):
        self.config = Config(**d)

{methods}
"""


def _dead(tmp_path, methods: str) -> list[str]:
    files = {
        "pkg/models.py": _MODELS,
        "pkg/run.py": _RUNNER.format(methods=methods),
        "docs/settings.md": _DOCS,
    }
    _, findings = check_project(tmp_path, files, "pkg", {"": "pkg.models:Config"})
    return sorted(f"{f.key}@{f.location.line}" for f in findings if f.code == "CD201")


def test_a_read_of_a_field_no_class_declares_is_dead(tmp_path):
    methods = "    def retries(self):\n        return self.config.backend.retries\n"
    assert _dead(tmp_path, methods) == ["retries@10"]


def test_a_read_guarded_by_isinstance_is_not_judged(tmp_path):
    methods = (
        "    def url(self):\n"
        "        if isinstance(self.config.backend, Remote):\n"
        "            return self.config.backend.url\n"
        "        return None\n"
    )
    assert _dead(tmp_path, methods) == []


def test_a_read_guarded_by_hasattr_or_type_is_not_judged(tmp_path):
    methods = (
        "    def retries(self):\n"
        "        if hasattr(self.config.backend, 'retries'):\n"
        "            return self.config.backend.retries\n"
        "    def timeout(self):\n"
        "        if type(self.config.other) is Remote:\n"
        "            return self.config.other.timeout\n"
    )
    assert _dead(tmp_path, methods) == []


def test_a_guard_on_another_expression_does_not_silence_the_read(tmp_path):
    methods = (
        "    def url(self):\n"
        "        if isinstance(self.config.other, Remote):\n"
        "            return self.config.backend.retries\n"
    )
    assert _dead(tmp_path, methods) == ["retries@11"]


def test_a_guard_in_another_function_does_not_silence_the_read(tmp_path):
    methods = (
        "    def check(self):\n"
        "        return isinstance(self.config.backend, Remote)\n"
        "    def retries(self):\n"
        "        return self.config.backend.retries\n"
    )
    assert _dead(tmp_path, methods) == ["retries@12"]


def test_a_field_a_subclass_declares_is_not_certain_to_fail(tmp_path):
    methods = "    def url(self):\n        return self.config.backend.url\n"
    assert _dead(tmp_path, methods) == []


def test_only_the_tests_of_a_type_are_recorded() -> None:
    from configdrift.extract.python.extractor import extract_python

    code = (
        b"def f(self):\n"
        b"    if isinstance(self.a, B) or hasattr(self.b, 'x') or type(c) is D:\n"
        b"        subtype(self.c)\n"
        b"        q.type(self.d)\n"
        b"        notisinstance(self.e, B)\n"
    )
    assert extract_python(code).narrowed == [("f", "self.a"), ("f", "self.b"), ("f", "c")]


_TYPED = """
from typing import TypedDict


class ServiceConfig(TypedDict, total=False):
    workers: int
    timeout: int
    name: str
"""


def test_a_typeddicts_attributes_are_a_dicts_methods_not_its_keys(tmp_path) -> None:
    """A TypedDict's instance is a dict: ``.get`` and ``.setdefault`` are
    its own (CD201 stays quiet on them), while a key read as an attribute
    fails."""
    files = {
        "pkg/models.py": _TYPED,
        "docs/settings.md": "# Settings\n\n- `workers` (int): w.\n- `timeout` (int): t.\n",
    }
    analysis, _ = check_project(tmp_path, files, "pkg")
    objects = analysis.object_types()
    symbol = analysis.project.resolve("pkg.models", "ServiceConfig")
    assert symbol is not None
    assert objects.declares(symbol, "get") is True
    assert objects.declares(symbol, "setdefault") is True
    assert objects.declares(symbol, "workers") is False
    assert objects.declares(symbol, "model_dump") is False


def test_a_model_dumped_whole_may_use_every_field(tmp_path) -> None:
    from helpers import mounted_config

    files = mounted_config("alpha: int = 1", "beta: int = 2", "gamma: int = 3")
    files["docs/config.md"] = "# Configuration\n\n- `alpha`: a.\n- `beta`: b.\n- `gamma`: c.\n"
    reads = (
        "from pkg.config import Config\n\n\ndef run(cfg: Config):\n    print(cfg.alpha, cfg.beta)\n"
    )
    files["pkg/run.py"] = reads
    _, findings = check_project(tmp_path / "a", files, "pkg", {"": "pkg.config:Config"})
    assert ("CD202", "gamma") in by_key(findings)
    # Dumped whole, every field may be used through the dump.
    files["pkg/run.py"] = reads + "    send(cfg.model_dump())\n"
    _, findings = check_project(tmp_path / "b", files, "pkg", {"": "pkg.config:Config"})
    assert ("CD202", "gamma") not in by_key(findings)


def test_a_model_iterated_as_a_dict_through_what_reads_its_fields_may_use_every_field(
    tmp_path,
) -> None:
    # ``self.current``'s type is not known; the code reads two of the
    # model's fields through it and loops over its items: every field may be
    # used in the loop. A loop over an object that reads other names too
    # may be another object's.
    from helpers import mounted_config

    files = mounted_config("alpha: int = 1", "beta: int = 2", "gamma: int = 3")
    files["docs/config.md"] = "# Configuration\n\n- `alpha`: a.\n- `beta`: b.\n- `gamma`: c.\n"
    reads = (
        "class Runner:\n    def run(self):\n        print(self.current.alpha, self.current.beta)\n"
    )
    loop = "        for key, value in self.current.items():\n            apply(key, value)\n"
    found = {}
    for name, text in {
        "plain": reads,
        "looped": reads + loop,
        "single": "class Runner:\n    def run(self):\n        print(self.current.alpha)\n" + loop,
        "other": reads + "        print(self.current.locale)\n" + loop,
    }.items():
        files["pkg/run.py"] = text
        _, findings = check_project(tmp_path / name, files, "pkg", {"": "pkg.config:Config"})
        found[name] = ("CD202", "gamma") in by_key(findings)
    assert found == {"plain": True, "looped": False, "single": True, "other": True}
