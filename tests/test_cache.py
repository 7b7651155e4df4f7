"""The fact cache: same results warm or cold, never trusted blindly."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from configdrift.extract.cache import FactCache
from configdrift.files import cache_dir

DEMO = Path(__file__).parent.parent / "demo"


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "demo"
    shutil.copytree(DEMO, root)
    return root


def test_warm_run_matches_cold_run(cli, tmp_path) -> None:
    root = _copy(tmp_path)
    cold = cli("check", str(root), "--format", "json")
    store = FactCache(root)
    assert store.entries, "the first run fills the cache"
    warm = cli("check", str(root), "--format", "json")
    assert warm.out == cold.out
    assert cli("check", str(root), "--format", "json", "--no-cache").out == cold.out


def test_an_edited_file_is_extracted_again(cli, tmp_path) -> None:
    root = _copy(tmp_path)
    cli("check", str(root))
    page = root / "docs" / "configuration.md"
    page.write_text(page.read_text().replace("<i>**grad_hooks**</i>", "<i>**grad_hookz**</i>"))
    keys = {
        f["key"] for f in json.loads(cli("check", str(root), "--format", "json").out)["findings"]
    }
    assert "zero_optimization.grad_hookz" in keys
    assert "zero_optimization.grad_hooks" not in keys


def test_a_corrupt_cache_is_ignored(cli, tmp_path) -> None:
    root = _copy(tmp_path)
    expected = cli("check", str(root), "--format", "json").out
    path = FactCache(root).path
    for garbage in ("not json", '{"version": "x", "files": {}}', "[1, 2]"):
        path.write_text(garbage)
        assert cli("check", str(root), "--format", "json").out == expected


def _rewrite(store: FactCache, facts: bytes) -> None:
    for rel, (digest, _) in list(store.entries.items()):
        store.put(rel, digest, facts)
    store.save()


def test_tampered_entries_are_extracted_again(cli, tmp_path) -> None:
    import zlib

    root = _copy(tmp_path)
    expected = cli("check", str(root), "--format", "json").out
    for facts in (zlib.compress(b'{"unexpected": true}'), zlib.compress(b"{not json"), b"raw"):
        _rewrite(FactCache(root), facts)
        assert cli("check", str(root), "--format", "json").out == expected


def test_a_cache_cut_short_keeps_its_whole_entries(cli, tmp_path) -> None:
    root = _copy(tmp_path)
    expected = cli("check", str(root), "--format", "json").out
    path = FactCache(root).path
    data = path.read_bytes()
    whole = len(FactCache(root).entries)
    assert whole > 5
    path.write_bytes(data[: len(data) // 2])
    assert 0 < len(FactCache(root).entries) < whole
    # A record whose size runs past the end, or is no number, ends the reading.
    head, _, rest = data.partition(b"\n")
    first, _, _ = rest.partition(b"\n")
    for garbled in (first.rsplit(b"\t", 1)[0] + b"\t99999999", first.rsplit(b"\t", 1)[0] + b"\tx"):
        path.write_bytes(head + b"\n" + garbled + b"\n" + rest.partition(b"\n")[2])
        assert FactCache(root).entries == {}
    assert cli("check", str(root), "--format", "json").out == expected


def test_entries_are_decoded_only_when_asked_for(tmp_path) -> None:
    from configdrift.extract.cache import entry_json

    store = FactCache(tmp_path, directory=tmp_path / "cache")
    store.put("a\tb\nc.py", "d1", entry_json({"x": 1}))
    store.put("other.py", "d2", entry_json({"y": "\n\t"}))
    store.save()
    again = FactCache(tmp_path, directory=tmp_path / "cache")
    assert set(again.entries) == {"a\tb\nc.py", "other.py"}
    assert all(isinstance(facts, bytes) for _, facts in again.entries.values())
    assert again.get("a\tb\nc.py", "d1") == {"x": 1}
    assert again.get("other.py", "d2") == {"y": "\n\t"}
    assert again.get("a\tb\nc.py", "changed") is None
    assert FactCache(tmp_path, directory=tmp_path / "cache", salt="other").entries == {}


def test_the_cache_lives_outside_the_repository(cli, tmp_path) -> None:
    root = _copy(tmp_path)
    before = sorted(p.relative_to(root) for p in root.rglob("*"))
    cli("check", str(root))
    assert sorted(p.relative_to(root) for p in root.rglob("*")) == before
    assert FactCache(root).path.parent == cache_dir()
    assert not FactCache(root).path.is_relative_to(root)


def test_no_cache_writes_nothing(cli, tmp_path) -> None:
    root = _copy(tmp_path)
    cli("check", str(root), "--no-cache")
    assert not FactCache(root).path.exists()


def test_facts_are_written_as_asdict_would_write_them() -> None:
    import dataclasses
    import json
    from pathlib import Path

    from configdrift.extract.cache import encoded
    from configdrift.extract.docs.markdown import extract_markdown
    from configdrift.extract.python.extractor import extract_python

    demo = Path(__file__).parent.parent / "demo"
    checked = 0
    for path in sorted(demo.rglob("*")):
        if path.suffix == ".py":
            facts: object = extract_python(path.read_bytes())
        elif path.suffix == ".md":
            facts = extract_markdown(path.read_bytes())
        else:
            continue
        asdict = dataclasses.asdict(facts)  # type: ignore[call-overload]
        assert encoded(facts) == json.dumps(asdict, separators=(",", ":"))
        checked += 1
    assert checked >= 10


def test_every_fact_survives_the_cache() -> None:
    """What the cache writes reads back equal, field by field: a field the
    decoder forgets would vanish from every warm run (a function's open
    signature, forgotten, turned every keyword of a call in the docs into
    an error, in warm runs only). The repository's own Python files, with
    one that does not parse, hold every field at least once: a new field
    no file holds fails here until a file does."""
    import dataclasses
    import json

    from configdrift.extract.cache import encoded, module_from_json
    from configdrift.extract.python.extractor import extract_python

    repo = DEMO.parent
    sources = [p.read_bytes() for p in sorted(repo.glob("src/**/*.py"))]
    sources += [p.read_bytes() for p in sorted(repo.glob("tests/fixtures/**/*.py"))]
    sources += [p.read_bytes() for p in sorted(DEMO.rglob("*.py"))]
    sources.append(b"def broken(:\n")
    sources.append(
        b"import importlib\n\n\ndef load(name):\n    return importlib.import_module(name)\n"
    )
    sources.append(
        b"def load(data):\n    cfg = Config()\n    for key, value in data.items():\n"
        b"        if hasattr(cfg, key):\n            setattr(cfg, key, value)\n"
    )
    sources.append(_REWRITING_MODEL)  # last: its class is read below
    held: set[str] = set()
    held_by_classes: set[str] = set()
    for source in sources:
        facts = extract_python(source)
        decoded = module_from_json(json.loads(encoded(facts)))
        for field in dataclasses.fields(facts):
            value = getattr(facts, field.name)
            assert getattr(decoded, field.name) == value, field.name
            if value:
                held.add(field.name)
        for cls, back in zip(facts.classes, decoded.classes, strict=True):
            for field in dataclasses.fields(cls):
                value = getattr(cls, field.name)
                assert getattr(back, field.name) == value, f"{cls.name}.{field.name}"
                if value:
                    held_by_classes.add(field.name)
    assert held == {field.name for field in dataclasses.fields(facts)}
    assert held_by_classes == {field.name for field in dataclasses.fields(facts.classes[0])}


#: A model validator that runs before and writes a key of its input anew
#: (``ClassFact.rewritten``), and a docstring that names its fields in code
#: elsewhere (``doc_mentions``) and misspells one (``doc_misspelt``): no
#: file of the repository holds any of them.
_REWRITING_MODEL = b"""from pydantic import BaseModel, model_validator


