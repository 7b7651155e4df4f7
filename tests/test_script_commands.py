"""A doc command line that runs a script of the project (``python
train.py --epok 2``) with a long flag the script's one parser does not
declare, where every flag it declares is known, is CD301; never a script
whose parser may take flags from elsewhere, nor a flag it takes by an
abbreviation, one after ``--``, a placeholder, or one some code spells."""

from __future__ import annotations

import ast

import pytest

from configdrift.extract.docs.script_parsers import closed_parser
from configdrift.index.programs import script_of
from helpers import DATACLASS_ENTRIES, DATACLASS_SETTINGS, check_project

_SCRIPT = """
import argparse


def parse():
    parser = argparse.ArgumentParser()
    parser.add_argument("-n", "--name", required=True)
    group = parser.add_argument_group("training")
    group.add_argument("--epochs", type=int, default=1)
    group.add_argument("--lr", type=float, default=0.1)
    return parser.parse_args()


if __name__ == "__main__":
    print(parse())
"""


def _flags(script: str) -> tuple[int, tuple[str, ...]] | None:
    return closed_parser(ast.parse(script))


def test_a_scripts_one_parser_declares_its_flags() -> None:
    assert _flags(_SCRIPT) == (6, ("-h", "--help", "-n", "--name", "--epochs", "--lr"), ())


def test_a_parser_without_help_and_the_negations_of_a_boolean_optional_action() -> None:
    script = _SCRIPT.replace("ArgumentParser()", "ArgumentParser(add_help=False)").replace(
        "type=int, default=1", "action=argparse.BooleanOptionalAction"
    )
    assert _flags(script) == (6, ("-n", "--name", "--epochs", "--no-epochs", "--lr"), ())
    # A string action adds no spelling.
    stored = _SCRIPT.replace("type=int, default=1", 'action="store_true"')
    assert _flags(stored) == _flags(_SCRIPT)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # Another parser, or one built on parents: flags not all here.
        ("return parser", "other = argparse.ArgumentParser()\n    return parser"),
        ("ArgumentParser()", "ArgumentParser(parents=[BASE])"),
        # Other prefixes, or whether it takes ``--help`` not known.
        ("ArgumentParser()", 'ArgumentParser(prefix_chars="+")'),
        ("ArgumentParser()", "ArgumentParser(add_help=HELP)"),
        # An action of the project's own may spell the flag other ways.
        ("type=int, default=1", "action=NegatableAction"),
        # Unknown flags handed back, or subcommands of their own.
        ("parser.parse_args()", "parser.parse_known_args()[0]"),
        ("return parser", "parser.add_subparsers()\n    return parser"),
        # A flag not known statically.
        ('"--lr"', "LR_FLAG"),
        ('group.add_argument("--lr"', "group.add_argument(*FLAGS"),
        # The parser (or a group of it) handed to a helper that may add some.
        ("return parser", "add_common(parser)\n    return parser"),
        ("return parser", "add_common(group)\n    return parser"),
        # The rest of the words for another program.
        ("default=0.1)", 'default=0.1)\n    parser.add_argument("cmd", nargs="...")'),
        ("default=0.1)", 'default=0.1)\n    parser.add_argument("c", nargs=argparse.REMAINDER)'),
        # Nothing parsed, or a parser bound to no name.
        ("parser.parse_args()", "parser"),
        ("parser = argparse.ArgumentParser()", "parser = make(argparse.ArgumentParser())"),
    ],
)
def test_a_parser_whose_flags_may_come_from_elsewhere_is_not_closed(old, new) -> None:
    assert old in _SCRIPT
    assert _flags(_SCRIPT.replace(old, new)) is None


def test_a_script_is_found_from_the_pages_folder_then_the_root() -> None:
    files = {"scripts/train.py", "tools/run.py"}
    assert script_of("scripts/README.md", "train.py", files) == "scripts/train.py"
    assert script_of("docs/usage.md", "scripts/train.py", files) == "scripts/train.py"
    assert script_of("docs/usage.md", "./tools/../scripts/train.py", files) == "scripts/train.py"
    assert script_of("docs/usage.md", "train.py", files) is None  # not beside, not at the root
    assert script_of("docs/usage.md", "scripts/train.sh", files) is None


#: A settings model the page documents: the page is read.
_SETTINGS, _ENTRIES = DATACLASS_SETTINGS, DATACLASS_ENTRIES


