"""What the paragraph just before a code block says of it: that it is a
Sphinx ``conf.py`` fragment ("Add this to your ``conf.py``:"), or in which
language the file it names is written ("You can switch it on in
``pytest.ini``:")."""

from __future__ import annotations

import re

from configdrift.extract.docs.facts import Block

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


#: A lead's last sentence that says the block after it holds the
#: defaults: "The default configuration is as follows:", "Default
#: configuration:", "options with their default values:", "The defaults
#: are:".
_DEFAULTS = re.compile(r"(?i)\bdefaults?\b")
#: Words that say the block shows something else than the defaults: a
#: change of them ("To change the default port, set:", "the deltas from
#: the default configuration:"), or values beside them.
_NOT_DEFAULTS = re.compile(
    r"(?i)\b(?:chang|overrid|instead|customi[sz]|modif|differ|other|delta|updat|replac"
    r"|adjust|tweak|disabl|enabl|switch|turn|reset|extend|add|set\b|not\b|unless|beyond"
    r"|besides|addition|except|without|than|recommend|suggest|run\b|get\b|will\b)"
    r"|n't\b"
)
#: A title a fence gives its block (``yaml title="$ app --cfg job"``).
_TITLE = re.compile(r"""\btitle=(?:"([^"\n]{0,500})"|'([^'\n]{0,500})')""")


def shown_defaults(lead: str, info: str = "") -> str:
    """What a block says of its values: the command line its title gives
    (``title="$ app --cfg job"``: the block is what that command prints),
    prompt and all; ``"stated"`` where the last sentence of the paragraph
    before it says it holds the defaults and leads into it ("The default
    configuration is as follows:") with no word of a change; else ""."""
    title = _TITLE.search(info[:1000])
    command = (title.group(1) or title.group(2) or "") if title is not None else ""
    if command.startswith("$ "):
        return command
    text = lead.rstrip()
    if not text.endswith(":"):
        return ""
    last = re.split(r"(?<=[.!?])\s", text[-2000:])[-1]
    return "stated" if _DEFAULTS.search(last) and not _NOT_DEFAULTS.search(last) else ""


def mark_defaults(blocks: list[Block], lead: str, info: str = "") -> None:
    """Mark the blocks one code block of a page gave with what it says of
    its values (``shown_defaults``)."""
    shown = shown_defaults(lead, info)
    for block in blocks:
        block.defaults = shown
