"""traitlets' configuration as its users write it: ``c.Class.option =
value`` blocks and config files are example configs and evidence for the
surface; classes rendered by ``autoconfigurable`` are documented; a trait is
documented once for its class and every subclass; a help text that says
"DEPRECATED" marks the trait deprecated."""

from __future__ import annotations

from configdrift.extract.docs.blocks import read_block
from configdrift.extract.docs.markdown import extract_markdown
from configdrift.extract.docs.rst import extract_rst
from helpers import by_key, check_project

_APP = """
from traitlets import Bool, Integer, Set, Unicode
from traitlets.config import Application, LoggingConfigurable


class Spawner(LoggingConfigurable):
    mem_limit = Integer(0, help="bytes").tag(config=True)
    cmd = Unicode("run").tag(config=True)
    start_timeout = Integer(60).tag(config=True)


class LocalSpawner(Spawner):
    shell = Unicode("/bin/sh").tag(config=True)


class Hub(Application):
    port = Integer(8000).tag(config=True)
    ip = Unicode("").tag(config=True)
    admin_users = Unicode(help="DEPRECATED since 2.0: use Authenticator.admins").tag(config=True)
    quiet = Bool(False).tag(config=True)
    token = Unicode(help=_i18n("DEPRECATED. Use IdentityProvider.token")).tag(config=True)
    note = Unicode(help=_fmt("DEPRECATED", "x")).tag(config=True)
    tags: set[str] = Set(Unicode(), default_value=set()).tag(config=True)
"""

_GUIDE = """
# Getting started

```python
c.Hub.port = 8001
c.Hub.ip = "10.0.0.1"
c.Spawner.mem_limit = 1000
c.Hub.prot = 8002
c.OtherPackageAuthenticator.client_id = "x"
```
"""

_REFERENCE = """
# API

```{eval-rst}
.. autoconfigurable:: Spawner
```
"""


def test_a_block_of_config_statements_is_read_as_an_example() -> None:
    read = read_block('c = get_config()\nc.Hub.port = 8001\nc.Spawner.env.append("X")\n', "python")
    assert [(k.path, k.line, k.kind, k.value) for k in read.keys] == [
        (("Hub",), 1, "dict", None),
        (("Hub", "port"), 1, "value", 8001),
        (("Spawner",), 2, "dict", None),
        (("Spawner", "env"), 2, "placeholder", None),
    ]


def test_python_that_sets_nothing_on_c_is_read_for_its_dicts() -> None:
    read = read_block('config = {"port": 1}\nc = make()\nc.run()\n', "python")
    assert [k.path for k in read.keys] == [("port",)]
    # ``c.port`` names no class: not a traitlets option.
    assert [k.path for k in read_block("c.port = 1\n", "python").keys] == []


def test_autoconfigurable_renders_a_class_in_every_markup() -> None:
    md = extract_markdown(_REFERENCE.encode())
    myst = extract_markdown(b"# API\n\n```{autoconfigurable} app.Spawner\n```\n")
    rst = extract_rst(b"API\n===\n\n.. autoconfigurable:: app.Hub\n")
    assert [t for t, _ in md.autodoc] == ["Spawner"]
    assert [t for t, _ in myst.autodoc] == ["app.Spawner"]
    assert [t for t, _ in rst.autodoc] == ["app.Hub"]


def _check(tmp_path, files):
    return check_project(tmp_path, {"app/hub.py": _APP, "docs/guide.md": _GUIDE, **files}, "app")


def test_the_options_users_set_are_evidence_of_the_surface(tmp_path) -> None:
    analysis, findings = _check(tmp_path, {"docs/api.md": _REFERENCE})
    surface = next(s for s in analysis.everything if s.surface == "traitlets")
    assert {"Hub", "Spawner", "LocalSpawner"} <= set(surface.schema.children)
    found = by_key(findings)
    assert ("CD302", "Hub.prot") in found
    # Another package's class is no option of this project's.
    assert not any(key.startswith("OtherPackage") for _, key in found)


def test_a_trait_is_documented_once_for_its_class_and_subclasses(tmp_path) -> None:
    _, findings = _check(tmp_path, {"docs/api.md": _REFERENCE})
    undocumented = sorted(key for code, key in by_key(findings) if code == "CD103")
    # Spawner's traits are rendered, and LocalSpawner inherits them (its
    # own ``shell`` is not rendered); an example documents nothing; the
    # deprecated trait is not owed a doc.
    assert undocumented == [
        "Hub.ip",
        "Hub.note",
        "Hub.port",
        "Hub.quiet",
        "Hub.tags",
        "LocalSpawner.shell",
    ]


