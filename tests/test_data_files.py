"""A YAML file of defaults shipped in a package and loaded by its code is
a configuration (resolve/mechanisms/data_files)."""

from __future__ import annotations

from helpers import by_key, check_project

_LOADER = """
import os

import yaml

fn = os.path.join(os.path.dirname(__file__), "pkg.yaml")
with open(fn) as f:
    defaults = yaml.safe_load(f)


def get(key, default=None):
    return defaults.get(key, default)
"""

_DEFAULTS = """temporary-directory: null
tokenize:
  ensure-deterministic: false
array:
  chunk-size: 128MiB
  backend: numpy
  rechunk:
    method: tasks
dataframe:
  backend: pandas
  shuffle:
    method: null
    compression: null
"""

_DOCS = """
Configuration
=============

``array.chunk-size``
   The chunk size.

``array.backend``
   The backend.

``dataframe.backend``
   The backend of dataframes.

``dataframe.shuffle.method``
   How to shuffle.
"""

_READS = """
from pkg import config


def chunks():
    return config.get("array.chunk_size"), config.get("array.backend")


def shuffle():
    return config.get("dataframe.shuffle.method"), config.get("tokenize.ensure-deterministic")
"""


def _files(**extra: str) -> dict[str, str]:
    return {"pkg/config.py": _LOADER, "pkg/pkg.yaml": _DEFAULTS, **extra}


def test_a_defaults_file_the_docs_document_is_a_configuration(tmp_path) -> None:
    analysis, findings = check_project(tmp_path, _files(**{"docs/configuration.rst": _DOCS}), "pkg")
    (surface,) = analysis.surfaces
    assert surface.schema.children["array"].children["chunk-size"].default.value == "128MiB"
    undocumented = {(key, f.location.line) for (code, key), f in by_key(findings).items()}
    # Each at its line of the file; a section whose keys are documented is
    # no key of its own.
    assert undocumented == {
        ("temporary-directory", 1),
        ("tokenize", 2),
        ("array.rechunk", 7),
        ("dataframe.shuffle.compression", 13),
    }


def test_a_page_that_builds_its_reference_from_the_file_documents_it(tmp_path) -> None:
    reference = "Reference\n=========\n\n.. pkg-config-block::\n   :config: ../pkg/pkg.yaml\n"
    files = _files(**{"docs/configuration.rst": _DOCS, "docs/reference.rst": reference})
    analysis, findings = check_project(tmp_path, files, "pkg")
    (surface,) = analysis.surfaces
    assert surface.generated
    assert findings == []


def test_keys_the_code_reads_by_dotted_path_admit_it_without_a_page(tmp_path) -> None:
    analysis, findings = check_project(tmp_path, _files(**{"pkg/use.py": _READS}), "pkg")
    (surface,) = analysis.surfaces
    assert "4 of its keys read by their dotted path" in surface.how  # ``-`` and ``_`` as one
    # No page documents a key under it: each section is reported once.
    assert {key for code, key in by_key(findings) if code == "CD103"} == {
        "temporary-directory",
        "tokenize",
        "array",
        "dataframe",
    }


def test_a_file_no_code_names_or_a_schema_is_no_configuration(tmp_path) -> None:
    unnamed = _LOADER.replace('"pkg.yaml"', '"other.yaml"')
    schema = "$schema: x\nproperties:\n  a: 1\n  b: 2\n  c: 3\n  d: 4\n  e: 5\n"
    for files in (
        {"pkg/config.py": unnamed, "pkg/pkg.yaml": _DEFAULTS},
        {"pkg/config.py": _LOADER, "pkg/pkg.yaml": schema},
    ):
        analysis, _ = check_project(
            tmp_path, {**files, "docs/configuration.rst": _DOCS, "pkg/use.py": _READS}, "pkg"
        )
        assert analysis.surfaces == []


def test_a_file_a_script_of_its_folder_writes_is_no_defaults_file(tmp_path) -> None:
    """``open(HERE / "pkg.yaml", "w")``: the script generates the file (one
    sample of many), it does not load it."""
    writer = 'import yaml\n\nwith open("pkg.yaml", "w") as f:\n    yaml.dump({}, f)\n'
    files = {"pkg/_generate.py": writer, "pkg/pkg.yaml": _DEFAULTS}
    analysis, _ = check_project(tmp_path, {**files, "docs/configuration.rst": _DOCS}, "pkg")
    assert analysis.surfaces == []
    # A script that writes it and code that loads it: a defaults file.
    files["pkg/config.py"] = _LOADER
    analysis, _ = check_project(tmp_path, {**files, "docs/configuration.rst": _DOCS}, "pkg")
    assert len(analysis.surfaces) == 1


