"""The canonical key of a final answer, as the app's src/engine/data/answerKey.ts: answers a grader would call
equal share a key, different ones do not. MATH's `is_equiv` normalisation is the floor; beyond it numbers
compare exactly (answer_number.py), collections by their elements, words without case."""
from __future__ import annotations

import re
from typing import Callable, List, Optional

from .answer_number import NUMBER_TOKEN, parse_number, rational_key
from .js import WS_SET, WHITESPACE, trim, utf16_len
from .js_regex import js_re

MAX_EXAMINED_CHARS = 65_536
MAX_UNWRAP_PASSES = 8
MAX_DEPTH = 8


def _strip_dollars(s: str) -> str:
    """`$…$`, `$$…$$` (any run of dollars on each side, none inside) → its content."""
    a = len(s) - len(s.lstrip("$"))
    if a == 0:
        return s
    if a == len(s):
        return "" if a >= 2 else s
    b = len(s.rstrip("$"))
    if b == len(s):
        return s
    inner = s[a:b]
    return s if "$" in inner else inner


def _trim_end_punctuation(s: str) -> str:
    end = len(s)
    while True:
        while end > 0 and s[end - 1] in WS_SET:
            end -= 1
        if end > 0 and s[end - 1] in ".,;:":
            end -= 1
        else:
            break
    return s[:end]


def _strip_emphasis(s: str) -> str:
    out = s.replace("**", "")
    if len(out) > 2 and ((out.startswith("*") and out.endswith("*")) or (out.startswith("__") and out.endswith("__"))):
        n = 1 if out.startswith("*") else 2
        return out[n:-n]
    return out


_UNWRAP_STEPS = [
    (js_re(r"\\\\"), r"\\", 0),
    (js_re(r"^\\\((.*)\\\)$", re.DOTALL), r"\1", 1),
    (js_re(r"^\\\[(.*)\\\]$", re.DOTALL), r"\1", 1),
    (js_re(r"^\\(?:boxed|fbox)\s*\{(.*)\}$", re.DOTALL), r"\1", 1),
    (js_re(r"\\(?:text|textbf|textit|textrm|textnormal|mathrm|mathbf|mathit|mbox|operatorname)\s*\{([^{}]*)\}"), r"\1", 0),
    (js_re(r"\\(?:left|right)\b"), "", 0),
    (js_re(r"\\(?:q?quad|displaystyle)\b"), "", 0),
    (js_re(r"\\[!,;: ]"), "", 0),
    (js_re(r"\{,\}"), ",", 0),
    (js_re(r"\\%"), "%", 0),
    (js_re(r"\^\s*\{?\s*\\circ\s*\}?"), "", 0),
    (js_re("\u00b0"), "", 0),
    (js_re(r"\\[dt]frac"), r"\\frac", 0),
]


def _unwrap(raw: str) -> str:
    out = trim(raw.replace("\u2212", "-").replace("\u03c0", "\\pi").replace("\u221e", "\\infty").replace("\u221a", "\\sqrt"))
    for _ in range(MAX_UNWRAP_PASSES):
        before = out
        out = _strip_dollars(_strip_emphasis(out))
        for pattern, repl, count in _UNWRAP_STEPS:
            out = pattern.sub(repl, out, count=count)
        out = trim(_trim_end_punctuation(out))
        if out == before:
            break
    return out


def _bracket_depths(s: str) -> List[int]:
    """The bracket depth after each character (see the app's bracketDepths)."""
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


def _split_top(s: str, sep: Callable[[str, int], int]) -> List[str]:
    d = _bracket_depths(s)
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


def _comma_or_semicolon(s: str, i: int) -> int:
    return 1 if s[i] in ",;" else 0


_OR_AND = js_re(r"^\s+(?:or|and)\s+")


def _or_and(s: str, i: int) -> int:
    if s[i] not in WS_SET:
        return 0
    m = _OR_AND.match(_utf16_window(s, i, 12))
    return 0 if m is None else len(m.group(0))


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


def _wraps_whole(s: str, open_len: int) -> bool:
    d = _bracket_depths(s)
    first = next((i for i in range(open_len, len(d)) if d[i] == 0), -1)
    return first == len(s) - 1


