"""A name ``getattr`` builds at runtime silences "nothing reads it" only
for the configuration it may read from: the model's own methods, a name
or an expression that may hold the model; never a module the function
imports, nor another class's own attributes, nor an object the function
types as another class of the project (``m: Modes``, ``m = Modes()``,
``orm.User``). Its literal parts are anchored, the project's constants
filled in."""

from __future__ import annotations

import pytest

from helpers import by_key, check_project, mounted_config

#: A function that returns a module it imports at runtime.
_LOADER = (
    "import importlib.util\n\n\ndef load(path):\n"
    "    spec = importlib.util.spec_from_file_location('m', path)\n"
    "    module = importlib.util.module_from_spec(spec)\n    return module\n\n\n"
)
#: A function that returns a module on one path only.
_SOMETIMES = _LOADER.replace(
    "    return module\n", "    if path:\n        return module\n    return object()\n"
)
_READS = "from pkg.config import Config\n\n\ndef run(cfg: Config):\n    print(cfg.alpha)\n"


def _inert(tmp_path, extra: str, name: str = "pkg/other.py") -> set[str]:
    files = mounted_config("alpha: int = 1", "known_beta: int = 2", "gamma: int = 3")
    # The model derives from a base class of the project's.
    files["pkg/config.py"] = files["pkg/config.py"].replace(
        "class Config(BaseModel):", "class Base(BaseModel):\n    pass\n\n\nclass Config(Base):"
    )
    files["docs/config.md"] = (
        "# Configuration\n\n- `alpha`: a.\n- `known_beta`: b.\n- `gamma`: c.\n"
    )
    files["pkg/run.py"] = _READS
    files[name] = extra
    _, findings = check_project(tmp_path, files, "pkg", {"": "pkg.config:Config"})
    return {key for code, key in by_key(findings) if code == "CD202"}


@pytest.mark.parametrize(
    "code",
    [
        # Another class's own attributes.
        "class Arbiter:\n    def run(self, sig):\n        return getattr(self, 'handle_%s' % sig)\n",
        # A module the function imports.
        "import importlib\n\n\ndef load(path, attr):\n"
        "    mod = importlib.import_module(path)\n    return getattr(mod, attr)\n",
        "import sys\n\n\ndef load(path, attr):\n    mod = sys.modules[path]\n    return getattr(mod, attr)\n",
        "import importlib.util\n\n\ndef load(spec, attr):\n"
        "    mod = importlib.util.module_from_spec(spec)\n    return getattr(mod, attr)\n",
        # A module one of the project's functions imports and returns.
        _LOADER
        + "def get(path, name):\n    module = load(path)\n    return getattr(module, name)\n",
        # A proxy that hands its reads on to what it wraps.
        "class Wrapper:\n    def __getattr__(self, name):\n        return getattr(self.sock, name)\n",
        # One of the project's classes, not the configuration (an enum).
        "class Modes:\n    A = 1\n\n\ndef get(name):\n    return getattr(Modes, name)\n",
        # Another class of the project, by a dotted name or a parameter's type.
        "from pkg import other\n\n\nclass Modes:\n    A = 1\n\n\n"
        "def get(name):\n    return getattr(other.Modes, name)\n",
        "class Modes:\n    A = 1\n\n\ndef get(m: Modes, name):\n    return getattr(m, name)\n",
        "class Modes:\n    A = 1\n\n\ndef get(name):\n    m = Modes()\n    return getattr(m, name)\n",
        # Built from a beginning that no field has.
        "def get(cfg, name):\n    return getattr(cfg, 'handle_' + name)\n",
        "def get(cfg, sig):\n    return getattr(cfg, 'handle_%s' % sig)\n",
        # Built with an end, or with parts, that no field has.
        "def get(cfg, name):\n    return getattr(cfg, name + '_handler')\n",
        "def get(cfg, a, b):\n    return getattr(cfg, 'on_' + a + '_' + b)\n",
        # A dump of an object that is not the configuration: the modules
        # loaded, another class's own attributes.
        "import sys\n\n\ndef scan():\n    for _, module in list(sys.modules.items()):\n"
        "        for attr in dir(module):\n            print(getattr(module, attr))\n",
        "class Other:\n    def dump(self):\n        return {k: getattr(self, k) for k in vars(self)}\n",
        # A module from outside the project, imported whole.
        "import torch\n\n\ndef get(name):\n    return getattr(torch, name)\n",
        "import numpy as np\n\n\ndef get(name):\n    return getattr(np, name)\n",
    ],
)
def test_a_built_name_that_cannot_read_the_configuration_silences_nothing(tmp_path, code) -> None:
    assert _inert(tmp_path, code) == {"known_beta", "gamma"}


