"""A small tool's environment variables beside its command line: two of
them documented under a section about the environment make the
environment a configuration of its own (one, for the variables named for
the package); what the code tests for presence
(``"NO_COLOR" in os.environ``) is read; a CI runner's variables and those
an action hands its own steps are not the project's. An undocumented
variable's finding names the other places that read it."""

from __future__ import annotations

from helpers import by_key, check_project

_CLI = """
import os

import click


@click.command()
@click.option("--line-length", default=88, help="How long a line may be.")
@click.option("--check", is_flag=True, help="Only check.")
@click.option("--quiet", is_flag=True, help="Say less.")
def main(line_length, check, quiet):
    cache = os.environ.get("APP_CACHE_DIR", "~/.cache/app")
    workers = os.environ.get("APP_NUM_WORKERS")
    color = "NO_COLOR" not in os.environ
    region = os.environ.get("AWS_REGION")
    sha = os.environ.get("GITHUB_SHA")
    return cache, workers, color, region, sha
"""

_PAGE = """# Usage

### `--line-length`

How long a line may be.

### `--check`

Only check.

### `--quiet`

Say less.

## {title}

### `APP_CACHE_DIR`

Where the cache lives.

### `APP_NUM_WORKERS`

How many workers to start.
"""


def _env(tmp_path, title="Environment variables", files=None):
    analysis, findings = check_project(
        tmp_path,
        {"app/cli.py": _CLI, "docs/usage.md": _PAGE.format(title=title), **(files or {})},
        "app",
    )
    env = next((s for s in analysis.surfaces if s.schema.model_kind == "env"), None)
    return env, by_key(findings)


def test_two_variables_under_an_environment_section_are_a_configuration(tmp_path) -> None:
    env, found = _env(tmp_path)
    assert env is not None
    assert {"APP_CACHE_DIR", "APP_NUM_WORKERS", "NO_COLOR"} <= set(env.schema.children)
    # Read for its presence, documented nowhere: the program's own.
    assert ("CD103", "NO_COLOR") in found
    assert found[("CD103", "NO_COLOR")].location.line == 14


def test_another_programs_variable_stays_unjudged(tmp_path) -> None:
    _, found = _env(tmp_path)
    assert ("CD103", "AWS_REGION") not in found


def test_a_ci_runners_variable_is_not_the_projects(tmp_path) -> None:
    env, _ = _env(tmp_path)
    assert env is not None and "GITHUB_SHA" not in env.schema.children


def test_a_section_about_something_else_is_no_evidence(tmp_path) -> None:
    env, found = _env(tmp_path, title="Caching")
    assert env is None
    assert ("CD103", "NO_COLOR") not in found


def test_one_documented_variable_is_no_evidence(tmp_path) -> None:
    # The package ``tool`` reads APP_ variables: not named for it.
    page = _PAGE.format(title="Environment variables").split("### `APP_NUM_WORKERS`")[0]
    files = {"tool/cli.py": _CLI, "docs/usage.md": page}
    analysis, findings = check_project(tmp_path, files, "tool")
    assert not any(s.schema.model_kind == "env" for s in analysis.surfaces)
    assert ("CD103", "NO_COLOR") not in by_key(findings)
    # In ``app``, the one named is evidence for the others named for it alone.
    files = {"app/cli.py": _CLI, "docs/usage.md": page}
    analysis, findings = check_project(tmp_path / "app", files, "app")
    env = next(s for s in analysis.surfaces if s.schema.model_kind == "env")
    assert set(env.schema.children) == {"APP_CACHE_DIR", "APP_NUM_WORKERS"}
    assert ("CD103", "APP_NUM_WORKERS") in by_key(findings)
    assert ("CD103", "NO_COLOR") not in by_key(findings)


def test_the_variables_an_action_hands_its_steps_are_the_actions(tmp_path) -> None:
    action = (
        "name: app\ninputs:\n  src:\n    description: what to check\n"
        "runs:\n  using: composite\n  steps:\n    - run: python main.py\n"
        "      shell: bash\n      env:\n        OUTPUT_FILE: ${{ inputs.src }}\n"
    )
    script = "import os\nOUT = os.getenv('OUTPUT_FILE', '')\nSRC = os.environ['INPUT_SRC']\n"
    env, found = _env(tmp_path, files={"action.yml": action, "app/action_main.py": script})
    assert env is not None
    assert "OUTPUT_FILE" not in env.schema.children
    assert "INPUT_SRC" not in env.schema.children
    assert ("CD103", "OUTPUT_FILE") not in found


_READS = """
import os

UPGRADE = "APP_NO_UPGRADE"


def get_env_value(name):
    return os.environ.get(name)


def get_env_path(env_name):
    return get_env_value(env_name)


def settings():
    return (
        os.environ.get("APP_CACHE_DIR"),
        os.getenv("APP_NUM_WORKERS"),
        os.getenv(UPGRADE, "0"),
        os.getenv("APP__DOC_HOOK"),
        get_env_path("APP_HOME"),
    )
"""

_READS_PAGE = """# Environment variables

| Variable | Meaning |
| --- | --- |
| `APP_CACHE_DIR` | the cache |
| `APP_NUM_WORKERS` | workers |
| `APP_NO_UPGRADE` | skip upgrades |
| `APP_HOME` | the home |
"""


