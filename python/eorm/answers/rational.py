"""Exact rationals for answers, as the app's src/engine/data/answers/rational.ts: numbers as written (answer_number.py)
and constant expressions evaluated exactly (math_eval.py). Every operation refuses (None) a result over
MAX_BITS: bounded work, whatever the answer says."""
from __future__ import annotations

import math
from math import gcd
from typing import Optional, Tuple

# (num, den): den > 0, gcd(|num|, den) = 1.
Rational = Tuple[int, int]

MAX_BITS = 4096
MAX_EXPONENT = 1000


def rational(num: int, den: int) -> Optional[Rational]:
    if den == 0:
        return None
    sign = -1 if den < 0 else 1
    g = gcd(num, den)
    return (sign * num // g, sign * den // g)


def _bounded(num: int, den: int) -> Optional[Rational]:
    r = rational(num, den)
    return None if r is None or r[0].bit_length() > MAX_BITS or r[1].bit_length() > MAX_BITS else r


def add(a: Rational, b: Rational) -> Optional[Rational]:
    return _bounded(a[0] * b[1] + b[0] * a[1], a[1] * b[1])


def sub(a: Rational, b: Rational) -> Optional[Rational]:
    return _bounded(a[0] * b[1] - b[0] * a[1], a[1] * b[1])


def mul(a: Rational, b: Rational) -> Optional[Rational]:
    return _bounded(a[0] * b[0], a[1] * b[1])


def div(a: Rational, b: Rational) -> Optional[Rational]:
    return _bounded(a[0] * b[1], a[1] * b[0])


def pow_(a: Rational, e: Rational) -> Optional[Rational]:
    """a^e for a whole e; None when the result would pass MAX_BITS (judged before computing it) or 0 is inverted."""
    if e[1] != 1 or abs(e[0]) > MAX_EXPONENT:
        return None
    n = abs(e[0])
    # A part of b bits to the n has more than (b − 1)·n bits.
    if (max(a[0].bit_length(), a[1].bit_length()) - 1) * n > MAX_BITS:
        return None
    r = _bounded(a[0] ** n, a[1] ** n)
    return r if r is None or e[0] >= 0 else div((1, 1), r)


def _exact_sqrt(a: int) -> Optional[int]:
    if a < 0:
        return None
    r = math.isqrt(a)
    return r if r * r == a else None


def sqrt(a: Rational) -> Optional[Rational]:
    """√a when it is rational, else None."""
    n = _exact_sqrt(a[0])
    d = None if n is None else _exact_sqrt(a[1])
    return None if n is None or d is None else (n, d)


def factorial(a: Rational) -> Optional[Rational]:
    """n! for a whole 0 ≤ n ≤ 100."""
    if a[1] != 1 or a[0] < 0 or a[0] > 100:
        return None
    return (math.factorial(a[0]), 1)


# CPython refuses int <-> str conversions past 4300 digits; answers of up to 65,536 digits are read in halves.
_SAFE_DIGITS = 4000


def int_of(digits: str) -> int:
    """int(digits) for any length (JS's BigInt(digits))."""
    if len(digits) <= _SAFE_DIGITS:
        return int(digits)
    low = len(digits) // 2
    return int_of(digits[:-low]) * 10**low + int_of(digits[-low:])


def str_of(n: int) -> str:
    """str(n) for any size (JS's BigInt toString())."""
    if n < 0:
        return "-" + str_of(-n)
    if n.bit_length() <= 3 * _SAFE_DIGITS:
        return str(n)
    low = n.bit_length() * 3 // 20  # about half its digits (log10 2 ≈ 0.3)
    high, rest = divmod(n, 10**low)
    return str_of(high) + str_of(rest).rjust(low, "0")


def _to_float(n: int) -> float:
    """The nearest double (JS's Number(bigint): ±Infinity past the largest double)."""
    try:
        return float(n)
    except OverflowError:
        return math.inf if n > 0 else -math.inf


def to_double(r: Rational) -> float:
    return _to_float(r[0]) / _to_float(r[1])


def rational_key(r: Rational) -> str:
    """"18", "-40", "0.75", "18.5", else "p/q" ("56/3"): one key per rational."""
    num, den = r
    if den == 1:
        return str_of(num)
    rest, twos, fives = den, 0, 0
    while rest % 2 == 0:
        rest, twos = rest // 2, twos + 1
    while rest % 5 == 0:
        rest, fives = rest // 5, fives + 1
    if rest != 1:
        return f"{str_of(num)}/{str_of(den)}"
    places = max(twos, fives)
    digits = str_of(abs(num) * 10**places // den).rjust(places + 1, "0")
    return f"{'-' if num < 0 else ''}{digits[:-places]}.{digits[-places:]}"
