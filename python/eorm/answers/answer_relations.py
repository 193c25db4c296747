"""Answers with a relation, as the app's src/engine/data/answers/answerRelations.ts: "x = 5" and "|AB| = 1" are their
value; "y = 2x + 1", "34x+45y-20z+100=0" and "x \\geq 5" are relations ("a > b" read as "b < a"); "-2 \\le x \\le
7" is the interval [-2, 7]; "1 \\pm \\sqrt{19}" is the set of its two values."""
from __future__ import annotations

from typing import List, Optional, Tuple

from .answer_form_kinds import Form, Reader, is_constant
from .answer_split import is_name, split_top
from ..js import trim
from ..js_regex import js_re

_COMMANDS = {"leq": "<=", "le": "<=", "leqslant": "<=", "geq": ">=", "ge": ">=", "geqslant": ">=", "neq": "!=", "ne": "!=", "lt": "<", "gt": ">"}
_FACTORIAL_BEFORE = js_re(r"[\d)}]")


def _is_letter(c: Optional[str]) -> bool:
    return c is not None and (("a" <= c <= "z") or ("A" <= c <= "Z"))


def _relation_at(s: str, i: int) -> Optional[Tuple[str, int]]:
    c = s[i]
    nxt = s[i + 1] if i + 1 < len(s) else None
    if c in ("<", ">"):
        return (c + "=", 2) if nxt == "=" else (c, 1)
    if c == "=":
        return ("=", 1)
    if c == "!" and nxt == "=" and not (i > 0 and _FACTORIAL_BEFORE.match(s[i - 1])):
        return ("!=", 2)
    if c != "\\":
        return None
    j = i + 1
    while j < len(s) and j - i <= 10 and _is_letter(s[j]):
        j += 1
    op = _COMMANDS.get(s[i + 1 : j])
    return None if op is None or _is_letter(s[j] if j < len(s) else None) else (op, j - i)


def _side(s: str, depth: int, read: Reader) -> Optional[Form]:
    f = None if trim(s) == "" else read(trim(s), depth + 1)
    return f if f is not None and f.kind in ("number", "expr", "text") else None


def _relation(op: str, lhs: Form, rhs: Form, named: bool) -> Form:
    return Form("relation", lhs.key + op + rhs.key, op=op, lhs=lhs, rhs=rhs, named=named)


def _chained(parts: List[str], ops: List[str], depth: int, read: Reader) -> Optional[Form]:
    up = all(o in ("<", "<=") for o in ops)
    if not up and not all(o in (">", ">=") for o in ops):
        return None
    low, high = (parts[0], parts[2]) if up else (parts[2], parts[0])
    first, second = (ops[0], ops[1]) if up else (ops[1], ops[0])
    a = _side(low, depth, read)
    b = _side(high, depth, read)
    if a is None or b is None or not is_constant(a) or not is_constant(b) or trim(parts[1]) == "":
        return None
    open_, close = ("(" if len(first) == 1 else "["), (")" if len(second) == 1 else "]")
    return Form("tuple", f"{open_}{a.key},{b.key}{close}", items=[a, b], open=open_, close=close)


def relation_form(t: str, depth: int, read: Reader) -> Optional[Form]:
    """The form of an answer with one relation (or a chain of two inequalities), or None."""
    ops: List[str] = []

    def sep(s: str, i: int) -> int:
        r = _relation_at(s, i)
        if r is None:
            return 0
        ops.append(r[0])
        return r[1]

    parts = split_top(t, sep)
    if len(ops) == 2:
        return _chained(parts, ops, depth, read)
    if len(ops) != 1:
        return None
    lhs, rhs = parts
    op = ops[0]
    if op == "=" and is_name(lhs):
        value = None if trim(rhs) == "" else read(trim(rhs), depth + 1)
        name = None if value is None else read(trim(lhs), depth + 1)
        if value is None or name is None:
            return None
        return value if is_constant(value) else _relation("=", name, value, True)
    if op in (">", ">="):
        lhs, rhs, op = rhs, lhs, "<" if op == ">" else "<="
    a = _side(lhs, depth, read)
    b = _side(rhs, depth, read)
    return None if a is None or b is None else _relation(op, a, b, False)


_PLUS_MINUS = js_re(r"\\(?:pm|mp)(?![A-Za-z])")


def plus_minus_form(t: str, depth: int, read: Reader) -> Optional[Form]:
    """"1 \\pm \\sqrt{19}": the set of its two values; only with one ±."""
    found = list(_PLUS_MINUS.finditer(t))
    if len(found) != 1:
        return None
    at, end = found[0].start(), found[0].end()
    a = read(t[:at] + "+" + t[end:], depth + 1)
    b = read(t[:at] + "-" + t[end:], depth + 1)
    if a is None or b is None:
        return None
    items = sorted([a, b], key=lambda f: f.key.encode("utf-16-be", "surrogatepass"))
    return Form("list", ",".join(f.key for f in items), items=items)
