"""A section whose list names (nearly) every key of a configuration beside
the first documents it, though the list names other things too: the
values of a key in items under it (``* `alias_type`: one of`` then ``*
`symlink` ...``). Short of nine tenths of the keys, or where the other
names outnumber the keys, the section is no reference of it; another
section's list on the page is none either."""

from __future__ import annotations

from helpers import check_project

_KEYS = ("alias_type", "redirect_template", "deploy_prefix", "canonical_version")
_MORE = ("version_selector", "css_dir", "javascript_dir")

_PLUGIN = (
    "from mkdocs.config import config_options as opts\n"
    "from mkdocs.plugins import BasePlugin\n\n\n"
    "class ShopPlugin(BasePlugin):\n"
    "    config_scheme = (\n"
    + "".join(f"        ('{key}', opts.Type(str, default='')),\n" for key in _KEYS + _MORE)
    + "    )\n\n"
    "    def on_config(self, config):\n"
    "        return self.config['alias_type'], self.config['css_dir']\n"
)


def _readme(
    keys: tuple[str, ...], values: tuple[str, ...] = ("symlink", "redirect", "copy")
) -> str:
    items = [f"* `{keys[0]}`: how aliases are made; one of:\n"]
    items += [f"  * `{value}`: a way to make one\n" for value in values]
    items += [f"* `{key}`: a setting\n" for key in keys[1:]]
    return "# shop\n\n## Configuration\n\n" + "".join(items)


def _surface(tmp_path, readme: str):
    analysis, _ = check_project(tmp_path, {"shop/plugin.py": _PLUGIN, "README.md": readme}, "shop")
    everything = [analysis, *analysis.surfaces]
    return next((a for a in everything if a.schema.model == "ShopPlugin"), None)


def test_a_list_of_every_key_documents_the_configuration(tmp_path) -> None:
    surface = _surface(tmp_path, _readme(_KEYS + _MORE))
    assert surface is not None
    assert [d.path for d in surface.doc_sources] == ["README.md"]
    assert {e.name for e in surface.entries} >= set(_KEYS + _MORE)


def test_a_list_short_of_nine_tenths_of_the_keys_is_no_reference(tmp_path) -> None:
    surface = _surface(tmp_path, _readme(_KEYS + _MORE[:2]))
    assert surface is None or not surface.doc_sources


def test_a_list_of_more_other_names_than_keys_is_no_reference(tmp_path) -> None:
    values = tuple(f"way{i}" for i in range(8))
    surface = _surface(tmp_path, _readme(_KEYS + _MORE, values))
    assert surface is None or not surface.doc_sources


def test_only_the_section_that_lists_the_keys_is_read(tmp_path) -> None:
    # Another section's list (the options of a block) is no entry of it.
    readme = _readme(_KEYS + _MORE) + "\n## Blocks\n\n* `handler`: a block's handler\n"
    surface = _surface(tmp_path, readme)
    assert surface is not None
    assert "handler" not in {e.name for e in surface.entries}
    _, findings = check_project(
        tmp_path / "again", {"shop/plugin.py": _PLUGIN, "README.md": readme}, "shop"
    )
    assert not [f for f in findings if f.code == "CD101"]
