/**
 * Final answers for majority voting: extract one from a chain of thought, and reduce it to a
 * canonical key so that equal answers written differently ("$1,000.00", "1000") vote together.
 * Everything here runs in time linear in its input (no backtracking regex on unbounded text), and
 * reads a bounded amount: lines can be megabytes of degenerate model output.
 */

/**
 * Characters examined: only the end of a longer text is searched for the final answer (which is where
 * it is written), and a longer answer is not a final answer: it gets no key (no vote).
 */
export const MAX_EXAMINED_CHARS = 65_536;
/** Nested wrappers stripped at most (`$\boxed{\text{18}}$` has 3): each pass reads the whole answer once. */
const MAX_UNWRAP_PASSES = 8;

/** Content of the last `\boxed{…}` / `\fbox{…}` (braces balanced), or null. */
function lastBoxed(text: string): string | null {
  const re = /\\(?:boxed|fbox)\s*\{/g;
  let open = -1;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) open = re.lastIndex;
  if (open < 0) return null;
  let depth = 1;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return text.slice(open, i);
  }
  return null;
}

function restOfLineAfterLast(text: string, marker: RegExp): string | null {
  let from = -1;
  for (let m = marker.exec(text); m !== null; m = marker.exec(text)) from = marker.lastIndex;
  if (from < 0) return null;
  const nl = text.indexOf('\n', from);
  return text.slice(from, nl < 0 ? text.length : nl).trim();
}

/** "The answer is $18. Done." → "$18": up to the first sentence end (a period before a space or the end). */
function answerIsPhrase(text: string): string | null {
  const rest = restOfLineAfterLast(text, /the (?:final )?answer is\s*:?/gi);
  if (rest === null) return null;
  const end = rest.search(/\.(?:\s|$)/);
  return end < 0 ? rest : rest.slice(0, end);
}

const LINE_END = /[\n\r\u2028\u2029]/g;

/** `text` from `from` to the end of that line (the line terminators of a regex's `.`). */
function restOfLine(text: string, from: number): string {
  LINE_END.lastIndex = from;
  const end = LINE_END.exec(text);
  return text.slice(from, end === null ? text.length : end.index);
}

/** What follows "A:" on the last line that starts with it (after spaces or tabs) and has something after it. */
function lastAnswerLine(text: string): string | null {
  // Only the line start is matched by a regex; the rest of each line is read once, so this stays linear.
  const start = /^[ \t]*A:/gm;
  let last: string | null = null;
  for (let m = start.exec(text); m !== null; m = start.exec(text)) {
    const rest = restOfLine(text, start.lastIndex).trim();
    if (rest !== '') last = rest;
  }
  return last;
}

/** The last MAX_EXAMINED_CHARS of `text`, starting at a line start when one is in that window. */
function tail(text: string): string {
  const from = text.length - MAX_EXAMINED_CHARS;
  if (from <= 0) return text;
  const nl = text.indexOf('\n', from);
  return text.slice(nl < 0 ? from : nl + 1);
}

function lastMatch(text: string, re: RegExp): string | null {
  let last: string | null = null;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) last = m[1] ?? m[0];
  return last;
}

// Thousands separators only in groups of three, so "5,6" stays a list, not 56.
const NUMBER = /-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?/g;

/**
 * The final answer written in a chain of thought, by the first rule that applies: the last
 * `\boxed{…}`, the text after the last `####`, after the last "The answer is", a last `A:` line,
 * else the last number. Null if there is none. Only the text's last MAX_EXAMINED_CHARS are searched.
 */
