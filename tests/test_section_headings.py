"""A page's sections headed by an INI section in code (``## `[database]```)
document that section's keys, whatever an example block at the section's
end sets: a key table under ``[database]`` is never taken for
``[server]``'s."""

from __future__ import annotations

from helpers import by_key, check_project

_CODE = """
import tomllib


def read_settings(path):
    with open(path, "rb") as f:
        return tomllib.load(f)


def serve(path):
    cfg = read_settings(path)
    server = cfg.get("server", {})
    host = server.get("host", "127.0.0.1")
    port = server.get("port", 8080)
    workers = server.get("workers", 2)
    db = cfg.get("database", {})
    return host, port, workers, db.get("url", "sqlite://"), db.get("pool_size", 5)
"""

_PAGE = """# Configuration

## `[server]`

| Key | Default | Description |
| --- | --- | --- |
| `host` | `127.0.0.1` | Address to bind |
| `port` | `8000` | Port |
| `workers` | `2` | Worker processes |

## `[database]`

| Key | Default | Description |
| --- | --- | --- |
| `url` | `sqlite://` | Database URL |
| `pool_size` | `5` | Connections |

```toml
[server]
host = "0.0.0.0"
```
"""


def test_a_section_headed_by_its_ini_name_in_code_is_that_section(tmp_path) -> None:
    _, findings = check_project(
        tmp_path, {"srv/settings.py": _CODE, "docs/config.md": _PAGE}, "srv"
    )
    found = by_key(findings)
    assert ("CD104", "server.port") in found
    assert not [k for k in found if k[0] in ("CD102", "CD103")]
