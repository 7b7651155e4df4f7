from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path


def make_project(root: Path, files: dict[str, str]) -> Path:
    """Write a small project (with its own pyproject.toml boundary)."""
    files = {"pyproject.toml": '[project]\nname = "t"\n', **files}
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


def _strict_class(name: str, fields: tuple[str, ...], gap: str = "") -> str:
    """The source of a strict pydantic model ``name`` with these field lines,
    ``gap`` between its import and its class."""
    body = "".join(f"    {line}\n" for line in fields)
    return (
        f"from pydantic import BaseModel, ConfigDict\n{gap}"
        f"class {name}(BaseModel):\n"
        '    model_config = ConfigDict(extra="forbid")\n'
        f"{body}"
    )


def strict_model(*fields: str) -> dict[str, str]:
    """A package whose strict pydantic model ``M`` is mounted at ``m``, with
    the given field lines (``a: int = 1`` when none are given)."""
    return {
        "pkg/__init__.py": "",
        "pkg/m.py": _strict_class("M", fields or ("a: int = 1",))
        + 'def get(d):\n    return M(**d.get("m", {}))\n',
    }


def mounted_config(*fields: str) -> dict[str, str]:
    """A package whose strict pydantic model ``Config`` (with the given
    field lines; ``alpha: int = 1`` when none are given) is mounted at the
    top of the configuration by ``configdrift.toml``."""
    return {
        "pkg/__init__.py": "",
        "pkg/config.py": _strict_class("Config", fields or ("alpha: int = 1",), "\n\n"),
        "configdrift.toml": '[mount]\n"" = "pkg.config:Config"\n',
    }


def check_project(root: Path, files: dict[str, str], package: str, mount=None):
    """Write a small project whose code is ``package``, analyse it with no
    configuration but ``mount``, and return the analysis and its findings."""
    from configdrift.config import Config
    from configdrift.engine import analyse
    from configdrift.rules.run import run_rules

    make_project(root, {f"{package}/__init__.py": "", **files})
    analysis = analyse(Config(root=root, mount=mount or {}), jobs=1)
    return analysis, run_rules(analysis)


def by_key(findings) -> dict:
    """Findings by (code, key)."""
    return {(f.code, f.key): f for f in findings}


def peak_of(argv: list[str], cwd: Path) -> tuple[int, str, int]:
    """Run the command line in a fresh process: its exit status, its
    standard output and its peak resident memory in MiB."""
    script = textwrap.dedent(
        """
        import os, sys
        pid = os.fork()
        if pid == 0:
            from configdrift.cli import main
            os._exit(main(sys.argv[1:]))
        _, status, usage = os.wait4(pid, 0)
        print(os.waitstatus_to_exitcode(status), usage.ru_maxrss // 1024, file=sys.stderr)
        """
    )
    proc = subprocess.run(
        [sys.executable, "-c", script, *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    code, peak = proc.stderr.split()[-2:]
    return int(code), proc.stdout, int(peak)


#: A small program's command line: three flags, each with its help.
SMALL_CLI = """
import argparse


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", default=8000, help="The port.")
    parser.add_argument("--host", default="::", help="The host.")
    parser.add_argument("--debug", action="store_true", help="Debug.")
    return parser.parse_args()
"""


#: A dataclass built from a loaded YAML file (strict: it takes its fields
#: alone as keywords), and a page's entries of its three fields.
DATACLASS_SETTINGS = """
from dataclasses import dataclass

import yaml


@dataclass
class Settings:
    seed: int = 0
    device: str = "cpu"
    workers: int = 2


def load(path):
    with open(path) as fh:
        return Settings(**yaml.safe_load(fh))
"""
DATACLASS_ENTRIES = (
    "- `seed` (int): the seed.\n- `device` (str): where.\n- `workers` (int): how many.\n"
)


#: A strict pydantic model built from a whole dict (``AppConfig(**raw)``).
APP_CONFIG = """
from pydantic import BaseModel, ConfigDict


class AppConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")
    host: str = "localhost"
    port: int = 8000
    workers: int = 1
    debug: bool = False


def load(raw: dict) -> AppConfig:
    return AppConfig(**raw)
"""

#: A strict pydantic model built from the ``app`` section of a dict.
APP_SECTION = """
from pydantic import BaseModel, ConfigDict


class AppConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = "app"
    retries: int = 3
    timeout: float = 1.0


def load(param_dict):
    return AppConfig(**param_dict.get("app", {}))
"""


#: A module-level dict of options read by name: a surface of its own,
#: named ``DEFAULT_CONFIG`` by discovery where a page documents its keys.
DEFAULT_CONFIG_TABLE = """
DEFAULT_CONFIG = {
    "color": True,
    "width": 80,
    "pager": "less",
    "theme": "dark",
    "wrap": False,
}


def setting(name):
    return DEFAULT_CONFIG[name]
"""

#: Two surfaces that both accept ``timeout`` and ``retries``, with other
#: defaults: a model at the root and a gateway's options (``app.pay``).
SHARED_KEYS = {
    "app/__init__.py": "",
    "app/config.py": (
        "from pydantic import BaseModel\n\n\nclass Config(BaseModel):\n"
        "    timeout: int = 30\n    retries: int = 1\n    debug: bool = False\n"
    ),
    "app/pay.py": (
        "def make_gateway(options: dict):\n"
        '    return options.get("timeout", 5), options.get("retries", 3), '
        'options.get("currency", "EUR")\n'
    ),
}
