"""One setting across its spellings (``link``, CD601, CD602, ``map
--settings``): what links a config key, a variable and a flag, and what
does not."""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

from configdrift.link.convention import normal, prefixes
from configdrift.model import Location, Spelling, TypeInfo, Value
from configdrift.rules.settings import _kinds
from conftest import FIXTURES, run_cli
from helpers import make_project


def _settings(case: str | Path) -> list[dict]:
    root = case if isinstance(case, Path) else FIXTURES / case
    result = run_cli("map", str(root), "--settings", "--format", "json", "--jobs", "1")
    assert result.code == 0, result.err
    return json.loads(result.out)["projects"][0]["settings"]


def _spelt(settings: list[dict]) -> dict[str, set[str]]:
    return {s["name"]: {sp["name"] for sp in s["spellings"]} for s in settings}


def _findings(root: Path, code: str) -> dict[str, str]:
    result = run_cli("check", str(root), "--format", "json", "--jobs", "1", "--select", "CD6")
    return {f["key"]: f["message"] for f in json.loads(result.out)["findings"] if f["code"] == code}


def test_a_settings_class_and_flags_are_linked_by_the_prefix_and_kebab_case() -> None:
    spelt = _spelt(_settings("settings_link"))
    assert spelt["port"] == {"RELAY_PORT", "--port"}
    assert spelt["log_level"] == {"RELAY_LOG_LEVEL", "--log-level"}
    assert spelt["workers"] == {"RELAY_WORKERS", "--workers"}


def test_a_flag_whose_default_reads_a_variable_is_that_variable() -> None:
    (setting,) = [s for s in _settings("settings_link") if s["name"] == "cache"]
    assert {(sp["kind"], sp["name"], sp["surface"]) for sp in setting["spellings"]} == {
        ("env", "RELAY_CACHE_DIR", "env"),  # the read in the flag's default
        ("env", "RELAY_CACHE_DIR", "settings"),
        ("flag", "--cache", "cli"),
    }
    explicit = [link["why"] for link in setting["links"] if link["how"] == "explicit"]
    assert "`--cache` defaults to what `RELAY_CACHE_DIR` holds" in explicit


def test_names_that_share_a_word_are_not_one_setting() -> None:
    # ``--log`` beside ``RELAY_LOG_FILE`` and ``RELAY_LOG_LEVEL``;
    # ``--verbose`` has no other spelling.
    names = {name for spelt in _spelt(_settings("settings_link")).values() for name in spelt}
    assert "--log" not in names
    assert "--verbose" not in names
    assert "RELAY_LOG_FILE" not in names


def test_defaults_that_differ_are_found_and_converted_ones_agree() -> None:
    found = _findings(FIXTURES / "settings_link", "CD601")
    assert set(found) == {"--port", "RELAY_CACHE_DIR"}
    assert "`--port` defaults to 8080, but `RELAY_PORT`" in found["--port"]
    # ``--workers`` "2" is the field's 2; ``--timeout`` 30 its 30.0.
    assert "--workers" not in found and "--timeout" not in found


def test_choices_that_differ_are_found() -> None:
    found = _findings(FIXTURES / "settings_link", "CD602")
    assert set(found) == {"--log-level"}
    assert "`--log-level` takes `error`, but `RELAY_LOG_LEVEL`" in found["--log-level"]


def test_a_flag_without_a_default_documented_with_another_than_the_settings() -> None:
    found = _findings(FIXTURES / "settings_link", "CD603")
    # ``--queue`` says 50 where ``RELAY_QUEUE`` holds 100; ``--batch`` says
    # the 10 ``RELAY_BATCH`` holds; ``--port`` has a default of its own.
    assert set(found) == {"--queue"}
    assert found["--queue"].startswith(
        "`--queue` is documented with default `50`, but it declares none, and `RELAY_QUEUE`"
    )


