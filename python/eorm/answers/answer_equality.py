"""When two answers are equal, as the app's src/engine/data/answers/answerEquality.ts: the one rule votes
(answer_classes.py) and labels from gold (answers.py) use. Keys equal, or their forms equal as mathematics:
numbers exactly; expressions by value at fixed points; relations when lhs − rhs are proportional; a named value
and its value; tuples, intervals and matrices item by item; lists and unions in any order; named tuples by
name, or by their values against an unnamed list. Bounded: lists past MAX_MATCHED_ITEMS compare by key."""
from __future__ import annotations

import math
from typing import List, Optional

from .answer_form import form_of
from .answer_form_kinds import Form
from .math_eval import MAX_VARIABLES, compare_values, points, value_at, variables

MAX_MATCHED_ITEMS = 32
_ZERO = 1e-12


def _node_of(f: Form):
    if f.kind == "number":
        return ("num", f.value)
    return f.node if f.kind == "expr" else None


def _points_of(a, b):
    names = variables(a) | variables(b)
    return [] if len(names) > MAX_VARIABLES else points(names)


def _same_values(a, b) -> bool:
    defined = 0
    for env in _points_of(a, b):
        r = compare_values(value_at(a, env), value_at(b, env))
        if r == "differ":
            return False
        if r == "same":
            defined += 1
    return defined > 0


def _proportional(a, b, positive: bool) -> bool:
    """a = c·b at every fixed point for one constant c ≠ 0 (c > 0 when `positive`)."""
    ratio: Optional[float] = None
    defined = 0
    for env in _points_of(a, b):
        x, y = value_at(a, env), value_at(b, env)
        if math.isnan(x) or math.isnan(y):
            if math.isnan(x) and math.isnan(y):
                continue
            return False
        if not (math.isfinite(x) and math.isfinite(y)):
            return False
        defined += 1
        if abs(x) <= _ZERO or abs(y) <= _ZERO:
            if abs(x) <= _ZERO and abs(y) <= _ZERO:
                continue
            return False
        if ratio is None:
            ratio = x / y
        elif compare_values(x / y, ratio) != "same":
            return False
    return defined > 0 and (not positive or ratio is None or ratio > 0)


def _relations_equal(a: Form, b: Form) -> bool:
    if a.op != b.op:
        return False
    al, ar, bl, br = _node_of(a.lhs), _node_of(a.rhs), _node_of(b.lhs), _node_of(b.rhs)
    if al is None or ar is None or bl is None or br is None:
        return forms_equal(a.lhs, b.lhs) and forms_equal(a.rhs, b.rhs)
    return _proportional(("sub", al, ar), ("sub", bl, br), a.op not in ("=", "!="))


def _pairwise(a: List[Form], b: List[Form]) -> bool:
    return len(a) == len(b) and all(forms_equal(x, y) for x, y in zip(a, b))


def _same_items(a: List[Form], b: List[Form]) -> bool:
    """Items matched one to one in any order (each to the first equal one not yet taken)."""
    if len(a) != len(b) or len(a) > MAX_MATCHED_ITEMS:
        return False
    taken = [False] * len(b)
    for x in a:
        j = next((k for k, y in enumerate(b) if not taken[k] and forms_equal(x, y)), -1)
        if j < 0:
            return False
        taken[j] = True
    return True


def forms_equal(a: Form, b: Form) -> bool:
    if a.key == b.key:
        return True
    if a.kind == "relation" and a.named and b.kind != "relation":
        return forms_equal(a.rhs, b)
    if b.kind == "relation" and b.named and a.kind != "relation":
        return forms_equal(a, b.rhs)
    na, nb = _node_of(a), _node_of(b)
    if na is not None and nb is not None:
        return (a.kind != "number" or b.kind != "number") and _same_values(na, nb)
    if a.kind == "tuple" and b.kind == "tuple":
        return a.open == b.open and a.close == b.close and _pairwise(a.items, b.items)
    if a.kind == "list" and b.kind == "list":
        if a.names is not None and b.names is not None:
            return a.names == b.names and _pairwise(a.items, b.items)
        return _same_items(a.items, b.items)
    if a.kind == "union" and b.kind == "union":
        return _same_items(a.items, b.items)
    if a.kind == "matrix" and b.kind == "matrix":
        return len(a.rows) == len(b.rows) and all(_pairwise(r, s) for r, s in zip(a.rows, b.rows))
    return a.kind == "relation" and b.kind == "relation" and _relations_equal(a, b)


def key_form(key: str) -> Form:
    """The form a key stands for; a key that does not read back as itself is compared as written."""
    f = form_of(key, 0)
    return f if f is not None and f.key == key else Form("text", key)


def answers_equal(a: Optional[str], b: Optional[str]) -> bool:
    """Whether two answer keys stand for equal answers; False when either is None."""
    if a is None or b is None:
        return False
    return a == b or forms_equal(key_form(a), key_form(b))
