"""Answers of several parts, as the app's src/engine/data/answers/answerCollections.ts: sets and lists of solutions
(any order), named tuples ("x=1, y=2": by name), tuples and intervals (by position, brackets kept), unions of
them, and matrices."""
from __future__ import annotations

from typing import List, Optional, Tuple

from .answer_form_kinds import Form, Reader, compact
from .answer_split import command_at, comma_or_semicolon, is_equals, is_mathish, is_name, or_and, split_top, wraps_whole
from ..js import trim
from ..js_regex import js_re
from .linear_latex import linear_latex


def _by_key(k: str) -> bytes:
    """JS string order: UTF-16 code units."""
    return k.encode("utf-16-be", "surrogatepass")


_VARIABLE_PREFIX = js_re(r"^(?:[A-Za-z]{1,2}|\\[A-Za-z]+)(?:_\{?[A-Za-z0-9]+\}?)?\s*=\s*")
_LEADING_OR_AND = js_re(r"^(?:or|and)\s+")


def _name_split(part: str, depth: int) -> Optional[Tuple[str, str]]:
    sides = split_top(part, is_equals)
    return (linear_latex(compact(trim(sides[0])), depth), sides[1]) if len(sides) == 2 and is_name(sides[0]) else None


def _element(p: str) -> str:
    return _LEADING_OR_AND.sub("", trim(p), count=1)


def _list_form(raw: List[str], depth: int, read: Reader) -> Optional[Form]:
    """Distinct names on every part make a named tuple; else the names go and the values are a set."""
    parts = [_element(p) for p in raw]
    named = [_name_split(p, depth) for p in parts]
    names = [None if n is None else n[0] for n in named]
    if all(n is not None for n in names) and len(set(names)) == len(names):
        entries = [(n[0], read(trim(n[1]), depth + 1)) for n in named]
        if any(f is None for _, f in entries):
            return None
        entries.sort(key=lambda e: _by_key(e[0]))
        key = ",".join(f"{n}={f.key}" for n, f in entries)
        return Form("list", key, items=[f for _, f in entries], names=[n for n, _ in entries])
    items: List[Form] = []
    for p, n in zip(parts, named):
        f = read(p if n is None else trim(n[1]), depth + 1)
        if f is None:
            return None
        if f.kind == "list" and f.names is None:
            items.extend(f.items)
        else:
            items.append(f)
    items.sort(key=lambda f: _by_key(f.key))
    distinct = [f for i, f in enumerate(items) if i == 0 or f.key != items[i - 1].key]
    return Form("list", ",".join(f.key for f in distinct), items=distinct)


_MATRIX = js_re(r"^\\begin\{(pmatrix|bmatrix|Bmatrix|matrix|smallmatrix|array)\}")
_COLUMN_SPEC = js_re(r"^\s*\{[^{}]*\}")


def _row_break(s: str, i: int) -> int:
    return 2 if s[i] == "\\" and i + 1 < len(s) and s[i + 1] == "\\" else 0


def _cell_break(s: str, i: int) -> int:
    return 1 if s[i] == "&" else 0


def _matrix_form(t: str, depth: int, read: Reader) -> Optional[Form]:
    m = _MATRIX.match(t)
    end = "" if m is None else "\\end{" + m.group(1) + "}"
    if m is None or not t.endswith(end):
        return None
    body = t[m.end() : len(t) - len(end)]
    if m.group(1) == "array":
        body = _COLUMN_SPEC.sub("", body, count=1)
    lines = split_top(body, _row_break)
    if len(lines) > 1 and trim(lines[-1]) == "":
        lines.pop()
    rows = [[read(trim(c), depth + 1) for c in split_top(line, _cell_break)] for line in lines]
    if any(len(r) != len(rows[0]) or any(c is None for c in r) for r in rows):
        return None
    key = "\\begin{pmatrix}" + "\\\\".join("&".join(c.key for c in r) for r in rows) + "\\end{pmatrix}"
    return Form("matrix", key, rows=rows)


_STARTS_WITH_LETTER = js_re(r"^[A-Za-z]")


def _union_form(t: str, depth: int, read: Reader) -> Optional[Form]:
    pieces = split_top(t, lambda s, i: command_at(s, i, ("cup",)))
    if len(pieces) < 2:
        return None
    items = [read(trim(p), depth + 1) for p in pieces]
    if any(f is None for f in items):
        return None
    items.sort(key=lambda f: _by_key(f.key))
    key = "".join(f.key if i == 0 else ("\\cup " if _STARTS_WITH_LETTER.match(f.key) else "\\cup") + f.key for i, f in enumerate(items))
    return Form("union", key, items=items)


def collection_form(t: str, depth: int, read: Reader) -> Optional[Form]:
    """The form of a collection, or None when `t` is one part."""
    matrix = _matrix_form(t, depth, read)
    if matrix is not None:
        return matrix
    set_open = 2 if t.startswith("\\{") and t.endswith("\\}") else 1 if t.startswith("{") and t.endswith("}") else 0
    if set_open > 0 and wraps_whole(t, set_open - 1):
        inner = t[set_open : len(t) - set_open]
        parts = split_top(inner, comma_or_semicolon)
        return read(trim(inner), depth + 1) if len(parts) == 1 else _list_form(parts, depth, read)
    union = _union_form(t, depth, read)
    if union is not None:
        return union
    if t[:1] in ("(", "[") and (t.endswith(")") or t.endswith("]")) and wraps_whole(t, 0):
        parts = split_top(t[1:-1], comma_or_semicolon)
        if len(parts) == 1:
            return read(trim(parts[0]), depth + 1)
        items = []
        for p in parts:
            named = _name_split(p, depth)
            items.append(read(trim(p if named is None else named[1]), depth + 1))
        if any(f is None for f in items):
            return None
        key = t[0] + ",".join(f.key for f in items) + t[-1]
        return Form("tuple", key, items=items, open=t[0], close=t[-1])
    parts: List[str] = []
    for part in split_top(t, comma_or_semicolon):
        solutions = split_top(_element(part), or_and)
        if len(solutions) > 1 and all(_VARIABLE_PREFIX.match(trim(p)) or is_mathish(p) for p in solutions):
            parts.extend(solutions)
        else:
            parts.append(part)
    return None if len(parts) < 2 else _list_form(parts, depth, read)
