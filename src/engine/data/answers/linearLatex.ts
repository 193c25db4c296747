/**
 * LaTeX spelled one way, for answer keys (answerKey.ts): fractions, roots and exponents in one linear form.
 * python/eorm/answers/answer_key.py is the twin.
 */

/** Collections in collections and fractions in fractions are read this deep; deeper ones stay as written. */
export const MAX_DEPTH = 8;

/** For each "{" of s, the index of its matching "}" (or -1): one pass, so reading arguments never rescans. */
function braceMatches(s: string): Int32Array {
  const close = new Int32Array(s.length).fill(-1);
  const open: number[] = [];
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '{') open.push(i);
    else if (s[i] === '}' && open.length > 0) close[open.pop()!] = i;
  }
  return close;
}

/** Reads one argument of \frac, \sqrt, ^ or _ at i: a {group}, a \command or one character. [content, end]. */
function argumentAt(s: string, i: number, close: Int32Array): [string, number] | null {
  if (i >= s.length) return null;
  if (s[i] === '{') return close[i] < 0 ? null : [s.slice(i + 1, close[i]), close[i] + 1];
  if (s[i] === '\\') {
    const m = /^\\[A-Za-z]+/.exec(s.slice(i, i + 40));
    if (m !== null) return [m[0], i + m[0].length];
  }
  // One character: a whole code point, as the Python twin reads strings ("\sqrt𝑥" is \sqrt{𝑥}).
  const end = i + (s.codePointAt(i)! > 0xffff ? 2 : 1);
  return [s.slice(i, end), end];
}

const ATOMIC_DENOMINATOR = /^(?:\d+(?:\.\d+)?|[A-Za-z]|\\[A-Za-z]+|\\sqrt\{[^{}]*\})$/;

/** A numerator needs no brackets when it has no operator outside braces ("2\sqrt{3}", "\pi"). */
function atomicNumerator(s: string): boolean {
  if (s === '') return false;
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (depth === 0 && '+-*/=,<>'.includes(c)) return false;
  }
  return !s.includes('\\cdot') && !s.includes('\\times');
}

/**
 * LaTeX to one linear spelling (whitespace already removed): \frac{a}{b} → a/b (brackets where needed),
 * \sqrt3 → \sqrt{3}, x^{2} → x^2. So \frac{\pi}{2} and \pi/2, \frac{\sqrt3}{2} and \sqrt{3}/2 agree.
 */
export function linearLatex(s: string, depth: number): string {
  if (depth >= MAX_DEPTH) return s;
  const close = braceMatches(s);
  let out = '';
  let i = 0;
  while (i < s.length) {
    if (s.startsWith('\\frac', i) && !/[A-Za-z]/.test(s[i + 5] ?? '')) {
      const a = argumentAt(s, i + 5, close);
      const b = a === null ? null : argumentAt(s, a[1], close);
      if (a !== null && b !== null) {
        const num = linearLatex(a[0], depth + 1);
        const den = linearLatex(b[0], depth + 1);
        // After a digit, a product sign: "2\frac{5}{3}" is 2·5/3, not "25/3" (a mixed number was read before this).
        const times = /[\d.]$/.test(out.slice(-1)) && /^[\d.]/.test(num) ? '\\cdot' : '';
        out += `${times}${atomicNumerator(num) ? num : `(${num})`}/${ATOMIC_DENOMINATOR.test(den) ? den : `(${den})`}`;
        i = b[1];
        continue;
      }
    }
    if (s.startsWith('\\sqrt', i) && !/[A-Za-z]/.test(s[i + 5] ?? '')) {
      let j = i + 5;
      let index = '';
      if (s[j] === '[') {
        // An index of letters and digits ("\\sqrt[3]{2}", "\\sqrt[n]{x}").
        let k = j + 1;
        while (k < s.length && /[A-Za-z0-9]/.test(s[k])) k++;
        if (s[k] === ']') [index, j] = [s.slice(j, k + 1), k + 1];
      }
      const a = argumentAt(s, j, close);
      if (a !== null) {
        out += `\\sqrt${index}{${linearLatex(a[0], depth + 1)}}`;
        i = a[1];
        continue;
      }
    }
    if ((s[i] === '^' || s[i] === '_') && s[i + 1] === '{') {
      const a = argumentAt(s, i + 1, close);
      if (a !== null) {
        const inner = linearLatex(a[0], depth + 1);
        out += inner.length === 1 ? `${s[i]}${inner}` : `${s[i]}{${inner}}`;
        i = a[1];
        continue;
      }
    }
    if (s[i] === '\\') {
      // A command name (at most 40 characters with its backslash), or a backslash and the character after it.
      const m = /^\\[A-Za-z]+/.exec(s.slice(i, i + 40));
      const end = m !== null ? i + m[0].length : i + 2;
      out += s.slice(i, end);
      i = end;
      continue;
    }
    out += s[i];
    i++;
  }
  return out;
}
