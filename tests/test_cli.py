from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from configdrift.cli import ExitCode
from helpers import make_project, strict_model

DEMO = Path(__file__).parent.parent / "demo"


def test_exit_codes_are_the_documented_ones() -> None:
    assert [int(c) for c in ExitCode] == [0, 1, 2, 3]
    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    assert all(f"**{int(c)}**" in readme for c in ExitCode)


def test_demo_reports_both_sides_and_exits_1(cli) -> None:
    result = cli("check", str(DEMO))
    assert result.code == 1
    assert (
        "docs/configuration.md:88:6: CD101 [error] `grad_hooks` is documented under `zero_optimization`"
        in result.out
    )
    assert "    minitrain/zero/config.py:14: ZeroConfig declares the accepted keys" in result.out
    assert "help: did you mean `save_interval`?" in result.out


def test_json_output_is_the_contract_and_nothing_else(cli) -> None:
    result = cli("check", str(DEMO), "--format", "json")
    document = json.loads(result.out)  # stdout holds exactly one JSON document
    assert set(document) == {"$schema", "version", "tool", "root", "findings", "summary"}
    assert document["version"] == 1 and document["tool"]["name"] == "configdrift"
    finding = next(f for f in document["findings"] if f["code"] == "CD101")
    assert set(finding) == {
        "code",
        "rule",
        "severity",
        "key",
        "path",
        "line",
        "column",  # added within version 1
        "message",
        "related",
        "suggestion",
        "fingerprint",
        "provenance",
        "surface",  # added within version 1: readers of the contract ignore it
    }
    assert finding["surface"] == "config"
    assert finding["rule"] == "documented-not-accepted" and finding["severity"] == "error"
    assert finding["key"] == "zero_optimization.grad_hooks"
    assert finding["path"] == "docs/configuration.md" and finding["line"] == 88
    assert finding["column"] == 6  # | `grad_hooks` | ...
    assert finding["related"][0] == {
        "path": "minitrain/zero/config.py",
        "line": 14,
        "note": "ZeroConfig declares the accepted keys",
    }
    summary = document["summary"]
    assert (
        summary["errors"] == 5
        and summary["keys"]["documented"] > 0
        and summary["keys"]["accepted"] > 0
    )
    (surface,) = summary["surfaces"]
    assert surface["name"] == "config" and surface["keys"] == summary["keys"]


def test_fingerprints_ignore_the_line(cli, tmp_path) -> None:
    import shutil

    shutil.copytree(DEMO, tmp_path / "demo")
    before = json.loads(cli("check", str(tmp_path / "demo"), "--format", "json").out)
    page = tmp_path / "demo" / "docs" / "configuration.md"
    page.write_text("An unrelated new first line.\n\n" + page.read_text())
    after = json.loads(cli("check", str(tmp_path / "demo"), "--format", "json").out)
    old = {f["fingerprint"]: f["line"] for f in before["findings"] if f["code"] == "CD101"}
    new = {f["fingerprint"]: f["line"] for f in after["findings"] if f["code"] == "CD101"}
    assert old.keys() == new.keys()
    assert all(new[k] == old[k] + 2 for k in old)


@pytest.mark.parametrize(
    ("args", "codes"),
    [
        (["--select", "CD101"], {"CD101"}),
        (["--ignore", "CD1"], {"CD201", "CD202", "CD301", "CD303"}),
        (["--select", "CD1", "--ignore", "CD103"], {"CD101", "CD104", "CD105"}),
        # The longer prefix wins: CD10 beats CD1, CD101 beats CD10.
        (["--select", "CD10", "--ignore", "CD1,CD101"], {"CD103", "CD104", "CD105"}),
    ],
)
def test_select_and_ignore_by_prefix(cli, args: list[str], codes: set[str]) -> None:
    result = cli("check", str(DEMO), "--format", "json", *args)
    assert {f["code"] for f in json.loads(result.out)["findings"]} == codes


@pytest.mark.parametrize(
    ("fail_on", "code"),
    [("error", 1), ("warning", 1), ("never", 0)],
)
def test_fail_on(cli, fail_on: str, code: int) -> None:
    assert cli("check", str(DEMO), "--fail-on", fail_on).code == code