class Config(BaseModel):
    '''Args:
        fsdp_config: the sharding, as `fsdp_config` with `limit` beside.
        limit: the limit, not `fsdp_configs`.
    '''

    fsdp_config: dict = {}
    limit: int = 1

    @model_validator(mode="before")
    @classmethod
    def convert(cls, data):
        data["fsdp_config"] = {}
        return data
"""


_REFERENCE_RST = b"""Reference
=========

.. argparse::
   :module: app.cli
   :func: parser
   :prog: app

.. automodule:: app.config
   :members:

Renamed options
---------------

============  ============
Old name      New name
============  ============
``old_key``   ``new_key``
============  ============

.. py:class:: Queue(name='q', retries=3, **options)

   :param str name: the queue's name.
"""


def test_every_doc_fact_survives_the_cache() -> None:
    """The same of a page's facts: the repository's pages, a reference
    with a generated command line, autodoc, a renames table and a class's
    signature, a page that links a code file, a page that sets names in
    small letters, a page that does not parse, a script and a Sphinx
    ``conf.py``, hold every field at least once."""
    import dataclasses
    import json

    from configdrift.extract.cache import doc_from_json, encoded
    from configdrift.extract.docs.markups import extractor_for
    from configdrift.extract.docs.python_config import config_file_facts

    repo = DEMO.parent
    pages = [
        (p.name, p.read_bytes())
        for pattern in ("docs/**/*", "tests/fixtures/**/*", "demo/**/*")
        for p in sorted(repo.glob(pattern))
        if p.suffix in (".md", ".rst", ".mdx")
    ]
    pages += [("reference.rst", _REFERENCE_RST), ("broken.rst", b".. include:: /etc/passwd\n")]
    pages.append(("broken.md", b"\xff\xfe not UTF-8"))
    pages.append(("linked.md", b"The [settings](../src/app/config.py#L3) of the app.\n"))
    pages.append(("loose.md", b"```python\napp_port = 8080\napp_host = 'x'\n```\n"))
    # A block of defaults (``Block.defaults``), and a script whose parser is closed.
    pages.append(("defaults.md", b"The default configuration is:\n\n```yaml\na: 1\n```\n"))
    script = b"import argparse\np = argparse.ArgumentParser()\np.add_argument('--x', choices=['a'])\np.parse_args()\n"
    pages.append(("train.py", script))
    extracted = [(name, extractor_for(name)(data)) for name, data in pages]
    # A Sphinx ``conf.py``: the names it assigns beside its code.
    conf = b"import sys\nsys.path.insert(0, '.')\nproject = 'shop'\n"
    extracted.append(("conf.py", config_file_facts(conf)))
    held: set[str] = set()
    for name, facts in extracted:
        decoded = doc_from_json(json.loads(encoded(facts)))
        for field in dataclasses.fields(facts):
            value = getattr(facts, field.name)
            assert getattr(decoded, field.name) == value, (name, field.name)
            if value:
                held.add(field.name)
    assert held == {field.name for field in dataclasses.fields(facts)}


def test_compact_facts_are_equal_and_share_their_empties() -> None:
    import copy

    from configdrift.extract.python.extractor import extract_python
    from configdrift.extract.python.facts import Memo, compact

    checked = 0
    memo = Memo()
    for path in sorted(DEMO.rglob("*.py")):
        facts = extract_python(path.read_bytes())
        before = copy.deepcopy(facts)
        assert compact(facts, memo) is facts
        assert facts == before
        values = [getattr(facts, name) for name in facts.__slots__]
        lists = {id(v) for v in values if isinstance(v, list) and not v}
        dicts = {id(v) for v in values if isinstance(v, dict) and not v}
        assert len(lists) == 1 and len(dicts) <= 1
        checked += 1
    assert checked >= 3


def test_compact_shares_equal_leaves_and_keeps_unequal_ones_apart() -> None:
    from configdrift.extract.python.facts import DictSource, Memo

    memo = Memo()
    a = memo.args(
        {"x": ["c", 0.0], "y": ["n", "KEY"], "z": ["seq", "list", [["n", "KEY"], ["c", 1]]]}
    )
    b = memo.args(
        {"x": ["c", -0.0], "y": ["n", "KEY"], "z": ["seq", "list", [["n", "KEY"], ["c", True]]]}
    )
    assert a["y"] is b["y"] and a["z"][2][0] is b["z"][2][0]
    assert str(a["x"][1]) == "0.0" and str(b["x"][1]) == "-0.0"
    assert a["z"][2][1] == ["c", 1] and b["z"][2][1][1] is True
    # Dicts of leaves are shared when their leaves are; other dicts are not.
    assert memo.args({"y": ["n", "KEY"]}) is memo.args({"y": ["n", "KEY"]})
    assert memo.args({"y": ["n", "KEY"]}) == {"y": ["n", "KEY"]}
    nested = {"y": ["seq", "list", [["n", "KEY"]]]}
    assert memo.args(dict(nested)) is not memo.args(dict(nested))
    assert memo.args({}) is memo.args({})
    # A source without keys is shared; one with keys stays its own.
    s1, s2 = DictSource("d", [], True), DictSource("d", [], True)
    assert memo.source(s1) is memo.source(s2)
    assert memo.source(DictSource("d", [], False)) is not memo.source(s1)
    k1, k2 = DictSource("d", [["c", "a"]], True), DictSource("d", [["c", "a"]], True)
    assert memo.source(k1) is k1 and memo.source(k2) is k2 and k1.keys[0] is k2.keys[0]


def test_a_warm_run_sends_no_worker_a_file_it_would_turn_down(tmp_path, monkeypatch) -> None:
    import configdrift
    from configdrift.extract import run

    root = _copy(tmp_path)
    (root / "docs" / "notes.md").write_text("# Notes\n\nNothing about keys here.\n")
    (root / "tests").mkdir(exist_ok=True)
    (root / "tests" / "test_plain.py").write_text("def test_nothing():\n    assert True\n")
    cold = configdrift.check([root], jobs=1)
    page = root / "docs" / "configuration.md"
    page.write_text(page.read_text() + "\n")
    sent: list[str] = []
    for name in ("_docs_chunk", "_py_examples_chunk", "_python_chunk"):
        real = getattr(run, name)

        def spy(root_, rels, *extra, real=real):
            sent.extend(rels)
            return real(root_, rels, *extra)

        monkeypatch.setattr(run, name, spy)
    warm = configdrift.check([root], jobs=1)
    assert [f.message for f in warm.findings] == [f.message for f in cold.findings]
    assert "docs/configuration.md" in sent, "the changed page is read again"
    assert "docs/notes.md" not in sent and "tests/test_plain.py" not in sent


def test_saving_removes_the_former_whole_json_cache(tmp_path) -> None:
    from configdrift.extract.cache import entry_json

    store = FactCache(tmp_path, directory=tmp_path / "cache")
    former = store.path.with_suffix(".json")
    former.parent.mkdir(parents=True)
    former.write_text('{"version": "old", "files": {}}')
    other = former.with_name("someone-else.json")
    other.write_text("{}")
    store.put("a.py", "d", entry_json({}))
    store.save()
    assert store.path.exists() and not former.exists() and other.exists()


def test_a_cache_directory_inside_the_checked_tree_is_never_used(cli, tmp_path, monkeypatch):
    """A CI cache path in the workspace: the pull request could plant facts
    that hide a finding (here: the page's facts from before its drift,
    filed under the digest of the drifted page)."""
    import hashlib

    root = _copy(tmp_path)
    page = root / "docs" / "configuration.md"
    clean = page.read_bytes().replace(b"<i>**grad_hooks**</i>", b"<i>**stage**</i>")
    drifted = page.read_bytes()
    page.write_bytes(clean)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "elsewhere"))
    cli("check", str(root))
    store = FactCache(root)
    rel = "md:docs/configuration.md"
    digest, facts = store.entries[rel]
    assert digest == hashlib.sha256(clean).hexdigest()
    store.entries[rel] = (hashlib.sha256(drifted).hexdigest(), facts)
    store.changed = True
    store.save()
    planted = store.path.read_bytes()
    page.write_bytes(drifted)
    inside = root / ".cache"
    (inside / "configdrift").mkdir(parents=True)
    (inside / "configdrift" / store.path.name).write_bytes(planted)
    monkeypatch.setenv("XDG_CACHE_HOME", str(inside))
    result = cli("check", str(root), "--format", "json")
    keys = {f["key"] for f in json.loads(result.out)["findings"]}
    assert "zero_optimization.grad_hooks" in keys
    assert "lies inside the checked tree: not used" in result.err
    assert sorted(p.name for p in (inside / "configdrift").iterdir()) == [store.path.name]
    for command in (["map", str(root)], ["coverage", str(root)]):
        assert "not used" in cli(*command).err


def _plant(cli, root: Path, elsewhere: Path, cache_home: Path) -> None:
    """Facts of the page from before its drift, filed under the digest of
    the drifted page, in ``cache_home``'s cache directory."""
    import hashlib

    page = root / "docs" / "configuration.md"
    drifted = page.read_bytes()
    clean = drifted.replace(b"<i>**grad_hooks**</i>", b"<i>**stage**</i>")
    page.write_bytes(clean)
    os.environ["XDG_CACHE_HOME"] = str(elsewhere)
    cli("check", str(root))
    store = FactCache(root)
    rel = "md:docs/configuration.md"
    store.entries[rel] = (hashlib.sha256(drifted).hexdigest(), store.entries[rel][1])
    store.changed = True
    store.save()
    planted = store.path.read_bytes()
    page.write_bytes(drifted)
    (cache_home / "configdrift").mkdir(parents=True)
    (cache_home / "configdrift" / store.path.name).write_bytes(planted)
    os.environ["XDG_CACHE_HOME"] = str(cache_home)


