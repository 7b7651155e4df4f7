"""A page configdrift itself fails on is reported (CD503), whatever it
holds: its own fault never drops a page silently."""

from __future__ import annotations

from helpers import mounted_config


def test_a_page_the_extractor_fails_on_is_a_parse_error(tmp_path, monkeypatch) -> None:
    import configdrift.extract.docs.rst as rst
    from configdrift.config import Config
    from configdrift.engine import analyse
    from configdrift.rules.run import run_rules
    from helpers import make_project

    def fail(self, node, section, depth):
        raise AttributeError("a fault of configdrift's")

    monkeypatch.setattr(rst._Walker, "walk", fail)
    # The page names one of the two keys: a page that could not be read
    # and names fewer is left out, unless the fault is configdrift's own.
    page = f"Options\n=======\n\n``timeout``\n-----------\n\n{tmp_path.name}\n"
    make_project(
        tmp_path,
        {**mounted_config("timeout: int = 1", "debug: bool = False"), "docs/options.rst": page},
    )
    config = Config(root=tmp_path, mount={"": "pkg.config:Config"})
    findings = run_rules(analyse(config, jobs=1, cache=False))
    (error,) = [f for f in findings if f.code == "CD503"]
    assert error.location.path == "docs/options.rst"
    assert "AttributeError: a fault of configdrift's, in configdrift: please report it" in (
        error.message
    )