def test_a_built_name_on_an_object_that_may_be_the_configuration_silences(tmp_path) -> None:
    # Nothing says what ``cfg`` holds: any field may be read.
    assert _inert(tmp_path, "def get(cfg, name):\n    return getattr(cfg, name)\n") == set()


@pytest.mark.parametrize(
    "code",
    [
        # Typed as the configuration, as a class it derives from, or as one
        # deriving from it.
        "from pkg.config import Config\n\n\ndef get(c: Config, name):\n    return getattr(c, name)\n",
        "from pydantic import BaseModel\n\n\ndef get(c: BaseModel, name):\n    return getattr(c, name)\n",
        "from pkg.config import Base\n\n\ndef get(c: Base, name):\n    return getattr(c, name)\n",
        "from pkg.config import Config\n\n\nclass Sub(Config):\n    pass\n\n\n"
        "def get(c: Sub, name):\n    return getattr(c, name)\n",
        # What a function returns, read through that name elsewhere (``cfg.alpha``).
        "def load():\n    return object()\n\n\ndef get(name):\n    cfg = load()\n"
        "    return getattr(cfg, name)\n",
        # An attribute of ``self`` of that name, or a local bound to one.
        "def get(holder, name):\n    cfg = holder.cfg\n    return getattr(cfg, name)\n",
        "class Runner:\n    def get(self, name):\n        return getattr(self.cfg, name)\n",
        # A dump of the configuration's own attributes, in a class of its line.
        "from pkg.config import Config\n\n\nclass Sub(Config):\n    def dump(self):\n"
        "        return {k: getattr(self, k) for k in vars(self)}\n",
        # A loop over the own attributes of what a function is handed: a
        # dump of whatever it is.
        "def dump(obj):\n    return {k: getattr(obj, k) for k in vars(obj)}\n",
        "def dump(obj):\n    return [getattr(obj, k) for k in sorted(vars(obj).keys())]\n",
        "import dataclasses\n\n\ndef dump(obj):\n"
        "    return [getattr(obj, f.name) for f in dataclasses.fields(obj)]\n",
        "def dump(obj):\n    for k, v in obj.__dict__.items():\n        print(getattr(obj, k))\n",
        # The model's class itself.
        "from pkg.config import Config\n\n\ndef get(name):\n    return getattr(Config, name)\n",
        # A dotted name of another library's the code reads the model's fields through.
        "import settings_lib\n\n\ndef get(name):\n    print(settings_lib.conf.alpha)\n"
        "    return getattr(settings_lib.conf, name)\n",
        # What a function returns where it does not always return a module,
        # read through that name elsewhere.
        _SOMETIMES + "def get(path, name):\n    module = load(path)\n    print(module.alpha)\n"
        "    return getattr(module, name)\n",
        # What a call of another library returns, read through that name.
        "import json\n\n\ndef get(text, name):\n    cfg = json.loads(text)\n"
        "    return getattr(cfg, name)\n",
    ],
)
def test_a_built_name_on_what_may_hold_the_configuration_silences(tmp_path, code) -> None:
    assert _inert(tmp_path, code) == set()


def test_a_name_that_reads_one_key_among_other_things_is_not_the_configuration(
    tmp_path,
) -> None:
    # ``step.gamma`` beside ``step.name``, ``step.label``, ``step.start``:
    # a common word, not a read of the model through ``step``.
    code = (
        "def send(step, method):\n    print(step.gamma, step.name, step.label, step.start)\n"
        "    return getattr(step, method)\n"
    )
    assert _inert(tmp_path, code) == {"known_beta"}
    # Where it reads little else, the name may hold the model.
    code = "def send(step, method):\n    print(step.gamma)\n    return getattr(step, method)\n"
    assert _inert(tmp_path, code) == set()


def test_a_sum_s_literal_end_is_anchored(tmp_path) -> None:
    # ``known_beta`` may be read; ``gamma`` may not.
    code = "def get(cfg, name):\n    return getattr(cfg, name + '_beta')\n"
    assert _inert(tmp_path, code) == {"gamma"}