def test_docs_of_two_spellings_naming_different_defaults_disagree() -> None:
    found = _findings(FIXTURES / "settings_link", "CD604")
    # ``--threads`` says 8, ``RELAY_THREADS`` 4, and the code computes it;
    # ``--shards`` and ``RELAY_SHARDS`` both say 2; ``--queue`` is CD603's.
    assert set(found) == {"--threads"}
    assert found["--threads"].startswith(
        "`--threads` is documented with default `8`, but `RELAY_THREADS`, the same setting, "
        "with `4`: one of the two pages is wrong"
    )


def test_a_spelling_documented_as_unset_disagrees_with_no_other(tmp_path) -> None:
    """``--threads`` documented as defaulting to ``None`` (unset: the
    variable applies), ``RELAY_THREADS`` to 4: no page is wrong."""
    root = tmp_path / "relay"
    shutil.copytree(FIXTURES / "settings_link", root)
    cli = root / "docs" / "cli.md"
    cli.write_text(cli.read_text().replace("Defaults to `8`.", "Defaults to `None`."))
    assert "--threads" not in _findings(root, "CD604")


def test_click_envvar_links_explicitly_and_the_odd_default_is_reported_once() -> None:
    settings = {s["name"]: s for s in _settings("settings_click")}
    host = settings["host"]
    assert any(
        link["how"] == "explicit" and "declares `BEACON_HOST` with envvar=" in link["why"]
        for link in host["links"]
    )
    found = _findings(FIXTURES / "settings_click", "CD601")
    # Three spellings say 0.0.0.0, the read in net.py says localhost: one finding there.
    assert set(found) == {"BEACON_HOST", "--retries"}
    assert "defaults to 'localhost'" in found["BEACON_HOST"]


def test_a_variable_read_as_a_string_agrees_with_an_int_default() -> None:
    # ``int(os.environ.get("BEACON_PORT", "9000"))`` beside ``default=9000``.
    settings = {s["name"]: s for s in _settings("settings_click")}
    assert "'9000'" in {sp["default"] for sp in settings["port"]["spellings"]}
    assert "BEACON_PORT" not in _findings(FIXTURES / "settings_click", "CD601")


def test_one_flag_of_a_command_named_as_a_key_is_a_coincidence() -> None:
    # ``ping --banner`` beside the config's ``banner``: one flag of ``ping``
    # mirrors a key, not the two ``serve`` does; ``--proxy`` beside
    # ``HTTPS_PROXY``: not the project's prefix.
    names = {n for spelt in _spelt(_settings("settings_click")).values() for n in spelt}
    assert "--banner" not in names
    assert "banner" not in names
    assert "--proxy" not in names and "HTTPS_PROXY" not in names


def test_map_settings_prints_each_spelling_with_its_place(tmp_path: Path) -> None:
    result = run_cli("map", str(FIXTURES / "settings_link"), "--settings", "--jobs", "1")
    assert result.code == 0
    assert "9 settings with more than one spelling" in result.out
    port = result.out[result.out.index("\n  port\n") :]
    assert "RELAY_PORT  variable (settings)  default 8000" in port
    assert "linked (convention): `RELAY_PORT` and `--port` both spell `port`" in port