def test_warnings_alone_fail_only_from_warning(cli) -> None:
    assert cli("check", str(DEMO), "--select", "CD103").code == 0
    assert cli("check", str(DEMO), "--select", "CD103", "--fail-on", "warning").code == 1


def test_clean_project_exits_0(cli, tmp_path) -> None:
    make_project(
        tmp_path,
        {
            **strict_model("a: int = 1", "b: bool = True", 'c: str = "x"'),
            "docs/config.md": "<i>**m**</i>: [dictionary]\n\n<i>**m:a**</i>: [integer]\n\n<i>**m:b**</i>: [boolean]\n\n<i>**m:c**</i>: [string]\n",
        },
    )
    result = cli("check", str(tmp_path))
    assert result.code == 0, result.out
    assert "Found 0 errors, 0 warnings" in result.out


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ("[tool.configdrift]\nbogus = 1\n", "unknown option(s) bogus (known: "),
        ('[tool.configdrift]\nfail_on = "warning"\n', "fail_on (did you mean `fail-on`?)"),
        ("[tool.configdrift]\nselcet = []\n", "selcet (did you mean `select`?)"),
        ('[tool.configdrift]\ndocs = "docs"\n', "`docs` must be a list"),
        ("[tool.configdrift]\nfail-on = 1\n", "`fail-on` must be a str"),
        ('[tool.configdrift]\nfail-on = "sometimes"\n', "`fail-on` must be one of"),
        ("[tool.configdrift]\ndocs = [1]\n", "list of strings"),
        ('[tool.configdrift.mount]\nx = "NoColon"\n', "must name a model"),
        ("[tool.configdrift\n", "invalid TOML"),
        ('[tool.configdrift]\ndocs = ["missing.md"]\n', "does not exist"),
    ],
)
def test_bad_configuration_exits_2(cli, tmp_path, config: str, message: str) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "t"\n' + config)
    result = cli("check", str(tmp_path))
    assert result.code == 2
    assert message in result.err
    assert result.out == ""


def test_a_path_that_does_not_exist_exits_2(cli, tmp_path) -> None:
    result = cli("check", str(tmp_path / "nope"))
    assert result.code == 2 and "no such file or directory" in result.err


def test_unknown_rule_prefix_exits_2(cli) -> None:
    result = cli("check", str(DEMO), "--select", "XY9")
    assert result.code == 2 and "no rule code starts with 'XY9'" in result.err
    assert "did you mean" not in result.err
    # A code mistyped, or a rule's slug, is answered with the code meant.
    typo = cli("check", str(DEMO), "--select", "CD1O1")
    assert typo.code == 2 and "'CD1O1' (did you mean `CD101`?)" in typo.err
    named = cli("check", str(DEMO), "--ignore", "documented-not-accepted")
    assert named.code == 2 and "(did you mean `CD101`?)" in named.err


def test_argparse_errors_exit_2(cli) -> None:
    assert cli("check", "--format", "yaml").code == 2


