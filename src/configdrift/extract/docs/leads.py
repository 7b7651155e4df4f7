"""What the paragraph just before a code block says of it: that it is a
Sphinx ``conf.py`` fragment ("Add this to your ``conf.py``:"), or in which
language the file it names is written ("You can switch it on in
``pytest.ini``:")."""

from __future__ import annotations

import re

#: Where a paragraph sends the reader to a Sphinx ``conf.py``.
_CONF_PY = re.compile(r"\bconf\.py\b")


def leads_to_conf(text: str) -> bool:
    """Does a paragraph name ``conf.py`` and end with a colon ("Add this to
    your `conf.py`:"), leading into the block after it?"""
    text = text.rstrip()
    return text.endswith(":") and _CONF_PY.search(text) is not None


#: A config file a lead names (``pytest.ini``, ``.coveragerc``) or the
#: format it names in capitals ("this YAML"), by the language it gives.
_LEAD_FILE = re.compile(
    r"(?<![\w/.-])[\w.-]{0,60}?\.(ini|cfg|toml|ya?ml|json)\b|(?<![\w/.-])\.\w{1,30}(rc)\b"
    r"|\b(INI|TOML|YAML|JSON)\b"
)
_LEAD_LANGS = {"cfg": "ini", "rc": "ini", "yml": "yaml"}


def lead_language(text: str) -> str:
    """The language of an untagged block a paragraph leads into ("You can
    switch it on in `pytest.ini`:", "add this to your ``.coveragerc``:",
    "This YAML example:"): that of the config files its last sentence
    names, by their suffix, or of the format it names, where they all
    agree; "" for any other paragraph."""
    text = text.rstrip()
    if not text.endswith(":"):
        return ""
    last = re.split(r"(?<=[.!?])\s", text[-2000:])[-1]
    named = {
        _LEAD_LANGS.get(lang, lang)
        for match in _LEAD_FILE.finditer(last)
        for lang in [(match.group(1) or match.group(2) or match.group(3)).lower()]
    }
    return named.pop() if len(named) == 1 else ""
