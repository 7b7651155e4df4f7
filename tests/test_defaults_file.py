"""A configuration declared by its defaults, as confuse declares it: the
package's ``config_default.yaml`` and the dicts the code adds to a view."""

from __future__ import annotations

from helpers import check_project

_APP = """
import confuse

config = confuse.LazyConfig("player", __name__)


def volume():
    return config["audio"]["volume"].get(int)
"""

_DEFAULTS = """\
library: library.db
threaded: yes
timeout: 5.0
audio:
    volume: 80
    device: default
replace:
    '[<>:]': _
    '^\\\\.': _
"""

_PLUGIN = """
from player.plugins import Plugin


class EchoPlugin(Plugin):
    def __init__(self):
        super().__init__()
        self.config.add(
            {"delay": 3, "repeat": False, "host": "http://localhost", "volume": 50}
        )


class QuietPlugin(Plugin):
    def setup(self, config):
        config["quiet"].add({"level": 2, "mute": False})
"""

_REFERENCE = """\
Configuration
=============

Global options
--------------

library
~~~~~~~

Where the library lives.

threaded
~~~~~~~~

Use threads. Defaults to ``no``.

install
~~~~~~~

Not a key: no option is called so.

replace
~~~~~~~

A dict of patterns and their replacements.

Audio options
-------------

Put them in an ``audio:`` section.

volume
~~~~~~

The volume.

device
~~~~~~

The output device.

balance
~~~~~~~

Not an option either.
"""

_ECHO = """\
Echo plugin
===========

Configuration
-------------

.. conf:: delay
    :default: 3

    Seconds between echoes.

.. conf:: host
    :default: localhost

    Where to send them.

.. conf:: volume

    How loud, from 0 to 100.
"""


def _files() -> dict[str, str]:
    return {
        "player/__init__.py": _APP,
        "player/config_default.yaml": _DEFAULTS,
        "player/plugins.py": "class Plugin:\n    pass\n",
        "player/echo.py": _PLUGIN,
        "docs/reference/config.rst": _REFERENCE,
        "docs/plugins/echo.rst": _ECHO,
    }


def test_a_defaults_file_and_added_defaults_are_one_surface(tmp_path) -> None:
    analysis, findings = check_project(tmp_path, _files(), "player")
    surface = next(s for s in analysis.everything if "library" in s.schema.children)
    root = surface.schema
    assert root.strict is None
    assert root.children["threaded"].default.value is True
    assert root.children["audio"].children["volume"].default.value == 80
    # A plugin's own view is named after its module.
    assert root.children["echo"].children["delay"].default.value == 3
    assert root.children["quiet"].children["level"].default.value == 2
    # A mapping keyed by patterns is one value, not keys.
    assert root.children["replace"].children == {}
    found = {(f.code, f.key) for f in findings}
    # Titles of one word are keys where the schema has them: ``threaded``
    # defaults to yes, the docs say no.
    assert ("CD104", "threaded") in found
    # "Audio options" holds sections titled with the audio keys.
    assert ("CD103", "audio.volume") not in found and ("CD103", "audio.device") not in found
    assert ("CD104", "echo.host") in found
    assert ("CD104", "echo.delay") not in found
    assert ("CD103", "echo.repeat") in found
    assert ("CD103", "timeout") in found
    # A plugin whose keys no page describes is not reported key by key.
    assert not [key for code, key in found if code == "CD103" and key.startswith("quiet")]
    # Words that name no key are no entries: nothing is claimed of them.
    assert not [f for f in findings if f.code in ("CD101", "CD102")]
    assert not [f for f in findings if f.code == "CD202"]


def test_without_confuse_a_defaults_file_is_no_surface(tmp_path) -> None:
    files = _files()
    files["player/__init__.py"] = "config = {}\n"
    analysis, _ = check_project(tmp_path, files, "player")
    assert not any("library" in s.schema.children for s in analysis.everything)
