"""A guide that pastes a configuration class's annotated fields into a
Python block documents each with its type and default; a page whose
entries are most of a model's fields (ten at least) documents that model
whatever its path; a key the model's class sets as a class attribute is
not said to be ignored."""

from __future__ import annotations

import pytest

from configdrift.extract.docs.class_fields import shown_fields
from configdrift.extract.docs.markdown import extract_markdown
from helpers import by_key, check_project

_FIELDS = [
    ("model_name", "str", '"PATH/to/Model"'),
    ("batch_size", "int", "4"),
    ("context_length", "int", "4096"),
    ("num_epochs", "int", "3"),
    ("lr", "float", "1e-4"),
    ("weight_decay", "float", "0.0"),
    ("gamma", "float", "0.85"),
    ("seed", "int", "42"),
    ("use_fp16", "bool", "False"),
    ("output_dir", "str", '"out"'),
    ("save_model", "bool", "True"),
]


def _config(extra: str = "") -> str:
    body = "".join(f"    {name}: {kind} = {default}\n" for name, kind, default in _FIELDS)
    return f"from dataclasses import dataclass\n\n\n@dataclass\nclass train_config:\n{body}{extra}"


_READER = """
from pkg.config import train_config


def train(config: train_config) -> None:
    print(config.model_name, config.batch_size, config.context_length, config.num_epochs)
    print(config.lr, config.weight_decay, config.gamma, config.seed, config.use_fp16)
    print(config.output_dir, config.save_model, config.one_gpu, config.dataset)
"""


def _page(lines: list[str]) -> str:
    shown = "".join(f"    {line}\n" for line in lines)
    return f"# Fine-tuning\n\nThe settings, as the code has them:\n\n```python\n{shown}```\n"


def _shown(**changed: str) -> list[str]:
    return [f"{n}: {changed.get(n, k)}={d}" for n, k, d in _FIELDS]


def test_a_block_of_annotated_names_shows_their_types_and_defaults() -> None:
    facts = extract_markdown(_page(_shown()).encode())
    entries = {e.name: e for e in facts.entries}
    assert set(entries) == {name for name, _, _ in _FIELDS}
    lr = entries["lr"]
    assert (lr.doc_type, lr.default, lr.line, lr.form) == ("float", "1e-4", 10, "annotation")


def test_a_fields_docstring_is_passed_over() -> None:
    block = "name: str = 'a'\n'''The name.'''\nprice: float = 1.0\ntax: float = 0.1\n"
    assert [e.name for e in shown_fields(block, 1, 0)] == ["name", "price", "tax"]


@pytest.mark.parametrize(
    "block",
    [
        # A class of the reader's own: an example of their code.
        "class Item(BaseModel):\n    name: str\n    price: float\n    tax: float = 0.1\n",
        # Code beside the annotations.
        "name: str = 'a'\nprice: float = 1.0\ntax: float = 0.1\nprint(name)\n",
        # Two annotated names only.
        "name: str = 'a'\nprice: float = 1.0\ntax = 0.1\n",  # Two, beside a docstring whose lines read like annotations.
        "'''\nname: the name\nprice: the price\n'''\nname: str = 'a'\nprice: float = 1.0\n",
    ],
)
def test_other_python_shows_no_fields(block) -> None:
    assert shown_fields(block, 1, 0) == []


def _findings(tmp_path, page: str, extra: str = "") -> dict:
    files = {
        "pkg/config.py": _config(extra),
        "pkg/train.py": _READER,
        "docs/guides/finetuning.md": page,
    }
    _, findings = check_project(tmp_path, files, "pkg")
    return by_key(findings)


def test_a_guide_that_lists_a_models_fields_documents_it(tmp_path) -> None:
    found = _findings(tmp_path, _page(_shown(use_fp16="str")))
    assert ("CD105", "use_fp16") in found
    finding = found["CD105", "use_fp16"]
    assert finding.location.path == "docs/guides/finetuning.md"
    assert finding.related[0].path == "pkg/config.py"


def test_a_page_of_too_few_fields_documents_no_model(tmp_path) -> None:
    few = [line for line in _shown(use_fp16="str") if not line.startswith(("seed", "gamma"))]
    assert ("CD105", "use_fp16") not in _findings(tmp_path, _page(few))


def test_a_page_of_other_entries_beside_documents_no_model(tmp_path) -> None:
    others = [f"other_{n}: int = 1" for n in range(5)]
    assert ("CD105", "use_fp16") not in _findings(tmp_path, _page(_shown(use_fp16="str") + others))


def test_a_class_attribute_is_not_said_to_be_ignored(tmp_path) -> None:
    page = _page([*_shown(), 'dataset = "samsum"', "one_gpu: bool = False"])
    found = _findings(tmp_path, page, extra='    dataset = "samsum"\n')
    assert ("CD102", "dataset") not in found
    # A key the class lacks altogether is.
    assert ("CD102", "one_gpu") in found
