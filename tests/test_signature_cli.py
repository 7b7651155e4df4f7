"""A command line made of functions' signatures (``jsonargparse.CLI``,
``fire.Fire``, ``tyro.cli``): each parameter is a flag, a dataclass
parameter a group of dotted flags whose defaults its default gives. A
guide that only runs the program is read for its flags. Never another
``CLI`` than a library's, nor a fire function that takes ``**kwargs``."""

from __future__ import annotations

import pytest

from configdrift.extract.docs.entry_text import split_name
from helpers import by_key, check_project

_CONFIG = """
from dataclasses import dataclass


@dataclass
class TrainArgs:
    learning_rate: float = 1e-3
    epochs: int = 3
    save_interval: int = 100
"""

_MAIN = """
from jsonargparse import CLI

from pkg.config import TrainArgs


def finetune(
    checkpoint_dir: str = "checkpoints",
    devices: int = 1,
    train: TrainArgs = TrainArgs(epochs=5),
) -> None:
    print(checkpoint_dir, devices, train)


def pretrain(checkpoint_dir: str = "out", seed: int = 42) -> None:
    print(checkpoint_dir, seed)


def main() -> None:
    commands = {"finetune": finetune, "pretrain": pretrain}
    CLI(commands)
"""

_PYPROJECT = '[project]\nname = "pkg"\n\n[project.scripts]\npkg = "pkg.__main__:main"\n'

#: A guide that only runs the program: no entry, three flags given.
_GUIDE = """# Fine-tuning

```bash
pkg finetune --checkpoint_dir out --train.learning_rate 3e-4 --train.warmup 10 --devices 2
```
"""

_TABLE = """
## Options

| option | default | description |
| --- | --- | --- |
| `--devices` | `1` | number of devices |
| `--train.epochs` | `{epochs}` | epochs |
| `--train.save_interval` | `100` | how often to save |
| `--train.learning_rate` | `1e-3` | the learning rate |
"""


def _findings(tmp_path, main: str = _MAIN, page: str = _GUIDE, config: str = _CONFIG) -> dict:
    files = {
        "pkg/config.py": config,
        "pkg/__main__.py": main,
        "pyproject.toml": _PYPROJECT,
        "docs/usage.md": page,
    }
    _, findings = check_project(tmp_path, files, "pkg")
    return by_key(findings)


def test_a_dotted_flag_the_signature_lacks_is_rejected(tmp_path) -> None:
    found = _findings(tmp_path)
    assert ("CD301", "--train.warmup") in found
    finding = found["CD301", "--train.warmup"]
    assert (finding.location.path, finding.location.line) == ("docs/usage.md", 4)
    assert finding.related[0].path == "pkg/__main__.py"
    # The parameters and the dataclass's fields are flags it declares.
    assert {k for c, k in found if c == "CD301"} == {"--train.warmup"}


def test_the_parameters_default_gives_its_fields_defaults(tmp_path) -> None:
    found = _findings(tmp_path, page=_GUIDE + _TABLE.format(epochs=3))
    finding = found["CD104", "--train.epochs"]
    assert "5" in finding.message
    assert (finding.related[0].path, finding.related[0].line) == ("pkg/__main__.py", 10)
    # A field the default leaves alone keeps the field's default.
    assert ("CD104", "--train.save_interval") not in found
    quiet = _findings(tmp_path / "quiet", page=_GUIDE + _TABLE.format(epochs=5))
    assert ("CD104", "--train.epochs") not in quiet


def test_a_default_built_elsewhere_leaves_the_fields_defaults_unknown(tmp_path) -> None:
    main = _MAIN.replace("TrainArgs(epochs=5)", "TRAIN").replace(
        "def finetune(", "TRAIN = TrainArgs.make()\n\n\ndef finetune("
    )
    found = _findings(tmp_path, main, _GUIDE + _TABLE.format(epochs=3))
    assert ("CD104", "--train.epochs") not in found
    assert ("CD301", "--train.warmup") in found


def test_a_class_with_subclasses_takes_the_flags_of_the_one_named(tmp_path) -> None:
    """jsonargparse takes a subclass of a parameter's class (``--train
    Long --train.warmup 10``): its fields are the named subclass's."""
    subclassed = _CONFIG + "\n\n@dataclass\nclass Long(TrainArgs):\n    warmup: int = 0\n"
    assert ("CD301", "--train.warmup") not in _findings(tmp_path, config=subclassed)
    # fire has no such mode: its flags stay judged.
    fire = _MAIN.replace("from jsonargparse import CLI", "import fire").replace(
        "CLI(commands)", "fire.Fire(commands)"
    )
    assert ("CD301", "--train.warmup") in _findings(tmp_path / "fire", fire, config=subclassed)


def test_a_callee_not_followed_takes_any_flag(tmp_path) -> None:
    """A class, or another library's function, among the subcommands: its
    flags are not known, so none is judged."""
    main = _MAIN.replace('"pretrain": pretrain}', '"pretrain": pretrain, "serve": other.serve}')
    main = main.replace(
        "from jsonargparse import CLI", "import other\nfrom jsonargparse import CLI"
    )
    assert ("CD301", "--train.warmup") not in _findings(tmp_path, main)


def test_a_function_given_as_a_literal_is_its_command_line(tmp_path) -> None:
    main = _MAIN.replace("CLI(commands)", "CLI(finetune)")
    assert ("CD301", "--train.warmup") in _findings(tmp_path, main)


def test_a_cli_of_the_projects_own_is_no_signature_command_line(tmp_path) -> None:
    main = _MAIN.replace("from jsonargparse import CLI", "def CLI(commands):\n    pass")
    found = _findings(tmp_path, main)
    assert not [k for c, k in found if c == "CD301"]


