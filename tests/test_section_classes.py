"""Classes of option objects the docs' section headings name (``[core]``,
``[worker]``) are one configuration, a section each: their attributes are
the options, a call's ``default=`` the default, a name the call gives the
option in its own section another spelling of it. Never a class whose own
values are mostly plain, one the docs name no attribute of under its
heading, nor a single class."""

from __future__ import annotations

from helpers import by_key, check_project

_PARAMS = """
class Param:
    def __init__(self, default=None, description="", config_path=None):
        self.default = default


class IntParam(Param):
    pass


class BoolParam(Param):
    pass
"""

_CONFIG = """
from app.params import BoolParam, IntParam, Param


class Config:
    pass


class core(Config):
    workers = IntParam(default=1, description="how many workers")
    scheduler_host = Param(
        default="localhost", config_path=dict(section="core", name="default-scheduler-host")
    )
    no_lock = BoolParam(default=False)
    take_lock = BoolParam(default=False)


class worker(Config):
    keep_alive = BoolParam(default=False)
    timeout = IntParam(default=0)
    ping_interval = IntParam(default=1)
"""

_CORE = """[core]
------

workers
  How many workers. Defaults to 1.

default-scheduler-host
  The scheduler's host. Defaults to localhost.

"""

_WORKER = """[worker]
--------

keep_alive
  Keep the worker alive. Defaults to false.

timeout
  Seconds before a task times out. Defaults to 30.
"""

_RUNNING = "Running\n=======\n\nRun without a lock::\n\n    $ app --no-lock\n"


def _check(tmp_path, config: str = _CONFIG, page: str = _CORE + _WORKER, params: str = _PARAMS):
    files = {
        "app/params.py": params,
        "app/config.py": config,
        "doc/configuration.rst": "Configuration\n=============\n\nOne section per class.\n\n"
        + page,
        "doc/running.rst": _RUNNING,
    }
    analysis, findings = check_project(tmp_path, files, "app")
    surfaces = {s.surface: s for s in analysis.everything}
    return surfaces.get("Param"), by_key(findings)


def test_classes_the_headings_name_are_one_configuration_a_section_each(tmp_path) -> None:
    surface, found = _check(tmp_path)
    assert surface is not None
    assert set(surface.schema.children) == {"core", "worker"}
    core = surface.schema.children["core"]
    assert set(core.children) == {"workers", "scheduler_host", "no_lock", "take_lock"}
    assert core.children["workers"].default is not None
    assert core.children["workers"].default.value == 1
    # The name the call gives the option in its own section is its spelling.
    assert "default-scheduler-host" in core.children["scheduler_host"].spellings
    assert ("CD103", "core.scheduler_host") not in found
    # Its flag named in the docs describes it (``app --no-lock``).
    assert ("CD103", "core.no_lock") not in found
    assert ("CD103", "core.take_lock") in found
    assert ("CD103", "worker.ping_interval") in found
    mismatch = found[("CD104", "worker.timeout")]
    assert "30" in mismatch.message
    assert mismatch.related[0].path == "app/config.py"
    # A file's section takes what the option classes read: nothing is said
    # of a documented key a class lacks.
    assert surface.schema.strict is None


def test_one_class_the_headings_name_is_no_such_configuration(tmp_path) -> None:
    # However many of its options the section documents.
    # (another heading documents none of its class's options).
    page = _WORKER + "\nping_interval\n  Seconds between pings. Defaults to 1.\n"
    page += "\n[core]\n------\n\nlog_level\n  How much to log.\n"
    surface, _ = _check(tmp_path, page=page)
    assert surface is None


def test_a_class_no_attribute_of_which_its_section_documents_is_not_taken(tmp_path) -> None:
    worker = _WORKER.replace("keep_alive\n", "keepalive\n").replace("timeout\n", "time_out\n")
    surface, _ = _check(tmp_path, page=_CORE + worker)
    assert surface is None


def test_a_class_of_plain_values_is_no_section_of_options(tmp_path) -> None:
    # Most of the worker's own values are plain: a data class's attributes,
    # not options read from a section.
    config = _CONFIG.replace(
        "    ping_interval = IntParam(default=1)\n",
        "    ping_interval = 1\n    name = 'w'\n    retries = 3\n",
    )
    surface, _ = _check(tmp_path, config=config)
    assert surface is None


