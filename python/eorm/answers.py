"""Final answers for majority voting, as the app's src/engine/data/answers.ts: extract one from a chain of
thought, and reduce it to a canonical key so equal answers written differently ("$1,000.00", "1000") vote
together. The regexes are the app's, with JS meanings kept: `\\d`, `\\w`, `\\b` are ASCII (re.ASCII) and
`\\s` is JS whitespace (spelled out as `[{WS}]`)."""
from __future__ import annotations

import math
import re
from typing import Callable, List, Optional

from .js import WHITESPACE, WS, number_to_string, trim, utf16_len

# Characters examined (UTF-16 units, as the app counts): only the end of a longer text is searched for the
# final answer, and a longer answer gets no key.
MAX_EXAMINED_CHARS = 65_536
# Nested wrappers stripped at most (`$\\boxed{\\text{18}}$` has 3).
MAX_UNWRAP_PASSES = 8

A = re.ASCII


def _re(pattern: str, flags: int = 0) -> "re.Pattern[str]":
    """Compiles a JS pattern: `\\s` / `\\S` become JS whitespace classes (inside `[...]` too), `\\d` etc. ASCII."""
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
        out.append(c)
        i += 1
    return re.compile("".join(out), flags | A)


_BOXED = _re(r"\\(?:boxed|fbox)\s*\{")


