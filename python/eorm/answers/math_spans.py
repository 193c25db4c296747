"""The last piece of mathematics in a text, as the app's src/engine/data/answers/mathSpans.ts: `$$…$$`, `\\[…\\]`,
`\\(…\\)` or `$…$` (a single `$` by pandoc's rule, or with a LaTeX command inside). Linear: each position is
looked at a bounded number of times."""
from __future__ import annotations

from typing import List, Optional, Tuple

# (content, just after the closing delimiter)
Span = Tuple[str, int]


def _is_space(c: Optional[str]) -> bool:
    return c in (" ", "\t", "\n", "\r")


def _inline_closers(text: str) -> Tuple[List[int], List[int], List[int]]:
    """For each position: the first `$` on its line that may close inline math strictly (pandoc), the first
    single unescaped `$`, and the first backslash (-1: none)."""
    n = len(text)
    strict, loose, backslash = [-1] * (n + 1), [-1] * (n + 1), [-1] * (n + 1)
    for k in range(n - 1, -1, -1):
        c = text[k]
        prev = text[k - 1] if k > 0 else None
        nxt = text[k + 1] if k + 1 < n else None
        backslash[k] = k if c == "\\" else backslash[k + 1]
        if c == "\n":
            continue
        single = c == "$" and prev != "\\" and prev != "$" and nxt != "$"
        loose[k] = k if single else loose[k + 1]
        strict[k] = k if single and not _is_space(prev) and not (nxt is not None and "0" <= nxt <= "9") else strict[k + 1]
    return strict, loose, backslash


class _NextIndex:
    """text.find(needle, start) for rising `start`: a search is reused while its answer lies ahead."""

    def __init__(self, text: str, needle: str) -> None:
        self.text = text
        self.needle = needle
        self.found = -2

    def from_(self, start: int) -> int:
        if self.found == -1 or self.found >= start:
            return self.found
        self.found = self.text.find(self.needle, start)
        return self.found


def last_math_span(text: str) -> Optional[Span]:
    strict, loose, backslash = _inline_closers(text)
    paren, bracket, display, newline = (_NextIndex(text, x) for x in ("\\)", "\\]", "$$", "\n"))
    last: Optional[Span] = None
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        nxt = text[i + 1] if i + 1 < n else None
        if c == "\\":
            close = paren if nxt == "(" else bracket if nxt == "[" else None
            j = -1 if close is None else close.from_(i + 2)
            if j >= 0 and not (close is paren and 0 <= newline.from_(i + 2) < j):
                last = (text[i + 2 : j], j + 2)
                i = j + 1
            else:
                i += 1
        elif c == "$" and nxt == "$":
            j = display.from_(i + 2)
            if j < 0:
                return last
            last = (text[i + 2 : j], j + 2)
            i = j + 1
        elif c == "$":
            lo = loose[i + 1]
            command = lo >= 0 and 0 <= backslash[i + 1] < lo
            k = lo if command else (strict[i + 2] if not _is_space(nxt) and i + 2 <= n else -1)
            if k >= 0:
                last = (text[i + 1 : k], k + 1)
                i = k
        i += 1
    return last