_VARIABLE_PREFIX = js_re(r"^(?:[A-Za-z]{1,2}|\\[A-Za-z]+)(?:_\{?[A-Za-z0-9]+\}?)?\s*=\s*")
_MULTIPLE_CHOICE = [js_re(r"^\(([A-Ea-e])\)(?:\s|$)"), js_re(r"^([A-E])\)?$")]
_WORDS = js_re(r"^[A-Za-z][A-Za-z\s'-]*$")
_DIGIT = js_re(r"\d")
_LETTER = js_re(r"[A-Za-z]")
_COMMANDS = js_re(r"\\[A-Za-z]+")
_LEADING_OR_AND = js_re(r"^(?:or|and)\s+")
_SPACES = js_re(r"\s+")


def _strip_variable(s: str) -> str:
    m = _VARIABLE_PREFIX.match(s)
    if m is None:
        return s
    rest = s[m.end() :]
    return s if "=" in rest else rest


def _result_of_working(s: str) -> str:
    """"9 * 2 = 18": the result; not an equation with letters ("3x + 2y = 0" is not 0)."""
    last = s.rfind("=")
    if last < 0:
        return s
    working = _COMMANDS.sub("", s[:last])
    if not _DIGIT.search(working) or _LETTER.search(working):
        return s
    return trim(s[last + 1 :])


def _sorted_keys(keys: List[str]) -> str:
    # JS compares strings by UTF-16 code units.
    return ",".join(sorted(keys, key=lambda k: k.encode("utf-16-be", "surrogatepass")))


def _element_keys(parts: List[str], depth: int) -> Optional[List[str]]:
    keys = []
    for p in parts:
        k = _scalar_or_collection_key(_strip_variable(_LEADING_OR_AND.sub("", trim(p), count=1)), depth + 1)
        if k is None:
            return None
        keys.append(k)
    return keys


def _collection_key(s: str, depth: int) -> Optional[str]:
    if depth >= MAX_DEPTH:
        return None
    set_open = 2 if s.startswith("\\{") and s.endswith("\\}") else 1 if s.startswith("{") and s.endswith("}") else 0
    if set_open > 0 and _wraps_whole(s, set_open - 1):
        keys = _element_keys(_split_top(s[set_open : len(s) - set_open], _comma_or_semicolon), depth)
        return None if keys is None else _sorted_keys(keys)
    if s[:1] in ("(", "[") and (s.endswith(")") or s.endswith("]")) and _wraps_whole(s, 0):
        parts = _split_top(s[1:-1], _comma_or_semicolon)
        if len(parts) == 1:
            return _scalar_or_collection_key(trim(parts[0]), depth + 1) if s[0] == "(" and s.endswith(")") else None
        keys = _element_keys(parts, depth)
        return None if keys is None else f"{s[0]}{','.join(keys)}{s[-1]}"
    parts = []
    for part in _split_top(s, _comma_or_semicolon):
        solutions = _split_top(part, _or_and)
        if len(solutions) > 1 and all(_VARIABLE_PREFIX.match(trim(p)) for p in solutions):
            parts.extend(solutions)
        else:
            parts.append(part)
    if len(parts) < 2:
        return None
    keys = _element_keys(parts, depth)
    return None if keys is None else _sorted_keys(keys)


# No "^": a Python pattern's "^" does not match at match()'s start position.
_COMMAND = js_re(r"\\[A-Za-z]+")
_ATOMIC_DENOMINATOR = js_re(r"^(?:\d+(?:\.\d+)?|[A-Za-z]|\\[A-Za-z]+|\\sqrt\{[^{}]*\})$")


def _is_alnum(c: str) -> bool:
    return _is_letter(c) or "0" <= c <= "9"


def _is_letter(c: Optional[str]) -> bool:
    return c is not None and (("a" <= c <= "z") or ("A" <= c <= "Z"))


def _brace_matches(s: str) -> List[int]:
    """For each "{" of s, the index of its matching "}" (or -1): one pass, so reading arguments never rescans."""
    close = [-1] * len(s)
    opened = []
    for i, c in enumerate(s):
        if c == "{":
            opened.append(i)
        elif c == "}" and opened:
            close[opened.pop()] = i
    return close


