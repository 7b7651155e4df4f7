"""What parsing a Markdown page may cost: markdown-it looks for a link's
end from each ``[``, so a page of many brackets takes time that grows with
their square; such lines are blanked first (``inert_brackets``), and a
large page mostly of markup is not parsed (``markup_share``)."""

from __future__ import annotations

#: Opening brackets a page may hold before those of bracket-heavy lines are
#: escaped: markdown-it looks for a link's end from each ``[``, so a page of
#: many takes time that grows with their square.
MAX_BRACKETS = 5_000


#: A line outside code with more ``[`` than this is no prose with links.
BRACKETS_PER_LINE = 8


#: Pages larger than this are tested for their share of markup characters.
DENSE_PAGE = 200_000


def markup_share(text: str) -> float:
    return sum(text.count(c) for c in "<&\\[]!*_`") / max(1, len(text))


def inert_brackets(text: str) -> str:
    """The page with the ``[`` of bracket-heavy lines outside code blocks
    blanked: no link can start there, and parsing stays linear (an escaped
    bracket would still cost a token each)."""
    out: list[str] = []
    fence = ""
    for line in text.split("\n"):
        stripped = line.lstrip()
        marker = stripped[:3]
        if marker in ("```", "~~~"):
            fence = "" if fence and marker == fence else fence or marker
        elif not fence and line.count("[") > BRACKETS_PER_LINE:
            line = line.replace("[", " ")
        out.append(line)
    return "\n".join(out)
