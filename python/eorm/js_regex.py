"""JavaScript regexes in Python with their JS meanings: `\\s` / `\\S` are JS whitespace (inside classes too),
`\\d`, `\\w`, `\\b` and case folding are ASCII (re.ASCII), and `$` (no m flag in the app's patterns) is the
very end of the input, Python's `\\Z`."""
from __future__ import annotations

import re

from .js import WS


def js_re(pattern: str, flags: int = 0) -> "re.Pattern[str]":
    out = []
    i = 0
    in_class = False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            nxt = pattern[i + 1]
            if nxt == "s":
                out.append(WS if in_class else f"[{WS}]")
            elif nxt == "S" and not in_class:
                out.append(f"[^{WS}]")
            else:
                out.append(pattern[i : i + 2])
            i += 2
            continue
        if c == "[" and not in_class:
            in_class = True
        elif c == "]" and in_class:
            in_class = False
        elif c == "$" and not in_class:
            out.append(r"\Z")
            i += 1
            continue
        out.append(c)
        i += 1
    return re.compile("".join(out), flags | re.ASCII)