def test_without_any_page_of_the_classes_nothing_is_taken(tmp_path) -> None:
    guide = "# Guide\n\nRun it.\n\n```python\nprint('hello')\n```\n"
    analysis, _ = check_project(tmp_path, {"app/hub.py": _APP, "docs/guide.md": guide}, "app")
    assert all(s.surface != "traitlets" for s in analysis.everything)


def test_a_help_that_says_deprecated_marks_the_trait(tmp_path) -> None:
    analysis, _ = _check(tmp_path, {"docs/api.md": _REFERENCE})
    surface = next(s for s in analysis.everything if s.surface == "traitlets")
    hub = surface.schema.children["Hub"]
    assert hub.children["admin_users"].deprecated
    assert hub.children["admin_users"].replacement == "Authenticator.admins"
    assert not hub.children["port"].deprecated
    # The text a translation wraps is the help shown; a call of more than
    # one argument builds another text.
    assert hub.children["token"].deprecated
    assert hub.children["token"].replacement == "IdentityProvider.token"
    assert not hub.children["note"].deprecated


def test_an_annotated_trait_is_one(tmp_path) -> None:
    analysis, _ = _check(tmp_path, {"docs/api.md": _REFERENCE})
    surface = next(s for s in analysis.everything if s.surface == "traitlets")
    assert "tags" in surface.schema.children["Hub"].children


def test_an_rst_page_of_config_statements_passes_the_byte_test() -> None:
    from configdrift.extract.byte_tests import may_show_example

    page = b"Security\n========\n\n.. sourcecode:: python\n\n    c.ServerApp.token = ''\n"
    assert may_show_example(page)
    # An object's attribute in a small letter is code, not a config statement.
    assert not may_show_example(page.replace(b"c.ServerApp", b"c.server"))
    # Without a Python block, nothing is shown.
    assert not may_show_example(page.replace(b".. sourcecode:: python", b"Text:"))


def test_an_example_setting_a_deprecated_trait_is_cd402(tmp_path) -> None:
    guide = _GUIDE.replace("c.Hub.prot = 8002\n", 'c.Hub.admin_users = "root"\n')
    _, findings = check_project(
        tmp_path, {"app/hub.py": _APP, "docs/guide.md": guide, "docs/api.md": _REFERENCE}, "app"
    )
    (deprecated,) = [f for f in findings if f.code == "CD402"]
    assert deprecated.key == "Hub.admin_users" and deprecated.surface == "traitlets"
    assert deprecated.suggestion == "use `Authenticator.admins`"
    assert not [f for f in findings if f.code == "CD402" and f.key == "Hub.port"]


_OTHER = """
from traitlets import Integer
from traitlets.config import Configurable
from somelib import Service


class Worker(Service, Configurable):
    threads = Integer(1).tag(config=True)
    retries = Integer(3).tag(config=True)
"""


def test_a_python_config_file_is_an_example_config(tmp_path) -> None:
    config = (
        "c = get_config()  # noqa\n"
        "c.Hub.port = 8001\n"
        "c.Hub.log_level = 'DEBUG'\n"  # Application's own option
        "c.Hub.prot = 8002\n"
        "c.Worker.anything = 1\n"  # a class with another library's base is open
    )
    _, findings = check_project(
        tmp_path,
        {
            "app/hub.py": _APP,
            "app/worker.py": _OTHER,
            "docs/guide.md": _GUIDE,
            "docs/api.md": _REFERENCE,
            "examples/demo/hub_config.py": config,
        },
        "app",
    )
    in_file = sorted(
        (f.code, f.key, f.location.line)
        for f in findings
        if f.location.path == "examples/demo/hub_config.py"
    )
    assert in_file == [("CD302", "Hub.prot", 4)]
    assert "the config file sets" in next(
        f.message for f in findings if f.location.path.endswith("hub_config.py")
    )


def test_a_python_file_that_is_no_config_file_is_not_read_so(tmp_path) -> None:
    script = "c = connect()\nc.Hub.prot = 1\n"
    _, findings = check_project(
        tmp_path,
        {
            "app/hub.py": _APP,
            "docs/guide.md": _GUIDE,
            "docs/api.md": _REFERENCE,
            "examples/demo/run.py": script,
        },
        "app",
    )
    assert not [f for f in findings if f.location.path == "examples/demo/run.py"]
