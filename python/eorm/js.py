"""JavaScript semantics the app's data rules depend on, so Python reads files exactly as the app does.

- JS `\\s` / `String.prototype.trim` whitespace (not Python's `str.isspace`, which also counts U+001C..U+001F
  and U+0085 and does not count U+FEFF);
- `String(number)` (Number::toString: "1000", "1e+21", "0.000001", "1e-7"), used for answer keys and ids;
- `JSON.stringify` of plain values (for the short value descriptions in error messages);
- UTF-16 lengths and slices (JS string lengths count UTF-16 code units).
"""
from __future__ import annotations

import json
import math
import re

# ECMAScript WhiteSpace (TAB, VT, FF, ZWNBSP, every Zs) and LineTerminator (LF, CR, LS, PS).
WHITESPACE = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
WS_SET = frozenset(WHITESPACE)
# A character class body usable inside Python regexes: [{WS}] = JS \s, [^{WS}] = JS \S.
WS = re.escape(WHITESPACE)


def is_ws(ch: str) -> bool:
    return ch in WS_SET


def trim(s: str) -> str:
    return s.strip(WHITESPACE)


def has_non_ws(s: str) -> bool:
    """`/\\S/.test(s)`."""
    return any(c not in WS_SET for c in s)


def number_to_string(x: float) -> str:
    """ECMAScript Number::toString(10) of a float (shortest round-trip digits, JS exponent thresholds)."""
    if isinstance(x, bool):
        raise TypeError("booleans are not numbers here")
    x = float(x)
    if math.isnan(x):
        return "NaN"
    if x == 0:
        return "0"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    sign = "-" if x < 0 else ""
    # repr gives the shortest digits that round-trip, as JS does; re-layout them by JS's rules.
    mantissa, _, exp = repr(abs(x)).partition("e")
    int_part, _, frac = mantissa.partition(".")
    digits = (int_part + frac).lstrip("0")
    # value = 0.digits... × 10^n  ⇔  digits × 10^(n − k)
    point = len(int_part) + (int(exp) if exp else 0)
    lead_zeros = len(int_part + frac) - len((int_part + frac).lstrip("0"))
    n = point - lead_zeros
    digits = digits.rstrip("0") or "0"
    k = len(digits)
    if k <= n <= 21:
        s = digits + "0" * (n - k)
    elif 0 < n <= 21:
        s = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        s = "0." + "0" * (-n) + digits
    else:
        e = n - 1
        es = ("+" if e >= 0 else "-") + str(abs(e))
        s = (digits if k == 1 else digits[0] + "." + digits[1:]) + "e" + es
    return sign + s


def _escape_lone_surrogates(s: str) -> str:
    return re.sub("[\ud800-\udfff]", lambda m: "\\u%04x" % ord(m.group(0)), s)


def json_stringify(v) -> str:
    """`JSON.stringify` of null, booleans, numbers and strings (what error messages quote)."""
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, (int, float)):
        f = float(v)
        return number_to_string(f) if math.isfinite(f) else "null"
    if isinstance(v, str):
        # Same escapes as V8: \" \\ \b \f \n \r \t, other controls as \u00xx, lone surrogates as \udxxx.
        return _escape_lone_surrogates(json.dumps(v, ensure_ascii=False))
    raise TypeError(f"not a plain JSON value: {type(v).__name__}")


def utf16_len(s: str) -> int:
    return sum(2 if ord(c) > 0xFFFF else 1 for c in s)


def utf16_slice(s: str, end: int) -> str:
    """`s.slice(0, end)` counted in UTF-16 code units (may cut a pair, leaving a lone surrogate, as JS does)."""
    units = s.encode("utf-16-le", "surrogatepass")[: 2 * end]
    return units.decode("utf-16-le", "surrogatepass")


def well_formed(s: str) -> str:
    """Lone surrogates → U+FFFD (what TextEncoder does before UTF-8 encoding); surrogate pairs are joined."""
    if not any("\ud800" <= c <= "\udfff" for c in s):
        return s
    return s.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def js_round(x: float) -> int:
    """Math.round: halves go up (towards +∞), unlike Python's round-half-even."""
    return math.floor(x + 0.5)


def finite_or_null(v):
    """A JSON value with every non-finite number turned into None, as JSON.stringify writes NaN and ±Infinity."""
    if isinstance(v, float) and not math.isfinite(v):
        return None
    if isinstance(v, dict):
        return {k: finite_or_null(x) for k, x in v.items()}
    if isinstance(v, list):
        return [finite_or_null(x) for x in v]
    return v