def test_configdrift_toml_and_mount(cli, tmp_path) -> None:
    make_project(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/m.py": """
                from pydantic import BaseModel, ConfigDict
                class Root(BaseModel):
                    model_config = ConfigDict(extra="forbid")
                    a: int = 1
            """,
            "docs/config.md": "**a**: [integer]\n\n**b**: [integer]\n\n**c**: [integer]\n",
            "configdrift.toml": 'docs = ["docs/config.md"]\n[mount]\n"" = "pkg.m:Root"\n',
        },
    )
    result = cli("check", str(tmp_path), "--format", "json")
    keys = {(f["code"], f["key"]) for f in json.loads(result.out)["findings"]}
    assert keys == {("CD101", "b"), ("CD101", "c")}


def test_map_prints_tree_sections_and_unresolved(cli) -> None:
    result = cli("map", str(DEMO), "--unresolved")
    assert result.code == 0
    assert (
        "zero_optimization -> ZeroConfig [strict] minitrain/zero/config.py:14; built in get_zero_config"
        in result.out
    )
    assert "'Parameter offloading' -> zero_optimization.offload_param [OffloadConfig]" in result.out
    assert "Unresolved (not analysed, never guessed):" in result.out


def test_init_writes_what_it_discovered(cli, tmp_path) -> None:
    import shutil

    shutil.copytree(DEMO, tmp_path / "demo")
    before = (tmp_path / "demo" / "pyproject.toml").read_text()
    preview = cli("init", str(tmp_path / "demo"), "--stdout")
    assert preview.code == 0 and "[tool.configdrift]" in preview.out
    assert (tmp_path / "demo" / "pyproject.toml").read_text() == before  # nothing written
    result = cli("init", str(tmp_path / "demo"))
    assert result.code == 0
    # The project has a pyproject.toml: the table goes there, after what it held.
    written = (tmp_path / "demo" / "pyproject.toml").read_text()
    assert written.startswith(before)
    assert written[len(before) :] == preview.out
    assert not (tmp_path / "demo" / "configdrift.toml").exists()
    assert 'docs = ["docs/configuration.md"]' in written
    assert 'code = ["minitrain"]' in written
    # A table already there is never replaced, nor shadowed.
    again = cli("init", str(tmp_path / "demo"))
    assert again.code == 2 and "[tool.configdrift]" in again.err
    # The written table is valid configuration and gives the same findings.
    assert cli("check", str(tmp_path / "demo")).out == cli("check", str(DEMO)).out


def test_init_writes_the_distributions_package_not_a_script(cli, tmp_path) -> None:
    """The options discovery finds are a release script's: ``code`` names the
    distribution's own package, never the script's folder or nothing."""
    script = (
        "import argparse\n\n\ndef main():\n    parser = argparse.ArgumentParser()\n"
        '    parser.add_argument("--tag", help="the tag")\n'
        '    parser.add_argument("--sign", action="store_true", help="sign it")\n'
        '    parser.add_argument("--upload", action="store_true", help="upload it")\n'
        "    return parser.parse_args()\n"
    )
    page = "# Releasing\n\n- `--tag`: the tag.\n- `--sign`: sign.\n- `--upload`: upload.\n"
    for layout, package in (("top", "shop_app"), ("src", "src/shop_app")):
        root = tmp_path / layout
        files = {
            "pyproject.toml": '[project]\nname = "shop-app"\n',
            f"{package}/__init__.py": "",
            "release/build.py": script,
            "docs/releasing.md": page,
        }
        make_project(root, files)
        out = cli("init", str(root), "--stdout").out
        assert f'code = ["{package}"]' in out, out
        assert "outside it (release)" in out
    # Where discovery's finds are the package's, they are kept.
    inside = tmp_path / "inside"
    make_project(
        inside,
        {
            "pyproject.toml": '[project]\nname = "shop-app"\n',
            "shop_app/__init__.py": "",
            "shop_app/cli.py": script,
            "docs/releasing.md": page,
        },
    )
    assert 'code = ["shop_app"]' in cli("init", str(inside), "--stdout").out


def test_init_writes_configdrift_toml_where_there_is_no_pyproject(cli, tmp_path) -> None:
    import shutil

    shutil.copytree(DEMO, tmp_path / "demo")
    (tmp_path / "demo" / "pyproject.toml").unlink()
    assert cli("init", str(tmp_path / "demo")).code == 0
    written = (tmp_path / "demo" / "configdrift.toml").read_text()
    assert 'docs = ["docs/configuration.md"]' in written and "[tool." not in written
    assert cli("init", str(tmp_path / "demo")).code == 2  # refuses to overwrite
    assert cli("init", str(tmp_path / "demo"), "--force").code == 0


def test_rules_and_rule(cli) -> None:
    listing = cli("rules").out
    assert "CD101  documented-not-accepted" in listing and "(planned)" in listing
    doc = cli("rule", "cd101")
    assert doc.code == 0 and "Why it matters" in doc.out
    assert cli("rule", "CD999").code == 2


def test_python_dash_m(tmp_path) -> None:
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-m", "configdrift", "--version"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0 and proc.stdout.startswith("configdrift ")


def test_the_console_entry_flushes_everything_before_its_hard_exit(cli) -> None:
    import subprocess
    import sys

    # Buffered output, as on a user's machine: only the flush writes it.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    proc = subprocess.run(
        [sys.executable, "-m", "configdrift", "check", str(DEMO), "--format", "json"],
        capture_output=True,
        text=True,
        check=False,
        env=env,
        cwd=DEMO,
    )
    assert proc.returncode == 1 and proc.stderr == ""
    assert proc.stdout == cli("check", str(DEMO), "--format", "json").out
    assert json.loads(proc.stdout)["summary"]["errors"] == 5


def test_a_closed_pipe_is_not_a_traceback() -> None:
    import subprocess
    import sys

    proc = subprocess.Popen(
        [sys.executable, "-m", "configdrift", "map", str(DEMO)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()  # like `| head -1`
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert "Traceback" not in err


def test_summary_counts_the_keys_the_code_reads(cli, tmp_path) -> None:
    files = strict_model("a: int = 1", "b: int = 2", "c: int = 3")
    files["pkg/use.py"] = "def f(cfg):\n    return getattr(cfg, 'b'), cfg.a\n"
    make_project(tmp_path, files)
    keys = json.loads(cli("check", str(tmp_path), "--format", "json").out)["summary"]["keys"]
    # ``m`` is read by ``d.get("m", {})``; ``a`` and ``b`` as attributes; ``c`` by nothing.
    # No page documents them: nothing was compared.
    assert keys == {
        "documented": 0,
        "accepted": 4,
        "read": 3,
        "compared": 0,
        "rendered": 0,
        "undocumented": 4,
        "entries": 0,
    }
    out = cli("check", str(tmp_path)).out
    assert "keys accepted: 4, documented: 0 (compared: 0), read: 3; doc entries: 0." in out


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ('[tool.configdrift.mount]\nx = "nowhere:Model"\n', "no module 'nowhere'"),
        ('[tool.configdrift.mount]\nx = "pkg.m:Missing"\n', "pkg.m defines no 'Missing'"),
        ('[tool.configdrift.mount]\nx = "pkg.m:get"\n', "get is not a pydantic model"),
        (
            '[tool.configdrift.sections]\n"docs/config.md#No such heading" = "m"\n',
            "names no section of the 1 doc page(s) read",
        ),
    ],
)
@pytest.mark.parametrize("command", ["check", "map"])
def test_a_mount_or_section_that_matches_nothing_exits_2(
    cli, tmp_path, config: str, message: str, command: str
) -> None:
    make_project(
        tmp_path,
        {
            **strict_model(),
            "docs/config.md": "# Config\n\n<i>**m**</i>: [dictionary]\n\n<i>**m:a**</i>: [integer]\n",
        },
    )
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + '[tool.configdrift]\ndocs = ["docs"]\n' + config)
    result = cli(command, str(tmp_path))
    assert result.code == 2, result.out
    assert message in result.err


def test_a_section_entry_that_matches_is_used(cli, tmp_path) -> None:
    make_project(
        tmp_path,
        {
            **strict_model(),
            "docs/config.md": "# Config\n\n## Knobs\n\n- `a` (int): a knob.\n- `zz` (int): not in m.\n",
        },
    )
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text()
        + '[tool.configdrift]\ndocs = ["docs"]\n[tool.configdrift.sections]\n"Knobs" = "m"\n'
    )
    result = cli("check", str(tmp_path), "--format", "json")
    assert result.code == 1
    assert {f["key"] for f in json.loads(result.out)["findings"]} == {"m.zz"}


def test_exit_zero_quiet_statistics_and_output_file(cli, tmp_path) -> None:
    full = cli("check", str(DEMO))
    assert full.code == 1
    zero = cli("check", str(DEMO), "--exit-zero")
    assert zero.code == 0 and zero.out == full.out
    quiet = cli("check", str(DEMO), "--quiet")
    assert "Found " not in quiet.out and "Example configs" not in quiet.out
    assert [line for line in full.out.splitlines() if "CD101" in line] == [
        line for line in quiet.out.splitlines() if "CD101" in line
    ]
    stats = cli("check", str(DEMO), "--statistics")
    counts = {line.split()[1]: int(line.split()[0]) for line in stats.out.splitlines()}
    document = json.loads(cli("check", str(DEMO), "--format", "json").out)
    expected: dict[str, int] = {}
    for finding in document["findings"]:
        expected[finding["code"]] = expected.get(finding["code"], 0) + 1
    assert counts == expected and stats.code == 1
    target = tmp_path / "report.json"
    written = cli("check", str(DEMO), "--format", "json", "--output-file", str(target))
    assert written.out == "" and written.code == 1
    assert json.loads(target.read_text(encoding="utf-8"))["findings"] == document["findings"]
    nowhere = cli("check", str(DEMO), "-o", str(tmp_path / "missing" / "r.txt"))
    assert nowhere.code == 2 and "configdrift: error:" in nowhere.err


def test_an_empty_directory_is_nothing_to_check_not_drift(cli, tmp_path) -> None:
    for fmt in ("text", "json", "sarif"):
        result = cli("check", str(tmp_path), "--format", fmt)
        assert result.code == 0
        assert "nothing to check" in result.err
        if fmt != "text":
            json.loads(result.out)


def test_jobs_must_be_one_or_more_and_rule_takes_a_name(cli) -> None:
    for bad in ("-3", "0", "many"):
        assert cli("check", str(DEMO), "--jobs", bad).code == 2
    by_code = cli("rule", "CD101")
    by_name = cli("rule", "documented-not-accepted")
    assert by_code.code == by_name.code == 0 and by_code.out == by_name.out
    assert "``" not in by_code.out
    assert cli("rule", "no-such-rule").code == 2


def test_every_option_of_every_command_has_help() -> None:
    import argparse

    from configdrift.cli import build_parser

    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    missing = [
        f"{name} {action.dest}"
        for name, sub in commands.choices.items()
        for action in sub._actions
        if not isinstance(action, argparse._HelpAction) and not action.help
    ]
    assert missing == []


def test_help_gives_examples_and_exit_codes(cli) -> None:
    for argv in (["--help"], ["check", "--help"]):
        result = cli(*argv)
        assert result.code == 0
        assert "examples:" in result.out and "exit status:" in result.out
        assert "  2  usage or configuration error" in result.out


def test_rule_documentation_uses_a_neutral_example() -> None:
    import configdrift.rules  # noqa: F401  (registers the rules)
    from configdrift.rules import RULES

    assert len(RULES) >= 18

    words = ("DeepSpeed", "zero_optimization", "sparse_gradients", "grad_hooks", "ZeRO")
    assert [code for code, rule in RULES.items() if any(w in (rule.doc or "") for w in words)] == []


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["check", "{demo}", "--color", "sometimes"], "invalid choice: 'sometimes'"),
        (["check", "{demo}", "--extend-select", "CD9"], "no rule code starts with 'CD9'"),
        (["check", "{demo}", "--extend-ignore", "XX"], "no rule code starts with 'XX'"),
        (["check", "{demo}", "{missing}"], "nowhere: no such file or directory"),
        (["check", "{demo}", "-o", "{missing}/report.txt"], "report.txt:"),
        (["map", "{demo}", "--format", "xml"], "invalid choice: 'xml'"),
        (["map", "{missing}"], "nowhere: no such file or directory"),
        (["sweep", "a.b", "{missing}"], "nowhere: no such file or directory"),
        (["diff", "{missing}"], "nowhere: no such file or directory"),
        (["diff", "{demo}", "--base", "no-such-ref-anywhere"], "no-such-ref-anywhere"),
        (["init", "{missing}"], "nowhere: no such file or directory"),
        (["init", "{demo}/pyproject.toml"], "not a directory"),
    ],
)
def test_bad_input_is_a_clear_usage_error(cli, tmp_path, argv: list[str], message: str) -> None:
    filled = [a.format(demo=DEMO, missing=tmp_path / "nowhere") for a in argv]
    result = cli(*filled)
    assert result.code == 2, result.err
    assert message in result.err and "Traceback" not in result.err
    assert result.out == ""
