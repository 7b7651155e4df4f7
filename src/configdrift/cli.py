"""Command line: each subcommand parses arguments and calls a library function."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, NoReturn

from configdrift.commands import COMMANDS
from configdrift.commands.common import EXIT_CODES, ExitCode
from configdrift.version import __version__

if TYPE_CHECKING:
    pass


_EPILOG = (
    """examples:
  configdrift check                       check the project here
  configdrift map                         show the surfaces, config tree and doc sections found
  configdrift init                        write what was found into pyproject.toml
  configdrift rule CD101                  explain a rule

"""
    + EXIT_CODES
    + "\nRun `configdrift COMMAND --help` for a command's options."
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="configdrift",
        description="Keep config docs, config schema and the code that reads config in agreement.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"configdrift {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    for module in COMMANDS:
        module.register(sub)
    # ``completion`` reads the whole command line from the parser itself.
    parser.set_defaults(root_parser=parser)
    return parser


def main(argv: list[str] | None = None) -> int:
    # A short run over data without reference cycles (parse trees, facts,
    # schema nodes): reference counting frees what is dropped, and the cyclic
    # collector's passes over millions of live objects would only cost time.
    import gc

    collecting = gc.isenabled()
    gc.disable()
    try:
        return _main(argv)
    finally:
        if collecting:
            # Called in process (tests, a harness): the caller's collector,
            # which frees the parse trees' cycles, works again.
            gc.enable()


def _main(argv: list[str] | None) -> int:
    for stream in (sys.stdout, sys.stderr):
        # A file name that is not UTF-8 (kept as surrogates) or a terminal
        # that cannot show a character is escaped, never an error mid-report.
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    try:
        return _dispatch(argv)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BrokenPipeError:
        # The reader went away (``configdrift map | head``): not an error of ours.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return ExitCode.OK
    except Exception as exc:
        if os.environ.get("CONFIGDRIFT_DEBUG"):
            raise
        from configdrift.escape import printable
        from configdrift.files import last_read
        from configdrift.wording import exception_message

        where = f" (last file read: {last_read()})" if last_read() else ""
        message = exception_message(exc)
        said = f": {message}" if message else ""
        print(
            printable(f"configdrift: internal error, a bug: {type(exc).__name__}{said}{where}; ")
            + "please report it (CONFIGDRIFT_DEBUG=1 shows the traceback)",
            file=sys.stderr,
        )
        return ExitCode.INTERNAL


def run() -> NoReturn:
    """The console entry point: ``main``, its output flushed, then a hard exit.

    A large project leaves millions of small objects behind (parse facts,
    schema nodes); freeing them one by one at interpreter exit takes a tenth
    of a second and serves nothing once the output is written. The pool and
    the cache are closed inside ``main``. (mypy ends its runs the same way.)
    Tests call ``main``, which returns.
    """
    code = main()  # a SystemExit (``--help``, a usage error) exits normally
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (BrokenPipeError, ValueError):
        pass  # the reader went away, or the stream is closed: nothing to write
    os._exit(code)


def _dispatch(argv: list[str] | None) -> int:
    import contextlib

    from configdrift import git
    from configdrift.escape import Guarded, for_format

    git.new_run()
    args = build_parser().parse_args(argv)
    # Everything printed passes a guard (escape.py): no line of the
    # tree's text can forge a line, a workflow command or a terminal's
    # display. The GitHub format's own lines are commands by design.
    report = not getattr(args, "output_file", None)
    out = for_format(sys.stdout, getattr(args, "output_format", "text"), report=report)
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(Guarded(sys.stderr)):
        return int(args.run(args))


if __name__ == "__main__":
    sys.exit(main())