def test_two_classes_of_one_name_are_not_guessed_between(tmp_path) -> None:
    other = "from app.params import BoolParam\n\n\nclass worker:\n    keep_alive = BoolParam()\n"
    files = {
        "app/params.py": _PARAMS,
        "app/config.py": _CONFIG,
        "app/other.py": other,
        "doc/configuration.rst": "Configuration\n=============\n\n" + _CORE + _WORKER,
    }
    analysis, _ = check_project(tmp_path, files, "app")
    assert "Param" not in {s.surface for s in analysis.everything}


_WARNS = """
    def value(self, section, name):
        if self.config_path:
            warn("The use of [{}] {} is deprecated".format(*self.config_path.values()))
"""


def _warning(keeps: str = "        self.config_path = config_path\n", warns: str = _WARNS) -> str:
    init = "        self.default = default\n"
    return _PARAMS.replace(init, init + keeps + warns, 1)


def test_a_name_the_option_class_warns_of_is_an_old_spelling(tmp_path) -> None:
    surface, found = _check(tmp_path, params=_warning())
    host = surface.schema.children["core"].children["scheduler_host"]
    assert host.deprecated_spellings == ("default-scheduler-host", "default_scheduler_host")
    finding = found[("CD402", "core.default-scheduler-host")]
    assert (finding.location.path, finding.location.line) == ("doc/configuration.rst", 12)
    assert "the code warns is deprecated where it is used" in finding.message
    assert finding.suggestion == "use `scheduler_host`"


def test_a_name_the_option_class_does_not_warn_of_is_a_spelling_alone(tmp_path) -> None:
    # The attribute kept is used, but in no deprecation message.
    quiet = _WARNS.replace('warn("The use of [{}] {} is deprecated"', 'log("Reading [{}] {}"')
    # A message of deprecation that uses another attribute.
    other = _WARNS.replace("*self.config_path.values()", "self.default")
    # A message in another statement than the attribute's use.
    apart = _WARNS.replace(
        '            warn("The use of [{}] {} is deprecated".format(*self.config_path.values()))',
        '            place = self.config_path\n            warn("Deprecated: " + str(place))',
    )
    for name, params in (("quiet", _warning(warns=quiet)), ("other", _warning(warns=other))):
        surface, found = _check(tmp_path / name, params=params)
        host = surface.schema.children["core"].children["scheduler_host"]
        assert host.deprecated_spellings == (), name
        assert not [k for k in found if k[0] == "CD402"], name
    surface, _ = _check(tmp_path / "apart", params=_warning(warns=apart))
    assert surface.schema.children["core"].children["scheduler_host"].deprecated_spellings == ()
    # The value not kept from the keyword: nothing to warn of.
    kept = _warning(keeps="        self.config_path = None\n")
    surface, _ = _check(tmp_path / "kept", params=kept)
    assert surface.schema.children["core"].children["scheduler_host"].deprecated_spellings == ()


def test_a_page_that_names_the_current_spelling_or_the_deprecation_is_quiet(tmp_path) -> None:
    params = _warning()
    both = _CORE.replace(
        "default-scheduler-host\n", "scheduler_host\n  The host.\n\ndefault-scheduler-host\n"
    )
    noted = _CORE.replace("The scheduler's host.", "Deprecated: use scheduler_host.")
    for name, core in (("both", both), ("noted", noted)):
        _, found = _check(tmp_path / name, params=params, page=core + _WORKER)
        assert not [k for k in found if k[0] == "CD402"], name


def test_a_warned_name_that_is_the_option_s_own_is_no_old_spelling(tmp_path) -> None:
    # ``config_path`` naming the attribute itself in its own section.
    same = _CONFIG.replace('name="default-scheduler-host"', 'name="scheduler_host"')
    page = _CORE.replace("default-scheduler-host\n", "scheduler_host\n") + _WORKER
    surface, found = _check(tmp_path, config=same, page=page, params=_warning())
    assert surface.schema.children["core"].children["scheduler_host"].deprecated_spellings == ()
    assert not [k for k in found if k[0] == "CD402"]
