"""Splits a top-level JSON array into its elements, each with the line it starts on (jsonArray.ts is the twin).
It works on bytes, not lines: a compact array on one line (`json.dump(list, f)`) is split element by element like
an indented one, and only an element over the size limit is skipped. Every byte that matters is ASCII, and no
byte of a multi-byte UTF-8 character is, so nothing has to be decoded to find the elements; the scan jumps from
one byte that matters to the next."""
from __future__ import annotations

import re
from typing import Callable

from ..js import has_non_ws
from .lines import _decode
from .record import LINE, LineError

# Whitespace between elements; the bytes of a byte-order mark (U+FEFF) count as blank, as JS's \s has it.
_NOT_BLANK = re.compile(rb"[^ \t\r\n\xef\xbb\xbf]")
_BETWEEN = re.compile(rb"[^ \t\r\n\xef\xbb\xbf,]")
_IN_STRING = re.compile(rb'["\\]')
_IN_VALUE = re.compile(rb'["\[\]{},]')

AFTER_END = "text after the end of the JSON array (one file holds one array)"
UNCLOSED = "the JSON array is not closed: the file ends inside it (was it cut short?)"


class ArraySplitter:
    def __init__(self, element: Callable[[str, int, bool], None], error: Callable[[LineError], None], max_element_bytes: int) -> None:
        self._element = element
        self._error = error
        self._max = max_element_bytes

    def split(self, data: bytes) -> None:
        """Every element of `data` (the whole file) to `element`, every problem to `error`."""
        self._data, self._counted, self._lines = data, 0, 1
        pos = self._open(data)
        if pos is None:
            return
        while True:
            m = _BETWEEN.search(data, pos)
            if m is None:
                return self._fail(self._last_line(), UNCLOSED)
            if data[m.start()] == 0x5D:
                return self._after_end(m.end())
            found = self._value_end(m.start())
            if found is None:
                return self._fail(self._last_line(), UNCLOSED)
            end, pos, closes = found
            self._finish(m.start(), end)
            if closes:
                return self._after_end(pos)

    def _line(self, at: int) -> int:
        """The line of byte `at`; asked in increasing order, so each newline is counted once."""
        self._lines += self._data.count(b"\n", self._counted, at)
        self._counted = at
        return self._lines

    def _last_line(self) -> int:
        return self._line(len(self._data) - 1) if self._data.endswith(b"\n") else self._line(len(self._data))

    def _open(self, data: bytes):
        m = _NOT_BLANK.search(data)
        if m is None:
            return None
        if data[m.start()] != 0x5B:
            self._fail(self._line(m.start()), 'expected a JSON array starting with "["')
            return self._after_end(m.end(), self._line(m.start()))
        return m.end()

    def _value_end(self, start: int):
        """(end, where to go on, closes the array) for the element starting at `start` (its closing byte
        included when it is an object or a list; a scalar ends before the ',' or ']' after it), or None
        when the file ends inside it."""
        data, depth, pos = self._data, 1, start
        while True:
            m = _IN_VALUE.search(data, pos)
            if m is None:
                return None
            c, pos = data[m.start()], m.end()
            if c == 0x22:
                pos = self._string_end(pos)
                if pos is None:
                    return None
            elif c in (0x7B, 0x5B):
                depth += 1
            elif c in (0x7D, 0x5D):
                if depth == 1:
                    return m.start(), m.end(), True
                depth -= 1
                if depth == 1:
                    return m.end(), m.end(), False
            elif depth == 1:
                return m.start(), m.end(), False

    def _string_end(self, pos: int):
        while True:
            m = _IN_STRING.search(self._data, pos)
            if m is None:
                return None
            if self._data[m.start()] == 0x22:
                return m.end()
            pos = m.end() + 1

    def _finish(self, start: int, end: int) -> None:
        line = self._line(start)
        if end - start > self._max:
            reason = f"array element too long: {end - start} bytes (limit {self._max}); it was skipped, the elements after it are read"
            return self._error(LineError(line, LINE, "line_too_long", reason))
        text, bad = _decode(self._data[start:end])
        if has_non_ws(text):
            self._element(text, line, bad)

    def _after_end(self, pos: int, told: int = 0) -> None:
        """Each later line with text on it is told once."""
        while True:
            m = _NOT_BLANK.search(self._data, pos)
            if m is None:
                return
            line = self._line(m.start())
            if line != told:
                self._fail(line, AFTER_END)
                told = line
            nl = self._data.find(b"\n", m.start())
            if nl < 0:
                return
            pos = nl + 1

    def _fail(self, line: int, reason: str) -> None:
        self._error(LineError(line, LINE, "invalid_json", reason))
