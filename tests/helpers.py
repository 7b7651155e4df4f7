from __future__ import annotations

import textwrap
from pathlib import Path


def make_project(root: Path, files: dict[str, str]) -> Path:
    """Write a small project (with its own pyproject.toml boundary)."""
    files = {"pyproject.toml": '[project]\nname = "t"\n', **files}
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root
