"""A class that reads its options through a getter of its own
(``self.config("port", 8080)`` where ``def config(self, key,
default=None): return self._options.get(key, default)``) reads them as
``self._options.get("port", 8080)`` would; a dict stored whole from what
the constructor is handed (``self._options = options``) is one the class
holds where no caller is seen."""

from __future__ import annotations

from configdrift.extract.python.extractor import extract_source
from helpers import by_key, check_project

_SERVER = '''
class Server:
    def __init__(self, options):
        self._options = options

    def config(self, key, default=None):
        """The option ``key``, or ``default``."""
        return self._options.get(key, default)

    def start(self):
        host = self.config("bind_host", "127.0.0.1")
        port = self.config("bind_port", 8080)
        workers = self.config("worker_count", default=2)
        timeout = self.config("request_timeout", 30)
        keepalive = self.config("keepalive_seconds", 5)
        return host, port, workers, timeout, keepalive
'''

_PAGE = """# Configuration

## Options

- `bind_host`: the address to bind. Default: `127.0.0.1`.
- `bind_port`: the port. Default: `8000`.
- `worker_count`: worker processes. Default: `2`.
- `request_timeout`: seconds before a request is dropped. Default: `30`.
- `max_body_size`: largest request body in bytes. Default: `1048576`.
"""


def _check(tmp_path, server: str = _SERVER):
    files = {"app/__init__.py": "", "app/core.py": server, "docs/configuration.md": _PAGE}
    return check_project(tmp_path, files, "app")


def _keys(source: str) -> list[tuple[str, object]]:
    facts = extract_source(source)
    return [
        (str(r.source.keys[0][1]), r.default)
        for r in facts.dict_reads
        if r.source.keys[0][0] == "c"
        and r.function == "Server.start"
        and r.source.base == "self._options"
    ]


def test_reads_through_a_getter_are_the_options_of_the_dict_it_reads(tmp_path) -> None:
    analysis, findings = _check(tmp_path)
    assert "Server._options" in [s.surface for s in analysis.everything]
    found = by_key(findings)
    mismatch = found[("CD104", "bind_port")]
    assert "the code's default is 8080" in mismatch.message
    assert [(r.path, r.line) for r in mismatch.related] == [("app/core.py", 12)]
    assert ("CD103", "keepalive_seconds") in found
    # The dict may be handed whole elsewhere: a key it does not read is not judged.
    assert not any(f.key == "max_body_size" for f in findings)


def test_a_call_without_a_default_falls_back_on_the_getters() -> None:
    source = _SERVER.replace('"bind_port", 8080', '"bind_port"').replace(
        "default=None", "default=7"
    )
    keys = dict(_keys(source))
    assert keys["bind_port"] == ["c", 7]
    assert keys["bind_host"] == ["c", "127.0.0.1"]
    assert keys["worker_count"] == ["c", 2]  # given by keyword


def test_only_a_getter_of_one_read_by_its_own_key_counts() -> None:
    assert _keys(_SERVER)
    # The key it reads is not the one it is given.
    assert not _keys(_SERVER.replace(".get(key, default)", '.get("fixed", default)'))
    # A default of its own: what a call gives is not what it falls back on.
    assert not _keys(_SERVER.replace(".get(key, default)", ".get(key, 0)"))
    # A statement before its return: it may do anything with the value.
    assert not _keys(
        _SERVER.replace(
            "        return self._options.get(key, default)",
            "        value = self._options.get(key, default)\n        return str(value)",
        )
    )
    # Not a dict the class holds on ``self``: no read at all.
    facts = extract_source(_SERVER.replace("return self._options.get", "return OPTIONS.get"))
    assert not [r for r in facts.dict_reads + facts.held_reads if r.function == "Server.start"]
    # A decorator may change what it hands back.
    assert not _keys(_SERVER.replace("    def config(", "    @cached\n    def config("))
    # Not a method of the instance.
    assert not _keys(_SERVER.replace("def config(self, key", "def config(cls, key"))


def test_a_getter_by_subscript_takes_no_default() -> None:
    source = _SERVER.replace(
        "def config(self, key, default=None):", "def config(self, key):"
    ).replace(".get(key, default)", "[key]")
    source = source.replace(', "127.0.0.1")', ")")
    keys = _keys(source)
    assert ("bind_host", None) in keys
    # A call that gives a default is not the getter's plain call.
    assert not any(k == "bind_port" for k, _ in keys)
    # The key it reads is not the one it is given.
    assert not _keys(source.replace("[key]", '["fixed"]'))


def test_only_literal_keys_on_self_are_reads() -> None:
    source = _SERVER.replace('self.config("bind_host"', "self.config(NAME").replace(
        'self.config("bind_port"', 'other.config("bind_port"'
    )
    source = source.replace("default=2", "fallback=2")
    keys = [k for k, _ in _keys(source)]
    assert "worker_count" not in keys  # a keyword the getter does not take
    assert "bind_host" not in keys  # a name, not a literal
    assert "bind_port" not in keys  # another object's getter, maybe another class's
    assert "request_timeout" in keys


def test_a_dict_stored_from_what_the_constructor_is_handed_is_held() -> None:
    reads = "".join(
        f"    def k{i}(self):\n        return self.options.get('k{i}', {i})\n" for i in range(3)
    )
    stored = "    def __init__(self, options):\n        self.options = options\n"
    facts = extract_source(f"class C:\n{stored}{reads}")
    assert len(facts.held_reads) == 3
    # Followed from the callers too.
    assert len([r for r in facts.dict_reads if r.source.base == "self.options"]) == 3
    # A dict it loads itself is followed from where it is loaded.
    loaded = stored.replace("= options", "= load(options)")
    assert extract_source(f"class C:\n{loaded}{reads}").held_reads == []
    # A literal key of what it is handed: a section of it (``OPTIONS``).
    keyed = stored.replace("= options", '= options.get("OPTIONS", {})')
    assert len(extract_source(f"class C:\n{keyed}{reads}").held_reads) == 3
    # A key named at run time: which section is not known.
    named = stored.replace("= options", "= options[self.name]")
    assert extract_source(f"class C:\n{named}{reads}").held_reads == []


def test_the_dict_stored_whole_gives_no_second_surface_where_a_caller_loads_it(
    tmp_path,
) -> None:
    loader = (
        "import yaml\nfrom app.core import Server\n\n\n"
        "def main(path):\n"
        "    with open(path) as f:\n"
        "        return Server(yaml.safe_load(f))\n"
    )
    files = {
        "app/__init__.py": "",
        "app/core.py": _SERVER.replace("self.config(", "self._options.get("),
        "app/main.py": loader,
        "docs/configuration.md": _PAGE,
    }
    analysis, findings = check_project(tmp_path, files, "app")
    assert [s.surface for s in analysis.everything].count("Server._options") == 0
    assert len([f for f in findings if f.key == "bind_port" and f.code == "CD104"]) == 1
