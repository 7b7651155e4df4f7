"""configdrift sweep KEY: every reference, by kind, with a checklist."""

from __future__ import annotations

import json

from helpers import make_project

FILES = {
    "pkg/__init__.py": "",
    "pkg/constants.py": 'SPARSE = "sparse"\nSPARSE_DEFAULT = False\nOTHER = "other"\n',
    "pkg/config.py": """\
        from pydantic import BaseModel
        from pkg.constants import *

        class Zero(BaseModel):
            stage: int = 0

        def get_sparse_enabled(param_dict):
            return param_dict.get(SPARSE, SPARSE_DEFAULT)

        class Config:
            def __init__(self, param_dict):
                self.sparse_enabled = get_sparse_enabled(param_dict)
                self.other = param_dict.get(OTHER, 1)
                self.zero = Zero(**param_dict.get("zero", {}))
        """,
    "pkg/engine.py": """\
        from pkg.config import Config

        class Engine:
            def __init__(self, param_dict, modules):
                self._config = Config(param_dict)
                self.sparse_names = set()
                for name in modules:
                    if self.sparse_enabled():
                        self.sparse_names.add(name)

            def sparse_enabled(self):
                return self._config.sparse_enabled

            def state(self):
                return dict(module=1, sparse_names=self.sparse_names)
        """,
    "docs/config.md": """\
        # Configuration

        <i>**sparse**</i>: [boolean] Sparse gradients.

        <i>**other**</i>: [integer]

        <i>**zero**</i>: [dictionary]

        <i>**zero:stage**</i>: [integer]
        """,
    "docs/tutorial.md": (
        "# Tutorial\n\n```\nsparse_enabled ..... False\n```\n\n"
        "Sparse updates keep sparse tensors sparse.\n\nSet `sparse` to true for them.\n"
    ),
    "tests/test_engine.py": """\
        from pkg.engine import Engine

        def test_sparse():
            Engine({"sparse": True, "other": 2, "zero": {}}, [])
        """,
}


def test_a_sweep_follows_the_key_through_every_kind(cli, tmp_path) -> None:
    make_project(tmp_path, FILES)
    result = cli("sweep", "sparse", str(tmp_path), "--format", "json")
    assert result.code == 0
    report = json.loads(result.out)
    got = {(r["kind"], r["path"], r["line"]) for r in report["references"]}
    assert got == {
        ("constant", "pkg/constants.py", 1),
        ("constant", "pkg/constants.py", 2),
        ("parse", "pkg/config.py", 8),
        ("attribute", "pkg/config.py", 12),
        ("accessor", "pkg/engine.py", 11),
        ("use", "pkg/engine.py", 8),
        ("checkpoint field", "pkg/engine.py", 15),
        ("doc entry", "docs/config.md", 3),
        ("tutorial or sample output", "docs/tutorial.md", 4),
        # A plain word counts where it is spelt as a key, not in prose.
        ("tutorial or sample output", "docs/tutorial.md", 9),
        ("test", "tests/test_engine.py", 4),
    }
    assert report["derived"] == [
        "SPARSE",
        "SPARSE_DEFAULT",
        "get_sparse_enabled",
        "sparse_enabled",
        "sparse_names",
    ]
    assert report["checklist"][0].startswith("Delete the key from the test configs")
    assert "registry of removed keys" in report["checklist"][-1]


def test_the_text_report_groups_by_kind(cli, tmp_path) -> None:
    make_project(tmp_path, FILES)
    out = cli("sweep", "sparse", str(tmp_path)).out
    assert out.startswith("sweep `sparse`: 11 references")
    assert (
        "checkpoint field\n  pkg/engine.py:15: return dict(module=1, sparse_names=self.sparse_names)"
        in out
    )
    assert "removal checklist:\n  1. " in out


def test_a_key_nothing_references_exits_1(cli, tmp_path) -> None:
    make_project(tmp_path, FILES)
    result = cli("sweep", "nothing_here", str(tmp_path))
    assert result.code == 1
    assert result.out.startswith("sweep `nothing_here`: 0 references")
    assert cli("sweep", "...", str(tmp_path)).code == 2


def test_a_pydantic_field_is_swept_from_its_declaration_to_its_reads(cli) -> None:
    from pathlib import Path

    demo = Path(__file__).parent.parent / "demo"
    result = cli("sweep", "zero_optimization.sub_group_size", str(demo), "--format", "json")
    assert result.code == 0
    refs = {(r["kind"], r["path"], r["line"]) for r in json.loads(result.out)["references"]}
    assert refs == {
        ("declaration", "minitrain/zero/config.py", 23),
        ("attribute read", "minitrain/engine.py", 28),
    }
    text = cli("sweep", "zero_optimization.sub_group_size", "demo", cwd=demo.parent).out
    assert "  demo/minitrain/engine.py:28: return self._config.zero.overlap_comm" in text
    assert "Remove the reads of the field." in text


def test_an_attribute_of_the_same_name_on_another_object_is_no_read(cli, tmp_path) -> None:
    make_project(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/config.py": """\
                from pydantic import BaseModel, ConfigDict, Field

                class Inner(BaseModel):
                    model_config = ConfigDict(extra="forbid")
                    depth: int = 1
                    width_px: int = Field(2, alias="width")

                class Outer(BaseModel):
                    model_config = ConfigDict(extra="forbid")
                    inner: Inner = Inner()
                """,
            "pkg/use.py": """\
                from pkg.config import Outer

                class Box:
                    depth = 3

                class Runner:
                    def __init__(self, param_dict: dict) -> None:
                        self.config = Outer(**param_dict)
                        self.box = Box()

                    def run(self):
                        return self.config.inner.depth

                    def size(self):
                        return self.config.inner.width_px

                    def boxed(self):
                        return self.box.depth
                """,
            "docs/config.md": "# Config\n\n## inner\n\n- `depth` (int): how deep. Default: 1.\n"
            "- `width` (int): how wide. Default: 2.\n",
        },
    )
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text() + '[tool.configdrift.mount]\n"" = "pkg.config:Outer"\n'
    )
    refs = json.loads(cli("sweep", "inner.depth", str(tmp_path), "--format", "json").out)
    reads = [(r["path"], r["line"]) for r in refs["references"] if r["kind"] == "attribute read"]
    assert reads == [("pkg/use.py", 12)]  # not ``self.box.depth`` (line 18), a Box's
    assert ("declaration", "pkg/config.py", 5) in {
        (r["kind"], r["path"], r["line"]) for r in refs["references"]
    }
    # An aliased field is read by its attribute name.
    refs = json.loads(cli("sweep", "inner.width", str(tmp_path), "--format", "json").out)
    reads = [(r["path"], r["line"]) for r in refs["references"] if r["kind"] == "attribute read"]
    assert reads == [("pkg/use.py", 15)]
