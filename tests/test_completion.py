"""Shell completion scripts, generated from the parser: bash's is run in
a real bash to see what it completes."""

from __future__ import annotations

import shutil
import subprocess

import pytest


def _complete(cli, tmp_path, *words: str) -> list[str]:
    script = tmp_path / "configdrift.bash"
    script.write_text(cli("completion", "bash").out)
    words_text = " ".join(f"'{w}'" for w in words)
    probe = (
        f"source {script}\n"
        f"COMP_WORDS=({words_text}); COMP_CWORD={len(words) - 1}\n"
        "_configdrift\n"
        'printf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    done = subprocess.run(
        ["bash", "-c", probe], capture_output=True, text=True, cwd=tmp_path, check=True
    )
    return done.stdout.split()


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_bash_completes_commands_options_and_choices(cli, tmp_path) -> None:
    assert "check" in _complete(cli, tmp_path, "configdrift", "ch")
    assert "completion" in _complete(cli, tmp_path, "configdrift", "")
    assert "--fail-on-empty" in _complete(cli, tmp_path, "configdrift", "check", "--fail-on")
    assert _complete(cli, tmp_path, "configdrift", "check", "--format", "s") == ["sarif"]
    # Negative case: another command's option is not offered.
    assert "--fail-under" not in _complete(cli, tmp_path, "configdrift", "check", "--fail")
    assert "--fail-under" in _complete(cli, tmp_path, "configdrift", "coverage", "--fail")


def test_zsh_and_fish_scripts_name_every_command(cli) -> None:
    from configdrift.cli import build_parser
    from configdrift.commands.completion import commands_of

    commands = set(commands_of(build_parser()))
    assert {"check", "map", "completion"} <= commands
    zsh = cli("completion", "zsh").out
    assert zsh.startswith("#compdef configdrift\n") and "bashcompinit" in zsh
    fish = cli("completion", "fish").out
    listed = fish.split("\n")[2].split(" -a ", 1)[1].strip("'").split()
    assert set(listed) == commands
    assert "-l format -xa 'text json sarif github junit html'" in fish
    assert cli("completion", "powershell").code == 2
