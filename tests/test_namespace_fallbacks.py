"""CD106 for a command-line option the code reads from the parsed
arguments by ``getattr`` with a fallback other than the parser's default
(``getattr(args, "device", "cpu")`` where ``--device`` defaults to
``"cuda"``). Never through a receiver that reads fewer than three of the
parser's destinations, nor where the fallback says the same (``None``,
both falsy, a string against another type), nor on an option whose
default depends on the command."""

from __future__ import annotations

from helpers import by_key, check_project

_PARAMS = """
import argparse


def parse_args(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="cuda", help="Accelerator.")
    parser.add_argument("--workers", type=int, default=4, help="Loader workers.")
    parser.add_argument("--precision", default="amp", help="Precision.")
    parser.add_argument("--seed", type=int, default=0, help="Seed.")
    parser.add_argument("--name", default=None, help="Run name.")
    return parser.parse_args(argv)
"""

_DOCS = """# Training

- `--device`: the accelerator.
- `--workers`: loader workers.
- `--precision`: the precision.
- `--seed`: the seed.
- `--name`: the run's name.
"""

_TRAIN = """
def train(args):
    device = getattr(args, "device", DEVICE)
    workers = getattr(args, "workers", 4)
    precision = getattr(args, "precision", "amp")
    return device, workers, precision
"""


def _found(tmp_path, train: str, params: str = _PARAMS) -> dict:
    files = {"tool/params.py": params, "tool/train.py": train, "docs/training.md": _DOCS}
    _, findings = check_project(tmp_path, files, "tool")
    return by_key(findings)


def test_a_fallback_other_than_the_parser_s_default(tmp_path) -> None:
    found = _found(tmp_path, _TRAIN.replace("DEVICE", '"cpu"'))
    finding = found[("CD106", "--device")]
    assert (finding.location.path, finding.location.line) == ("tool/train.py", 3)
    assert 'fallback "cpu"' in finding.message and "default 'cuda'" in finding.message
    assert (finding.related[0].path, finding.related[0].line) == ("tool/params.py", 7)
    assert ("CD106", "--workers") not in found and ("CD106", "--precision") not in found


def test_fallbacks_that_say_the_same_are_not_reported(tmp_path) -> None:
    for number, fallback in enumerate(('"cuda"', "None", "SOME_CONSTANT")):
        found = _found(tmp_path / str(number), _TRAIN.replace("DEVICE", fallback))
        assert ("CD106", "--device") not in found, fallback
    # Both falsy: unset alike to a truth test; a string is parsed.
    train = _TRAIN.replace("DEVICE", '"cpu"') + (
        '    seed = getattr(args, "seed", False)\n    workers = getattr(args, "workers", "8")\n'
    )
    found = _found(tmp_path / "falsy", train)
    assert ("CD106", "--seed") not in found and ("CD106", "--workers") not in found
    # Declared None: computed where it is used.
    found = _found(
        tmp_path / "none", _TRAIN.replace("DEVICE", '"cpu"') + '    getattr(args, "name", 5)\n'
    )
    assert ("CD106", "--name") not in found and ("CD106", "--device") in found


def test_a_receiver_that_reads_few_of_the_destinations_is_another_object(tmp_path) -> None:
    train = (
        "def train(args, model):\n"
        '    device = getattr(model, "device", "cpu")\n'
        '    workers = getattr(model, "workers", 4)\n'
        "    return device, workers\n"
    )
    assert ("CD106", "--device") not in _found(tmp_path, train)


def test_an_option_two_commands_default_differently_has_no_one_default(tmp_path) -> None:
    other = (
        "import argparse\n\n\ndef other_args(argv):\n    parser = argparse.ArgumentParser()\n"
        '    parser.add_argument("--device", default="cpu")\n    return parser.parse_args(argv)\n'
    )
    files = {
        "tool/params.py": _PARAMS,
        "tool/other.py": other,
        "tool/train.py": _TRAIN.replace("DEVICE", '"mps"'),
        "docs/training.md": _DOCS,
    }
    _, findings = check_project(tmp_path, files, "tool")
    assert ("CD106", "--device") not in by_key(findings)


def test_a_model_read_by_getattr_is_no_parsed_namespace(tmp_path) -> None:
    # Only a parser's options are read from the parsed arguments.
    model = (
        "from dataclasses import dataclass\n\n\n@dataclass\nclass Settings:\n"
        '    device: str = "cuda"\n    workers: int = 4\n    precision: str = "amp"\n'
        "\n\ndef load(data):\n    return Settings(**data)\n"
    )
    docs = "# Settings\n\n- `device`: the accelerator.\n- `workers`: workers.\n- `precision`: p.\n"
    files = {
        "tool/settings.py": model,
        "tool/train.py": _TRAIN.replace("DEVICE", '"cpu"'),
        "docs/settings.md": docs,
    }
    _, findings = check_project(tmp_path, files, "tool")
    assert not [f for f in findings if "parsed arguments" in f.message]


def test_the_declaring_module_s_own_read_knows_when_it_declares_the_option(tmp_path) -> None:
    # ``if can_symlink: add_argument("--symlinks", default=True)`` beside
    # ``getattr(options, "symlinks", False)``: the option may be absent.
    params = _PARAMS.replace(
        "    return parser.parse_args(argv)\n",
        "    return parser.parse_args(argv)\n\n\n" + _TRAIN.replace("DEVICE", '"cpu"'),
    )
    files = {"tool/params.py": params, "docs/training.md": _DOCS}
    _, findings = check_project(tmp_path, files, "tool")
    assert ("CD106", "--device") not in by_key(findings)


def test_an_option_two_namespaces_read_is_told_once(tmp_path) -> None:
    train = _TRAIN.replace("DEVICE", '"cpu"') + _TRAIN.replace("args", "opts").replace(
        "DEVICE", '"mps"'
    ).replace("def train(", "def evaluate(")
    found = [f for f in _run_findings(tmp_path, train) if f.code == "CD106"]
    assert [(f.key, f.location.line) for f in found] == [("--device", 3)]


def _run_findings(tmp_path, train: str) -> list:
    files = {"tool/params.py": _PARAMS, "tool/train.py": train, "docs/training.md": _DOCS}
    return check_project(tmp_path, files, "tool")[1]
