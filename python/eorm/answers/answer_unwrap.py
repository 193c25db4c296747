"""What does not change an answer, stripped before it is keyed, as the app's src/engine/data/answers/answerUnwrap.ts:
math delimiters, \\boxed, \\text and friends, emphasis, quotes, spacing commands, degrees; and characters
spelled one LaTeX way (dashes, ×, ≤, π, ½ …)."""
from __future__ import annotations

import re

from ..js import WS_SET, trim
from ..js_regex import js_re

MAX_UNWRAP_PASSES = 8

_VULGAR_FRACTIONS = "½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞⅐⅑⅒"
_VULGAR_VALUES = ["1/2", "1/3", "2/3", "1/4", "3/4", "1/5", "2/5", "3/5", "4/5", "1/6", "5/6", "1/8", "3/8", "5/8", "7/8", "1/7", "1/9", "1/10"]
_CHARACTERS = {
    **{c: "-" for c in ("\u2010", "\u2011", "\u2012", "\u2013", "\u2212", "\ufe63", "\uff0d")},
    "×": "\\times ", "÷": "\\div ", "·": "\\cdot ", "⋅": "\\cdot ", "≤": "\\leq ", "≥": "\\geq ", "≠": "\\neq ",
    "π": "\\pi ", "∞": "\\infty ", "√": "\\sqrt ", "±": "\\pm ", "∪": "\\cup ", "∈": "\\in ", "²": "^2", "³": "^3", "⁄": "/",
}


def _spell_characters(s: str) -> str:
    """One pass: each mapped character replaced; a vulgar fraction after a digit starts a mixed number ("2½")."""
    out = []
    for c in s:
        v = _VULGAR_FRACTIONS.find(c)
        if v >= 0:
            after_digit = bool(out) and "0" <= out[-1][-1] <= "9"
            out.append((" " if after_digit else "") + _VULGAR_VALUES[v])
        else:
            out.append(_CHARACTERS.get(c, c))
    return "".join(out)


def _strip_dollars(s: str) -> str:
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


_UNESCAPED_DOLLAR = js_re(r"(?<!\\)\$")


def _drop_inner_dollars(s: str) -> str:
    count = len(_UNESCAPED_DOLLAR.findall(s))
    return _UNESCAPED_DOLLAR.sub("", s) if count >= 2 and count % 2 == 0 else s


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
    for mark in ("*", "__", '"', "'", "`"):
        if len(out) > 2 * len(mark) and out.startswith(mark) and out.endswith(mark):
            return out[len(mark) : -len(mark)]
    return out


_BOX_OPEN = js_re(r"^\\(?:boxed|fbox)\s*\{")


def _strip_box(s: str) -> str:
    m = _BOX_OPEN.match(s)
    if m is None or not s.endswith("}"):
        return s
    depth = 0
    i = m.end() - 1
    while i < len(s):
        if s[i] == "\\":
            i += 1
        elif s[i] == "{":
            depth += 1
        elif s[i] == "}":
            depth -= 1
            if depth == 0:
                return s[m.end() : -1] if i == len(s) - 1 else s
        i += 1
    return s


_UNWRAP_STEPS = [
    (js_re(r"(?<!\\)\\\\(?=[A-Za-z])"), r"\\", 0),
    (js_re(r"^\\\((.*)\\\)$", re.DOTALL), r"\1", 1),
    (js_re(r"^\\\[(.*)\\\]$", re.DOTALL), r"\1", 1),
    (js_re(r"\\(?:text|textbf|textit|textrm|textup|textsf|texttt|textnormal|mathrm|mathbf|mathit|mathsf|mathtt|mathbb|mathcal|boldsymbol|bm|mbox|operatorname)\s*\{([^{}]*)\}"), r"\1", 0),
    (js_re(r"\\(?:left|right|bigl|bigr|Bigl|Bigr|biggl|biggr|big|Big|bigg|Bigg)\b"), "", 0),
    (js_re(r"\\(?:q?quad|displaystyle)\b"), "", 0),
    (js_re(r",\\!\s*"), ",", 0),
    (js_re(r"(?<!\\)\\[!,;: ]"), "", 0),
    (js_re(r" ?\{\s*,\s*\} ?"), ",", 0),
    (js_re(r"\\%"), "%", 0),
    (js_re(r"\^\s*\{?\s*\\circ\s*\}?"), "", 0),
    (js_re("\u00b0"), "", 0),
    (js_re(r"\\[dtc]frac"), r"\\frac", 0),
]


def unwrap(raw: str) -> str:
    """Strips what does not change an answer (see the app's unwrap)."""
    out = trim(_spell_characters(raw))
    for _ in range(MAX_UNWRAP_PASSES):
        before = out
        out = _strip_box(_drop_inner_dollars(_strip_dollars(_strip_emphasis(out))))
        for pattern, repl, count in _UNWRAP_STEPS:
            out = pattern.sub(repl, out, count=count)
        out = trim(_trim_end_punctuation(out))
        if out == before:
            break
    return out
