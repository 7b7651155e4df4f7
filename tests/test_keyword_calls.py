"""A function whose keyword arguments build a configuration model: a call
of it in the docs is an example of the model (resolve/mechanisms/
keyword_calls, engine/calls)."""

from __future__ import annotations

from helpers import by_key, check_project

_API = """
from pydantic import BaseModel, ConfigDict, Field


class EngineConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tp_size: int = 1
    dtype: str = "fp32"
    kernel_inject: bool = False
    mp_size: int = Field(1, deprecated="use tp_size instead")


class Plain:
    def __init__(self, **kwargs):
        self.kwargs = kwargs


def init_engine(model, config=None, **kwargs):
    config_dict = dict(config or {})
    config_dict.update(kwargs)
    return model, EngineConfig(**config_dict)


def from_config(model, config):
    return model, EngineConfig(**config)


def make_plain(**kwargs):
    return Plain(**kwargs)
"""

_TUTORIAL = """# Tutorial

```python
import pkg

engine = pkg.init_engine(net, tp_size=2, dtype="fp16", kernel_inject=True)
```

An older way:

```python
engine = pkg.init_engine(model=net, mp_size=2, cache_size=3)
values = torch.tensor(data, dtype=torch.half)
other = pkg.from_config(net, config=settings, cache_size=1)
plain = pkg.make_plain(tp_size=1, dtype="x", kernel_inject=1, cache_size=2)
```
"""


def _files(**extra: str) -> dict[str, str]:
    return {"pkg/__init__.py": "from pkg.api import init_engine\n", "pkg/api.py": _API, **extra}


def test_a_call_of_a_function_building_a_model_from_its_keywords_is_its_example(
    tmp_path,
) -> None:
    analysis, findings = check_project(tmp_path, _files(**{"docs/tutorial.md": _TUTORIAL}), "pkg")
    (surface,) = analysis.surfaces
    assert surface.surface == "init_engine" and surface.schema.model == "EngineConfig"
    found = by_key(findings)
    # The model rejects an unknown keyword and says one is deprecated; the
    # function's own parameter (``model=``) is no key of the model, nor are
    # the keywords of calls of other functions.
    assert set(found) == {("CD301", "cache_size"), ("CD402", "mp_size")}
    rejected = found[("CD301", "cache_size")]
    assert (rejected.location.path, rejected.location.line) == ("docs/tutorial.md", 12)
    assert "the call of `pkg.init_engine`" in rejected.message
    # Known by its calls alone, it is judged on them: no key is
    # undocumented, nothing is inert.
    assert not any(f.code in ("CD103", "CD202") for f in findings)


def test_calls_that_pass_no_model_keys_make_no_surface(tmp_path) -> None:
    # ``from_config`` builds the model from a parameter, not from its
    # keywords; ``Plain`` is no configuration model; a page without calls
    # of ``init_engine`` gives it no evidence.
    page = _TUTORIAL.replace("pkg.init_engine(", "pkg.start(")
    analysis, findings = check_project(tmp_path, _files(**{"docs/tutorial.md": page}), "pkg")
    assert analysis.surfaces == []
    # Only the note that the project declares no configuration at all.
    assert {f.code for f in findings} == {"CD501"}


def test_a_function_passing_its_parameters_to_a_model(tmp_path) -> None:
    api = """
from dataclasses import dataclass, field


@dataclass
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 1
    backlog: int = field(default=64, metadata={"deprecated": True})


def serve(app, host="127.0.0.1", port=8000, workers=1, backlog=64):
    return ServerConfig(host=host, port=port, workers=workers, backlog=backlog)
"""
    page = "# Serving\n\n```python\nserve(app, host='0.0.0.0', port=80, workers=4)\n```\n"
    analysis, _ = check_project(tmp_path, {"pkg/api.py": api, "docs/serve.md": page}, "pkg")
    (surface,) = analysis.surfaces
    assert surface.calls[-1] == "serve" and surface.schema.model == "ServerConfig"
    ((rel, block, path),) = surface.blocks
    assert (rel, path) == ("docs/serve.md", ())
    # ``app`` is the function's own parameter, not passed on.
    assert [k.path for k in block.keys] == [("host",), ("port",), ("workers",)]


def test_calls_are_placed_where_the_root_holds_the_model(tmp_path) -> None:
    page = "# Engine\n\n```python\npkg.init_engine(net, tp_size=2, cach_size=3)\n```\n"
    _, findings = check_project(
        tmp_path,
        _files(**{"docs/engine.md": page}),
        "pkg",
        {"": "pkg.api:EngineConfig"},
    )
    found = by_key(findings)
    assert ("CD301", "cach_size") in found


def test_a_call_of_another_librarys_function_of_that_name_is_no_example(tmp_path) -> None:
    # ``init_engine`` imported from another package: neither evidence for
    # the model nor an example of it.
    other = _TUTORIAL.replace("import pkg\n", "from other_lib import init_engine\n").replace(
        "pkg.init_engine", "init_engine"
    )
    analysis, findings = check_project(tmp_path, _files(**{"docs/tutorial.md": other}), "pkg")
    assert analysis.surfaces == [] and not any(f.code == "CD301" for f in findings)
    own = other.replace("from other_lib import", "from pkg import")
    analysis, _ = check_project(tmp_path / "own", _files(**{"docs/tutorial.md": own}), "pkg")
    assert [s.surface for s in analysis.surfaces] == ["init_engine"]
