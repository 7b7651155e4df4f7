from __future__ import annotations

import textwrap

import pytest

from configdrift.config import Config
from configdrift.engine import analyse
from configdrift.extract.python.extractor import extract_python
from configdrift.model import format_path
from helpers import make_project


def facts(source: str):
    return extract_python(textwrap.dedent(source).encode())


def test_python2_is_a_parse_error() -> None:
    result = facts("print 'hello'\n")
    assert result.error is not None and "syntax" in result.error
    assert result.error_line == 1


def test_not_utf8_is_a_parse_error() -> None:
    result = extract_python(b"x = 1\ny = '\xff'\n")
    assert result.error is not None and "UTF-8" in result.error
    assert result.error_line == 2


def test_imports_constants_and_classes() -> None:
    result = facts(
        """
        import os.path
        from . import sibling as sib
        from ..pkg.mod import NAME
        from consts import *
        KEY = "zero"
        __all__ = ["KEY"]
        class M(Base):
            x: int = 1
            class Config:
                extra = "forbid"
        """
    )
    assert [(i.local, i.module, i.name, i.level) for i in result.imports] == [
        ("os", "os", None, 0),
        ("sib", "", "sibling", 1),
        ("NAME", "pkg.mod", "NAME", 2),
    ]
    assert result.star_imports == [("consts", 5)]
    assert result.assigns["KEY"] == ["c", "zero"]
    assert result.all_names == ["KEY"]
    (cls,) = result.classes
    assert cls.fields[0].name == "x" and cls.config_class["extra"] == ["c", "forbid"]


@pytest.mark.parametrize(
    ("body", "keys"),
    [
        ("return M(**d.get(K, {}))", [[["n", "K"]]]),
        ("return M(**d[K])", [[["n", "K"]]]),
        ("x = d[K]\n    return M(**x)", [[["n", "K"]]]),
        ("x = d.get('a') or {}\n    return M(**x)", [[["c", "a"]]]),
        ("return M(**d['a']['b'])", [[["c", "a"], ["c", "b"]]]),
        ("return M.model_validate(d.get('a', {}))", [[["c", "a"]]]),
        ("return M(**copy.deepcopy(d['a']))", [[["c", "a"]]]),
        ("return M(**d[f'{k}_x'])", [[["src", "f'{k}_x'"]]]),
    ],
)
def test_placements_follow_the_dict(body: str, keys: list) -> None:
    result = facts(f"def get(d):\n    {body}\n")
    (placement,) = result.placements
    assert [s.keys for s in placement.sources] == keys
    assert all(s.base == "d" and s.is_param for s in placement.sources)


def test_dicts_handed_to_functions_with_their_key_arguments() -> None:
    result = facts("def outer(d):\n    return helper(d['a'], KEY, other=d.get('b'))\n")
    assert [(c.callee, c.position, c.source.keys, c.key_args) for c in result.dict_args] == [
        (["n", "helper"], 0, [["c", "a"]], {"1": ["n", "KEY"]}),
        (["n", "helper"], "other", [["c", "b"]], {"1": ["n", "KEY"]}),
    ]


@pytest.mark.parametrize(
    ("body", "reads"),
    [
        ("return d[K]", [([["n", "K"]], "subscript")]),
        ("return d.get('a', 1)", [([["c", "a"]], "get")]),
        ("return K in d", [([["n", "K"]], "in")]),
        ("return K in d.keys()", [([["n", "K"]], "in")]),
        ("return d.pop('a')", [([["c", "a"]], "pop")]),
        ("return d.setdefault('a', {})", [([["c", "a"]], "setdefault")]),
        (
            "x = d['a']\n    return x['b']",
            [([["c", "a"], ["c", "b"]], "subscript"), ([["c", "a"]], "subscript")],
        ),
        ("return d[0]", []),
        ("d['a'] = 1", []),
        ("return other['a']", []),
    ],
)
def test_reads_from_dict_parameters(body: str, reads: list) -> None:
    result = facts(f"def get(d):\n    {body}\n")
    assert sorted((r.source.keys, r.how) for r in result.dict_reads) == sorted(reads)


def test_instance_attributes_and_returns_are_dict_stores() -> None:
    result = facts(
        """
        class C:
            def __init__(self, config):
                self._params = config
            def section(self):
                return self._params['s']
        """
    )
    assert [(s.target, s.source.base, s.source.keys) for s in result.dict_stores] == [
        ("self._params", "config", []),
        ("<return>", "self._params", [["c", "s"]]),
    ]


def _tree(tmp_path, files):
    make_project(tmp_path, files)
    analysis = analyse(Config(root=tmp_path), jobs=1)
    return analysis


