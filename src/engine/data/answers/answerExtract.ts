/**
 * The final answer a reader takes from a chain of thought. python/eorm/answers/answer_extract.py is the twin.
 * Everything here runs in time linear in its input (no backtracking regex on unbounded text), and reads a
 * bounded amount: lines can be megabytes of degenerate model output.
 */
import { lastBoxes } from './answerBoxes.ts';
import { MAX_EXAMINED_CHARS } from './answerKey.ts';
import { NUMBER_TOKEN } from './answerNumber.ts';
import { lastMathSpan } from './mathSpans.ts';

/** The last MAX_EXAMINED_CHARS of `text`, starting at a line start when one is in that window. */
function tail(text: string): string {
  const from = text.length - MAX_EXAMINED_CHARS;
  if (from <= 0) return text;
  const nl = text.indexOf('\n', from);
  return text.slice(nl < 0 ? from : nl + 1);
}

interface Found {
  answer: string;
  /** Where it was found, to choose between rules of one rank. */
  at: number;
}

const LINE_END = /[\n\r\u2028\u2029]/g;

/** `text` from `from` to the end of that line (the line terminators of a regex's `.`). */
function restOfLine(text: string, from: number): [string, number] {
  LINE_END.lastIndex = from;
  const end = LINE_END.exec(text);
  const to = end === null ? text.length : end.index;
  return [text.slice(from, to), to];
}

// A line that starts (after spaces, list marks or markdown) with "Answer:", "Final answer:" or "A:".
const ANSWER_LINE = /^[ \t*#>_-]*(final answer|answer|a)[ \t*_]*:[ \t*_]*/gim;

/** What follows the last answer line's colon; an empty one takes the next non-blank line ("**Final Answer:**\n18"). */
function lastAnswerLine(text: string): Found | null {
  let last: Found | null = null;
  ANSWER_LINE.lastIndex = 0;
  for (let m = ANSWER_LINE.exec(text); m !== null; m = ANSWER_LINE.exec(text)) {
    if (m[1] === 'a') continue; // "a:" in running text is not the "A:" of an answer line
    let [rest, end] = restOfLine(text, ANSWER_LINE.lastIndex);
    if (rest.trim() === '') {
      let next = end;
      while (next < text.length && /\s/.test(text[next])) next++;
      [rest] = restOfLine(text, next);
    }
    if (rest.trim() !== '') last = { answer: rest, at: m.index };
    ANSWER_LINE.lastIndex = Math.max(ANSWER_LINE.lastIndex, end);
  }
  return last;
}

// Bounded lengths: a value longer than a final answer is not one, and every attempt stays short (linear time).
// No surrogates (astral characters): JS counts them as two, Python as one, and the bound must agree.
const JSON_ANSWER = /"answer"\s*:\s*("(?:[^"\\\n\r\u2028\u2029\ud800-\udfff]|\\[^\n\r\u2028\u2029\ud800-\udfff]){0,200}"|-?\d[\d.,eE+-]{0,100})/g;

/** The last `"answer": "…"` or `"answer": 18` of a JSON answer in the text. */
function lastJsonAnswer(text: string): Found | null {
  let last: Found | null = null;
  JSON_ANSWER.lastIndex = 0;
  for (let m = JSON_ANSWER.exec(text); m !== null; m = JSON_ANSWER.exec(text)) {
    let value = m[1];
    if (value.startsWith('"')) {
      try {
        value = JSON.parse(value) as string;
      } catch {
        value = value.slice(1, -1);
      }
    }
    last = { answer: value, at: m.index };
  }
  return last;
}

/**
 * The later of a final answer line and a JSON "answer": both are the answer's own statement. A line that says
 * "The final answer is $28\%$. I hope it is correct." states what follows "answer is".
 */
function answerStatement(text: string): string | null {
  const line = lastAnswerLine(text);
  const json = lastJsonAnswer(text);
  if (json !== null && (line === null || json.at > line.at)) return json.answer;
  return line === null ? null : (answerIsPhrase(line.answer) ?? line.answer);
}

function restOfLineAfterLast(text: string, marker: RegExp): string | null {
  let from = -1;
  marker.lastIndex = 0;
  for (let m = marker.exec(text); m !== null; m = marker.exec(text)) from = marker.lastIndex;
  return from < 0 ? null : restOfLine(text, from)[0];
}

/** "The answer is $18. Done." → "$18": up to the first sentence end (a period before a space or the end). */
function answerIsPhrase(text: string): string | null {
  const rest = restOfLineAfterLast(text, /\banswers? (?:is|are)\b[ \t]*:?/gi);
  if (rest === null) return null;
  const end = rest.search(/\.(?:\s|$)/);
  return end < 0 ? rest : rest.slice(0, end);
}

// A number (a mixed number whole: "2\frac{1}{2}", "3 3/4"), or a LaTeX fraction read whole ("$\frac{3}{4}$" ends with 3/4, not with 4).
const NUMBER_OR_FRACTION = new RegExp(
  String.raw`\d+\s*\\[dt]?frac\s*\{\d+\}\s*\{\d+\}|-?\\[dt]?frac\s*\{[^{}]*\}\s*\{[^{}]*\}|-?\\[dt]?frac\d\d|` + NUMBER_TOKEN.source,
  'g',
);

/**
 * The last piece of mathematics or the last number, whichever ends later ("$[0,1)$" is the interval, not 1;
 * "so $x$ apples: 18" is 18). A number inside the mathematics is part of it.
 */
function lastMathOrNumber(text: string): string | null {
  const span = lastMathSpan(text);
  let last: RegExpExecArray | null = null;
  NUMBER_OR_FRACTION.lastIndex = 0;
  for (let m = NUMBER_OR_FRACTION.exec(text); m !== null; m = NUMBER_OR_FRACTION.exec(text)) last = m;
  if (span !== null && span.content.trim() !== '' && (last === null || last.index < span.end)) return span.content;
  return last === null ? null : last[0];
}

/** Trims an extracted answer: spaces, markdown emphasis around it, trailing sentence punctuation. */
function clean(found: string): string {
  let a = 0;
  let b = found.length;
  for (;;) {
    const before = b - a;
    while (a < b && (found[a] === '*' || /\s/.test(found[a]))) a++;
    while (b > a && (found[b - 1] === '*' || /\s/.test(found[b - 1]) || '.,;:'.includes(found[b - 1]))) b--;
    if (b - a === before) return found.slice(a, b);
  }
}

/**
 * The final answer written in a chain of thought, by the first rule that finds one anywhere in the text:
 * the last `\boxed{…}` (or `\fbox`, with the boxes just before it that connect to it: a list), else the
 * last `Answer:` / `Final answer:` / `A:` line or JSON `"answer"`, else the last "the answer is …", else the
 * text after the last `####`, else the last piece of mathematics or number. Null if there is none. Only the
 * text's last MAX_EXAMINED_CHARS are searched.
 */
export function extractAnswer(fullText: string): string | null {
  const text = tail(fullText);
  const rules = [lastBoxes, answerStatement, answerIsPhrase, (t: string) => restOfLineAfterLast(t, /####/g), lastMathOrNumber];
  for (const find of rules) {
    const found = find(text);
    if (found !== null && clean(found) !== '') return clean(found);
  }
  return null;
}
