"""Settings a django-appconf class declares (upper-case names of an
``AppConf``, prefixed by its ``Meta.prefix``), a settings module's names
that only hold another setting's value, and declared settings nothing
reads."""

from __future__ import annotations

from helpers import by_key, check_project

_CONF = """
from appconf import AppConf
from django.conf import settings


class ShopConf(AppConf):
    ENABLED = True
    TIMEOUT = 30
    RETRIES = 2
    STALE = 5
    SHOPPERS = ("a", "b")
    CONTEXT = {}

    def GET_BACKEND():
        return None

    class Meta:
        prefix = "shop"

    def configure_context(self, value):
        return value or {"STATIC_URL": settings.STATIC_URL}
"""
_USE = """
from django.conf import settings


def run():
    backend = settings.SHOP_GET_BACKEND()
    context = settings.SHOP_CONTEXT
    return settings.SHOP_ENABLED, settings.SHOP_TIMEOUT, settings.SHOPPERS, backend, context
"""
_DOC = """
# Settings

| Setting | Default | Description |
| --- | --- | --- |
| `SHOP_ENABLED` | `True` | The main switch. |
| `SHOP_TIMEOUT` | `60` | Seconds before a request gives up. |
| `SHOP_STALE` | `5` | Seconds a result stays fresh. |
| `SHOP_CONTEXT` | `{"STATIC_URL": "/static/"}` | The context. |
| `SHOP_GET_BACKEND` | | Returns the backend. |
"""


def _check(tmp_path, conf: str = _CONF):
    files = {"shop/__init__.py": "", "shop/conf.py": conf, "shop/use.py": _USE}
    return check_project(tmp_path, {**files, "docs/settings.md": _DOC}, "shop")


def test_an_appconf_class_declares_its_prefixed_settings(tmp_path) -> None:
    analysis, findings = _check(tmp_path)
    surface = next(s for s in analysis.everything if s.surface == "settings object")
    children = surface.schema.children
    # Prefixed, except a name that already begins with the prefix; an
    # upper-case method is a setting too; ``Meta`` and hooks are not.
    assert {
        "SHOP_ENABLED",
        "SHOP_TIMEOUT",
        "SHOP_RETRIES",
        "SHOP_STALE",
        "SHOPPERS",
        "SHOP_CONTEXT",
        "SHOP_GET_BACKEND",
    } == set(children)
    assert children["SHOP_RETRIES"].location.path == "shop/conf.py"
    assert children["SHOP_RETRIES"].location.line == 9
    assert children["SHOP_GET_BACKEND"].location.path == "shop/conf.py"
    found = by_key(findings)
    assert ("CD103", "SHOP_RETRIES") in found
    # Declared by the project's class: its own, though no documented
    # setting begins as it does.
    assert ("CD103", "SHOPPERS") in found
    assert ("CD104", "SHOP_TIMEOUT") in found
    # Documented, declared, and read by nobody.
    assert ("CD202", "SHOP_STALE") in found
    assert ("CD202", "SHOP_RETRIES") in found
    assert not any(key == "SHOP_ENABLED" for _, key in found)
    assert not any(key == "SHOP_GET_BACKEND" for _, key in found)


def test_a_configure_hook_computes_the_default(tmp_path) -> None:
    _, findings = _check(tmp_path)
    assert ("CD104", "SHOP_CONTEXT") not in by_key(findings)
    unhooked = _CONF.replace("def configure_context", "def configure_other")
    _, findings = _check(tmp_path / "unhooked", unhooked)
    assert ("CD104", "SHOP_CONTEXT") in by_key(findings)


def test_without_a_meta_prefix_the_package_names_the_settings(tmp_path) -> None:
    conf = _CONF.replace('    class Meta:\n        prefix = "shop"\n', "")
    analysis, _ = _check(tmp_path, conf)
    surface = next(s for s in analysis.everything if s.surface == "settings object")
    assert "SHOP_RETRIES" in surface.schema.children


def test_a_class_of_upper_case_names_is_no_appconf(tmp_path) -> None:
    conf = _CONF.replace("from appconf import AppConf", "class AppConf:\n    pass\n")
    analysis, _ = _check(tmp_path, conf)
    surface = next(s for s in analysis.everything if s.surface == "settings object")
    assert "SHOP_RETRIES" not in surface.schema.children
    assert "SHOP_STALE" not in surface.schema.children


def test_a_declared_setting_the_code_quotes_may_be_read(tmp_path) -> None:
    use = _USE + '\n\nLATER = ("SHOP_STALE",)\n'
    files = {"shop/__init__.py": "", "shop/conf.py": _CONF, "shop/use.py": use}
    _, findings = check_project(tmp_path, {**files, "docs/settings.md": _DOC}, "shop")
    found = by_key(findings)
    assert ("CD202", "SHOP_STALE") not in found
    assert ("CD202", "SHOP_RETRIES") in found


def test_a_module_name_holding_a_settings_value_is_no_setting(tmp_path) -> None:
    module = """
    from django.conf import settings

    MODEL = getattr(settings, "SHOP_MODEL", "shop.Item")
    TIMEOUT = getattr(settings, "SHOP_TIMEOUT", 60)
    LOCALE = getattr(settings, "SHOP_LOCALE", "en")
    """
    use = """
    from shop import settings


    def model():
        return settings.MODEL, settings.OTHER
    """
    doc = "# Settings\n\n### `SHOP_MODEL`\n\n### `SHOP_TIMEOUT`\n\n### `SHOP_LOCALE`\n"
    files = {"shop/__init__.py": "", "shop/settings.py": module, "shop/use.py": use}
    analysis, findings = check_project(tmp_path, {**files, "docs/settings.md": doc}, "shop")
    surface = next(s for s in analysis.everything if s.surface == "settings object")
    assert "MODEL" not in surface.schema.children
    # A name the module does not assign from a setting is still read by name.
    assert "OTHER" in surface.schema.children
    assert not any(key == "MODEL" for _, key in by_key(findings))
