"""Numbers in final answers, read exactly, as the app's src/engine/data/answers/answerNumber.ts: every spelling of a
number (18, -$40, 1,234.50, .5, 56/3, \\frac{56}{3}, \\frac56, 2\\frac{1}{2}, 1.5e3, 1.5 \\times 10^{3}, 1011_2,
18 eggs, 50%, 2.5 million, $50k, 5 squared) becomes one exact rational, so equal numbers get one key and
different ones never share it."""
from __future__ import annotations

from typing import Optional

from ..js_regex import js_re
from .number_words import number_words
from .rational import MAX_EXPONENT, Rational, int_of, rational

# A decimal with at least this many digits after the point may stand for a fraction it rounds or truncates.
APPROX_MIN_DIGITS = 3
# ... a fraction with a denominator at most this (at most one such fraction fits a 3-place decimal).
APPROX_MAX_DEN = 20
# Decimals are read rounded to this many places: more is floating-point noise (499.99999999999994 is 500).
MAX_PLACES = 12
# Currency signs, before a number or after it ("350$").
CURRENCY = ("\\$", "$", "\u20ac", "\u00a3")


def _decimal_value(int_digits: str, frac_digits: str) -> Rational:
    places = min(len(frac_digits), MAX_PLACES)
    scale = 10**places
    x = int_of("0" + int_digits + frac_digits[:places])
    if len(frac_digits) > MAX_PLACES and frac_digits[MAX_PLACES] >= "5":
        x += 1  # rounded half up
    exact = rational(x, scale)
    if places < APPROX_MIN_DIGITS or exact[1] <= APPROX_MAX_DEN:
        return exact
    for q in range(2, APPROX_MAX_DEN + 1):
        below = x * q // scale
        for p in (below, below + 1):
            truncated = p * scale // q
            rounded = (2 * p * scale + q) // (2 * q)
            if truncated == x or rounded == x:
                return rational(p, q)
    return exact


def _is_digit(c: Optional[str]) -> bool:
    return c is not None and "0" <= c <= "9"


def _is_space(c: Optional[str]) -> bool:
    return c in (" ", "\t", "\n", "\r")


COMPACT_UNITS = frozenset(["cm", "mm", "km", "m", "kg", "g", "mg", "ml", "l", "s", "ft", "in", "yd", "mi", "lb", "lbs", "oz", "mph", "h", "hr", "hrs", "min"])
_SPACED_UNIT = js_re(r"^[A-Za-z][A-Za-z. /]*(?:\^\{?[23]\}?)?$")
_COMPACT_UNIT = js_re(r"^([A-Za-z]+)(?:\^\{?[23]\}?)?$")


class _Scanner:
    def __init__(self, s: str) -> None:
        self.s = s
        self.i = 0

    def at(self, k: int = 0) -> Optional[str]:
        j = self.i + k
        return self.s[j] if j < len(self.s) else None

    def skip_spaces(self) -> bool:
        start = self.i
        while _is_space(self.at()):
            self.i += 1
        return self.i > start

    def eat(self, word: str) -> bool:
        if not self.s.startswith(word, self.i):
            return False
        self.i += len(word)
        return True

    def digits(self) -> str:
        start = self.i
        while _is_digit(self.at()):
            self.i += 1
        return self.s[start : self.i]

    def sign(self) -> int:
        if self.eat("-"):
            return -1
        self.eat("+")
        return 1


def _integer_part(sc: _Scanner) -> str:
    """Digits with optional thousands groups ("1,234,567", "9 500"; one separator throughout)."""
    out = sc.digits()
    if len(out) == 0 or len(out) > 3:
        return out
    separator = sc.at() if sc.at() in (",", " ") else ""
    while separator != "":
        at = sc.i
        if not sc.eat(separator):
            break
        group = sc.digits()
        if len(group) != 3 or (separator == " " and sc.at() in ("/", ".")):
            sc.i = at
            break
        out += group
    return out


def _unsigned_decimal(sc: _Scanner) -> Optional[Rational]:
    int_digits = _integer_part(sc)
    frac_digits = ""
    dot = sc.i
    if sc.eat("."):
        frac_digits = sc.digits()
        if frac_digits == "" and int_digits == "":
            sc.i = dot
            return None
    if int_digits == "" and frac_digits == "":
        return None
    value = _decimal_value(int_digits, frac_digits)
    exponent = _read_exponent(sc)
    if exponent == 0:
        return value
    if abs(exponent) > MAX_EXPONENT:
        return None
    power = 10 ** abs(exponent)
    return rational(value[0] * power, value[1]) if exponent > 0 else rational(value[0], value[1] * power)


