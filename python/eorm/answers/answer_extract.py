"""The final answer a reader takes from a chain of thought, as the app's src/engine/data/answers/answerExtract.ts.
Linear in its input, and only the text's last MAX_EXAMINED_CHARS (UTF-16 units, as the app counts) are read."""
from __future__ import annotations

import json
import re
from typing import Optional, Tuple

from .answer_boxes import last_boxes
from .answer_key import MAX_EXAMINED_CHARS
from .answer_number import NUMBER_TOKEN
from ..js import WS_SET, trim, utf16_len
from ..js_regex import js_re
from .math_spans import last_math_span


def _tail(text: str) -> str:
    """The last MAX_EXAMINED_CHARS (UTF-16 units) of `text`, from a line start when one is in that window."""
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


_LINE_END = re.compile("[\n\r\u2028\u2029]")


def _rest_of_line(text: str, start: int) -> Tuple[str, int]:
    m = _LINE_END.search(text, start)
    end = len(text) if m is None else m.start()
    return text[start:end], end


# JS `^` with the m flag matches after \n, \r, U+2028 and U+2029.
_ANSWER_LINE = js_re(r"(?:(?<=[\n\r\u2028\u2029])|^)[ \t*#>_-]*(final answer|answer|a)[ \t*_]*:[ \t*_]*", re.IGNORECASE)


def _last_answer_line(text: str):
    last = None
    pos = 0
    while True:
        m = _ANSWER_LINE.search(text, pos)
        if m is None:
            return last
        pos = m.end()
        if m.group(1) == "a":
            continue
        rest, end = _rest_of_line(text, m.end())
        if trim(rest) == "":
            nxt = end
            while nxt < len(text) and text[nxt] in WS_SET:
                nxt += 1
            rest, _ = _rest_of_line(text, nxt)
        if trim(rest) != "":
            last = (rest, m.start())
        pos = max(pos, end)


# Bounded lengths (linear time); no astral characters, which JS counts as two and Python as one.
_JSON_ANSWER = js_re(r'"answer"\s*:\s*("(?:[^"\\\n\r\u2028\u2029\ud800-\udfff\U00010000-\U0010ffff]|\\[^\n\r\u2028\u2029\ud800-\udfff\U00010000-\U0010ffff]){0,200}"|-?\d[\d.,eE+-]{0,100})')


def _last_json_answer(text: str):
    last = None
    for m in _JSON_ANSWER.finditer(text):
        value = m.group(1)
        if value.startswith('"'):
            try:
                value = json.loads(value)
            except ValueError:
                value = value[1:-1]
        last = (value, m.start())
    return last


def _answer_statement(text: str) -> Optional[str]:
    """The later of a final answer line and a JSON "answer"; a line that says "The final answer is …" states
    what follows "answer is"."""
    line = _last_answer_line(text)
    js = _last_json_answer(text)
    if js is not None and (line is None or js[1] > line[1]):
        return js[0]
    if line is None:
        return None
    phrase = _answer_is_phrase(line[0])
    return line[0] if phrase is None else phrase


def _rest_of_line_after_last(text: str, marker: "re.Pattern[str]") -> Optional[str]:
    start = -1
    for m in marker.finditer(text):
        start = m.end()
    return None if start < 0 else _rest_of_line(text, start)[0]


_ANSWER_IS = js_re(r"\banswers? (?:is|are)\b[ \t]*:?", re.IGNORECASE)
_SENTENCE_END = js_re(r"\.(?:\s|$)")
_HASHES = js_re(r"####")


def _answer_is_phrase(text: str) -> Optional[str]:
    rest = _rest_of_line_after_last(text, _ANSWER_IS)
    if rest is None:
        return None
    m = _SENTENCE_END.search(rest)
    return rest if m is None else rest[: m.start()]


_NUMBER_OR_FRACTION = js_re(
    r"\d+\s*\\[dt]?frac\s*\{\d+\}\s*\{\d+\}|-?\\[dt]?frac\s*\{[^{}]*\}\s*\{[^{}]*\}|-?\\[dt]?frac\d\d|" + NUMBER_TOKEN.pattern
)


def _last_math_or_number(text: str) -> Optional[str]:
    """The last piece of mathematics or the last number, whichever ends later (a number inside it is part of it)."""
    span = last_math_span(text)
    last = None
    for m in _NUMBER_OR_FRACTION.finditer(text):
        last = m
    if span is not None and trim(span[0]) != "" and (last is None or last.start() < span[1]):
        return span[0]
    return None if last is None else last.group(0)


def _clean(found: str) -> str:
    a, b = 0, len(found)
    while True:
        before = b - a
        while a < b and (found[a] == "*" or found[a] in WS_SET):
            a += 1
        while b > a and (found[b - 1] == "*" or found[b - 1] in WS_SET or found[b - 1] in ".,;:"):
            b -= 1
        if b - a == before:
            return found[a:b]


def extract_answer(full_text: str) -> Optional[str]:
    """The final answer written in a chain of thought (see the app's extractAnswer): the last `\\boxed{…}` (with
    the boxes just before it that connect to it: a list), else the last `Answer:` / `Final answer:` / `A:` line
    or JSON "answer", else the last "the answer is …", else the text after the last `####`, else the last piece
    of mathematics or number."""
    text = _tail(full_text)
    rules = [last_boxes, _answer_statement, _answer_is_phrase, lambda t: _rest_of_line_after_last(t, _HASHES), _last_math_or_number]
    for find in rules:
        found = find(text)
        if found is not None and _clean(found) != "":
            return _clean(found)
    return None
