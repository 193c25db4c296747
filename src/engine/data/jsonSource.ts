/**
 * Reading JSON numbers exactly. JSON.parse rounds every number to a double: 12345678901234567890 and
 * 12345678901234567891 become equal, 1e-400 becomes 0 and 0.99999999999999999 becomes 1. Where that
 * matters (ids, labels) we read the number's own text from the line instead.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** Index just past the string that starts at the quote `i`; an escaped quote is one after an odd run of backslashes. */
function endOfString(text: string, i: number): number {
  for (let from = i + 1; ;) {
    const q = text.indexOf('"', from);
    if (q < 0) return text.length;
    let b = q - 1;
    while (text.charCodeAt(b) === BACKSLASH) b--;
    if ((q - 1 - b) % 2 === 0) return q + 1;
    from = q + 1;
  }
}

/** Index just past the value that starts at `i`: a string, a nested object or array (iteratively), or a literal. */
function endOfValue(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === QUOTE) return endOfString(text, i);
  if (c === 0x7b || c === 0x5b) {
    let depth = 0;
    for (let j = i; j < text.length;) {
      const d = text.charCodeAt(j);
      if (d === QUOTE) {
        j = endOfString(text, j);
        continue;
      }
      if (d === 0x7b || d === 0x5b) depth++;
      else if ((d === 0x7d || d === 0x5d) && --depth === 0) return j + 1;
      j++;
    }
    return text.length;
  }
  let j = i;
  while (j < text.length) {
    const d = text.charCodeAt(j);
    if (d === 0x2c || d === 0x7d || d === 0x5d || isSpace(d)) break;
    j++;
  }
  return j;
}

/**
 * Source text of every top-level value of a JSON object, by key; the last of duplicate keys wins, as in
 * JSON.parse. `text` must be an object that JSON.parse accepted. Linear time, no recursion.
 */
export function topLevelSources(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let i = skipSpace(text, 0) + 1; // past '{'
  for (;;) {
    i = skipSpace(text, i);
    if (text.charCodeAt(i) !== QUOTE) return out; // '}' (or the end)
    const keyEnd = endOfString(text, i);
    const raw = text.slice(i + 1, keyEnd - 1);
    const key = raw.includes('\\') ? (JSON.parse(text.slice(i, keyEnd)) as string) : raw;
    i = skipSpace(text, skipSpace(text, keyEnd) + 1); // past ':'
    const end = endOfValue(text, i);
    out.set(key, text.slice(i, end));
    i = skipSpace(text, end);
    if (text.charCodeAt(i) !== 0x2c) return out;
    i++;
  }
}

/** Which of 0 and 1 a JSON number literal denotes exactly ("1.0", "10e-1", "-0" included), or null for any other value. */
export function exactZeroOrOne(literal: string): 0 | 1 | null {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(literal);
  if (m === null) return null;
  const [, sign, int, frac = '', exp = '0'] = m;
  const digits = `${int}${frac}`;
  // Index loops, not /0+$/: that regex backtracks quadratically on a long run of zeros before a digit.
  let first = 0;
  while (first < digits.length && digits.charCodeAt(first) === 0x30) first++;
  if (first === digits.length) return 0;
  let end = digits.length;
  while (digits.charCodeAt(end - 1) === 0x30) end--;
  // value = digits[first, end) × 10^(exp − fraction digits + trailing zeros dropped)
  const power = Number(exp) - frac.length + (digits.length - end);
  return sign === '' && end - first === 1 && digits[first] === '1' && power === 0 ? 1 : null;
}