def test_a_loaded_file_neither_documented_nor_read_by_path_is_not_admitted(tmp_path) -> None:
    # A logging setup the code loads whole: no page names its keys and no
    # code reads them one by one.
    analysis, findings = check_project(tmp_path, _files(), "pkg")
    assert analysis.surfaces == []
    assert not any(code == "CD103" for code, _ in by_key(findings))


def test_a_toml_or_ini_file_of_defaults_is_read_as_well(tmp_path) -> None:
    toml = (
        'temporary-directory = ""\n\n[array]\nchunk-size = "128MiB"\nbackend = "numpy"\n\n'
        '[dataframe]\nbackend = "pandas"\n\n[dataframe.shuffle]\nmethod = "tasks"\n'
        'compression = "none"\n'
    )
    ini = (
        "[array]\nchunk_size = 128MiB\nbackend = numpy\n\n[dataframe]\nbackend = pandas\n\n"
        "[dataframe.shuffle]\nmethod = tasks\ncompression = none\n"
    )
    # An INI file's values are strings its code converts: no default known.
    for name, text, default in (("pkg.toml", toml, "128MiB"), ("pkg.cfg", ini, None)):
        loader = _LOADER.replace('"pkg.yaml"', f'"{name}"')
        files = {"pkg/config.py": loader, f"pkg/{name}": text, "pkg/use.py": _READS}
        analysis, _ = check_project(tmp_path / name, files, "pkg")
        (surface,) = analysis.surfaces
        array = surface.schema.children["array"].children
        chunk = array.get("chunk-size") or array["chunk_size"]
        assert (chunk.default and chunk.default.value) == default
        assert surface.schema.model == f"pkg/{name}"


_SCHEMA = """$schema: http://json-schema.org/draft-07/schema#
type: object
properties:
  temporary-directory:
    type: [string, 'null']
    description: Where temporary files go.
  tokenize:
    type: object
    properties:
      ensure-deterministic:
        type: boolean
        default: true
        description: Fail when a token is not deterministic.
  array:
    type: object
    properties:
      chunk-size:
        type: string
        description: The chunk size.
      backend:
        type: integer
        description: The backend.
      rechunk:
        type: object
        properties:
          method:
            type: string
            description: How to rechunk.
  dataframe:
    type: object
    properties:
      backend:
        type: string
        description: The backend of dataframes.
      shuffle:
        type: object
        properties:
          method:
            type: [string, 'null']
            description: How to shuffle.
"""

_BLOCK = (
    "Reference\n=========\n\n.. pkg-config-block::\n"
    "   :config: ../pkg/pkg.yaml\n   :schema: ../pkg/pkg-schema.yaml\n"
)


def test_a_reference_built_from_the_file_and_its_schema_is_judged_by_the_schema(
    tmp_path,
) -> None:
    files = _files(**{"pkg/pkg-schema.yaml": _SCHEMA, "docs/reference.rst": _BLOCK})
    analysis, findings = check_project(tmp_path, {**files, "pkg/use.py": _READS}, "pkg")
    (surface,) = analysis.surfaces
    assert [d.path for d in surface.doc_sources] == ["pkg/pkg-schema.yaml"]
    assert [r.path for r in surface.rendering] == ["docs/reference.rst"]
    found = {(code, key): f for (code, key), f in by_key(findings).items() if code != "CD202"}
    # The schema leaves out one key of the file; its default and its type
    # disagree with the file's for two others.
    assert set(found) == {
        ("CD103", "dataframe.shuffle.compression"),
        ("CD104", "tokenize.ensure-deterministic"),
        ("CD105", "array.backend"),
    }
    mismatch = found[("CD104", "tokenize.ensure-deterministic")]
    assert (mismatch.location.path, mismatch.location.line) == ("pkg/pkg-schema.yaml", 10)


def test_a_schema_beside_a_file_no_page_renders_documents_nothing(tmp_path) -> None:
    # Without a directive that names the file, the schema is no page.
    files = _files(**{"pkg/pkg-schema.yaml": _SCHEMA, "pkg/use.py": _READS})
    analysis, findings = check_project(tmp_path, files, "pkg")
    (surface,) = analysis.surfaces
    assert surface.doc_sources == [] and surface.rendering == []
    assert {key for code, key in by_key(findings) if code == "CD103"} == {
        "temporary-directory",
        "tokenize",
        "array",
        "dataframe",
    }


