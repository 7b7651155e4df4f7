"""One key's spellings on each side (``index/spellings.py``): compared
whatever their case and separators, and the affixes of a container's
convention stripped only where nearly all of its keys carry them."""

from __future__ import annotations

from configdrift.index.spellings import bare, normal, shared_affixes

_DYNA = [f"{k}_FOR_DYNACONF" for k in ("AUTO_CAST", "ENV", "MAIN_ENV", "SILENT_ERRORS", "CORE")]


def test_spellings_compare_whatever_their_case_separators_and_dashes() -> None:
    assert normal("--Auto-Cast") == normal("auto_cast") == "auto_cast"
    assert normal("autocast") != normal("auto_cast")


def test_a_suffix_nearly_every_key_carries_is_the_containers_convention() -> None:
    affixes = shared_affixes([*_DYNA, "ROOT_PATH"])  # five of six carry it
    assert affixes == ("", "_FOR_DYNACONF")
    assert bare("MAIN_ENV_FOR_DYNACONF", affixes) == "main_env"
    assert bare("ROOT_PATH", affixes) is None  # it carries none: no alias


def test_a_prefix_is_learned_the_same_way() -> None:
    names = [f"MYAPP_{k}" for k in ("HOST", "PORT", "DEBUG", "LOG_LEVEL", "WORKERS")]
    affixes = shared_affixes(names)
    assert affixes == ("MYAPP_", "")
    assert bare("MYAPP_LOG_LEVEL", affixes) == "log_level"


def test_a_word_some_keys_share_is_no_convention() -> None:
    # Three of six begin with MAX_: a word, not the container's affix.
    names = ["MAX_SIZE", "MAX_AGE", "MAX_DEPTH", "TIMEOUT_S", "RETRY_COUNT", "LOG_LEVEL"]
    assert shared_affixes(names) == ("", "")


def test_too_few_keys_teach_no_affix() -> None:
    assert shared_affixes(_DYNA[:4]) == ("", "")


def test_a_key_that_is_only_the_affix_keeps_its_name() -> None:
    affixes = ("MYAPP_", "")
    assert bare("MYAPP_", affixes) is None