export function extractAnswer(fullText: string): string | null {
  const text = tail(fullText);
  const candidates = [
    () => lastBoxed(text),
    () => restOfLineAfterLast(text, /####/g),
    () => answerIsPhrase(text),
    () => lastAnswerLine(text),
    () => lastMatch(text, NUMBER),
  ];
  for (const find of candidates) {
    const found = find();
    if (found !== null && found.trim() !== '') return found.trim();
  }
  return null;
}

/** `$…$`, `$$…$$` (any run of dollars on each side, none inside) → its content. */
function stripDollars(s: string): string {
  let a = 0;
  while (a < s.length && s.charCodeAt(a) === 0x24) a++;
  if (a === 0) return s;
  if (a === s.length) return a >= 2 ? '' : s;
  let b = s.length;
  while (s.charCodeAt(b - 1) === 0x24) b--;
  if (b === s.length) return s;
  const inner = s.slice(a, b);
  return inner.includes('$') ? s : inner;
}

/** Drops trailing periods and whitespace ("18. " → "18"); each step removes characters, so it is linear. */
function trimEndDots(s: string): string {
  let out = s.trimEnd();
  while (out.endsWith('.')) out = out.slice(0, -1).trimEnd();
  return out;
}

/** Strips wrappers that do not change an answer: math delimiters, \boxed, \text and friends, LaTeX spacing. */
function unwrap(s: string): string {
  let out = s.trim();
  for (let pass = 0; pass < MAX_UNWRAP_PASSES; pass++) {
    const before = out;
    out = trimEndDots(
      stripDollars(out)
        .replace(/^\\\((.*)\\\)$/s, '$1')
        .replace(/^\\\[(.*)\\\]$/s, '$1')
        .replace(/^\\(?:boxed|fbox)\s*\{(.*)\}$/s, '$1')
        .replace(/\\(?:text|textbf|textrm|mathrm|mathbf|mbox)\s*\{([^{}]*)\}/g, '$1')
        .replace(/\\(?:left|right)\b/g, '')
        .replace(/\\[!,;: ]/g, '')
        .replace(/\{,\}/g, ',')
        .replace(/\\%/g, '%')
        .replace(/\^\s*\{?\\circ\}?/g, '')
        .replace(/\\[dt]frac/g, '\\frac'),
    ).trim();
    if (out === before) break;
  }
  return out;
}

// A number, optionally followed by a unit made of letters ("18 eggs", "5 dollars/hour", "50%").
const NUMBER_WITH_UNIT = /^([-+]?(?:\d+(?:\.\d*)?|\.\d+))\s*(?:%|[A-Za-z°][A-Za-z°.\s/]*)?$/;
const FRACTION = /^([-+]?)(?:\\frac\s*\{\s*(\d+)\s*\}\s*\{\s*(\d+)\s*\}|\\frac(\d)(\d)|(\d+)\s*\/\s*(\d+))$/;

/**
 * Canonical key of an answer, or null if nothing is left or it is longer than MAX_EXAMINED_CHARS. Numbers compare numerically after
 * dropping `$`, thousands separators and a trailing unit ("$1,000.00" → "1000", "0.50" → "0.5",
 * "18 eggs" → "18"); simple fractions become "a/b" (`\frac{1}{2}`, `\dfrac12`, "1/2"); anything
 * else is the unwrapped text without whitespace (LaTeX spacing is not meaningful).
 */
export function answerKey(raw: string): string | null {
  if (raw.length > MAX_EXAMINED_CHARS) return null;
  const s = unwrap(raw.replace(/\u2212/g, '-'));
  const plain = s.replace(/\$/g, '').replace(/(\d),(?=\d{3}(?!\d))/g, '$1').trim();
  const num = NUMBER_WITH_UNIT.exec(plain);
  if (num) {
    const n = Number(num[1]);
    return Object.is(n, -0) ? '0' : String(n);
  }
  const frac = FRACTION.exec(plain);
  if (frac) {
    const [num1, den1] = [frac[2] ?? frac[4] ?? frac[6], frac[3] ?? frac[5] ?? frac[7]];
    return `${frac[1] === '-' ? '-' : ''}${Number(num1)}/${Number(den1)}`;
  }
  const text = s.replace(/\s+/g, '');
  return text === '' ? null : text;
}

/** The voting key of a candidate: its `answer` field when given (and not blank), else the answer extracted from its text. */
export function candidateAnswerKey(answerField: string | null, genText: string): string | null {
  if (answerField !== null && answerField.trim() !== '') return answerKey(answerField);
  const extracted = extractAnswer(genText);
  return extracted === null ? null : answerKey(extracted);
}
