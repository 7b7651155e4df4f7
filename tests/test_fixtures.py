"""Each fixture project produces exactly the report in its expected.txt.

Regenerate deliberately with CONFIGDRIFT_UPDATE_GOLDEN=1 and read the diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from conftest import FIXTURES, run_cli

CASES = sorted(p.name for p in FIXTURES.iterdir() if (p / "pyproject.toml").exists())


@pytest.mark.parametrize("case", CASES)
def test_report_matches_golden(case: str) -> None:
    root = FIXTURES / case
    result = run_cli("check", str(root), "--jobs", "1")
    golden = root / "expected.txt"
    if os.environ.get("CONFIGDRIFT_UPDATE_GOLDEN"):
        golden.write_text(result.out, encoding="utf-8")
    assert result.err == ""
    assert result.out == golden.read_text(encoding="utf-8")


def _json(case: str) -> dict:
    result = run_cli("check", str(FIXTURES / case), "--format", "json", "--jobs", "1")
    return json.loads(result.out)


def _keys(case: str, code: str) -> set[str]:
    return {f["key"] for f in _json(case)["findings"] if f["code"] == code}


def test_aliases_count_as_documented_both_ways() -> None:
    undocumented = _keys("aliases", "CD103")
    # Documented through the alias, the field name, an AliasChoices member and an AliasPath head.
    for field in ("prefetch_bucket_size", "max_live_parameters", "persistence_threshold", "gather"):
        assert f"zero_optimization.{field}" not in undocumented
    assert "zero_optimization.sub_group_size" in undocumented
    rejected = _keys("aliases", "CD101")
    assert rejected == {"zero_optimization.stage3_max_reuse_distance", "alias_only.bucket"}


def test_extra_policy_is_inherited_and_lenient_models_stay_quiet() -> None:
    rejected = _keys("inheritance", "CD101")
    assert rejected == {"child.height", "v1.colour", "kw.colour"}


def test_nested_models_through_every_annotation_form() -> None:
    rejected = _keys("nested", "CD101")
    assert rejected == {
        "outer.opt.y",
        "outer.pipe.y",
        "outer.ann.y",
        "outer.fac.y",
        "outer.quoted.y",
        "outer.mapping.any_name.y",
        "outer.items.y",
    }


def test_defaults_compare_values_not_text() -> None:
    assert _keys("defaults", "CD104") == {"settings.device_name", "settings.count"}
    assert _keys("defaults", "CD105") == {"settings.as_bool", "settings.whole"}


def test_models_are_mounted_where_the_code_builds_them() -> None:
    rejected = _keys("placement", "CD101")
    assert rejected == {
        "zero.bogus",
        "fp.bogus",
        "c_section.bogus",
        "outer.inner.bogus",
        "e_key.bogus",
    }


def test_every_entry_form_is_recognised() -> None:
    rejected = _keys("markdown_forms", "CD101")
    forms = ("html_bold", "bold_italic", "plain_bold", "list_item", "table_key", "heading_key")
    assert rejected == {f"forms.{f}_typo" for f in forms}


def test_doc_sections_are_mapped_by_structure_and_schema_fit() -> None:
    rejected = _keys("doc_nesting", "CD101")
    assert rejected == {
        "engine.grad_hooks",
        "engine.offload.nvme_path",
        "engine.cache.ttl",
        "wandb.project",
    }


def test_every_stable_rule_fires_in_some_fixture() -> None:
    import configdrift.rules  # noqa: F401
    from configdrift.rules import RULES

    seen: set[str] = set()
    for case in CASES:
        seen |= {f["code"] for f in _json(case)["findings"]}
    seen |= {
        f["code"]
        for f in json.loads(
            run_cli("check", str(Path(__file__).parent.parent / "demo"), "--format", "json").out
        )["findings"]
    }
    # CD501 and CD503 have tests of their own; rules without a check here
    # (CD403, from `configdrift diff`) are tested with their command.
    stable = {
        code
        for code, rule in RULES.items()
        if rule.status == "stable" and code not in ("CD501", "CD503") and rule.check is not None
    }
    assert stable <= seen, f"rules without a fixture: {sorted(stable - seen)}"


def test_models_the_code_hides_are_mounted_by_the_docs_structure() -> None:
    found = {(f["code"], f["key"]) for f in _json("docs_fit")["findings"]}
    # WandbConfig fits 3 of the 4 documented keys: mounted, so `group` is rejected.
    assert ("CD101", "wandb.group") in found
    # A tie between same-shaped models is broken by the name (CSVConfig, not
    # TensorBoardConfig, for csv_monitor): its documented "" default agrees.
    assert ("CD104", "csv_monitor.output_path") not in found
    assert ("CD104", "tensorboard.output_path") in found
    # A tie the name does not break mounts nothing; a dataclass built by its
    # own from_dict is mounted but not strict.
    assert ("CD101", "gamma.z") not in found
    assert ("CD101", "plan.cooldown") not in found


def test_map_lists_docs_mounts_and_unresolved(cli) -> None:
    result = run_cli("map", str(FIXTURES / "docs_fit"), "--unresolved")
    assert (
        "wandb -> WandbConfig [strict] pkg/monitor.py:25; docs: the section 'Monitoring' documents 3 of its 4 keys"
        in result.out
    )
    assert "plan -> PlanConfig [open]" in result.out
    assert "gamma ->" not in result.out
    assert (
        "pkg/monitor.py:65: MonitorConfig built from a dict that is not a lookup in the config"
        in result.out
    )


def test_the_code_view_reads_plain_dicts() -> None:
    found = {(f["code"], f["key"]) for f in _json("code_view")["findings"]}
    # Never read, and a typo next to a key that is read (with a suggestion).
    assert {k for c, k in found if c == "CD102"} == {
        "gradient_clipping",
        "log_levl",
        "checkpoint.tag_validaton",
    }
    # Read through a helper, a chained helper with a default key, a section a
    # helper returns, a membership test and a loop over a literal list.
    read_keys = {
        "train_batch_size",
        "communication_data_type",
        "checkpoint.tag_validation",
        "elastic",
        "log_level",
    }
    assert not {k for c, k in found if c == "CD102"} & read_keys
    assert ("CD103", "log_file") in found and ("CD103", "log_level") in found
    # Keys built at runtime, a section handed to another library and one
    # forwarded as **kwargs: quiet.
    assert not any(k.startswith(("custom.", "plugins.", "hooks.")) for _, k in found)
    assert ("CD202", "hooks") not in found
    # Dicts that are not configuration contribute no keys.
    assert not any("unrelated" in k or k == "version" for _, k in found)


def test_map_shows_lenient_sections_and_why_keys_are_unresolved() -> None:
    result = run_cli("map", str(FIXTURES / "code_view"), "--unresolved")
    assert "  checkpoint -> [lenient]" in result.out
    assert (
        'keys under custom may be read: key f"{self.steps_per_print}_mode" is not static'
        in result.out
    )
    assert "keys under plugins may be read: handed to external_lib.configure" in result.out
    assert "keys under hooks may be read: forwarded as **kwargs to make_hooks" in result.out


def test_dead_accessors_and_inert_options() -> None:
    findings = _json("code_view")["findings"]
    dead = [f for f in findings if f["code"] == "CD201"]
    # Through self._config (typed by the constructor call), a local bound to a
    # helper's result, and an annotated parameter.
    assert [(f["key"], f["path"], f["line"]) for f in dead] == [
        ("grad_hooks", "trainer/engine.py", 15),
        ("bucket_hooks", "trainer/engine.py", 38),
        ("knob", "trainer/engine.py", 43),
    ]
    assert "which nothing calls" in dead[0]["message"]
    # A field with an alias, read by its field name, is no dead read.
    assert not any(f["key"] == "prefetch" for f in dead)
    inert = {f["key"] for f in findings if f["code"] == "CD202"}
    # A value copied into an attribute nothing reads; model fields nothing reads.
    assert inert == {
        "legacy_fusion",
        "offload.ratio",
        "offload.prefetch_size",
        "zero_optimization.prefetch",  # read only by Engine.zero_stage, never called
    }
    # `offload.buffer_count` could be read by getattr(..., f"{name}_count"),
    # `offload.device` and `zero_optimization.stage` are read by accessors.
    assert not inert & {"offload.buffer_count", "offload.device", "zero_optimization.stage"}


def test_every_example_source_kind_is_checked() -> None:
    found = {(f["code"], f["path"], f["line"], f["key"]) for f in _json("examples")["findings"]}
    assert found == {
        # A JSON block on a reference page: a Literal choice.
        ("CD303", "docs/config.md", 24, "run.optimizer.kind"),
        # A YAML block: a wrong type, and a key a dict-read section ignores;
        # its custom tag, anchor and placeholders are not judged.
        ("CD303", "docs/config.md", 35, "run.steps"),
        ("CD302", "docs/config.md", 41, "logging.colour"),
        # A TOML block.
        ("CD301", "docs/config.md", 49, "run.warmup"),
        # A JSON block with a bracket out of place: reported, not judged.
        ("CD304", "docs/config.md", 58, ""),
        # A tutorial page.
        ("CD301", "docs/tutorial.md", 9, "run.step"),
        # A YAML config file found by its shape; a broken JSON one.
        ("CD303", "configs/train.yaml", 3, "run.steps"),
        ("CD304", "configs/broken.json", 1, ""),
        # A file `config-files` declares, though it has one top-level key.
        ("CD301", "deploy/settings.json", 1, "run.retries"),
        # Dicts a test hands to a call, directly or through a module-level
        # name; not those in a scope expecting a rejection, nor a dict popped
        # from before use, nor one mostly of another config's keys.
        ("CD302", "tests/test_run.py", 5, "logging.colour"),
        ("CD301", "tests/test_run.py", 14, "run.stpes"),
        ("CD303", "tests/test_run.py", 14, "run.optimizer.lr"),
    }


def test_removed_and_deprecated_keys_from_every_source() -> None:
    findings = _json("lifecycle")["findings"]
    found = {(f["code"], f["path"], f["line"], f["key"]) for f in findings}
    lifecycle = {f for f in found if f[0].startswith("CD4")}
    assert lifecycle == {
        # Leftovers of removed keys: doc entries (registries, the
        # configuration), a sample output, a constant, a stale accessor, a
        # dict the code still writes, a test config. Not the test that
        # expects the rejection, nor the line that tells of the removal.
        ("CD401", "docs/config.md", 7, "sparse_grads"),
        ("CD401", "docs/config.md", 9, "legacy_mode"),
        ("CD401", "docs/config.md", 11, "log_dir"),
        ("CD401", "docs/config.md", 17, "zero.gone"),
        ("CD401", "docs/config.md", 19, "zero.bucket"),
        ("CD401", "docs/tutorial.md", 7, "sparse_grads"),
        ("CD401", "pkg/constants.py", 1, "sparse_grads"),
        ("CD401", "pkg/config.py", 43, "sparse_grads"),
        ("CD401", "pkg/config.py", 46, "sparse_grads"),
        ("CD401", "tests/test_config.py", 7, "sparse_grads"),
        # Half-done removals: still declared (a dict registry), still read.
        ("CD404", "pkg/config.py", 14, "zero.bucket"),
        ("CD404", "pkg/config.py", 25, "legacy_mode"),
        # Deprecated spellings: a registry and a deprecated field; the entry
        # that says it is deprecated and the test of the old spelling are quiet.
        ("CD402", "docs/config.md", 5, "old_batch"),
        ("CD402", "docs/config.md", 28, "old_batch"),
        ("CD402", "docs/config.md", 29, "zero.cpu_offload"),
    }
    suggestions = {f["key"]: f["suggestion"] for f in findings if f["code"] == "CD402"}
    assert suggestions == {"old_batch": "use `batch_size`", "zero.cpu_offload": "use `offload`"}
    # What a leftover does depends on whether the registry is checked on load.
    effects = {
        f["key"]: f["message"].split("sets a key that ", 1)[1]
        for f in findings
        if f["code"] == "CD401" and f["path"] == "docs/config.md"
    }
    assert effects == {
        "sparse_grads": "is rejected on load (_REMOVED_TOP_LEVEL_CONFIG_KEYS is checked)",
        "log_dir": "is silently ignored (nothing checks REMOVED_LOGGING_KEYS on load)",
        "legacy_mode": "is still accepted, as the removal is half done",
        "zero.bucket": "is still accepted, as the removal is half done",
        "zero.gone": "no longer exists",
    }