def test_fire_hands_unknown_flags_to_kwargs(tmp_path) -> None:
    fire = _MAIN.replace("from jsonargparse import CLI", "import fire").replace(
        "CLI(commands)", "fire.Fire(commands)"
    )
    assert ("CD301", "--train.warmup") in _findings(tmp_path, fire)
    opened = fire.replace("seed: int = 42)", "seed: int = 42, **kwargs)")
    assert ("CD301", "--train.warmup") not in _findings(tmp_path / "open", opened)


@pytest.mark.parametrize(
    ("library", "flag"), [("fire", "--checkpoint-dir"), ("tyro", "--checkpoint-dir")]
)
def test_fire_and_tyro_take_hyphens_for_underscores(tmp_path, library, flag) -> None:
    call = (
        "fire.Fire(commands)"
        if library == "fire"
        else "tyro.extras.subcommand_cli_from_dict(commands)"
    )
    main = _MAIN.replace("from jsonargparse import CLI", f"import {library}").replace(
        "CLI(commands)", call
    )
    page = _GUIDE.replace("--checkpoint_dir", flag)
    found = _findings(tmp_path, main, page)
    assert ("CD301", flag) not in found
    assert ("CD301", "--train.warmup") in found
    strict = _findings(tmp_path / "jsonargparse", _MAIN, page)
    assert ("CD301", flag) in strict


def test_a_flag_entry_keeps_its_dots() -> None:
    assert split_name("--train.lr") == ("--train.lr",)
    assert split_name("train.lr") == ("train", "lr")


def test_a_required_parameter_given_as_a_word_leaves_the_flags_judged(tmp_path) -> None:
    """jsonargparse and fire take a parameter as a positional word: the
    flags after it are the command's own."""
    main = _MAIN.replace("def finetune(\n", "def finetune(\n    base: str,\n")
    page = _GUIDE.replace("pkg finetune", "pkg finetune checkpoints/base")
    assert ("CD301", "--train.warmup") in _findings(tmp_path, main, page)
    # Past the words a signature can take, what follows may be another program's.
    far = _GUIDE.replace("pkg finetune", "pkg finetune a b c d e")
    assert ("CD301", "--train.warmup") not in _findings(tmp_path / "far", main, far)


_TYPER = """
import typer

app = typer.Typer()


@app.command()
def build(path: str, dry_run: bool = False, jobs: int = 1, output_dir: str = "dist") -> None:
    print(path, dry_run, jobs, output_dir)


@app.command()
def clean(
    target: str = typer.Argument("all"),
    force: bool = False,
    keep: str = typer.Option("logs", "--keep-only"),
) -> None:
    print(target, force, keep)
"""

_TYPER_PAGE = """# Usage

```console
$ tool build src {flags}
```
"""


def _typer_findings(tmp_path, flags: str, code: str = _TYPER, message: str = "") -> set[str]:
    files = {
        "tool/cli.py": code,
        "pyproject.toml": '[project]\nname = "tool"\n\n[project.scripts]\ntool = "tool.cli:app"\n',
        "docs/usage.md": _TYPER_PAGE.format(flags=flags),
    }
    _, findings = check_project(tmp_path, files, "tool")
    return {f.key for f in findings if f.code == "CD301" and message in f.message}


def test_a_typer_commands_parameters_are_its_options(tmp_path) -> None:
    """Typer spells a parameter with hyphens, a switch with its negation;
    a parameter with no default is an argument, not an option."""
    flags = "--dry-run --no-dry-run --jobs 4 --output-dir out --keep-only x --paralel"
    assert _typer_findings(tmp_path, flags, message="'No such option'") == {"--paralel"}
    assert _typer_findings(tmp_path / "argument", "--jobs 4 --dry-run --path y") == {"--path"}
    # An argument ``typer.Argument`` declares is no option either.
    assert _typer_findings(tmp_path / "declared", "--jobs 4 --dry-run --target y") == {"--target"}


def test_another_apps_command_is_no_typer_command(tmp_path) -> None:
    click = _TYPER.replace("import typer", "import click\nimport typer").replace(
        "app = typer.Typer()", "app = click.Group()"
    )
    assert _typer_findings(tmp_path, "--jobs 4 --dry-run --paralel", click) == set()


def test_typer_run_makes_a_command_of_a_function(tmp_path) -> None:
    run = _TYPER.replace("@app.command()\ndef build", "def build") + "\n\ntyper.run(build)\n"
    run = run.replace("@app.command()\ndef clean", "def clean")
    assert _typer_findings(tmp_path, "--jobs 2 --dry-run --paralel", run) == {"--paralel"}


def test_a_command_none_of_whose_flags_are_documented_is_not_reported_flag_by_flag(
    tmp_path,
) -> None:
    """``pretrain``'s flags, which no page names, are a command of its
    own: not reported one by one beside ``finetune``'s documented ones."""
    found = _findings(tmp_path, page=_GUIDE + _TABLE.format(epochs=5))
    assert ("CD103", "--seed") not in found
    # One of a documented command's own flags is.
    main = _MAIN.replace("devices: int = 1,", "devices: int = 1,\n    resume: bool = False,")
    assert ("CD103", "--resume") in _findings(
        tmp_path / "resume", main, _GUIDE + _TABLE.format(epochs=5)
    )


def test_a_list_of_models_is_no_group_of_dotted_flags(tmp_path) -> None:
    main = _MAIN.replace("train: TrainArgs = TrainArgs(epochs=5),", "train: list[TrainArgs] = [],")
    # ``--train`` takes the list whole: no ``--train.learning_rate`` of its own.
    assert ("CD301", "--train.learning_rate") in _findings(tmp_path, main)
    assert ("CD301", "--train.learning_rate") not in _findings(tmp_path / "one")