@pytest.mark.parametrize(
    ("where", "named"),
    [
        ("work-tree", "the git work tree of the checked tree"),
        ("cwd", "the folder configdrift runs in"),
        ("workspace", "GITHUB_WORKSPACE"),
    ],
)
def test_a_cache_directory_anywhere_the_pull_request_writes_is_never_used(
    cli, tmp_path, monkeypatch, where, named
):
    """CI checks a sub-project (``check proj``, the action's ``path:``) with
    the cache in the workspace: the pull request controls all of it."""
    monkeypatch.setenv("XDG_CACHE_HOME", os.environ.get("XDG_CACHE_HOME", ""))
    workspace = tmp_path / "workspace"
    root = workspace / "proj"
    root.parent.mkdir()
    shutil.copytree(DEMO, root)
    if where == "work-tree":
        (workspace / ".git").mkdir()
    if where == "workspace":
        monkeypatch.setenv("GITHUB_WORKSPACE", str(workspace))
    _plant(cli, root, tmp_path / "elsewhere", workspace / ".cache")
    result = cli("check", str(root), "--format", "json", cwd=workspace if where == "cwd" else root)
    keys = {f["key"] for f in json.loads(result.out)["findings"]}
    assert "zero_optimization.grad_hooks" in keys
    assert f"lies inside {named}: not used" in result.err