def test_an_attribute_the_class_assigns_is_filled_in(tmp_path) -> None:
    # ``self.prefix`` is ``"known_"``: only ``known_beta`` may be read.
    code = (
        "class Reader:\n    prefix = 'known_'\n\n    def get(self, cfg, name):\n"
        "        return getattr(cfg, f'{self.prefix}{name}')\n"
    )
    assert _inert(tmp_path, code) == {"gamma"}
    # An attribute no class gives a value is a hole: any field may be read.
    unknown = code.replace("    prefix = 'known_'\n", "    pass\n")
    assert _inert(tmp_path / "unknown", unknown) == set()


_DAEMON = """
import click


class DaemonOption(click.Option):
    def setting(self, ctx, value):
        print(ctx.obj.cfg.alpha)
        return value or getattr(ctx.obj.cfg, f"{ctx.command.name}{self.name}")


def options():
    return [DaemonOption("--beta", help="b"), DaemonOption("--pid-file", "-p", help="p")]
"""


def test_a_click_option_s_name_is_one_of_the_options_built_of_its_class(tmp_path) -> None:
    # ``f"{ctx.command.name}{self.name}"`` ends with ``beta`` or
    # ``pid_file``: ``known_beta`` may be read, ``gamma`` may not.
    assert _inert(tmp_path, _DAEMON) == {"gamma"}
    # The same method on a class that is no click option: its name is a hole.
    plain = _DAEMON.replace("class DaemonOption(click.Option):", "class DaemonOption:")
    assert _inert(tmp_path / "plain", plain) == set()


def test_a_click_option_s_name_is_its_plain_name_or_its_long_flag_s(tmp_path) -> None:
    # ``--known-beta`` is named ``known_beta``; ``-x`` is no name of it.
    code = _DAEMON.replace('"--pid-file", "-p"', '"-x", "--known-beta"')
    code = code.replace('DaemonOption("--beta", help="b"), ', "")
    assert _inert(tmp_path, code) == {"gamma"}
    # Options of another class are not this one's.
    other = _DAEMON.replace(
        "def options():",
        "class OtherOption(click.Option):\n    pass\n\n\ndef others():\n"
        '    return [OtherOption("--gamma", help="g")]\n\n\ndef options():',
    )
    assert _inert(tmp_path / "other", other) == {"gamma"}
    # A click option class the project builds no option of: a hole.
    unbuilt = _DAEMON.replace('DaemonOption("--', 'click.Option("--')
    assert _inert(tmp_path / "unbuilt", unbuilt) == set()


def test_an_attribute_of_too_many_values_is_a_hole(tmp_path) -> None:
    # Past ``_MAX_FILLED`` names, a built name is not spelt out: anything.
    many = ", ".join(f'DaemonOption("--o{n}", help="o")' for n in range(65))
    code = _DAEMON.replace('DaemonOption("--beta", help="b"), ', many + ", ")
    assert _inert(tmp_path, code) == set()


def test_a_constant_in_a_built_name_is_filled_in(tmp_path) -> None:
    code = (
        "PREFIX = 'known_'\n\n\nclass Helper:\n    pass\n\n\n"
        "def get(cfg, name):\n    key = f'{PREFIX}{name}'\n    return getattr(cfg, key)\n"
    )
    # ``known_beta`` may be read; ``gamma`` may not.
    assert _inert(tmp_path, code) == {"gamma"}
    summed = code.replace("f'{PREFIX}{name}'", "PREFIX + name")
    assert _inert(tmp_path / "sum", summed) == {"gamma"}


def test_a_test_s_table_of_setting_names_is_no_read(tmp_path) -> None:
    table = "NAMES = [\n    'gamma',\n]\nVALUES = {'gamma': 1}\n"
    assert "gamma" in _inert(tmp_path, table, "tests/test_names.py")
    assert "gamma" not in _inert(
        tmp_path / "b", "def test(c):\n    assert c['gamma']\n", "tests/test_x.py"
    )


def test_a_key_read_from_a_dict_by_its_name_may_reach_the_field(tmp_path) -> None:
    code = "def build(merged):\n    if 'gamma' in merged:\n        print(merged['gamma'])\n"
    assert _inert(tmp_path, code) == {"known_beta"}