def test_a_key_no_code_names_is_inert_where_the_code_reads_the_file_by_path(tmp_path) -> None:
    reads = _READS + (
        '\n\ndef rechunk():\n    return config.get("array.rechunk")\n'
        '\n\ndef shuffle_option(name):\n    return config.get("dataframe.shuffle." + name)\n'
    )
    _, findings = check_project(tmp_path, _files(**{"pkg/use.py": reads}), "pkg")
    inert = {key: f for (code, key), f in by_key(findings).items() if code == "CD202"}
    # ``array.rechunk`` is read whole, ``dataframe.shuffle.`` completed by
    # the code; ``temporary-directory`` is no dotted path to look for.
    assert set(inert) == {"dataframe.backend"}
    assert (inert["dataframe.backend"].location.path, inert["dataframe.backend"].location.line) == (
        "pkg/pkg.yaml",
        10,
    )
    formatted = reads.replace('"dataframe.shuffle." + name', 'f"dataframe.{name}"')
    _, findings = check_project(tmp_path / "b", _files(**{"pkg/use.py": formatted}), "pkg")
    assert not any(code == "CD202" for code, _ in by_key(findings))


def test_a_file_the_code_names_too_little_of_has_no_inert_key(tmp_path) -> None:
    # Three of seven dotted keys named: the code reads the file some other way.
    reads = 'from pkg import config\n\n\ndef f():\n    return config.get("array.backend"), config.get("dataframe.backend"), config.get("array.chunk-size")\n'
    docs = {"docs/configuration.rst": _DOCS, "pkg/use.py": reads}
    _, findings = check_project(tmp_path, _files(**docs), "pkg")
    assert not any(code == "CD202" for code, _ in by_key(findings))


_LOGGING = """version: 1
disable_existing_loggers: false
formatters:
  simple:
    format: "%(message)s"
handlers:
  console:
    class: logging.StreamHandler
loggers:
  pkg:
    level: INFO
"""

_LOGGING_DOCS = """
Logging
=======

``handlers``
   Where the records go.

``formatters``
   How they are written.

``loggers``
   Which loggers write.
"""


def test_a_logging_configuration_is_the_standard_library_s(tmp_path) -> None:
    # ``logging.config.dictConfig`` reads these keys: the file is no
    # configuration of the project's own, whatever the docs name.
    files = {"pkg/config.py": _LOADER, "pkg/pkg.yaml": _LOGGING, "docs/logging.rst": _LOGGING_DOCS}
    analysis, _ = check_project(tmp_path, files, "pkg")
    assert analysis.surfaces == []
    # A key of the project's own beside them: its file.
    files["pkg/pkg.yaml"] = _LOGGING + "workers: 4\n"
    analysis, _ = check_project(tmp_path / "own", files, "pkg")
    assert len(analysis.surfaces) == 1
    # Without handlers, where a logging configuration sends its records:
    # keys of its own.
    files["pkg/pkg.yaml"] = (
        _LOGGING.replace("handlers:\n  console:\n    class: logging.StreamHandler\n", "")
        + "  other:\n    level: DEBUG\n"
    )
    files["docs/logging.rst"] += "\n``disable_existing_loggers``\n   Whether to.\n"
    analysis, _ = check_project(tmp_path / "words", files, "pkg")
    assert len(analysis.surfaces) == 1


def test_a_file_beside_code_of_no_package_is_no_defaults_file(tmp_path) -> None:
    # A folder of scripts (no ``__init__.py``) that reads a YAML file beside
    # it reads a file of its own, shipped in no package (a site's
    # ``mkdocs.yml`` read by a script at the root).
    files = {"tools/config.py": _LOADER, "tools/pkg.yaml": _DEFAULTS, "tools/use.py": _READS}
    analysis, _ = check_project(tmp_path / "a", {**files, "docs/configuration.rst": _DOCS}, "pkg")
    assert analysis.surfaces == []
    files["tools/__init__.py"] = ""
    analysis, _ = check_project(tmp_path / "b", {**files, "docs/configuration.rst": _DOCS}, "pkg")
    assert len(analysis.surfaces) == 1
