"""What an option's help text says of it: that it is deprecated, and the
option it names instead (``"Deprecated: use --workers"``). Text alone,
whatever declared the option (a flag, a trait, a field)."""

from __future__ import annotations

import re

#: A help text that says the option is deprecated: it opens so, a line of
#: it does ("Deprecated in 3.0: use x", ``.. deprecated:: 5.3``), a note in
#: brackets ends it ("Remove it. [deprecated: use y]"; not "- 'legacy'
#: (deprecated)" among its values), or a sentence ("This option is
#: deprecated."); never "the deprecated header" nor "will be deprecated".
_DEPRECATED_HELP = re.compile(
    r"\A\W*+deprecated\b|^[ \t.]*+deprecated(?:[ \t]++(?:in|since|as of)\b|[ \t]*+(?:[:.;,(]|$))"
    r"|[\[(][ \t]*+deprecated\b[^\])]{0,200}+[\])][\s.]*+\Z"
    r"|\b(?:this (?:option|flag|setting|argument)|it) is (?:now )?deprecated\b",
    re.IGNORECASE | re.MULTILINE,
)
#: The option a deprecated one names instead (``use Authenticator.admin_users``,
#: "moved to x", "in favor of --player-verbose").
_USE_INSTEAD = re.compile(
    r"\b(?:[Uu]se|[Mm]oved to|[Rr]enamed to|in favou?r of)\s+(?!(?:the|a|an|this)\s)"
    # A quoted name ends with its quote (not `pipenv remove`).
    r"([`'\"]+)?(-{0,2}[A-Za-z_][\w.-]*)(?(1)[`'\"])"
)


def says_deprecated(text: str) -> bool:
    """Does an option's help text say it is deprecated (``_DEPRECATED_HELP``)?"""
    return _DEPRECATED_HELP.search(text) is not None


def replacement_named(text: str) -> str | None:
    """The option a deprecation's text names instead (``use `lint.args```)."""
    moved = _USE_INSTEAD.search(text)
    return moved.group(2).rstrip(".") if moved else None