def test_constants_resolve_through_star_imports_and_reexports(tmp_path) -> None:
    analysis = _tree(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/names.py": "SECTION = 'sec'\n",
            "pkg/api/__init__.py": "from pkg.names import *\n",
            "pkg/models.py": """
                from pydantic import BaseModel
                from pkg.api import SECTION
                class M(BaseModel):
                    a: int = 1
                def get(d):
                    return M(**d.get(SECTION, {}))
            """,
        },
    )
    assert [format_path(m.path) for m in analysis.mounts] == ["sec"]


def test_a_name_a_package_binds_wins_over_its_submodule_of_that_name(tmp_path) -> None:
    """``from pkg.models import Model`` where ``pkg/models/__init__.py``
    imports the class from ``pkg/models/Model.py``: the class, as Python
    has it; a name the package does not bind is its submodule."""
    analysis = _tree(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/models/__init__.py": "from pkg.models.Model import Model\n",
            "pkg/models/Model.py": "class Model:\n    pass\n",
            "pkg/models/Other.py": "class Other:\n    pass\n",
            "pkg/use.py": "from pkg.models import Model, Other\n",
        },
    )
    project = analysis.project
    model, other = project.resolve("pkg.use", "Model"), project.resolve("pkg.use", "Other")
    assert (model.kind, model.module, model.qualname) == ("class", "pkg.models.Model", "Model")
    assert (other.kind, other.module) == ("module", "pkg.models.Other")


def test_star_import_honours_all(tmp_path) -> None:
    analysis = _tree(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/names.py": "__all__ = ['OTHER']\nSECTION = 'sec'\nOTHER = 'o'\n",
            "pkg/models.py": """
                from pydantic import BaseModel
                from pkg.names import *
                class M(BaseModel):
                    a: int = 1
                def get(d):
                    return M(**d.get(SECTION, {}))
            """,
        },
    )
    assert analysis.mounts == []
    assert [u.what for u in analysis.unresolved] == ["M built from d[SECTION]: key not static"]