def test_a_cache_beside_the_workspace_is_used(cli, tmp_path, monkeypatch):
    # The near miss: ``workspace-cache`` shares its name's start with
    # ``workspace``, not its folder. The planted facts are read there
    # (which is why the refusals above matter).
    monkeypatch.setenv("XDG_CACHE_HOME", os.environ.get("XDG_CACHE_HOME", ""))
    workspace = tmp_path / "workspace"
    root = workspace / "proj"
    root.parent.mkdir()
    shutil.copytree(DEMO, root)
    (workspace / ".git").mkdir()
    monkeypatch.setenv("GITHUB_WORKSPACE", str(workspace))
    _plant(cli, root, tmp_path / "elsewhere", tmp_path / "workspace-cache")
    result = cli("check", str(root), "--format", "json", cwd=workspace)
    keys = {f["key"] for f in json.loads(result.out)["findings"]}
    assert "zero_optimization.grad_hooks" not in keys
    assert "lies inside" not in result.err


def test_a_compressed_bomb_in_the_cache_is_a_miss(cli, tmp_path) -> None:
    import zlib

    from configdrift.extract.cache import MAX_ENTRY_BYTES
    from configdrift.files import inflate

    bomb = zlib.compress(b'{"x": "' + b" " * (MAX_ENTRY_BYTES + 1) + b'"}', 9)
    assert len(bomb) < MAX_ENTRY_BYTES // 100
    assert inflate(bomb, MAX_ENTRY_BYTES) is None
    assert inflate(zlib.compress(b"{}"), MAX_ENTRY_BYTES) == b"{}"
    assert inflate(b"not zlib", MAX_ENTRY_BYTES) is None
    root = _copy(tmp_path)
    expected = cli("check", str(root), "--format", "json").out
    _rewrite(FactCache(root), bomb)
    assert cli("check", str(root), "--format", "json").out == expected