def _read_exponent(sc: _Scanner) -> int:
    at = sc.i
    if sc.eat("e") or sc.eat("E"):
        sign = sc.sign()
        d = sc.digits()
        if d != "" and len(d) <= 6:
            return sign * int(d)
        sc.i = at
        return 0
    sc.skip_spaces()
    if sc.eat("\\times") or sc.eat("\\cdot") or sc.eat("*"):
        sc.skip_spaces()
        if sc.eat("10^"):
            braced = sc.eat("{")
            sign = sc.sign()
            d = sc.digits()
            if d != "" and len(d) <= 6 and (not braced or sc.eat("}")):
                return sign * int(d)
    sc.i = at
    return 0


def _frac_argument(sc: _Scanner) -> Optional[Rational]:
    if _is_digit(sc.at()):
        d = sc.at()
        sc.i += 1
        return rational(int(d), 1)
    if not sc.eat("{"):
        return None
    sc.skip_spaces()
    sign = sc.sign()
    sc.skip_spaces()
    v = _unsigned_decimal(sc)
    sc.skip_spaces()
    if v is None or not sc.eat("}"):
        return None
    return rational(sign * v[0], v[1])


def _quotient(a: Optional[Rational], b: Optional[Rational]) -> Optional[Rational]:
    if a is None or b is None:
        return None
    return rational(a[0] * b[1], a[1] * b[0])


def _latex_fraction(sc: _Scanner) -> Optional[Rational]:
    at = sc.i
    if not sc.eat("\\frac"):
        return None
    sc.skip_spaces()
    a = _frac_argument(sc)
    sc.skip_spaces()
    q = _quotient(a, None if a is None else _frac_argument(sc))
    if q is None:
        sc.i = at
    return q


def _magnitude(sc: _Scanner) -> Optional[Rational]:
    latex = _latex_fraction(sc)
    if latex is not None:
        return latex
    start = sc.i
    first = _unsigned_decimal(sc)
    if first is None:
        return None
    after_first = sc.i
    sc.skip_spaces()
    if sc.eat("/"):
        sc.skip_spaces()
        q = _quotient(first, _unsigned_decimal(sc))
        if q is not None:
            return q
    sc.i = after_first
    if first[1] == 1 and _is_digit(sc.s[start]) and "," not in sc.s[start:after_first]:
        sc.skip_spaces()
        frac = _latex_fraction(sc)
        if frac is None:
            frac = _plain_fraction(sc)
        if frac is not None and 0 < frac[0] < frac[1]:
            return rational(first[0] * frac[1] + frac[0], frac[1])
        sc.i = after_first
    return first


def _plain_fraction(sc: _Scanner) -> Optional[Rational]:
    at = sc.i
    a = sc.digits()
    if a != "" and sc.eat("/"):
        b = sc.digits()
        if b != "" and not _is_digit(sc.at()) and sc.at() != ".":
            return rational(int(a), int(b))
    sc.i = at
    return None


def _skip_base(sc: _Scanner) -> None:
    at = sc.i
    if not sc.eat("_"):
        return
    braced = sc.eat("{")
    if sc.digits() != "" and (not braced or sc.eat("}")):
        return
    sc.i = at


def _is_unit_tail(rest: str, spaced: bool) -> bool:
    if rest in ("", "%") or rest in CURRENCY:
        return True
    if spaced:
        return _SPACED_UNIT.match(rest) is not None
    m = _COMPACT_UNIT.match(rest)
    return m is not None and m.group(1).lower() in COMPACT_UNITS


def parse_number(text: str) -> Optional[Rational]:
    """The exact value of an answer that is one number, or None (see the app's parseNumber)."""
    sc = _Scanner(text)
    sign = sc.sign()
    sc.skip_spaces()
    if any(sc.eat(c) for c in CURRENCY):
        sc.skip_spaces()
        if sign == 1:
            sign = sc.sign()
    value = _magnitude(sc)
    if value is None:
        return None
    if value[1] == 1 and sc.at() == "_":
        _skip_base(sc)
    scaled, sc.i = number_words(text, sc.i, value)
    spaced = sc.skip_spaces()
    if scaled is None or not _is_unit_tail(text[sc.i :], spaced):
        return None
    return rational(sign * scaled[0], scaled[1])


# Number tokens in running text: a mixed number ("2 1/2") or a sign, a currency sign, thousands groups,
# decimals (".5" too), a "/denominator".
NUMBER_TOKEN = js_re(r"\d+ \d+\/\d+(?![\d.\/])|-?\$?(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)(?:\/\d+)?")
