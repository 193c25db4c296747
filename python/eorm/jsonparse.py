"""`json.loads` at any nesting depth, as the app's JSON.parse (V8's parser is iterative: a value nested
100,000 levels deep parses). Python's scanner recurses and raises RecursionError near 1,000 levels; then
the same text is parsed again here without recursion, with the same grammar, hooks and errors
(json.JSONDecodeError, a ValueError)."""
from __future__ import annotations

import json
import re
from json.decoder import JSONDecodeError, scanstring
from typing import Any, Callable, Optional

_WS = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"(-?(?:0|[1-9][0-9]*))(\.[0-9]+)?([eE][-+]?[0-9]+)?")


def loads(text: str, parse_int: Callable = int, parse_float: Callable = float, parse_constant: Optional[Callable] = None) -> Any:
    """json.loads(text, parse_int=…, parse_float=…, parse_constant=…), without a depth limit."""
    constant = parse_constant or (lambda name: {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf")}[name])
    try:
        return json.loads(text, parse_int=parse_int, parse_float=parse_float, parse_constant=constant)
    except RecursionError:
        return _iterative(text, parse_int, parse_float, constant)


def _skip(s: str, i: int) -> int:
    return _WS.match(s, i).end()


def _key(s: str, i: int):
    """The key string at `i` (after whitespace) and the index past its colon and the whitespace after it."""
    if s[i : i + 1] != '"':
        raise JSONDecodeError("Expecting property name enclosed in double quotes", s, i)
    key, i = scanstring(s, i + 1, True)
    i = _skip(s, i)
    if s[i : i + 1] != ":":
        raise JSONDecodeError("Expecting ':' delimiter", s, i)
    return key, _skip(s, i + 1)


def _iterative(s: str, parse_int: Callable, parse_float: Callable, parse_constant: Callable) -> Any:
    # Each open container is [container, key]; a value, once complete, goes into the innermost one.
    stack: list = []
    i = _skip(s, 0)
    while True:
        c = s[i : i + 1]
        if c == "{":
            i = _skip(s, i + 1)
            if s[i : i + 1] == "}":
                value, i = {}, i + 1
            else:
                key, i = _key(s, i)
                stack.append([{}, key])
                continue
        elif c == "[":
            i = _skip(s, i + 1)
            if s[i : i + 1] == "]":
                value, i = [], i + 1
            else:
                stack.append([[], None])
                continue
        elif c == '"':
            value, i = scanstring(s, i + 1, True)
        elif s.startswith("null", i):
            value, i = None, i + 4
        elif s.startswith("true", i):
            value, i = True, i + 4
        elif s.startswith("false", i):
            value, i = False, i + 5
        elif s.startswith("NaN", i):
            value, i = parse_constant("NaN"), i + 3
        elif s.startswith("Infinity", i):
            value, i = parse_constant("Infinity"), i + 8
        elif s.startswith("-Infinity", i):
            value, i = parse_constant("-Infinity"), i + 9
        else:
            m = _NUMBER.match(s, i)
            if m is None:
                raise JSONDecodeError("Expecting value", s, i)
            whole, frac, exp = m.groups()
            value = parse_float(whole + (frac or "") + (exp or "")) if frac or exp else parse_int(whole)
            i = m.end()
        while True:
            if not stack:
                end = _skip(s, i)
                if end != len(s):
                    raise JSONDecodeError("Extra data", s, end)
                return value
            frame = stack[-1]
            container = frame[0]
            is_dict = isinstance(container, dict)
            if is_dict:
                container[frame[1]] = value
            else:
                container.append(value)
            i = _skip(s, i)
            c = s[i : i + 1]
            if c == ",":
                i = _skip(s, i + 1)
                if is_dict:
                    frame[1], i = _key(s, i)
                break
            if c != ("}" if is_dict else "]"):
                raise JSONDecodeError(f"Expecting ',' delimiter", s, i)
            i += 1
            stack.pop()
            value = container
