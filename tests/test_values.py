from __future__ import annotations

import pytest

from configdrift.rules.values import doc_kinds, kinds_compatible, parse_doc_value, values_equal


@pytest.mark.parametrize(
    ("doc", "code", "equal"),
    [
        ("`5e8`", 500000000, True),
        ("500000000", 500000000, True),
        ("5e8", 500000000.0, True),
        ("1,000", 1000, True),
        # Commas between groups of other sizes are a list's, not a number's.
        ("`0,1234,1234`", 12341234, None),
        ("`True`", True, True),
        ("true", True, True),
        ("`false`", True, False),
        ("`1`", True, False),
        ("`0.0`", 0, True),
        ('`"cpu"`', "cpu", True),
        ("cpu", "cpu", True),
        ("CPU", "cpu", True),
        ("cpu", "none", False),
        ("`null`", None, True),
        ("None", 0, False),
        ("`[]`", [], True),
        ("`{}`", {}, True),
        ("`4`", 3, False),
        ("cpu", 3, None),
        ("<i>**train_batch_size**</i> value", 3, None),
        ("-", 3, None),
        ("", 3, None),
        # An address or a version is a word: a string where the code's is.
        ("`127.0.0.1`", "localhost", False),
        ("`127.0.0.1`", "127.0.0.1", True),
        ("0.0.0.0:8000", "0.0.0.0:8000", True),
        ("`1.2.3`", 1.2, None),
        ("`1.2`", 1.2, True),
        # A code span's text is a string where the code's default is one.
        ("`%(name)s] %(message)s`", "[%(name)s] %(message)s", False),
        ("`%(name)s: %(message)s`", "%(name)s: %(message)s", True),
        ("`*.py`", "*.py", True),
        ("`*.py`", 3, None),
        ("the glob *.py", "*.py", None),  # prose, not a span
        # Not the value itself: a placeholder, a variable, an expression,
        # a call, or spaces a markup may keep or drop.
        ("`<dir>/cache`", "/tmp/cache", None),
        ("`$HOME/.cache`", "~/.cache", None),
        ("`{root}/x`", "/x", None),
        ("`os.getcwd()`", ".", None),
        ("`a or b`", "a", None),
        ("``  #``", "  #", None),
        # A remark in parentheses after the value says no more of it.
        ("None (not specified)", [], False),
        ("``None`` (not specified)", None, True),
        ("`30` (seconds)", 30, True),
        ("`30` (seconds)", 60, False),
        ("`30` (60 on Windows)", 60, None),  # another value, in another case
        ("`30` (on Windows)", 60, None),  # a case of its own
        ("`30` (`60` with TLS)", 60, None),
        ("`True` (fallback: `False`)", False, None),  # another value beside
        ("True (fallback False)", False, None),  # another value named
        ("`1` (or none)", None, None),
        ("`auto` (null disables it)", "off", None),
    ],
)
def test_values_are_compared_not_text(doc: str, code: object, equal: bool | None) -> None:
    assert values_equal(parse_doc_value(doc), code) is equal


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("boolean", {"bool"}),
        ("integer", {"int"}),
        ("integer|string", {"int", "str"}),
        ("list of strings", {"list"}),
        ('"Ignore"|"Warn"|"Fail"', {"str"}),
        ("dictionary", {"dict"}),
        ("float or null", {"float", "null"}),
        ("various", None),
        (None, None),
    ],
)
def test_doc_kinds(text: str | None, kinds: set[str] | None) -> None:
    result = doc_kinds(text)
    assert (set(result) if result is not None else None) == kinds


@pytest.mark.parametrize(
    ("doc", "code", "ok"),
    [
        ({"int"}, {"float"}, True),
        ({"float"}, {"int"}, False),
        ({"bool"}, {"int"}, False),
        ({"number"}, {"int"}, True),
        ({"str"}, {"str", "null"}, True),
        ({"dict"}, {"list"}, False),
    ],
)
def test_kinds_compatible(doc: set[str], code: set[str], ok: bool) -> None:
    assert kinds_compatible(frozenset(doc), frozenset(code)) is ok


@pytest.mark.parametrize(
    ("text", "value"),
    [(":code-py:`30`", 30), (':code:`"x"`', "x"), (":py:obj:`False`", False), ("`30`", 30)],
)
def test_a_value_wrapped_in_a_role_is_the_role_s_text(text: str, value: object) -> None:
    parsed = parse_doc_value(text)
    assert parsed.known and parsed.value == value


def test_a_role_around_prose_is_no_value() -> None:
    assert not parse_doc_value(":ref:`the defaults <defaults>`").known
