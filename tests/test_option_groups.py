"""A click command's options declared by another library's ``@x.option``
decorator beside click's own (click-option-group's ``@optgroup.option``)
are the command's options: documenting them is no error."""

from __future__ import annotations

from helpers import by_key, check_project

_CLI = """
import click
from click_option_group import optgroup


@click.command()
@optgroup.group("Print flags")
@optgroup.option("--print", "print_only", is_flag=True, help="print and exit")
@click.option("--host", default="127.0.0.1", help="the address")
@click.option("--port", type=int, default=8000, help="the port")
@click.option("--workers", type=int, default=1, help="processes")
def main(print_only, host, port, workers):
    return print_only, host, port, workers
"""

_PAGE = """# Command line

| Option | Description |
| --- | --- |
| `--host` | the address |
| `--port` | the port |
| `--workers` | processes |
| `--print` | print the next version and exit |
"""


def _check(tmp_path, cli: str, more: dict[str, str] | None = None):
    files = {"shop/__init__.py": "", "shop/cli.py": cli, "docs/cli.md": _PAGE, **(more or {})}
    analysis, findings = check_project(tmp_path, files, "shop")
    (surface,) = [s for s in analysis.everything if s.schema.model == "the click command"]
    flags = {s for node in surface.schema.walk() for s in node.spellings}
    return flags, by_key(findings)


def test_an_option_of_a_group_beside_clicks_own_is_the_commands(tmp_path) -> None:
    flags, found = _check(tmp_path, _CLI)
    assert {"--print", "--host"} <= flags
    assert ("CD101", "--print") not in found


def test_an_option_decorator_on_a_function_click_does_not_decorate_is_none(tmp_path) -> None:
    """``@tasks.option("--fast")`` on a function with no click option is
    another library's: not the command's."""
    cli = _CLI + (
        "\n\nfrom tasks import tasks\n\n\n"
        '@tasks.option("--fast", is_flag=True)\ndef build(fast):\n    return fast\n'
    )
    flags, _ = _check(tmp_path, cli)
    assert "--print" in flags and "--fast" not in flags


_VERBOSE_PAGE = _PAGE + "| `--verbosity` | how much to say |\n"


def _strict(tmp_path, cli: str) -> tuple[bool | None, dict]:
    files = {"shop/__init__.py": "", "shop/cli.py": cli, "docs/cli.md": _VERBOSE_PAGE}
    analysis, findings = check_project(tmp_path, files, "shop")
    (surface,) = [s for s in analysis.everything if s.schema.model == "the click command"]
    return surface.schema.strict, by_key(findings)


def test_another_librarys_decorator_that_adds_options_opens_the_command(tmp_path) -> None:
    """``@click_log.simple_verbosity_option(logger)`` adds ``--verbosity``,
    which no call here declares: a documented flag the code does not show
    may be that one."""
    cli = _CLI.replace(
        "@click.command()\n",
        "@click.command()\n@click_log.simple_verbosity_option(logger)\n",
    ).replace("import click\n", "import click\nimport click_log\n")
    strict, found = _strict(tmp_path, cli)
    assert strict is None
    assert ("CD101", "--verbosity") not in found
    # Applied by a decorator of the project's to the function it wraps.
    wrapped = _CLI.replace("import click\n", "import functools\n\nimport click\nimport click_log\n")
    wrapped = wrapped.replace(
        "\n\n@click.command()",
        "\n\ndef common(func):\n    @functools.wraps(func)\n"
        "    @click_log.simple_verbosity_option(logger)\n"
        "    def inner(*args, **kwargs):\n        return func(*args, **kwargs)\n\n"
        "    return inner\n\n\n@click.command()\n@common",
        1,
    )
    assert _strict(tmp_path, wrapped)[0] is None
    # One whose origin cannot be told (an object built at run time) may
    # add them too.
    built = cli.replace("import click_log\n", "import click_log\n\ntools = load_tools()\n").replace(
        "@click_log.simple_verbosity_option", "@tools.simple_verbosity_option"
    )
    assert _strict(tmp_path, built)[0] is None
    # click's own decorators add the flags their names say; the project's
    # own ``*_option`` declares what the project shows.
    for deco, imports in (
        ("@click.password_option()\n", ""),
        ("@common_option\n", "def common_option(f):\n    return f\n\n\n"),
    ):
        own = _CLI.replace("@click.command()\n", "@click.command()\n" + deco).replace(
            "\n\n@click.command()", "\n\n" + imports + "@click.command()", 1
        )
        strict, found = _strict(tmp_path, own)
        assert strict is True, deco
        assert ("CD101", "--verbosity") in found


_WRAPPED = """
import click


def option(*decls, **attrs):
    attrs.setdefault("show_default", True)
    return click.option(*decls, **attrs)


@click.command()
@option("--host", default="127.0.0.1", help="the address")
@option("--port", type=int, default=8000, help="the port")
@option("--workers", type=int, default=1, help="processes")
def main(host, port, workers):
    return host, port, workers
"""

#: A function named ``option`` beside one that returns click's: its own
#: result is no option of click's.
_OTHER = """
import click


def option(*decls, **attrs):
    return dict(decls=decls, **attrs)


def click_option(*decls, **attrs):
    return click.option(*decls, **attrs)
"""


def test_a_function_of_the_projects_that_returns_clicks_option_declares_one(tmp_path) -> None:
    """``def option(*decls, **attrs): return click.option(*decls, **attrs)``
    used as the decorator: each call is one of the command's options; a
    function of that name returning something else declares none."""
    cli = _WRAPPED + (
        "\n\nfrom shop import other\n\n\n"
        "@other.option('--print', help='print')\ndef build():\n    return 1\n"
    )
    flags, found = _check(tmp_path, cli, {"shop/other.py": _OTHER})
    assert {"--host", "--port", "--workers"} <= flags and "--print" not in flags
    assert ("CD101", "--print") in found