def test_types_that_hold_none_of_each_others_values_clash(tmp_path: Path) -> None:
    root = make_project(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/settings.py": """\
                from pydantic_settings import BaseSettings, SettingsConfigDict

                class Settings(BaseSettings):
                    model_config = SettingsConfigDict(env_prefix="APP_")
                    debug: bool = False
                    port: int = 1
                    name: str = "x"
                    labels: dict[str, str] = {}
            """,
            "app/cli.py": """\
                import argparse

                def main():
                    p = argparse.ArgumentParser()
                    p.add_argument("--debug", type=int, default=0)
                    p.add_argument("--port", type=str, default="1")
                    p.add_argument("--name", default="x")
                    p.add_argument("--labels", action="append", metavar="KEY=VALUE")
                    print(p.parse_args())
            """,
            "docs/settings.md": """\
                # Settings

                - `APP_DEBUG`: debug.
                - `APP_PORT`: the port.
                - `APP_NAME`: the name.
                - `APP_LABELS`: the labels.
            """,
            "docs/cli.md": """\
                # Command line

                - `--debug`: debug.
                - `--port`: the port.
                - `--name`: the name.
                - `--labels`: the labels.
            """,
        },
    )
    found = _findings(root, "CD602")
    # An int flag for a bool field clashes; a str flag converts to an int;
    # a flag given again and again (``--labels KEY=VALUE``) builds a dict.
    assert set(found) == {"--debug"}
    assert "`--debug` takes int, but `APP_DEBUG`, the same setting, takes bool" in found["--debug"]


def _spelling(kind: str, name: str, path: tuple[str, ...], surface: str = "s") -> Spelling:
    return Spelling(kind, name, surface, path, Location("a.py", 1), Value.of(1), TypeInfo(""))


def test_the_convention_needs_the_projects_prefix() -> None:
    field = _spelling("env", "SHOP_PORT", ("port",))
    known = prefixes([field], [])
    assert known == {"SHOP_"}
    assert normal(_spelling("env", "SHOP_LOG_LEVEL", ("SHOP_LOG_LEVEL",)), known) == "log_level"
    assert normal(_spelling("env", "OTHER_PORT", ("OTHER_PORT",)), known) is None
    assert normal(_spelling("flag", "--log-level", ("--log-level",)), known) == "log_level"
    assert normal(_spelling("flag", "-v", ("-v",)), known) is None
    assert normal(
        _spelling("key", "tool.shop.page_size", ("tool", "shop", "page_size")), known
    ) == ("page_size")


def test_a_word_most_variables_share_is_a_prefix_and_a_rare_one_is_not() -> None:
    shared = [_spelling("env", f"SHOP_{k}", (f"SHOP_{k}",)) for k in ("A", "B", "C")]
    assert prefixes([*shared, _spelling("env", "HOME_DIR", ("HOME_DIR",))], []) == {"SHOP_"}
    assert prefixes(shared[:2], []) == set()


_LAUNCHER = {
    "app/__init__.py": "",
    "app/launch.py": """\
        import argparse
        import os

        def main():
            p = argparse.ArgumentParser()
            p.add_argument("--master-port", type=int, default=29501)
            p.add_argument("--master-addr", default="127.0.0.1")
            p.add_argument("--nodes", type=int, default=1)
            args = p.parse_args()
            env = dict(os.environ)
            env["MASTER_PORT"] = str(args.master_port)
            env["MASTER_ADDR"] = args.master_addr
            return env
    """,
    "app/comm.py": """\
        import os

        def init():
            port = os.environ.get("MASTER_PORT", "29500")
            addr = os.environ.get("MASTER_ADDR", "127.0.0.1")
            nodes = os.environ.get("NODES", "1")
            return port, addr, nodes
    """,
    "docs/launch.md": """\
        # Launching

        - `--master-port`: the port of the first node.
        - `--master-addr`: the address of the first node.
        - `--nodes`: how many nodes.
    """,
}


def test_a_flag_copied_into_a_variable_is_that_variable(tmp_path: Path) -> None:
    root = make_project(tmp_path, _LAUNCHER)
    settings = {s["name"]: s for s in _settings(root)}
    assert {sp["name"] for sp in settings["master_port"]["spellings"]} == {
        "MASTER_PORT",
        "--master-port",
    }
    (link,) = settings["master_port"]["links"]
    assert link["how"] == "explicit"
    assert link["why"] == "`env['MASTER_PORT']` is set from `args.master_port` (`--master-port`)"
    found = _findings(root, "CD601")
    # The launcher's 29501 against the read's "29500"; the address agrees,
    # and ``--nodes`` is copied nowhere: ``NODES`` is not the project's prefix.
    assert set(found) == {"--master-port"}
    assert "NODES" not in settings


def test_a_copy_away_from_the_flags_file_links_nothing(tmp_path: Path) -> None:
    # ``args`` in another file could be any command's: the copy is no evidence.
    files = dict(_LAUNCHER)
    files["app/spawn.py"] = """\
        def spawn(env, args):
            env["MASTER_PORT"] = str(args.master_port)
    """
    files["app/launch.py"] = files["app/launch.py"].replace(
        'env["MASTER_PORT"] = str(args.master_port)', "pass"
    )
    root = make_project(tmp_path, files)
    settings = {s["name"]: s for s in _settings(root)}
    assert "master_port" not in settings
    assert "master_addr" in settings


def test_the_html_report_has_a_row_per_setting_and_a_column_per_surface(tmp_path: Path) -> None:
    import re

    out = tmp_path / "report.html"
    result = run_cli(
        "check", str(FIXTURES / "settings_link"), "--format", "html", "-o", str(out), "--jobs", "1"
    )
    assert result.code == 0, result.err  # warnings only
    page = out.read_text(encoding="utf-8")
    section = page[page.index('<section id="settings">') :]
    # Config files, then the environment, then the command lines.
    head = "<thead><tr><th>setting</th><th>env</th><th>settings</th><th>cli</th></tr></thead>"
    assert head in section
    rows = {
        name: kind
        for kind, name in re.findall(
            r'<tr class="(key(?: gap)?)"><td class="key"[^>]*>([^<]+)</td>', section
        )
    }
    assert set(rows) == {
        "threads",
        "shards",
        "cache",
        "batch",
        "log_level",
        "port",
        "queue",
        "timeout",
        "workers",
    }
    # Spellings that disagree mark their setting; those that agree do not.
    assert rows["port"] == "key gap" and rows["queue"] == "key gap"
    assert rows["timeout"] == "key" and rows["batch"] == "key"
    port = re.search(r">port</td>(.*?)</tr>", section).group(1)
    assert "<code>--port</code> = 8080" in port and "<code>RELAY_PORT</code> = 8000" in port


def test_a_project_with_no_setting_of_two_spellings_has_no_settings_view(tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    run_cli("check", str(FIXTURES / "surfaces"), "--format", "html", "-o", str(out), "--jobs", "1")
    assert '<section id="settings">' not in out.read_text(encoding="utf-8")


_REGISTRY = {
    "app/__init__.py": "",
    "app/options.py": """\
        import os

        class Option:
            name = None
            cli = None
            default = None
            desc = ""

        class Bind(Option):
            name = "bind"
            cli = ["-b", "--bind"]
            default = "127.0.0.1:8000"
            desc = "where to listen"

        class Workers(Option):
            name = "workers"
            cli = ["-w", "--workers"]
            default = int(os.environ.get("WEB_CONCURRENCY", 1))
            desc = "how many workers"

        class Timeout(Option):
            name = "timeout"
            cli = ["-t", "--timeout"]
            env = "APP_TIMEOUT"
            default = 30
            desc = "seconds to wait"

        class Backlog(Option):
            name = "backlog"
            default = 2048
            desc = "connections to queue"

        class Umask(Option):
            name = "umask"
            default = 0
            desc = "the file mode mask"
    """,
    "app/worker.py": """\
        import os

        def timeout():
            return int(os.environ.get("APP_TIMEOUT", "60"))
    """,
    "docs/settings.md": """\
        # Settings

        - `bind`: where to listen.
        - `workers`: how many workers.
        - `timeout`: seconds to wait.
        - `backlog`: connections to queue.
        - `umask`: the file mode mask.
    """,
}


def test_a_registry_entry_that_lists_its_flag_and_variable_is_one_setting(tmp_path: Path) -> None:
    root = make_project(tmp_path, _REGISTRY)
    settings = {s["name"]: s for s in _settings(root)}
    assert {sp["name"] for sp in settings["bind"]["spellings"]} == {"bind", "--bind"}
    assert {sp["name"] for sp in settings["workers"]["spellings"]} == {
        "workers",
        "--workers",
        "WEB_CONCURRENCY",
    }
    whys = {link["why"] for link in settings["workers"]["links"]}
    assert "`workers` lists the flag `--workers`" in whys
    assert "`workers` defaults to what `WEB_CONCURRENCY` holds" in whys
    # A short flag is its long flag's: no spelling of its own.
    assert "-b" not in {sp["name"] for sp in settings["bind"]["spellings"]}
    # An entry that names nothing else stays one spelling.
    assert "backlog" not in settings


def test_the_one_read_whose_default_differs_from_the_registrys_is_reported(tmp_path: Path) -> None:
    root = make_project(tmp_path, _REGISTRY)
    result = run_cli("check", str(root), "--format", "json", "--jobs", "1", "--select", "CD6")
    (finding,) = json.loads(result.out)["findings"]
    assert (finding["code"], finding["key"], finding["path"]) == (
        "CD601",
        "APP_TIMEOUT",
        "app/worker.py",
    )
    assert "defaults to '60'" in finding["message"] and "default to 30" in finding["message"]


def test_clicks_automatic_variables_are_spellings_of_their_options(tmp_path: Path) -> None:
    root = make_project(
        tmp_path,
        {
            "tally/__init__.py": "",
            "tally/cli.py": """\
                import click

                SETTINGS = {"auto_envvar_prefix": "tally"}

                @click.command(context_settings=SETTINGS)
                @click.option("--port", default=7000, type=int, help="the port")
                @click.option("--host", envvar="TALLY_BIND", default="x", help="the host")
                @click.option("--limit", default=5, type=int, help="the limit")
                def serve(port, host, limit):
                    print(port, host, limit)

                @click.command()
                @click.option("--depth", default=1, type=int, help="the depth")
                @click.option("--width", default=1, type=int, help="the width")
                @click.option("--name", default="n", help="the name")
                def draw(depth, width, name):
                    print(depth, width, name)
            """,
            "tally/net.py": """\
                import os

                def port():
                    return int(os.environ.get("TALLY_PORT", "7001"))
            """,
            "docs/cli.md": """\
                # Command line

                - `--port`: the port.
                - `--host`: the host.
                - `--limit`: the limit.
                - `--depth`: the depth.
                - `--width`: the width.
                - `--name`: the name.
            """,
        },
    )
    spelt = _spelt(_settings(root))
    assert spelt["port"] == {"--port", "TALLY_PORT"}
    assert spelt["limit"] == {"--limit", "TALLY_LIMIT"}
    # An explicit ``envvar`` wins over the automatic one.
    assert spelt["host"] == {"--host", "TALLY_BIND"}
    # A command without the prefix reads no variable.
    assert "depth" not in spelt and "width" not in spelt
    found = _findings(root, "CD601")
    assert set(found) == {"TALLY_PORT"}
    assert "defaults to '7001'" in found["TALLY_PORT"]


def test_configargparses_env_var_names_the_flags_variable(tmp_path: Path) -> None:
    root = make_project(
        tmp_path,
        {
            "swarm/__init__.py": "",
            "swarm/cli.py": """\
                import configargparse

                def parse():
                    p = configargparse.ArgumentParser()
                    p.add_argument("--users", env_var="SWARM_USERS", type=int, default=1)
                    p.add_argument("--rate", env_var="SWARM_RATE", type=float, default=1.0)
                    p.add_argument("--host", default="h")
                    return p.parse_args()
            """,
            "docs/cli.md": """\
                # Command line

                - `--users`: how many users.
                - `--rate`: users started per second.
                - `--host`: the host.
            """,
        },
    )
    spelt = _spelt(_settings(root))
    assert spelt["users"] == {"--users", "SWARM_USERS"}
    assert spelt["rate"] == {"--rate", "SWARM_RATE"}
    assert "host" not in spelt


def test_automatic_variables_given_where_the_parser_or_command_is_made(tmp_path: Path) -> None:
    root = make_project(
        tmp_path,
        {
            "pair/__init__.py": "",
            "pair/args.py": """\
                import configargparse

                def parser():
                    p = configargparse.ArgumentParser(auto_env_var_prefix="PAIR_")
                    p.add_argument("--model", default="big", help="the model")
                    p.add_argument("--log-file", default="pair.log", help="the log")
                    p.add_argument("--map-tokens", type=int, default=1024, help="tokens")
                    return p
            """,
            "pair/tool.py": """\
                import click

                @click.group()
                @click.option("--depth", default=1, type=int, help="the depth")
                @click.option("--width", default=2, type=int, help="the width")
                @click.option("--name", default="n", help="the name")
                def cli(depth, width, name):
                    print(depth, width, name)

                if __name__ == "__main__":
                    cli(auto_envvar_prefix="tool")
            """,
            "docs/cli.md": """\
                # Command line

                - `--model`: the model.
                - `--log-file`: the log.
                - `--map-tokens`: tokens.
                - `--depth`: the depth.
                - `--width`: the width.
                - `--name`: the name.
            """,
        },
    )
    spelt = _spelt(_settings(root))
    assert spelt["log_file"] == {"--log-file", "PAIR_LOG_FILE"}
    assert spelt["map_tokens"] == {"--map-tokens", "PAIR_MAP_TOKENS"}
    assert spelt["depth"] == {"--depth", "TOOL_DEPTH"}
    # Each prefix is its own parser's: no ``TOOL_MODEL``, no ``PAIR_DEPTH``.
    assert spelt["model"] == {"--model", "PAIR_MODEL"}
    assert spelt["name"] == {"--name", "TOOL_NAME"}


def test_typers_envvar_in_either_form_names_the_options_variable(tmp_path: Path) -> None:
    root = make_project(
        tmp_path,
        {
            "ty/__init__.py": "",
            "ty/cli.py": """\
                from typing import Annotated

                import typer

                app = typer.Typer()

                @app.command()
                def serve(
                    port: int = typer.Option(8000, "--port", envvar="TY_PORT", help="the port"),
                    host: Annotated[str, typer.Option(envvar="TY_HOST", help="the host")] = "h",
                    workers: int = typer.Option(1, help="workers"),
                ):
                    print(port, host, workers)
            """,
            "docs/cli.md": """\
                # Command line

                - `--port`: the port.
                - `--host`: the host.
                - `--workers`: workers.
            """,
        },
    )
    spelt = _spelt(_settings(root))
    assert spelt == {"port": {"--port", "TY_PORT"}, "host": {"--host", "TY_HOST"}}


def test_fix_sets_a_flags_documented_default_to_its_settings(tmp_path: Path) -> None:
    import shutil

    root = tmp_path / "relay"
    shutil.copytree(FIXTURES / "settings_link", root)
    result = run_cli("fix", str(root), "--jobs", "1")
    assert result.code == 1
    assert "-- `--queue`: how many messages to hold. Defaults to `50`." in result.out
    assert "+- `--queue`: how many messages to hold. Defaults to `100`." in result.out
    # ``--threads`` (CD604) has no default in the code to set: no edit.
    assert "+- `--threads`" not in result.out
    assert run_cli("fix", str(root), "--apply", "--jobs", "1").code == 0
    assert "CD603" not in run_cli("check", str(root), "--jobs", "1").out


def _loader_project(tmp_path: Path, loop: str) -> Path:
    return make_project(
        tmp_path,
        {
            "svc/__init__.py": "",
            "svc/config.py": f"""\
                import os

                PREFIX = "SVC_"
                DEFAULTS = {{
                    "TIMEOUT": 30,
                    "WORKERS": 2,
                    "DEBUG": False,
                    "HOST": "localhost",
                    "PORT": 8000,
                }}

                class Config(dict):
                    def load(self, prefix=PREFIX):
                        {loop}

                def get(config):
                    return config.get("TIMEOUT", 30), config.get("WORKERS", 2), config.get("DEBUG", False)
            """,
            "svc/worker.py": """\
                import os

                def timeout():
                    return int(os.environ.get("SVC_TIMEOUT", "60"))
            """,
            "docs/config.md": """\
                # Configuration

                - `TIMEOUT`: seconds to wait.
                - `WORKERS`: worker processes.
                - `DEBUG`: say more.
                - `HOST`: the host.
                - `PORT`: the port.
            """,
        },
    )


def test_a_loop_that_reads_every_prefixed_variable_spells_each_key_so(tmp_path: Path) -> None:
    loop = (
        "for key, value in os.environ.items():\n"
        "                            if key.startswith(prefix):\n"
        "                                self[key[len(prefix):]] = value"
    )
    root = _loader_project(tmp_path, loop)
    settings = _settings(root)
    spelt = _spelt(settings)
    assert spelt["TIMEOUT"] == {"TIMEOUT", "SVC_TIMEOUT"}
    # The read in worker.py is the loader's variable: one name, explicitly.
    (timeout,) = [s for s in settings if s["name"] == "TIMEOUT"]
    assert {"how": "explicit", "why": "both are the variable `SVC_TIMEOUT`"}.items() <= next(
        link for link in timeout["links"] if "both are" in link["why"]
    ).items()
    assert spelt["WORKERS"] == {"WORKERS", "SVC_WORKERS"}
    # The read in worker.py falls back to "60" where the key says 30.
    found = _findings(root, "CD601")
    assert set(found) == {"SVC_TIMEOUT"} and "defaults to '60'" in found["SVC_TIMEOUT"]


def test_a_prefix_joined_in_the_function_is_read_and_an_unknown_one_links_nothing(
    tmp_path: Path,
) -> None:
    joined = (
        'prefix = f"{prefix}_"\n'
        "                        for key in sorted(os.environ):\n"
        "                            if key.startswith(prefix):\n"
        "                                self[key[len(prefix):]] = os.environ[key]"
    )
    root = _loader_project(tmp_path / "joined", joined)
    text = (root / "svc/config.py").read_text().replace("prefix=PREFIX", 'prefix="SVC"')
    (root / "svc/config.py").write_text(text)
    assert _spelt(_settings(root))["WORKERS"] == {"WORKERS", "SVC_WORKERS"}
    unknown = (
        "for key in os.environ:\n"
        "                            if key.startswith(self.prefix):\n"
        "                                self[key] = os.environ[key]"
    )
    root = _loader_project(tmp_path / "unknown", unknown)
    assert "WORKERS" not in _spelt(_settings(root))


def test_a_comprehension_over_the_environment_is_a_loop_too() -> None:
    from configdrift.extract.python.extractor import extract_python

    facts = extract_python(
        b"import os\n\n"
        b"def load():\n"
        b"    return {\n"
        b"        k: v\n"
        b"        for k, v in os.environ.items()\n"
        b"        if k.startswith('APP_')\n"
        b"    }\n"
        b"\n"
        b"def other():\n"
        b"    return {k: v for k, v in os.environ.items() if k not in ('A', 'B')}\n"
    )
    assert facts.error is None
    assert facts.env_prefix_loops == [("load", 6, ["c", "APP_"])]


def test_a_switch_s_state_when_not_given_is_no_default(tmp_path: Path) -> None:
    # ``--compress`` is False only until it is given, and a program that
    # merges the given flags over its settings drops it; ``--strict`` says
    # ``default=False`` in so many words.
    root = tmp_path / "relay"
    shutil.copytree(FIXTURES / "settings_link", root)
    settings = root / "relay" / "settings.py"
    settings.write_text(
        settings.read_text().replace(
            "    shards: int", "    compress: bool = True\n    strict: bool = True\n    shards: int"
        )
    )
    cli = root / "relay" / "cli.py"
    cli.write_text(
        cli.read_text().replace(
            '    parser.add_argument("--log", ',
            '    parser.add_argument("--compress", action="store_true", help="compress")\n'
            '    parser.add_argument("--strict", action="store_true", default=False, help="s")\n'
            '    parser.add_argument("--log", ',
        )
    )
    found = _findings(root, "CD601")
    assert "--compress" not in found
    assert "`--strict` defaults to False, but `RELAY_STRICT`" in found["--strict"]


def test_a_list_and_a_dict_clash_where_neither_is_a_flag() -> None:
    listed = Spelling(
        "key",
        "labels",
        "s",
        ("labels",),
        Location("a.py", 1),
        Value.of([]),
        TypeInfo("list", frozenset({"list"})),
    )
    mapped = Spelling(
        "env",
        "APP_LABELS",
        "s",
        ("APP_LABELS",),
        Location("a.py", 2),
        Value.of({}),
        TypeInfo("dict", frozenset({"dict"})),
    )
    assert _kinds(listed, mapped) is not None
    flag = dataclasses.replace(listed, kind="flag", name="--labels")
    assert _kinds(flag, mapped) is None


_SERVER = {
    "app/__init__.py": "",
    "app/config.py": """\
        class Config:
            backlog = 100
            graceful_timeout: float = 3.0
            keep_alive_timeout = 5.0
            workers: int = 1
            retries: int | float = 1
            verbose = False
    """,
    "app/__main__.py": """\
        import argparse

        from app.config import Config


        class Runner:
            def __init__(self, opts):
                self.verbose = opts.verbose


        def main():
            p = argparse.ArgumentParser()
            p.add_argument("--backlog", type=int)
            p.add_argument("--graceful-timeout", type=int)
            p.add_argument("--keep-alive", type=int)
            p.add_argument("--workers", type=float)
            p.add_argument("--retries", type=int)
            p.add_argument("--verbose", action="store_true")
            args = p.parse_args()
            config = Config()
            config.keep_alive_timeout = args.keep_alive
            return config
    """,
    "docs/configuring.md": """\
        # Configuration

        | Attribute | Command line | Default |
        | --- | --- | --- |
        | backlog | `--backlog` | 100 |
        | graceful_timeout | `--graceful-timeout` | 3 |
        | keep_alive_timeout | `--keep-alive` | 5 |
        | workers | `--workers` | 1 |
        | retries | `--retries` | 1 |
    """,
}


def test_an_int_flag_for_a_float_setting_rejects_its_fractions(tmp_path: Path) -> None:
    root = make_project(tmp_path, _SERVER)
    found = _findings(root, "CD602")
    # An int flag for a float attribute, linked by the convention or by the
    # copy ``config.keep_alive_timeout = args.keep_alive``; a float flag for
    # an int attribute takes what it takes, as an int flag for an int or
    # float one does.
    assert set(found) == {"--graceful-timeout", "--keep-alive"}
    assert (
        "`--graceful-timeout` takes an int, but `graceful_timeout`" in found["--graceful-timeout"]
    )
    assert "`config.keep_alive_timeout` is set from `args.keep_alive`" in found["--keep-alive"]


def test_an_object_s_own_attribute_set_from_a_flag_links_nothing(tmp_path: Path) -> None:
    root = make_project(tmp_path, _SERVER)
    settings = {s["name"]: s for s in _settings(root)}
    # ``self.verbose = opts.verbose`` is the runner's state, not ``verbose``
    # of the configuration; the convention does not link a switch and a
    # key of other names either.
    linked = settings.get("verbose", {"links": []})["links"]
    assert not [link for link in linked if link["how"] == "explicit"]
