"""Words after a number that are part of it (answer_number.py), as the app's src/engine/data/answers/numberWords.ts: a
scale ("2.5 million", "$50k") multiplies it, a power ("5 squared") raises it."""
from __future__ import annotations

from typing import Optional, Tuple

from .rational import Rational, mul, pow_

_SCALE_WORDS = (("hundred", 100), ("thousand", 1000), ("million", 10**6), ("billion", 10**9), ("trillion", 10**12))
_POWER_WORDS = (("squared", 2), ("cubed", 3))


def _is_letter(c: Optional[str]) -> bool:
    return c is not None and (("a" <= c <= "z") or ("A" <= c <= "Z"))


def _word_at(s: str, i: int, word: str) -> int:
    end = i + len(word)
    return end if s.startswith(word, i) and not _is_letter(s[end] if end < len(s) else None) else -1


def _after_spaces(s: str, i: int) -> int:
    while i < len(s) and s[i] in " \t\n\r":
        i += 1
    return i


def number_words(s: str, i: int, value: Rational) -> Tuple[Optional[Rational], int]:
    """The value with the words at `i` applied, and where they end (see the app's numberWords)."""
    out: Optional[Rational] = value
    end = i + 1 if _word_at(s, i, "k") >= 0 or _word_at(s, i, "K") >= 0 else -1
    if end >= 0:
        out = mul(value, (1000, 1))
    else:
        start = _after_spaces(s, i)
        scale = next((w for w in _SCALE_WORDS if _word_at(s, start, w[0]) >= 0), None)
        end = i if scale is None else start + len(scale[0])
        if scale is not None:
            out = mul(value, (scale[1], 1))
    start = _after_spaces(s, end)
    power = next((w for w in _POWER_WORDS if _word_at(s, start, w[0]) >= 0), None)
    if power is None:
        return out, end
    return (None if out is None else pow_(out, (power[1], 1))), start + len(power[0])
