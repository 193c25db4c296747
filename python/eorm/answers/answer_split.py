"""Reading an answer's structure outside brackets, as the app's src/engine/data/answers/answerSplit.ts: where its
top-level separators and relations are, whether one bracket pair wraps it whole, whether a part is a name
("x", "|AB|", "(p,q)") or mathematics rather than words."""
from __future__ import annotations

from typing import Callable, List, Optional, Sequence

from ..js import WS_SET, trim
from ..js_regex import js_re


def bracket_depths(s: str) -> List[int]:
    """The bracket depth after each character: (), [] and {} count, and so do \\{ and \\} (on their brace)."""
    d = [0] * len(s)
    depth = 0
    i = 0
    n = len(s)
    while i < n:
        c = s[i]
        if c == "\\" and i + 1 < n and s[i + 1] in "{}":
            d[i] = depth
            i += 1
            depth += 1 if s[i] == "{" else -1
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        d[i] = depth
        i += 1
    return d


def split_top(s: str, sep: Callable[[str, int], int]) -> List[str]:
    """Splits at top-level separators (outside brackets); `sep(s, i)` gives the separator's length at i, or 0."""
    d = bracket_depths(s)
    parts: List[str] = []
    start = 0
    i = 0
    while i < len(s):
        if (0 if i == 0 else d[i - 1]) == 0 and d[i] == 0:
            k = sep(s, i)
            if k > 0:
                parts.append(s[start:i])
                start = i + k
                i = start
                continue
        i += 1
    parts.append(s[start:])
    return parts


def is_equals(s: str, i: int) -> int:
    """An "=" that is not part of "<=", ">=" or "!=" (nor the first character)."""
    return 1 if s[i] == "=" and i > 0 and s[i - 1] not in "<>!" else 0


def comma_or_semicolon(s: str, i: int) -> int:
    return 1 if s[i] in ",;" else 0


_OR_AND = js_re(r"^\s+(?:or|and)\s+")
_BRACKETED_OR_AND = js_re(r"^(?:or|and)\(")


def _utf16_window(s: str, i: int, units: int) -> str:
    """`s.slice(i, i + units)` as JS counts (the window only ever matters for BMP text)."""
    out = []
    used = 0
    for c in s[i:]:
        w = 2 if ord(c) > 0xFFFF else 1
        if used + w > units:
            break
        out.append(c)
        used += w
        if used == units:
            break
    return "".join(out)


def or_and(s: str, i: int) -> int:
    """" or " / " and " between solutions, or written between brackets ("(11,7)or(7,11)")."""
    if i > 0 and s[i - 1] == ")" and _BRACKETED_OR_AND.match(_utf16_window(s, i, 4)):
        return 2 if s[i] == "o" else 3
    if s[i] not in WS_SET:
        return 0
    m = _OR_AND.match(_utf16_window(s, i, 12))
    return 0 if m is None else len(m.group(0))


def _is_letter(c: Optional[str]) -> bool:
    return c is not None and (("a" <= c <= "z") or ("A" <= c <= "Z"))


def command_at(s: str, i: int, names: Sequence[str]) -> int:
    """A LaTeX command at i that is exactly one of `names`: its length, or 0."""
    if s[i] != "\\":
        return 0
    j = i + 1
    while j < len(s) and j - i <= 12 and _is_letter(s[j]):
        j += 1
    return j - i if s[i + 1 : j] in names and not _is_letter(s[j] if j < len(s) else None) else 0


def wraps_whole(s: str, open_len: int) -> bool:
    d = bracket_depths(s)
    first = next((i for i in range(open_len, len(d)) if d[i] == 0), -1)
    return first == len(s) - 1


_SUBSCRIPTS = js_re(r"_\{[^{}]*\}|_[A-Za-z0-9]")
_ARGUMENTS = js_re(r"\([^()]*\)")
_LETTER = js_re(r"[A-Za-z]")
_NOT_IN_NAME = js_re(r"[\d+\-*=<>,;]")


def is_name(raw: str) -> bool:
    """Whether `raw` names a quantity rather than computing one (see the app's isName)."""
    s = trim(raw)
    if s.startswith("(") and s.endswith(")") and wraps_whole(s, 0) and "," in s:
        return all(is_name(p) for p in split_top(s[1:-1], comma_or_semicolon))
    plain = _ARGUMENTS.sub("", _SUBSCRIPTS.sub("", s))
    return _LETTER.search(plain) is not None and _NOT_IN_NAME.search(plain) is None


_COMMANDS = js_re(r"\\[A-Za-z]+")
_TWO_LETTERS = js_re(r"[A-Za-z]{2,}")


def is_mathish(s: str) -> bool:
    """Mathematics rather than words: no run of two letters outside LaTeX commands."""
    return _TWO_LETTERS.search(_COMMANDS.sub("", s)) is None
