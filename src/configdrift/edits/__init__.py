"""Every writer of the docs and examples: one public API for all of them.

- ``pages``: an edit, a plan, a page read once, a file's edits made whole or
  not at all, a diff (the API every writer uses);
- ``entries``: the block of lines a doc entry owns, a value in the page's
  notation;
- ``fix``: the safe fixes of ``configdrift fix`` (CD101, CD104, CD402) and
  the plan of every kind of fix;
- ``renames``: a deprecated key renamed in an example, and the unsafe
  renames to a near spelling (``--unsafe-fixes``);
- ``missing``: an entry for each undocumented key (``--add-missing``);
- ``removal``: the mechanical part of removing a key (``sweep KEY --apply``).

No writer imports another's private names; the command line writes the
files through ``configdrift.files``.
"""