def test_the_scripts_run_are_those_python_or_a_launcher_runs() -> None:
    from configdrift.extract.docs.facts import DocFacts
    from configdrift.index.programs import scripts_run

    def page(*commands: tuple[str, tuple[str, ...]]) -> DocFacts:
        return DocFacts(commands=[(1, p, args, (1,) * len(args)) for p, args in commands])

    files = {"scripts/train.py", "scripts/eval.py"}
    pages = {
        "scripts/README.md": page(("python", ("train.py", "--lr", "1"))),
        "docs/use.md": page(("python3", ("scripts/eval.py",)), ("python", ("missing.py",))),
        # A launcher's flags before the script; another program's file.
        "scripts/launch.md": page(("torchrun", ("--nproc_per_node", "8", "eval.py", "--lr"))),
        "scripts/lint.md": page(("pytest", ("eval.py", "--lr")), ("python", ())),
    }
    assert scripts_run(pages, files) == ["scripts/eval.py", "scripts/train.py"]
    assert scripts_run({"scripts/README.md": pages["scripts/README.md"]}, files) == [
        "scripts/train.py"
    ]
    assert scripts_run({"scripts/launch.md": pages["scripts/launch.md"]}, files) == [
        "scripts/eval.py"
    ]
    assert scripts_run({"scripts/lint.md": pages["scripts/lint.md"]}, files) == []


def _run(tmp_path, command: str, script: str = _SCRIPT, **files: str) -> dict:
    page = f"# Training\n\n{_ENTRIES}\nRun it:\n\n```bash\n{command}\n```\n"
    base = {"scripts/train.py": script, "scripts/README.md": page, "pkg/settings.py": _SETTINGS}
    _, findings = check_project(tmp_path, {**base, **files}, "pkg")
    return {f.key: f for f in findings if f.code == "CD301"}


def test_a_flag_the_scripts_parser_lacks(tmp_path) -> None:
    found = _run(tmp_path, "python train.py -n run1 --epok 2 --lr=0.5")
    assert set(found) == {"--epok"}
    finding = found["--epok"]
    assert (finding.location.path, finding.location.line) == ("scripts/README.md", 10)
    assert "the script `scripts/train.py`" in finding.message
    assert "unrecognized arguments" in finding.message
    assert (finding.related[0].path, finding.related[0].line) == ("scripts/train.py", 6)


@pytest.mark.parametrize(
    "command",
    [
        # An abbreviation argparse takes, after ``--``, a placeholder.
        "python train.py --name run1 --epoch 2",
        "python train.py --name run1 -- --epok 2",
        "python train.py --name run1 --<option> 2",
        "python train.py --help",
        # Another program's script, or none of the project's.
        "python other.py --epok 2",
        "pytest train.py --epok 2",
        # A launcher's own flag, before the script.
        "torchrun --nnodes 1 --max_restarts 3 train.py --name run1",
    ],
)
def test_a_flag_the_script_may_take_or_that_is_not_its_own(tmp_path, command) -> None:
    assert _run(tmp_path, command) == {}


@pytest.mark.parametrize(
    "command",
    [
        "torchrun --nproc_per_node 8 train.py -n run1 --epok 2",
        "deepspeed --num_gpus 2 ./train.py --epok 2",
        "accelerate launch --multi_gpu train.py --epok=2",
        "python -m torch.distributed.launch --nproc_per_node 2 train.py --epok 2",
        # The interpreter's own options before the script.
        "python -u train.py --epok 2",
        "python3.12 -X dev -Wd train.py --epok 2",
    ],
)
def test_a_flag_a_launcher_gives_the_script_it_runs(tmp_path, command) -> None:
    assert set(_run(tmp_path, command)) == {"--epok"}


@pytest.mark.parametrize(
    ("page", "script"),
    [
        # A page of the docs no surface reads, that runs a script by its path.
        ("docs/training.md", "scripts/train.py"),
        # An example's README, beside its script.
        ("examples/train/README.md", "examples/train/train.py"),
    ],
)
def test_a_page_read_for_the_scripts_it_runs_alone(tmp_path, page, script) -> None:
    run = f"python {script.removeprefix('examples/train/')} --name run1 --epok 2"
    text = f"# Training\n\nRun it:\n\n```bash\n{run}\n```\n"
    files = {
        script: _SCRIPT,
        page: text,
        "pkg/settings.py": _SETTINGS,
        "docs/settings.md": _ENTRIES,
    }
    _, findings = check_project(tmp_path, files, "pkg")
    assert [(f.key, f.location.path, f.location.line) for f in findings if f.code == "CD301"] == [
        ("--epok", page, 6)
    ]


@pytest.mark.parametrize(
    ("text", "runs"),
    [
        (b"python ./scripts/train.py --lr 1\n", True),
        (b"torchrun --nproc 8 train.py \\\n  --lr 1\n", True),
        (b"`train.py --lr`", True),
        # No flag on its line; another script whose name ends alike.
        (b"python train.py\n--lr is the rate\n", False),
        (b"python mytrain.py --lr 1\n", False),
        (b"python train.pyc --lr 1\n", False),
    ],
)
def test_a_page_that_may_run_a_script_by_name(text, runs) -> None:
    from configdrift.index.programs import may_run_script

    assert may_run_script(text, {"train.py"}) is runs