def test_entries_of_the_wrong_shape_are_extracted_again(cli, tmp_path) -> None:
    import zlib

    root = _copy(tmp_path)
    expected = cli("check", str(root), "--format", "json").out
    shapes = (
        b'{"imports": 3, "sections": {"a": 1}, "entries": "x", "blocks": null}',
        b'{"imports": [[1, 2]], "sections": [1], "entries": [{"parts": 5}]}',
        b"[" * 100_000 + b"]" * 100_000,
    )
    for facts in shapes:
        _rewrite(FactCache(root), zlib.compress(facts))
        assert cli("check", str(root), "--format", "json").out == expected


def test_the_cache_directory_is_the_one_platformdirs_names(monkeypatch, tmp_path) -> None:
    import platformdirs

    for value in (str(tmp_path / "xdg"), "", "  "):
        monkeypatch.setenv("XDG_CACHE_HOME", value)
        assert cache_dir() == Path(platformdirs.user_cache_dir("configdrift", appauthor=False))
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert cache_dir() == Path(platformdirs.user_cache_dir("configdrift", appauthor=False))


def test_only_facts_are_encoded() -> None:
    from configdrift.extract.cache import encoded
    from configdrift.extract.docs.facts import Section

    assert encoded([Section("a", 1, 2, None), ("x", 1)]) == (
        '[{"title":"a","level":1,"line":2,"parent":null,"heading_key":null},["x",1]]'
    )
    with pytest.raises(TypeError, match="set is not a fact"):
        encoded({"keys": {"a"}})
    with pytest.raises(TypeError, match="type is not a fact"):
        encoded(Section)


