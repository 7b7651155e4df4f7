from __future__ import annotations

import pytest

from configdrift.extract.docs.markdown import extract_markdown


def entries(text: str) -> list[tuple[str, str | None, str | None, str]]:
    facts = extract_markdown(text.encode())
    return [(e.name, e.doc_type, e.default, e.form) for e in facts.entries]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (
            "<i>**train_batch_size**</i>: [integer]\n",
            ("train_batch_size", "integer", None, "html-bold"),
        ),
        (
            "***reduce_bucket_size***: [integer]\n",
            ("reduce_bucket_size", "integer", None, "bold-italic"),
        ),
        ("**device**: [string]\n", ("device", "string", None, "bold")),
        (
            '<i>**tag_validation**</i>: ["Ignore"|"Warn"|"Fail"]\n',
            ("tag_validation", '"Ignore"|"Warn"|"Fail"', None, "html-bold"),
        ),
        ("- `pin_memory` (boolean): use pinned memory\n", ("pin_memory", "boolean", None, "list")),
        ("- `buffer_count`: how many buffers\n", ("buffer_count", None, None, "list")),
        ("### `offload_param`\n", ("offload_param", None, None, "heading")),
    ],
)
def test_entry_forms(source: str, expected: tuple) -> None:
    assert entries(source) == [expected]


@pytest.mark.parametrize(
    "source",
    [
        "**Note:** this is prose.\n",
        "**Important** things happen.\n",
        "**Note**: capitalised labels are prose.\n",
        "Text with **bold_key**: in the middle.\n",
        "- A list item mentioning `key` later.\n",
        "### A heading with `code` in it\n",
        '```json\n{"a": 1}\n```\n',
    ],
)
def test_prose_is_not_an_entry(source: str) -> None:
    assert entries(source) == []


def test_default_comes_from_the_table_under_the_entry() -> None:
    table = "| Description | Default |\n| --- | --- |\n| Text. | `{}` |\n\n"
    text = (
        "<i>**stage**</i>: [integer]\n\n"
        + table.format(0)
        + "<i>**noted**</i>: [integer]\n\n**Deprecated:** a notice between.\n\n"
        + table.format(1)
        + '<i>**example**</i>: [integer]\n\n```json\n{"a": 1}\n```\n\n'
        + table.format(2)
        + "<i>**headed**</i>: [integer]\n\n## Next\n\n"
        + table.format(3)
    )
    assert [(name, default) for name, _, default, _ in entries(text)] == [
        ("stage", "`0`"),
        ("noted", "`1`"),  # prose between an entry and its table is fine
        ("example", None),  # an example block ends the entry
        ("headed", None),  # so does a heading
    ]


def test_key_table_cells_with_emphasised_keys_and_nesting() -> None:
    text = (
        "<i>**shared**</i>: [dictionary]\n\nShared parameters.\n\n"
        "| Fields | Value | Default |\n| --- | --- | --- |\n"
        "| <i>**enabled**</i>: [boolean] | On. | `false` |\n"
        "| <i>**mixed**</i>: [dictionary] | Mixed. | N/A |\n"
        "| <i>&emsp;&emsp;**ratio**</i>: [float] | Ratio. | `0.1` |\n"
        "| <i>**rounding**</i>: [string] | Back to the top. | `x` |\n"
    )
    facts = extract_markdown(text.encode())
    by_name = {e.name: e for e in facts.entries}
    parent = {
        e.name: facts.entries[e.parent_entry].name if e.parent_entry is not None else None
        for e in facts.entries
    }
    assert parent == {
        "shared": None,
        "enabled": "shared",
        "mixed": "shared",
        "ratio": "mixed",
        "rounding": "shared",
    }
    assert (by_name["ratio"].doc_type, by_name["ratio"].default) == ("float", "`0.1`")


def test_a_key_table_after_a_scalar_entry_is_not_its_children() -> None:
    text = "<i>**size**</i>: [integer]\n\n| Key | Meaning |\n| --- | --- |\n| `other` | x |\n"
    facts = extract_markdown(text.encode())
    assert [(e.name, e.parent_entry) for e in facts.entries] == [("size", None), ("other", None)]


def test_key_tables_give_entries_with_type_and_default() -> None:
    text = "| Key | Type | Default |\n| --- | --- | --- |\n| `size` | integer | `8` |\n| plain_name | string | x |\n| Not A Key! | x | y |\n"
    assert entries(text) == [
        ("size", "integer", "`8`", "table"),
        ("plain_name", "string", "x", "table"),
    ]


def test_a_quoted_table_header_names_the_parent_key() -> None:
    facts = extract_markdown(b'| "params" key | Description |\n| --- | --- |\n| lr | rate |\n')
    assert [e.parts for e in facts.entries] == [("params", "lr")]


def test_colon_and_dot_paths_split_into_parts() -> None:
    facts = extract_markdown(b"<i>**fp16:enabled**</i>: [boolean]\n\n**a.b.c**: [integer]\n")
    assert [e.parts for e in facts.entries] == [("fp16", "enabled"), ("a", "b", "c")]


