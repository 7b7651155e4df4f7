"""A model a page documents by linking its file (``[FSDP config
file](../src/app/fsdp.py) provides settings such as:``) and naming half
its fields in list items: a configuration by that evidence, lenient; a
field any page writes in code (or as a flag) is described."""

from __future__ import annotations

from configdrift.extract.docs.markups import extract_markdown
from configdrift.index.pages import linked_file
from helpers import check_project

_MODEL = """from dataclasses import dataclass


@dataclass
class fsdp_config:
    mixed_precision: bool = True
    use_fp16: bool = False
    sharding_strategy: str = "FULL_SHARD"
    checkpoint_type: str = "SHARDED"
    activation_checkpointing: bool = True
    cpu_offload: bool = False
    hybrid_shard: bool = False
    pure_bf16: bool = False
"""

_GUIDE = """# Fine-tuning

* [FSDP config file]({link}) provides FSDP settings such as:

    * `mixed_precision` boolean flag to use mixed precision, true by default.

    * `use_fp16` boolean flag to use FP16 for mixed precision.

    * `sharding_strategy` the sharding strategy for FSDP.

    * `checkpoint_type` the state dict checkpoint type when saving.
{more}
"""

_MULTI = "# Many nodes\n\nUse the `--hybrid_shard` flag and set `pure_bf16`.\n"


def test_a_page_s_links_to_code_files_are_read() -> None:
    page = "See [the model](../src/app/fsdp.py#L10), [a site](https://x.org/a.py) and [a page](b.md).\n"
    assert extract_markdown(page.encode()).code_links == [
        ("../src/app/fsdp.py", 1),
        ("https://x.org/a.py", 1),
    ]
    assert linked_file("docs/guide.md", "../src/app/fsdp.py") == "src/app/fsdp.py"
    assert linked_file("docs/guide.md", "/src/app/fsdp.py") == "src/app/fsdp.py"
    assert (
        linked_file("docs/guide.md", "https://github.com/org/repo/blob/main/src/app/fsdp.py")
        == "src/app/fsdp.py"
    )
    assert linked_file("docs/guide.md", "https://x.org/a.py") is None
    assert linked_file("guide.md", "../../etc/app.py") is None


def _findings(tmp_path, link: str = "../src/app/fsdp.py", more: str = ""):
    files = {
        "src/app/fsdp.py": _MODEL,
        "docs/finetuning.md": _GUIDE.format(link=link, more=more),
        "docs/multi_node.md": _MULTI,
    }
    analysis, findings = check_project(tmp_path, files, "src/app")
    models = {s.schema.model for s in analysis.everything}
    return models, {(f.code, f.key) for f in findings if f.code in ("CD101", "CD102", "CD103")}


def test_a_model_whose_file_a_page_links_is_documented_there(tmp_path) -> None:
    models, found = _findings(tmp_path)
    assert "fsdp_config" in models
    # Named in code on another page, as a flag or a name, a field is
    # described; the others the list leaves out are not.
    assert found == {("CD103", "activation_checkpointing"), ("CD103", "cpu_offload")}


def test_a_page_that_links_another_file_or_lists_few_fields_documents_nothing(tmp_path) -> None:
    models, _ = _findings(tmp_path, link="../src/app/other.py")
    assert "fsdp_config" not in models
    # Three fields of eight: fewer than half.
    few = _GUIDE.split("    * `checkpoint_type`")[0] + "{more}\n"
    files = {
        "src/app/fsdp.py": _MODEL,
        "docs/finetuning.md": few.format(link="../src/app/fsdp.py", more=""),
    }
    analysis, _ = check_project(tmp_path / "few", files, "src/app")
    assert "fsdp_config" not in {s.schema.model for s in analysis.everything}


_RST_GUIDE = """Fine-tuning
===========

The `FSDP config file <../src/app/fsdp.py>`_ provides settings such as:

``mixed_precision``
   Use mixed precision, true by default.

``use_fp16``
   Use FP16 for mixed precision.

``sharding_strategy``
   The sharding strategy for FSDP.

``checkpoint_type``
   The state dict checkpoint type when saving.
"""


def test_a_restructuredtext_page_that_links_the_file_documents_it(tmp_path) -> None:
    files = {"src/app/fsdp.py": _MODEL, "docs/finetuning.rst": _RST_GUIDE}
    analysis, findings = check_project(tmp_path, files, "src/app")
    assert "fsdp_config" in {s.schema.model for s in analysis.everything}
    undocumented = {f.key for f in findings if f.code == "CD103"}
    assert {"cpu_offload", "pure_bf16"} <= undocumented
    assert "use_fp16" not in undocumented