@pytest.mark.parametrize(
    "code",
    [
        # The values of a literal dict whose items the loop walks.
        "def get(cfg):\n    for kw, attr in {'b': 'known_beta'}.items():\n"
        "        print(kw, getattr(cfg, attr))\n",
        # Held by a local, by a module constant, or walked by a comprehension.
        "def get(cfg):\n    names = {'b': 'known_beta'}\n"
        "    return {kw: getattr(cfg, attr) for kw, attr in names.items()}\n",
        "NAMES = {'known_beta': 'b'}\n\n\ndef get(cfg):\n"
        "    return [getattr(cfg, attr) for attr, kw in NAMES.items()]\n",
    ],
)
def test_a_loop_over_a_literal_dict_s_items_reads_its_names(tmp_path, code) -> None:
    # ``known_beta`` is read by name; ``gamma`` by nothing.
    assert _inert(tmp_path, code) == {"gamma"}


@pytest.mark.parametrize(
    "code",
    [
        # A dict that is no literal, or one with a computed value.
        "def get(cfg, names):\n    for kw, attr in names.items():\n        print(getattr(cfg, attr))\n",
        "def get(cfg, x):\n    for kw, attr in {'b': x}.items():\n        print(getattr(cfg, attr))\n",
        # A parameter of the name, read before the loop binds it.
        "def get(cfg, attr):\n    print(getattr(cfg, attr))\n"
        "    for kw, attr in {'b': 'known_beta'}.items():\n        pass\n",
    ],
)
def test_a_loop_over_other_items_may_read_any_name(tmp_path, code) -> None:
    assert _inert(tmp_path, code) == set()


@pytest.mark.parametrize(
    "code",
    [
        # What a function returns, never read as the configuration.
        "def load():\n    return object()\n\n\ndef get(name):\n    c = load()\n"
        "    return getattr(c, name)\n",
        # A parameter, an attribute of ``self``, a local bound to an
        # attribute, none of them read as the configuration.
        "def get(target, name):\n    return getattr(target, name)\n",
        "def get(target, name):\n    print(target.weight)\n    return getattr(target, name)\n",
        "class Server:\n    def change(self, name):\n        return getattr(self.orm, name)\n",
        "def get(holder, name):\n    inner = holder.inner\n    return getattr(inner, name)\n",
        # A dotted name none of the project's, or one rooted at a local.
        "import os\n\n\ndef get(name):\n    return getattr(os.environ, name)\n",
        "class Modes:\n    A = 1\n\n\ndef get(cfg, name):\n    Modes = cfg\n"
        "    return getattr(Modes.inner, name)\n",
        # What ``from`` imports, a module or any other object.
        "from os import environ\n\n\ndef get(name):\n    return getattr(environ, name)\n",
        # A name of an imported module that the function takes or binds
        # itself: no module for certain.
        "import torch\n\n\ndef get(torch, name):\n    return getattr(torch, name)\n",
        "import torch\n\n\ndef load():\n    return object()\n\n\n"
        "def get(name):\n    torch = load()\n    return getattr(torch, name)\n",
        # A module one of the project's functions may not always return.
        _SOMETIMES
        + "def get(path, name):\n    module = load(path)\n    return getattr(module, name)\n",
    ],
)
def test_an_object_nothing_shows_to_be_the_configuration_may_read_only_quoted_names(
    tmp_path, code
) -> None:
    assert _inert(tmp_path, code) == {"known_beta", "gamma"}
    # A name the code quotes may reach it (``get(cfg, "gamma")``).
    quoted = code + "\n\nFIELD = 'gamma'\n"
    assert _inert(tmp_path / "quoted", quoted) == {"known_beta"}


def test_the_names_read_through_are_found_however_many_there_are(tmp_path, monkeypatch) -> None:
    """Past ``MAX_SEARCHED`` names, every name of the text is taken and
    kept where it is one of them: the same names are found."""
    from configdrift.rules import built_names

    code = "def get(holder, name):\n    cfg = holder.cfg\n    return getattr(cfg, name)\n"
    assert _inert(tmp_path, code) == set()
    monkeypatch.setattr(built_names, "MAX_SEARCHED", 0)
    assert _inert(tmp_path / "many", code) == set()
    unseen = code.replace("cfg", "conf")
    assert _inert(tmp_path / "unseen", unseen) == {"known_beta", "gamma"}
