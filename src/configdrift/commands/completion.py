"""``configdrift completion bash|zsh|fish``: a shell completion script,
generated from the command line's own parser (commands, their options, and
the values of options that take a choice), so that it never falls behind.

    configdrift completion bash > ~/.local/share/bash-completion/completions/configdrift
    configdrift completion zsh > "${fpath[1]}/_configdrift"
    configdrift completion fish > ~/.config/fish/completions/configdrift.fish
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, TextIO

from configdrift.commands.common import ExitCode

if TYPE_CHECKING:
    from configdrift.commands.common import Subparsers

SHELLS = ("bash", "zsh", "fish")

#: Per command: its options, and the choices of those that take one.
Spec = dict[str, tuple[list[str], dict[str, list[str]]]]


def commands_of(parser: argparse.ArgumentParser) -> Spec:
    """Each command's option strings and the choices of its options."""
    spec: Spec = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                options: list[str] = []
                choices: dict[str, list[str]] = {}
                for option in sub._actions:
                    options += option.option_strings
                    if option.option_strings and option.choices:
                        for flag in option.option_strings:
                            choices[flag] = [str(c) for c in option.choices]
                spec[name] = (options, choices)
    return spec


def completion(shell: str, parser: argparse.ArgumentParser, *, out: TextIO | None = None) -> int:
    """Print the completion script of ``shell``."""
    spec = commands_of(parser)
    script = {"bash": _bash, "zsh": _zsh, "fish": _fish}[shell](spec)
    (out or sys.stdout).write(script)
    return ExitCode.OK


def _bash(spec: Spec) -> str:
    cases = []
    for name, (options, choices) in spec.items():
        values = "".join(
            f'                {flag}) COMPREPLY=($(compgen -W "{" ".join(vals)}" -- "$cur")); return;;\n'
            for flag, vals in choices.items()
        )
        cases.append(
            f"        {name})\n"
            f'            case "$prev" in\n{values}            esac\n'
            f'            opts="{" ".join(options)}";;\n'
        )
    return (
        "# bash completion for configdrift (configdrift completion bash)\n"
        "_configdrift() {\n"
        '    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" opts\n'
        '    if [ "$COMP_CWORD" -eq 1 ]; then\n'
        f'        COMPREPLY=($(compgen -W "{" ".join(spec)} --help --version" -- "$cur"))\n'
        "        return\n"
        "    fi\n"
        '    case "${COMP_WORDS[1]}" in\n' + "".join(cases) + "    esac\n"
        '    if [[ "$cur" == -* ]]; then\n'
        '        COMPREPLY=($(compgen -W "$opts" -- "$cur"))\n'
        "    else\n"
        '        COMPREPLY=($(compgen -f -- "$cur"))\n'
        "    fi\n"
        "}\n"
        "complete -o filenames -F _configdrift configdrift\n"
    )


def _zsh(spec: Spec) -> str:
    # zsh runs the bash script through its bash completion layer.
    return (
        "#compdef configdrift\n"
        "# zsh completion for configdrift (configdrift completion zsh)\n"
        "autoload -U +X bashcompinit && bashcompinit\n" + _bash(spec)
    )


def _fish(spec: Spec) -> str:
    lines = [
        "# fish completion for configdrift (configdrift completion fish)",
        "complete -c configdrift -f",
        f"complete -c configdrift -n __fish_use_subcommand -a '{' '.join(spec)}'",
    ]
    for name, (options, choices) in spec.items():
        seen = f"-n '__fish_seen_subcommand_from {name}'"
        for flag in options:
            if not flag.startswith("--"):
                continue
            values = f" -xa '{' '.join(choices[flag])}'" if flag in choices else ""
            lines.append(f"complete -c configdrift {seen} -l {flag[2:]}{values}")
        lines.append(f"complete -c configdrift {seen} -F")
    return "\n".join(lines) + "\n"


def register(sub: Subparsers) -> None:
    """``completion SHELL``, with its argument."""
    p_completion = sub.add_parser(
        "completion",
        help="print a shell completion script (bash, zsh or fish)",
        description="Print a completion script for the shell, generated from the "
        "command line's own options. bash: `configdrift completion bash > "
        "~/.local/share/bash-completion/completions/configdrift`; zsh: `configdrift "
        'completion zsh > "${fpath[1]}/_configdrift"`; fish: `configdrift completion fish '
        "> ~/.config/fish/completions/configdrift.fish`.",
    )
    p_completion.add_argument("shell", choices=SHELLS, help="the shell")
    p_completion.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    return completion(args.shell, args.root_parser)