def test_a_byte_test_is_asked_again_only_of_changed_bytes(tmp_path, monkeypatch) -> None:
    import configdrift
    from configdrift.extract import run

    root = _copy(tmp_path)
    notes = root / "docs" / "notes.md"
    notes.write_text("# Notes\n\nNothing about keys here.\n")
    asked: list[bytes] = []
    real = run.doc_wanted

    def spy(data, *rest):
        asked.append(data)
        return real(data, *rest)

    monkeypatch.setattr(run, "doc_wanted", spy)
    cold = configdrift.check([root], jobs=1, cache=True)
    page = root / "docs" / "configuration.md"
    page.write_text(page.read_text() + "\n")  # a second run: the answers are stored
    configdrift.check([root], jobs=1)
    page.write_text(page.read_text() + "\n")
    asked.clear()
    third = configdrift.check([root], jobs=1)
    assert [f.message for f in third.findings] == [f.message for f in cold.findings]
    assert asked and all(b"Nothing about keys" not in data for data in asked)
    # The notes become a page of keys: the test is asked again, and its new
    # answer counts.
    notes.write_text(page.read_text())
    asked.clear()
    fourth = configdrift.check([root], jobs=1)
    assert any(data == notes.read_bytes() for data in asked)
    assert any(f.location.path.endswith("docs/notes.md") for f in fourth.findings)
    assert not any(f.location.path.endswith("docs/notes.md") for f in third.findings)


def test_only_byte_tests_that_can_turn_a_page_down_keep_answers(tmp_path) -> None:
    from configdrift.extract.run import Extractor

    root = _copy(tmp_path)
    rels = ["docs/configuration.md", "docs/tutorial.md"]
    store = FactCache(root, directory=tmp_path / "cache")
    store.entries["md:unrelated.md"] = ("0", b"")  # a cache that is not empty
    with Extractor(str(root), 1, len(rels), store) as extractor:
        extractor.docs(rels, None)()
        extractor.docs(rels, 1)()
    kept = sorted(name for name in store.entries if "?" in name)
    assert kept == ["md?1:docs/configuration.md", "md?1:docs/tutorial.md"]
