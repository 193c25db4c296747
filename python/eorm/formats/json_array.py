"""Splits a top-level JSON array into its elements line by line, each with the line it starts on
(jsonArray.ts is the twin)."""
from __future__ import annotations

from typing import Callable

from ..js import has_non_ws
from ..jsonl import LINE, LineError

_SPACE = " \t\n\r"


class ArraySplitter:
    def __init__(self, element: Callable[[str, int], None], error: Callable[[LineError], None]) -> None:
        self._element = element
        self._error = error
        self.depth = 0
        self.in_string = False
        self.escaped = False
        self.parts = []
        self.start_line = 0
        self.in_element = False
        self.done = False

    def line(self, text: str, line: int) -> None:
        if self.done:
            if has_non_ws(text):
                self._fail(line, "text after the end of the JSON array (one file holds one array)")
            return
        start = 0
        i = 0
        n = len(text)
        while i < n:
            c = text[i]
            if self.in_string:
                if self.escaped:
                    self.escaped = False
                elif c == "\\":
                    self.escaped = True
                elif c == '"':
                    self.in_string = False
                i += 1
                continue
            if self.depth == 0:
                if c == "[":
                    self.depth = 1
                elif c not in _SPACE and c != "\ufeff":
                    return self._fail(line, 'expected a JSON array starting with "["')
                i += 1
                continue
            if not self.in_element:
                if c in _SPACE or c == ",":
                    i += 1
                    continue
                if c == "]":
                    self.done = True
                    if has_non_ws(text[i + 1 :]):
                        self._fail(line, "text after the end of the JSON array (one file holds one array)")
                    return
                self.in_element = True
                self.start_line = line
                start = i
            if c == '"':
                self.in_string = True
            elif c in "{[":
                self.depth += 1
            elif c in "}]":
                if self.depth == 1:
                    self._finish(text[start:i])
                    self.done = True
                    return
                self.depth -= 1
                if self.depth == 1:
                    self._finish(text[start : i + 1])
                    start = i + 1
            elif c == "," and self.depth == 1:
                self._finish(text[start:i])
            i += 1
        if self.in_element:
            self.parts.append(text[start:])

    def too_long(self, line: int, nbytes: int, limit: int) -> None:
        self._fail(line, f"line too long: {nbytes} bytes (limit {limit}); the rest of the JSON array was not read", "line_too_long")

    def end(self, last_line: int) -> None:
        if not self.done and self.depth != 0:
            self._fail(last_line, "the JSON array is not closed: the file ends inside it (was it cut short?)")

    def _finish(self, tail: str) -> None:
        self.parts.append(tail)
        text = "\n".join(self.parts)
        self.parts = []
        self.in_element = False
        if has_non_ws(text):
            self._element(text, self.start_line)

    def _fail(self, line: int, reason: str, kind: str = "invalid_json") -> None:
        self._error(LineError(line, LINE, kind, reason))
        self.done = True
        self.depth = -1
        self.in_element = False
        self.parts = []