def _reads(tmp_path):
    analysis, findings = check_project(
        tmp_path, {"app/cli.py": _CLI, "app/env.py": _READS, "docs/env.md": _READS_PAGE}, "app"
    )
    env = next(s for s in analysis.surfaces if s.schema.model_kind == "env")
    return env.schema, by_key(findings)


def test_a_variable_read_through_a_constant_is_read(tmp_path) -> None:
    env, found = _reads(tmp_path)
    assert env.children["APP_NO_UPGRADE"].default.value == "0"
    assert ("CD102", "APP_NO_UPGRADE") not in found


def test_a_variable_named_private_is_no_setting(tmp_path) -> None:
    env, found = _reads(tmp_path)
    assert "APP__DOC_HOOK" not in env.children
    assert ("CD103", "APP__DOC_HOOK") not in found


def test_a_variable_read_by_a_helpers_helper_is_read(tmp_path) -> None:
    # ``get_env_path("APP_HOME")`` reads it through a helper's helper.
    env, found = _reads(tmp_path)
    assert "APP_HOME" in env.children
    assert ("CD102", "APP_HOME") not in found


def test_a_section_on_the_environment_that_lists_other_things_is_no_evidence(tmp_path) -> None:
    # A development environment's tools beside two variables: no list of
    # the program's variables.
    env, _ = _env(tmp_path, title="Development environment")
    assert env is not None  # the two variables alone
    page = _PAGE.format(title="Development environment") + "\n### `tox`\n\nRuns the tests.\n"
    analysis, findings = check_project(
        tmp_path / "tools", {"app/cli.py": _CLI, "docs/usage.md": page}, "app"
    )
    assert not any(s.schema.model_kind == "env" for s in analysis.surfaces)
    assert ("CD103", "NO_COLOR") not in by_key(findings)


def test_an_undocumented_variable_names_every_other_read_of_it(tmp_path) -> None:
    # Read in seven modules: the finding sits at the first, and names
    # five of the other six.
    more = {f"app/part{i}.py": "import os\n\nCOLOR = 'NO_COLOR' in os.environ\n" for i in range(7)}
    _, found = _env(tmp_path, files=more)
    finding = found[("CD103", "NO_COLOR")]
    assert (finding.location.path, finding.location.line) == ("app/cli.py", 14)
    assert [(r.path, r.line) for r in finding.related] == [(f"app/part{i}.py", 3) for i in range(5)]
    assert all(r.note == "the code reads it here too" for r in finding.related)
    # A variable read once names no other place.
    alone = _env(tmp_path / "alone")[1][("CD103", "NO_COLOR")]
    assert alone.related == ()


_ONLY_ENV = """
import os

HOST = os.environ.get("APP_HOST", "localhost")
PORT = int(os.environ.get("APP_PORT", "8080"))
DEBUG = os.environ.get("APP_DEBUG") == "1"
"""


def _only_env(tmp_path, page: str, code: str = _ONLY_ENV):
    return check_project(tmp_path, {"app/main.py": code, "docs/running.md": page}, "app")


def test_a_program_configured_by_its_environment_alone_is_admitted_by_prose(tmp_path) -> None:
    page = "# Running\n\nSet `APP_HOST` to the host to bind and `APP_PORT` to its port.\n"
    analysis, findings = _only_env(tmp_path, page)
    assert analysis.schema.model_kind == "env" and analysis.admitted
    assert by_key(findings)[("CD103", "APP_DEBUG")].location.path == "app/main.py"
    # One variable named is no evidence, nor two of eight, but for one
    # named for the package (then only the package's own are judged).
    one_page = "# Running\n\nSet `APP_HOST` to the host.\n"
    one, _ = _only_env(tmp_path / "one", one_page, _ONLY_ENV.replace("APP_", "WEB_"))
    assert not one.admitted
    own, own_findings = _only_env(tmp_path / "own", one_page)
    assert own.admitted
    assert ("CD103", "APP_DEBUG") in by_key(own_findings)
    web, web_page = _ONLY_ENV.replace("APP_", "WEB_"), page.replace("APP_", "WEB_")
    more = web + "".join(f'X{i} = os.environ.get("WEB_MORE_{i}")\n' for i in range(5))
    few, few_findings = _only_env(tmp_path / "few", web_page, more)
    assert not few.admitted
    assert ("CD103", "WEB_DEBUG") not in by_key(few_findings)
    # Three named are enough, however many the program reads.
    many = web + "".join(f'X{i} = os.environ.get("WEB_MORE_{i}")\n' for i in range(9))
    three = web_page.replace("its port.", "its port, `WEB_MORE_0` more.")
    assert _only_env(tmp_path / "many", three, many)[0].admitted


def test_a_program_whose_pages_list_its_variables_is_judged_by_the_list(tmp_path) -> None:
    # Listed, the variables are compared with the list: APP_DEBUG, read
    # apart in ``tool`` (not named for it), is undocumented all the same.
    code = _ONLY_ENV.replace('DEBUG = os.environ.get("APP_DEBUG") == "1"\n', "")
    page = "# Running\n\n### `APP_HOST`\n\nThe host.\n\n### `APP_PORT`\n\nThe port.\n"
    files = {
        "tool/main.py": code,
        "tool/debug.py": 'import os\n\nDEBUG = os.environ.get("APP_DEBUG") == "1"\n',
        "docs/running.md": page,
    }
    analysis, findings = check_project(tmp_path, files, "tool")
    assert analysis.entries and not analysis.admitted
    assert ("CD103", "APP_DEBUG") in by_key(findings)
