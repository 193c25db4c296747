"""The kinds of answer a grader compares, as the app's src/engine/data/answers/answerFormKinds.ts: a number, an
expression, a relation, a tuple or interval, a list or set (named: "x=1, y=2"), a union, a matrix, or text;
each with its canonical key (answer_form.py reads them)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, List, Optional

from ..js import WS_SET
from .math_eval import variables
from .rational import Rational, rational_key


@dataclass
class Form:
    kind: str  # number, expr, text, tuple, list, union, matrix, relation
    key: str
    value: Optional[Rational] = None  # number
    node: Optional[tuple] = None  # expr
    items: List["Form"] = field(default_factory=list)  # tuple, list, union
    names: Optional[List[str]] = None  # list: a named tuple's names
    open: str = ""  # tuple
    close: str = ""
    rows: List[List["Form"]] = field(default_factory=list)  # matrix
    op: str = ""  # relation
    lhs: Optional["Form"] = None
    rhs: Optional["Form"] = None
    named: bool = False


# Reads a part of an answer (an element, a side) one level deeper.
Reader = Callable[[str, int], Optional[Form]]


def number_form(value: Rational) -> Form:
    return Form("number", rational_key(value), value=value)


def is_constant(f: Form) -> bool:
    """A number, an expression without variables, or a collection of those."""
    if f.kind == "number":
        return True
    if f.kind == "expr":
        return len(variables(f.node)) == 0
    if f.kind in ("tuple", "list", "union"):
        return all(is_constant(x) for x in f.items)
    if f.kind == "matrix":
        return all(is_constant(c) for r in f.rows for c in r)
    return False


def _is_letter(c: Optional[str]) -> bool:
    return c is not None and (("a" <= c <= "z") or ("A" <= c <= "Z"))


def compact(s: str) -> str:
    """Whitespace removed, except that a command and a letter after a space stay apart ("\\sin x" → "\\sin{x}")."""
    out: List[str] = []
    length = 0  # characters in out
    command_end = -1
    i = 0
    n = len(s)
    while i < n:
        c = s[i]
        if c == "\\" and _is_letter(s[i + 1] if i + 1 < n else None):
            j = i + 1
            while j < n and _is_letter(s[j]):
                j += 1
            out.append(s[i:j])
            length += j - i
            command_end = length
            i = j
        elif c in WS_SET:
            j = i
            while j < n and s[j] in WS_SET:
                j += 1
            if command_end == length and _is_letter(s[j] if j < n else None):
                out.append("{" + s[j] + "}")
                length += 3
                j += 1
            i = j
        else:
            out.append(c)
            length += 1
            i += 1
    return "".join(out)