def test_lines_are_one_based_and_survive_front_matter() -> None:
    text = "---\ntitle: x\ntoc: true\n---\n\n<i>**key**</i>: [integer]\n"
    facts = extract_markdown(text.encode())
    assert facts.entries[0].line == 6
    assert [s.title for s in facts.sections] == [""]  # the front matter is not a heading


def test_sections_nest_by_heading_level() -> None:
    facts = extract_markdown(b"# A\n## B\n### C\n## D\n")
    titles = {s.title: s for s in facts.sections}
    assert facts.sections[titles["C"].parent].title == "B"
    assert facts.sections[titles["D"].parent].title == "A"


def test_blocks_keep_their_keys_with_absolute_lines() -> None:
    text = 'intro\n\n```json\n"zero": {\n  "stage": [0|1],\n  "offload": {...}\n}\n```\n'
    facts = extract_markdown(text.encode())
    (block,) = facts.blocks
    assert [(k.path, k.line) for k in block.keys] == [
        (("zero",), 4),
        (("zero", "stage"), 5),
        (("zero", "offload"), 6),
    ]


def test_non_config_fences_are_ignored() -> None:
    facts = extract_markdown(b"```bash\nexport A=1\n```\n```text\na: 1\n```\n")
    assert facts.blocks == []


def test_not_utf8_is_an_error_not_a_crash() -> None:
    facts = extract_markdown(b"# Title\n\n\xff\xfe broken")
    assert facts.error is not None and "UTF-8" in facts.error
    assert facts.error_line == 3


def test_broken_tables_and_raw_html_do_not_crash() -> None:
    text = "| a | b\n| --- |\n| 1 | 2 | 3 |\n\n<div><b>**x**</b>: y</div>\n\n<table><tr><td>z</td></tr></table>\n"
    facts = extract_markdown(text.encode())
    assert facts.error is None


_DESCRIBED = """\
### FP16 options

| Description | Default |
| ----------- | ------- |
| <i>**min_loss_scale**</i> is a **fp16** parameter; a.k.a. <i>**floor_scale**</i>. | `1000` |
| <i>**hysteresis**</i> is a **fp16** parameter: the delay shift. | `2` |
| A row that only mentions <i>**loss_scale_window**</i> in its prose. | `1` |
"""


def test_a_description_cell_that_opens_with_a_key_documents_it() -> None:
    assert entries(_DESCRIBED) == [
        ("min_loss_scale", None, "`1000`", "table"),
        ("hysteresis", None, "`2`", "table"),
    ]


def test_a_description_row_under_an_entry_is_that_entry() -> None:
    page = "<i>**fp16:min_loss_scale**</i>: [integer]\n\n" + _DESCRIBED.split("\n", 2)[2]
    assert entries(page) == [("fp16:min_loss_scale", "integer", "`1000`", "html-bold")]


@pytest.mark.parametrize(
    "source",
    [
        # Prose that names a key is a mention.
        "**Note:** configuring <i>**train_batch_size**</i> is required.\n",
        "The batch size (a.k.a. <i>**train_micro_batch_size_per_gpu**</i>) is per GPU.\n",
        # A table without a Default column describes no keys.
        "| Description | Example |\n| --- | --- |\n| <i>**lr**</i> is the rate. | `1` |\n",
    ],
)
def test_mentions_are_not_entries(source: str) -> None:
    assert entries(source) == []


@pytest.mark.parametrize(
    ("source", "names"),
    [
        ("### `--model MODEL`\n", ["--model"]),
        ("### `--4o`\n", ["--4o"]),
        ("- `--out=PATH`: where to write\n", ["--out"]),
        ("* `-u`, `--show-user` : show the user\n", ["-u", "--show-user"]),
        ("- `--watch` / `-i`: refresh\n", ["--watch", "-i"]),
        ("### `-l`, `--line-length`\n", ["-l", "--line-length"]),
        # Not option spellings: the second span is prose, not an alias (the
        # flag the prose is about is a mention, a key where the schema has it).
        ("- `name`, `other`: two keys in one item\n", []),
        ("- `--flag` sets `value`: prose after the key\n", ["--flag"]),
    ],
)
def test_option_spellings(source: str, names: list[str]) -> None:
    assert sorted(name for name, *_ in entries(source)) == sorted(names)


@pytest.mark.parametrize(
    ("content", "fenced"),
    [
        ("```yaml\na: 1\n```\n", ("yaml", "a: 1\n")),
        ('~~~~ toml title="pyproject.toml"\n[a]\n~~~~\n', ("toml", "[a]\n")),
        ("```\nplain\n```\n", ("", "plain\n")),
        # Plain code, a fence left open, a fence closed by another.
        ("a: 1\nb: 2\n", None),
        ("```yaml\na: 1\n", None),
        ("```yaml\na: 1\n~~~\n", None),
    ],
)
def test_a_fence_an_indented_block_holds_whole(content, fenced) -> None:
    from configdrift.extract.docs.blocks import indented_fence

    assert indented_fence(content) == fenced
