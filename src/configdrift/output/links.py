"""Where a report links to: configdrift's rule pages (a docs site's base
URL) and the checked files (a repository's files at a commit, for a
report kept as a CI artifact). Only ``http`` and ``https`` URLs: a link
never runs anything in the page that shows it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Links:
    #: The docs site's base URL ("" for none).
    docs: str = ""
    #: The files' base URL ("" for links relative to the report).
    files: str = ""
    #: Print each finding's rule page under it (text).
    show: bool = False


def web_url(text: str) -> str:
    """An ``http(s)://`` URL, for argparse (anything else is a usage error)."""
    import argparse
    from urllib.parse import urlsplit

    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise argparse.ArgumentTypeError(f"not an http(s) URL: {text!r}")
    return text


def rule_url(docs: str, code: str) -> str:
    """The rule's page on the docs site at ``docs`` (MkDocs' URLs)."""
    from urllib.parse import quote

    return f"{docs.rstrip('/')}/rules/{quote(code)}/"


def is_web(base: str) -> bool:
    return base.startswith(("http://", "https://"))


def file_url(base: str, path: str, line: int | None) -> str:
    """``path`` (at ``line``) under the files' base URL."""
    from urllib.parse import quote

    anchor = f"#L{line}" if line else ""
    return f"{base.rstrip('/')}/{quote(path)}{anchor}"