@pytest.mark.parametrize(
    ("flag", "suggestion"),
    [
        # One letter off.
        ("--l_r", "did you mean `--lr`?"),
        ("--epochz", "did you mean `--epochs`?"),
        ("--nme", "did you mean `--name`?"),
        # None near.
        ("--epoks", None),
        ("--zz", None),
    ],
)
def test_a_flag_near_one_the_parser_declares_is_told_which(tmp_path, flag, suggestion) -> None:
    found = _run(tmp_path, f"python train.py --name run1 {flag} 2")
    assert found[flag].suggestion == suggestion


def test_near_flag() -> None:
    from configdrift.rules.doc_commands import near_flag

    declared = (
        "-h",
        "--help",
        "--log-with-file",
        "--log-with-fil",
        "--lr",
        "--lo",
        "--mixed_precision",
    )
    # Two letters off, but ``-`` and ``_`` alike; ``--log-with-fil`` is one off.
    assert near_flag("--log_with_file", declared) == "--log-with-file"
    assert near_flag("--mixed_precison", declared) == "--mixed_precision"
    assert near_flag("--mixed-precision", declared) == "--mixed_precision"
    assert near_flag("--l", declared) is None  # ``--lr`` and ``--lo``
    assert near_flag("--he", declared) is None


def test_a_flag_some_code_spells_is_not_judged(tmp_path) -> None:
    spells = {"pkg/flags.py": 'EXTRA = ["--epok"]\n'}
    assert _run(tmp_path, "python train.py --epok 2", **spells) == {}


def test_a_script_whose_parser_is_not_closed_is_not_judged(tmp_path) -> None:
    script = _SCRIPT.replace("parser.parse_args()", "parser.parse_known_args()[0]")
    assert _run(tmp_path, "python train.py --epok 2", script) == {}


def test_the_pages_read_for_the_scripts_they_run(tmp_path) -> None:
    from configdrift.index.pages import pages_running

    pages = {
        "examples/a/README.md": "Run `python train.py --lr 1`.\n",
        "examples/b/README.md": "Run `python train.py`, then tune `--lr`.\n",
        "examples/c/README.md": "Run `python other.py --lr 1`.\n",
    }
    for rel, text in pages.items():
        (tmp_path / rel).parent.mkdir(parents=True)
        (tmp_path / rel).write_text(text)
    assert pages_running(tmp_path, [*pages, "examples/gone.md"], {"train.py"}) == [
        "examples/a/README.md"
    ]


_CHOOSING = _SCRIPT.replace(
    "type=float, default=0.1)",
    'type=float, default=0.1)\n    parser.add_argument("-m", "--mode", choices=["fast", "slow"])',
)


def test_a_scripts_parser_gives_the_choices_of_an_option_of_strings() -> None:
    parsed = _flags(_CHOOSING)
    assert parsed is not None
    assert parsed[2] == (("-m", ("fast", "slow")), ("--mode", ("fast", "slow")))


@pytest.mark.parametrize(
    "choices",
    [
        # Converted first, or several words: other values may be taken.
        'choices=["1", "2"], type=int',
        'choices=["a", "b"], nargs="+"',
        # Not all literal strings.
        "choices=MODES",
        'choices=["a", MODE]',
        "choices=[1, 2]",
    ],
)
def test_choices_a_value_may_pass_besides_are_none(choices) -> None:
    script = _SCRIPT.replace(
        "type=float, default=0.1)",
        f'type=float, default=0.1)\n    parser.add_argument("--mode", {choices})',
    )
    parsed = _flags(script)
    assert parsed is None or parsed[2] == ()


@pytest.mark.parametrize(
    ("command", "invalid"),
    [
        ("python train.py -n run1 --mode medium", "medium"),
        ("python train.py -n run1 --mode=medium", "medium"),
        ("torchrun --nproc_per_node 2 train.py -m quick", "quick"),
        # A choice, a placeholder, a flag after it, after ``--``.
        ("python train.py -n run1 --mode fast", None),
        ("python train.py -n run1 --mode <mode>", None),
        ("python train.py -n run1 --mode [fast | slow]", None),
        ("python train.py -n run1 --mode --lr 1", None),
        ("python train.py -n run1 -- --mode medium", None),
    ],
)
def test_a_value_none_of_a_script_options_choices(tmp_path, command, invalid) -> None:
    page = f"# Training\n\n{_ENTRIES}\nRun it:\n\n```bash\n{command}\n```\n"
    files = {"scripts/train.py": _CHOOSING, "scripts/README.md": page, "pkg/settings.py": _SETTINGS}
    _, findings = check_project(tmp_path, files, "pkg")
    found = [f for f in findings if f.code == "CD303"]
    if invalid is None:
        assert found == []
        return
    assert len(found) == 1
    assert f"with `{found[0].key} {invalid}`" in found[0].message
    assert "takes one of `fast`, `slow`" in found[0].message
    assert (found[0].location.path, found[0].location.line) == ("scripts/README.md", 10)
    assert found[0].related[0].path == "scripts/train.py"
