/**
 * OpenAI-style chat completion batches: the output file (`custom_id`, `response.body.choices[i].message`,
 * `error`) joined on `custom_id` with its request file, whose last user message is the question. Output
 * order is not guaranteed, so requests are read first, whole.
 */
import { Reject, describeValue, requiredString } from '../record.ts';
import type { ObjectReader, ReadContext } from './context.ts';
import { isObject, messageText } from './fields.ts';

export const isChatRequest = (obj: Record<string, unknown>): boolean =>
  Object.hasOwn(obj, 'custom_id') && isObject(obj.body) && !Object.hasOwn(obj, 'response');
export const isChatOutput = (obj: Record<string, unknown>): boolean =>
  Object.hasOwn(obj, 'custom_id') && (Object.hasOwn(obj, 'response') || Object.hasOwn(obj, 'error'));

/** custom_id → question, from request lines; the ones never answered are counted at the end. */
export class ChatRequests {
  readonly questions = new Map<string, string>();
  readonly answered = new Set<string>();

  reader(): ObjectReader {
    return (obj) => {
      const id = requiredString(obj, 'custom_id');
      const messages = (obj.body as Record<string, unknown>).messages;
      if (!Array.isArray(messages)) throw new Reject('body.messages', 'wrong_type', `expected a list of messages, got ${describeValue(messages)}`);
      const users = messages.filter((m): m is Record<string, unknown> => isObject(m) && m.role === 'user');
      const text = users.length === 0 ? null : messageText(users[users.length - 1].content);
      if (text === null || text.trim() === '')
        throw new Reject('body.messages', 'empty_question', 'no user message with text: the last user message is the question');
      this.questions.set(id, text);
      return null;
    };
  }

  unanswered(): number {
    let n = 0;
    for (const id of this.questions.keys()) if (!this.answered.has(id)) n++;
    return n;
  }
}

export function chatOutputReader(ctx: ReadContext, requests: ChatRequests): ObjectReader {
  return (obj, _source, line) => {
    const id = requiredString(obj, 'custom_id');
    const error = obj.error;
    if (error !== undefined && error !== null) {
      const e = isObject(error) ? `${String(error.code ?? '')}: ${String(error.message ?? '')}` : describeValue(error);
      throw new Reject('error', 'request_failed', `the request failed (${e})`);
    }
    const response = obj.response;
    if (!isObject(response)) throw new Reject('response', 'wrong_type', `expected an object, got ${describeValue(response)}`);
    const status = response.status_code;
    if (status !== undefined && status !== 200)
      throw new Reject('response.status_code', 'request_failed', `the request failed with HTTP status ${describeValue(status)}`);
    const body = response.body;
    const choices = isObject(body) ? body.choices : undefined;
    if (!Array.isArray(choices) || choices.length === 0) throw new Reject('response.body.choices', 'missing_field', 'no choices');
    const question = requests.questions.get(id);
    if (question === undefined) {
      const hint =
        requests.questions.size === 0 ? "drop the batch's request file together with this output file" : 'no request file dropped with it has this custom_id';
      throw new Reject('custom_id', 'request_failed', `no request ${describeValue(id)} to take the question from: ${hint}`);
    }
    const model = isObject(body) && typeof body.model === 'string' ? body.model : null;
    const samples = choices.map((c, i) => {
      const field = `response.body.choices[${i}].message.content`;
      const message = isObject(c) ? c.message : undefined;
      const content = isObject(message) ? message.content : undefined;
      if (typeof content !== 'string') throw new Reject(field, 'wrong_type', `expected a string, got ${describeValue(content)}`);
      const reasoning = isObject(message) && typeof message.reasoning_content === 'string' ? message.reasoning_content : undefined;
      return { genText: content, label: null, answer: null, source: model, ...(reasoning === undefined ? {} : { reasoning }) };
    });
    requests.answered.add(id);
    ctx.mapped.question.add('body.messages');
    ctx.mapped.samples.add('choices[].message.content');
    return { line, questionId: id, question, gold: null, samples };
  };
}