def test_helper_parameters_take_the_caller_key(tmp_path) -> None:
    analysis = _tree(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/models.py": """
                from pydantic import BaseModel
                class Inner(BaseModel):
                    a: int = 1
                def get_inner(section):
                    return Inner(**section.get('inner', {}))
                def get_outer(d):
                    return get_inner(d['outer'])
            """,
        },
    )
    assert [format_path(m.path) for m in analysis.mounts] == ["outer.inner"]


def test_callers_that_disagree_leave_the_placement_unresolved(tmp_path) -> None:
    analysis = _tree(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/models.py": """
                from pydantic import BaseModel
                class Inner(BaseModel):
                    a: int = 1
                def get_inner(section):
                    return Inner(**section.get('inner', {}))
                def one(d):
                    return get_inner(d['x'])
                def two(d, k):
                    return get_inner(d[k])
            """,
        },
    )
    assert analysis.mounts == []
    assert len(analysis.unresolved) == 1


def test_legacy_spelling_becomes_an_alias_of_the_mount(tmp_path) -> None:
    analysis = _tree(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/models.py": """
                from pydantic import BaseModel
                class BF16(BaseModel):
                    enabled: bool = False
                def get_bf16(d):
                    cfg = d.get('bf16', None)
                    if cfg is None:
                        cfg = d.get('bfloat16', {})
                    return BF16(**cfg)
            """,
        },
    )
    node = analysis.schema.child("bfloat16")
    assert node is not None and node.key == "bf16" and node.spellings == ("bf16", "bfloat16")


def test_defaults_are_evaluated_statically(tmp_path) -> None:
    analysis = _tree(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/c.py": "BASE = 5e8\n",
            "pkg/models.py": """
                import sys
                from enum import Enum
                from pydantic import BaseModel, Field
                from pkg.c import BASE
                class pp_int(int):
                    pass
                class Dev(str, Enum):
                    cpu = 'cpu'
                class M(BaseModel):
                    a: int = Field(pp_int(5e8), ge=0)
                    b: float = BASE / 2
                    c: int = sys.maxsize
                    d: Dev = Dev.cpu
                    e: int = Field(default=-3)
                    f: list = Field(default_factory=list)
                    g: object = Field(default_factory=object)
                    h: int = Field(...)
                    i: int = len('abc')
                def get(d):
                    return M(**d['m'])
            """,
        },
    )
    node = analysis.schema.child("m")
    assert node is not None
    got = {
        k: (c.default.known, c.default.value) if c.default else None
        for k, c in node.children.items()
    }
    assert got == {
        "a": (True, 500000000),
        "b": (True, 2.5e8),
        "c": (True, 2**63 - 1),
        "d": (True, "cpu"),
        "e": (True, -3),
        "f": (True, []),
        "g": (False, None),
        "h": None,
        "i": (False, None),
    }


def test_deprecated_fields_and_their_replacement(tmp_path) -> None:
    analysis = _tree(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/models.py": """
                from pydantic import BaseModel, Field
                class M(BaseModel):
                    old: bool = Field(False, deprecated=True)
                    older: bool = Field(False, json_schema_extra={"deprecated": True, "new_param": "new"})
                    new: bool = False
                def get(d):
                    return M(**d['m'])
            """,
        },
    )
    node = analysis.schema.child("m")
    assert node is not None
    assert [(k, c.deprecated, c.replacement) for k, c in node.children.items()] == [
        ("old", True, None),
        ("older", True, "new"),
        ("new", False, None),
    ]


def test_dataclasses_are_strict_models(tmp_path) -> None:
    analysis = _tree(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/models.py": """
                from dataclasses import dataclass, field
                from typing import ClassVar
                @dataclass(frozen=True)
                class D:
                    a: int = 1
                    b: list = field(default_factory=list)
                    c: ClassVar[int] = 3
                def get(d):
                    return D(**d['dc'])
            """,
        },
    )
    node = analysis.schema.child("dc")
    assert node is not None and node.strict is True
    assert list(node.children) == ["a", "b"]


def test_config_flows_through_an_aliased_helper(tmp_path) -> None:
    analysis = _tree(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/zero.py": """
                from pydantic import BaseModel
                class Zero(BaseModel):
                    stage: int = 0
                def get_zero(param_dict):
                    return Zero(**param_dict.get("zero", {}))
            """,
            "pkg/config.py": """
                from pkg.zero import get_zero as load_zero
                def initialize(param_dict):
                    zero = load_zero(param_dict)
                    return zero, param_dict.get("steps", 1)
            """,
        },
    )
    # `steps` is read from the dict that reaches the model's helper through
    # an aliased import: the caller's dict is configuration too.
    assert analysis.schema.child("steps") is not None
    assert analysis.schema.child("zero") is not None


def test_config_flows_into_an_inherited_constructor(tmp_path) -> None:
    analysis = _tree(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/models.py": """
                from pydantic import BaseModel
                class Zero(BaseModel):
                    stage: int = 0
                class Base:
                    def __init__(self, param_dict):
                        self.zero = Zero(**param_dict.get("zero", {}))
                        self.steps = param_dict.get("steps", 1)
                class Derived(Base):
                    pass
                def build(config):
                    return Derived(config["trainer"])
            """,
        },
    )
    # `Derived(...)` runs `Base.__init__`: the section is `trainer`.
    trainer = analysis.schema.child("trainer")
    assert trainer is not None and trainer.child("zero") is not None
    assert trainer.child("steps") is not None


def test_self_attributes_and_chains_need_self_as_a_whole_word() -> None:
    result = extract_python(
        b"class C:\n"
        b"    def f(self):\n"
        b"        return self.cfg.zero.grad_hooks + myself.cfg.x + o.self.cfg.y\n"
        b"    def g(self):\n"
        b"        self.cfg.stage = 3\n"
        b"        return (self.a, self.b)\n"
    )
    assert [(line, fn, text) for line, fn, text in result.chains] == [
        (3, "C.f", "self.cfg.zero.grad_hooks"),
        (5, "C.g", "self.cfg.stage"),
    ]
    counts = result.attr_counts
    # ``self.cfg`` is loaded in f only; in g it is the receiver of a store,
    # which still reads it. ``myself.cfg`` and ``o.self.cfg`` are not on self.
    assert counts["self.cfg"] == 2 and counts["cfg"] == 2
    assert counts["self.a"] == 1 and counts["self.b"] == 1
    assert "self.stage" not in counts and "stage" not in counts


def test_a_chain_at_the_very_start_of_a_file_is_on_self() -> None:
    result = extract_python(b"self.a.b\n")
    assert result.attr_counts == {"self.a": 1, "b": 1}


_NEWER = """\
type Settings[T] = dict[str, T]
KEY = "zero"


def get[T: int](d: Settings[T]) -> T:
    label = f"{d["name"]} {d['other']!r:>{10}}"
    print(label)
    return Zero(**d.get(KEY, {}))


class Zero[T](BaseModel):
    stage: int = 0
    note: str = t"hi {KEY}"


try:
    pass
except ValueError, TypeError:
    pass
"""


def newer(source: str):
    return extract_python(textwrap.dedent(source).encode(), newer=True)


def test_newer_syntax_is_read_on_the_same_lines() -> None:
    result = newer(_NEWER)
    assert result.error is None
    assert result.assigns["KEY"] == ["c", "zero"]
    assert "Settings" in result.assigns
    (cls,) = result.classes
    assert (cls.name, cls.line) == ("Zero", 11)
    assert [(f.name, f.line) for f in cls.fields] == [("stage", 12), ("note", 13)]
    assert result.function_lines["get"] == (5, 8)
    (placement,) = result.placements
    assert placement.line == 8 and placement.sources[0].keys == [["n", "KEY"]]


def test_a_multiline_fstring_keeps_the_lines_after_it() -> None:
    source = 'X = f"""{"a"}\n\n{"b"}"""\nY = "after"\n'
    result = newer(source)
    assert result.error is None and result.assign_lines["Y"] == 4


def test_a_key_built_by_a_new_fstring_is_not_static() -> None:
    result = newer('def f(d, n):\n    return d[f"{"k"}_{n}"]\n')
    (read,) = result.dict_reads
    assert read.source.keys[0][0] != "c"


def test_what_no_python_version_parses_is_still_a_parse_error() -> None:
    result = newer("def broken(:\n    pass\n")
    assert result.error is not None and result.error_line == 1


def test_a_file_that_crashes_the_newer_parser_is_only_a_parse_error() -> None:
    """Parentheses nested thousands deep crash libcst's native parser: the
    child process dies, the file stays a parse error, the run goes on."""
    nested = "(" * 5000 + "1" + ")" * 5000
    result = newer(f"type T = int\nx = {nested}\n")
    assert result.error is not None and "syntax" in result.error


def test_a_giant_line_is_not_handed_to_the_newer_parser() -> None:
    chain = "+".join(["1"] * 20000)
    result = newer(f"type T = int\nx = {chain}\n")
    assert result.error is not None and "syntax" in result.error


def test_a_chunk_reads_newer_files_together_and_isolates_a_crash(tmp_path) -> None:
    from configdrift.extract.run import _python_chunk

    files = {
        "a.py": "type A = int\nKEY = 'a'\n",
        "bad.py": "type B = int\nx = " + "(" * 5000 + "1" + ")" * 5000 + "\n",
        "c.py": "def f[T](x: T) -> T:\n    return x\n",
        "old.py": "KEY = 'old'\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    results = {rel: facts for rel, facts, *_ in _python_chunk(str(tmp_path), sorted(files), False)}
    assert results["a.py"].error is None and results["a.py"].assigns["KEY"] == ["c", "a"]
    assert results["c.py"].error is None and "f" in results["c.py"].functions
    assert results["old.py"].error is None
    assert results["bad.py"].error is not None


def test_reads_inside_a_new_fstring_are_still_reads() -> None:
    result = newer('def url(config):\n    return f"{config["base"]}/search/{config["slug"]}"\n')
    assert result.error is None
    assert sorted(r.source.keys[0][1] for r in result.dict_reads) == ["base", "slug"]


def test_only_syntax_errors_that_may_be_newer_python_go_to_the_newer_parser() -> None:
    from configdrift.extract.python.compat import may_be_newer

    newer_lines = [
        "type Vector = list[float]",
        "def first[T](xs: list[T]) -> T: ...",
        "class Box[T]: ...",
        'label = f"{d["name"]}"',
        'note = t"hi {name}"',
        "except ValueError, TypeError:",
    ]
    for line in newer_lines:
        assert may_be_newer(f"x = 1\n{line}\n", 2), line
    for line in ["x = (", "def f(:", "return return", "print 'py2'", "except ValueError as e, f:"]:
        assert not may_be_newer(f"x = 1\n{line}\n", 2), line


_LOOPED = """
NAMES = ("bind", "workers")


class Report:
    FLAGS = ["daemon", "reload"]

    def flags(self, cfg):
        return [getattr(cfg, flag) for flag in self.FLAGS]


def show(cfg):
    keys = ["timeout", "backlog"]
    for key in keys:
        print(getattr(cfg, key))
    for name in NAMES:
        print(getattr(cfg, name))
    for literal in ("threads",):
        print(getattr(cfg, literal))


def unknown(cfg, names):
    for name in names:
        print(getattr(cfg, name))
"""


def test_getattr_over_a_literal_list_reads_its_names() -> None:
    """A loop over a literal list of names (written there, a local, a
    module constant or a class attribute) reads those names; a loop over a
    parameter's names may read any."""
    facts = extract_python(textwrap.dedent(_LOOPED).encode())
    for name in ("bind", "workers", "daemon", "reload", "timeout", "backlog", "threads"):
        assert name in facts.attr_loads
    assert facts.dynamic_getattr == [(24, "unknown", ("", ""), "name:cfg")]
