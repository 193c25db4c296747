"""LaTeX spelled one way, for answer keys, as the app's src/engine/data/answers/linearLatex.ts: fractions, roots and
exponents in one linear form."""
from __future__ import annotations

from typing import List, Optional

from ..js import utf16_len
from ..js_regex import js_re

# Collections in collections and fractions in fractions are read this deep; deeper ones stay as written.
MAX_DEPTH = 8

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


def linear_latex(s: str, depth: int) -> str:
    """LaTeX to one linear spelling (whitespace already removed): \\frac{a}{b} → a/b (brackets where needed),
    \\sqrt3 → \\sqrt{3}, x^{2} → x^2; a fraction after a digit is a product ("2\\frac{5}{3}" → "2\\cdot5/3")."""
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
                num = linear_latex(a[0], depth + 1)
                den = linear_latex(b[0], depth + 1)
                times = "\\cdot" if out and out[-1][-1] in "0123456789." and num[:1] != "" and num[0] in "0123456789." else ""
                out.append(f"{times}{num if _atomic_numerator(num) else f'({num})'}/{den if _ATOMIC_DENOMINATOR.match(den) else f'({den})'}")
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
                out.append(f"\\sqrt{index}{{{linear_latex(a[0], depth + 1)}}}")
                i = a[1]
                continue
        if s[i] in "^_" and i + 1 < n and s[i + 1] == "{":
            a = _argument_at(s, i + 1, close)
            if a is not None:
                inner = linear_latex(a[0], depth + 1)
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