def _last_boxed(text: str) -> Optional[str]:
    opening = -1
    for m in _BOXED.finditer(text):
        opening = m.end()
    if opening < 0:
        return None
    depth = 1
    for i in range(opening, len(text)):
        c = text[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return text[opening:i]
    return None


def _rest_of_line_after_last(text: str, marker: "re.Pattern[str]") -> Optional[str]:
    start = -1
    for m in _finditer_js(marker, text):
        start = m.end()
    if start < 0:
        return None
    nl = text.find("\n", start)
    return trim(text[start : len(text) if nl < 0 else nl])


def _finditer_js(pattern: "re.Pattern[str]", text: str):
    """A JS global-regex exec loop: like finditer, except an empty match does not advance (JS would loop
    forever; the app's patterns never match empty)."""
    return pattern.finditer(text)


_ANSWER_IS = _re(r"the (?:final )?answer is\s*:?", re.IGNORECASE)
_SENTENCE_END = _re(r"\.(?:\s|$)")


def _answer_is_phrase(text: str) -> Optional[str]:
    rest = _rest_of_line_after_last(text, _ANSWER_IS)
    if rest is None:
        return None
    m = _SENTENCE_END.search(rest)
    return rest if m is None else rest[: m.start()]


def _last_match(text: str, pattern: "re.Pattern[str]") -> Optional[str]:
    last = None
    for m in pattern.finditer(text):
        g = m.group(1) if pattern.groups >= 1 else None
        last = g if g is not None else m.group(0)
    return last


# Thousands separators only in groups of three, so "5,6" stays a list, not 56.
_NUMBER = _re(r"-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?")
_HASHES = _re(r"####")
# JS `^` with the m flag matches after \n, \r, U+2028 and U+2029 (Python's re.M only after \n).
_A_START = _re(r"(?:(?<=[\n\r\u2028\u2029])|^)[ \t]*A:")
_LINE_END = re.compile("[\n\r\u2028\u2029]")


def _last_answer_line(text: str) -> Optional[str]:
    """What follows "A:" on the last line that starts with it (after spaces or tabs) and has something after it."""
    last = None
    for m in _A_START.finditer(text):
        end = _LINE_END.search(text, m.end())
        rest = trim(text[m.end() : len(text) if end is None else end.start()])
        if rest != "":
            last = rest
    return last


def _tail(text: str) -> str:
    """The last MAX_EXAMINED_CHARS (UTF-16 units, as JS counts) of `text`, from a line start when one is in
    that window."""
    start16 = utf16_len(text) - MAX_EXAMINED_CHARS
    if start16 <= 0:
        return text
    units = i = 0
    while units < start16:  # i: the first code point at or after UTF-16 offset start16
        units += 2 if ord(text[i]) > 0xFFFF else 1
        i += 1
    nl = text.find("\n", i)
    if nl >= 0:
        return text[nl + 1 :]
    if units == start16:
        return text[i:]
    # JS's slice starts inside a surrogate pair: it keeps the pair's low half alone.
    return chr(0xDC00 + ((ord(text[i - 1]) - 0x10000) & 0x3FF)) + text[i:]


def extract_answer(full_text: str) -> Optional[str]:
    """The final answer written in a chain of thought, by the first rule that applies: the last `\\boxed{…}`,
    the text after the last `####`, after the last "The answer is", a last `A:` line, else the last number.
    Only the text's last MAX_EXAMINED_CHARS are searched."""
    text = _tail(full_text)
    finders: List[Callable[[], Optional[str]]] = [
        lambda: _last_boxed(text),
        lambda: _rest_of_line_after_last(text, _HASHES),
        lambda: _answer_is_phrase(text),
        lambda: _last_answer_line(text),
        lambda: _last_match(text, _NUMBER),
    ]
    for find in finders:
        found = find()
        if found is not None and trim(found) != "":
            return trim(found)
    return None


_UNWRAP_STEPS = [
    (_re(r"^\\\((.*)\\\)$", re.DOTALL), r"\1", 1),
    (_re(r"^\\\[(.*)\\\]$", re.DOTALL), r"\1", 1),
    (_re(r"^\\(?:boxed|fbox)\s*\{(.*)\}$", re.DOTALL), r"\1", 1),
    (_re(r"\\(?:text|textbf|textrm|mathrm|mathbf|mbox)\s*\{([^{}]*)\}"), r"\1", 0),
    (_re(r"\\(?:left|right)\b"), "", 0),
    (_re(r"\\[!,;: ]"), "", 0),
    (_re(r"\{,\}"), ",", 0),
    (_re(r"\\%"), "%", 0),
    (_re(r"\^\s*\{?\\circ\}?"), "", 0),
    (_re(r"\\[dt]frac"), r"\\frac", 0),
]


def _js_anchor(p: "re.Pattern[str]") -> "re.Pattern[str]":
    # JS `$` without the m flag matches only at the very end; Python's also before a final "\n". `\Z` is JS's `$`.
    src = p.pattern
    if src.endswith("$"):
        src = src[:-1] + r"\Z"
    return re.compile(src, p.flags)


_UNWRAP_STEPS = [(_js_anchor(p), r, c) for p, r, c in _UNWRAP_STEPS]


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


def _trim_end_dots(s: str) -> str:
    """Drops trailing periods and whitespace ("18. " → "18")."""
    out = s.rstrip(WHITESPACE)
    while out.endswith("."):
        out = out[:-1].rstrip(WHITESPACE)
    return out


def _unwrap(s: str) -> str:
    """Strips wrappers that do not change an answer (at most MAX_UNWRAP_PASSES nested ones)."""
    out = trim(s)
    for _ in range(MAX_UNWRAP_PASSES):
        before = out
        out = _strip_dollars(out)
        for pattern, repl, count in _UNWRAP_STEPS:
            out = pattern.sub(repl, out, count=count)
        out = trim(_trim_end_dots(out))
        if out == before:
            break
    return out


# A number, optionally followed by a unit made of letters ("18 eggs", "5 dollars/hour", "50%").
_NUMBER_WITH_UNIT = _js_anchor(_re(r"^([-+]?(?:\d+(?:\.\d*)?|\.\d+))\s*(?:%|[A-Za-z°][A-Za-z°.\s/]*)?$"))
_FRACTION = _js_anchor(_re(r"^([-+]?)(?:\\frac\s*\{\s*(\d+)\s*\}\s*\{\s*(\d+)\s*\}|\\frac(\d)(\d)|(\d+)\s*/\s*(\d+))$"))
_THOUSANDS = _re(r"(\d),(?=\d{3}(?!\d))")
_SPACES = _re(r"\s+")


def _js_number(s: str) -> float:
    """`Number(s)` for the decimal strings the patterns above admit."""
    try:
        return float(s)
    except ValueError:
        return math.nan


def answer_key(raw: str) -> Optional[str]:
    """Canonical key of an answer, or None if nothing is left or it is longer than MAX_EXAMINED_CHARS (see
    the app's answerKey)."""
    if utf16_len(raw) > MAX_EXAMINED_CHARS:
        return None
    s = _unwrap(raw.replace("\u2212", "-"))
    plain = trim(_THOUSANDS.sub(r"\1", s.replace("$", "")))
    num = _NUMBER_WITH_UNIT.match(plain)
    if num:
        return number_to_string(_js_number(num.group(1)))
    frac = _FRACTION.match(plain)
    if frac:
        g = frac.groups()
        num1 = g[1] if g[1] is not None else g[3] if g[3] is not None else g[5]
        den1 = g[2] if g[2] is not None else g[4] if g[4] is not None else g[6]
        sign = "-" if g[0] == "-" else ""
        return f"{sign}{number_to_string(_js_number(num1))}/{number_to_string(_js_number(den1))}"
    text = _SPACES.sub("", s)
    return None if text == "" else text


def candidate_answer_key(answer_field: Optional[str], gen_text: str) -> Optional[str]:
    """The voting key of a candidate: its `answer` field when given (and not blank), else the answer
    extracted from its text."""
    if answer_field is not None and trim(answer_field) != "":
        return answer_key(answer_field)
    extracted = extract_answer(gen_text)
    return None if extracted is None else answer_key(extracted)