def _argument_at(s: str, i: int, close: List[int]):
    if i >= len(s):
        return None
    if s[i] == "{":
        return None if close[i] < 0 else (s[i + 1 : close[i]], close[i] + 1)
    if s[i] == "\\":
        m = _COMMAND.match(s, i)
        if m is not None and m.end() - i <= 40:
            return (m.group(0), m.end())
        if m is not None:
            return (s[i : i + 40], i + 40)
    return (s[i], i + 1)


def _atomic_numerator(s: str) -> bool:
    if s == "":
        return False
    depth = 0
    for c in s:
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif depth == 0 and c in "+-*/=,<>":
            return False
    return "\\cdot" not in s and "\\times" not in s


def _linear_latex(s: str, depth: int) -> str:
    if depth >= MAX_DEPTH:
        return s
    close = _brace_matches(s)
    out = []
    i = 0
    n = len(s)
    while i < n:
        if s.startswith("\\frac", i) and not _is_letter(s[i + 5] if i + 5 < n else None):
            a = _argument_at(s, i + 5, close)
            b = None if a is None else _argument_at(s, a[1], close)
            if a is not None and b is not None:
                num = _linear_latex(a[0], depth + 1)
                den = _linear_latex(b[0], depth + 1)
                out.append(f"{num if _atomic_numerator(num) else f'({num})'}/{den if _ATOMIC_DENOMINATOR.match(den) else f'({den})'}")
                i = b[1]
                continue
        if s.startswith("\\sqrt", i) and not _is_letter(s[i + 5] if i + 5 < n else None):
            j = i + 5
            index = ""
            if j < n and s[j] == "[":
                k = j + 1
                while k < n and _is_alnum(s[k]):
                    k += 1
                if k < n and s[k] == "]":
                    index, j = s[j : k + 1], k + 1
            a = _argument_at(s, j, close)
            if a is not None:
                out.append(f"\\sqrt{index}{{{_linear_latex(a[0], depth + 1)}}}")
                i = a[1]
                continue
        if s[i] in "^_" and i + 1 < n and s[i + 1] == "{":
            a = _argument_at(s, i + 1, close)
            if a is not None:
                inner = _linear_latex(a[0], depth + 1)
                out.append(f"{s[i]}{inner}" if utf16_len(inner) == 1 else f"{s[i]}{{{inner}}}")
                i = a[1]
                continue
        if s[i] == "\\":
            m = _COMMAND.match(s, i)
            end = min(m.end(), i + 40) if m is not None else i + 2
            out.append(s[i:end])
            i = end
            continue
        out.append(s[i])
        i += 1
    return "".join(out)


def _text_key(t: str, depth: int) -> Optional[str]:
    text = _SPACES.sub("", t)
    if text == "":
        return None
    return text.lower() if _WORDS.match(t) and utf16_len(text) >= 2 else _linear_latex(text, depth)


_TWO_LETTERS = js_re(r"[A-Za-z]{2,}")
_MATHEMATICS = js_re(r"[+*/=^_{}\\<>|]")


def _number_in_sentence(s: str) -> Optional[str]:
    if not _TWO_LETTERS.search(s) or _MATHEMATICS.search(NUMBER_TOKEN.sub("", s)):
        return None
    found = NUMBER_TOKEN.findall(s)
    if len(found) != 1:
        return None
    n = parse_number(found[0])
    return None if n is None else rational_key(n)


def _scalar_or_collection_key(s: str, depth: int) -> Optional[str]:
    t = _result_of_working(_strip_variable(s))
    if t == "":
        return None
    n = parse_number(t)
    if n is not None:
        return rational_key(n)
    for k in (lambda: _collection_key(t, depth), lambda: _number_in_sentence(t) if depth == 0 else None):
        got = k()
        if got is not None:
            return got
    return _text_key(t, depth)


def answer_key(raw: str) -> Optional[str]:
    """Canonical key of an answer, or None if nothing is left or it is longer than MAX_EXAMINED_CHARS (see
    the app's answerKey)."""
    if utf16_len(raw) > MAX_EXAMINED_CHARS:
        return None
    s = _unwrap(raw)
    if s == "":
        return None
    for pattern in _MULTIPLE_CHOICE:
        m = pattern.match(s)
        if m is not None:
            return m.group(1).upper()
    return _scalar_or_collection_key(s, 0)
