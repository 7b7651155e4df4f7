"""One page documents three configurations (a settings class, a YAML file
loaded into a dataclass, a command line): each section is judged against
its own surface, and ``check``, ``map`` and ``coverage`` agree on it."""

from __future__ import annotations

import json

from conftest import FIXTURES, run_cli

ROOT = FIXTURES / "one_page"
PAGE = "docs/configuration.md"


def _json(*argv: str) -> dict:
    return json.loads(run_cli(*argv, str(ROOT), "--format", "json", "--jobs", "1").out)


def test_each_planted_drift_is_found_under_its_own_surface() -> None:
    found = {(f["surface"], f["code"], f["key"]) for f in _json("check")["findings"]}
    assert found == {
        ("settings", "CD104", "request_timeout"),
        ("settings", "CD101", "cache_ttl"),  # the class forbids extra keys
        ("CatalogConfig", "CD104", "page_size"),
        ("CatalogConfig", "CD101", "sort_order"),
        ("CatalogConfig", "CD301", "show_out_of_stok"),
        ("cli", "CD104", "--port"),
        ("cli", "CD101", "--access-log"),
    }


def test_map_places_each_section_on_one_surface_and_coverage_agrees() -> None:
    (project,) = _json("map")["projects"]
    judged = {
        surface["name"]: [
            s["title"] for s in surface["sections"] if not s["how"].startswith("not this")
        ]
        for surface in project["surfaces"]
    }
    assert judged == {
        "settings": ["Settings"],
        "CatalogConfig": ["Catalog file"],
        "cli": ["Command line"],
    }
    (covered,) = _json("coverage")["projects"]
    by_name = {s["name"]: s for s in covered["surfaces"]}
    for surface in project["surfaces"]:
        shown = by_name[surface["name"]]
        # The entries map places on a surface are those coverage counts.
        assert surface["evidence"]["documented"] == shown["entries"] == 5
        assert surface["evidence"]["keys"] == shown["accepted"] == 4
        assert shown["documented_share"] == 100.0 and shown["undocumented"] == []


def test_map_unread_lists_reference_like_pages_no_surface_reads(tmp_path) -> None:
    import shutil

    root = tmp_path / "shop"
    shutil.copytree(ROOT, root)
    docs = root / "docs"
    (docs / "reference").mkdir()
    # A reference page of a layout no markup reads, one whose keys are no
    # configuration's, and a page whose name says nothing of configuration.
    (docs / "reference" / "options.md").write_text(
        "# Options\n\nEvery option is described in the table of the settings page.\n"
    )
    (docs / "reference" / "plugins.md").write_text(
        "# Plugins\n\n- `alpha`: one.\n- `beta`: two.\n- `gamma`: three.\n"
        "\nAlso `database_url`, `debug` and `currency`.\n"
    )
    (docs / "changelog.md").write_text("# Changes\n\nNothing about options.\n")
    result = run_cli("map", str(root), "--unread", "--format", "json", "--jobs", "1")
    (project,) = json.loads(result.out)["projects"]
    unread = {page["path"].rsplit("docs/", 1)[1]: page["reason"] for page in project["unread"]}
    assert unread == {
        "reference/options.md": "not parsed: it names too few keys of any configuration",
        "reference/plugins.md": "3 entries, none of them a key of a configuration found",
    }
    text = run_cli("map", str(root), "--unread", "--jobs", "1").out
    assert "Pages that look like configuration references, not read:" in text
    # Without the flag, nothing of it.
    assert "unread" not in json.loads(_json_map(root))["projects"][0]


def _json_map(root) -> str:
    return run_cli("map", str(root), "--format", "json", "--jobs", "1").out
