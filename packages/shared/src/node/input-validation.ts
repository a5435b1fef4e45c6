import { z } from 'zod';
import type { ErrorParams, ValidationKind } from '../error-codes.js';

/**
 * Input parsing as both services answer it: the first problem becomes a `validation_failed` 400 that
 * names the field and the kind of problem (the client phrases `validation.<kind>` from `params`). The
 * error itself is the service's own (the API server's AppError, the payment service's
 * PaymentServiceError): `parseInput` describes the problem and the service's factory makes the error.
 */

function fieldName(path: readonly PropertyKey[] | undefined): string {
  const name = (path ?? []).map(String).join('.');
  return name || 'Input';
}

/**
 * Default messages name the field, so every 400 tells the user what to fix. Schemas that carry a
 * message of their own (the spec's wording) keep it. zod's configuration is per process: importing
 * this module sets it for every schema the service parses.
 */
z.config({
  customError: (issue) => {
    const field = fieldName(issue.path);
    switch (issue.code) {
      case 'invalid_type':
        return issue.input === undefined || issue.input === null
          ? `${field} is required.`
          : `${field} must be ${issue.expected === 'object' ? 'an object' : `a ${issue.expected}`}.`;
      case 'too_small':
        return issue.origin === 'string'
          ? `${field} must be at least ${String(issue.minimum)} characters.`
          : `${field} must be at least ${String(issue.minimum)}.`;
      case 'too_big':
        return issue.origin === 'string'
          ? `${field} must be at most ${String(issue.maximum)} characters.`
          : `${field} must be at most ${String(issue.maximum)}.`;
      case 'invalid_format':
        return `${field} is not valid.`;
      case 'invalid_value':
        return `${field} must be one of: ${issue.values.map(String).join(', ')}.`;
      case 'unrecognized_keys':
        return `Unknown field: ${issue.keys.join(', ')}.`;
      default:
        return `${field} is not valid.`;
    }
  },
});

/** A UTF-16 surrogate without its partner: not a character, and not storable as UTF-8 text. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The first string in a parsed value that a database cannot store as typed: NUL (PostgreSQL text
 * cannot hold it) or a lone surrogate (broken Unicode). Walked without recursion, since `unknown`
 * fields may carry deeply nested arrays.
 */
function unstorableString(value: unknown): { path: string; problem: string; kind: ValidationKind } | undefined {
  type Entry = { value: unknown; key?: string; parent?: Entry };
  const pathOf = (entry: Entry) => {
    const keys: string[] = [];
    for (let at: Entry | undefined = entry; at?.key !== undefined; at = at.parent) keys.unshift(at.key);
    return keys.join('.');
  };
  const stack: Entry[] = [{ value }];
  while (stack.length) {
    const entry = stack.pop()!;
    const current = entry.value;
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return { path: pathOf(entry), problem: 'must not contain null characters', kind: 'null_character' };
      if (LONE_SURROGATE.test(current)) return { path: pathOf(entry), problem: 'is not valid text (broken Unicode characters)', kind: 'broken_unicode' };
    } else if (Array.isArray(current)) {
      current.forEach((item, index) => stack.push({ value: item, key: String(index), parent: entry }));
    } else if (current && typeof current === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(current))) {
      for (const [key, item] of Object.entries(current)) stack.push({ value: item, key, parent: entry });
    }
  }
  return undefined;
}

/**
 * What kind of problem a zod issue is, with its limit, as a `validation_failed` answer's params say it.
 * `input` is only there when parsed with `reportInput`.
 */
function validationKind(issue: z.core.$ZodIssue): { kind: ValidationKind } & ErrorParams {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined || issue.input === null ? { kind: 'required' } : { kind: 'wrong_type', expected: issue.expected };
    case 'too_small':
      if (issue.origin === 'string') return Number(issue.minimum) <= 1 ? { kind: 'required' } : { kind: 'too_short', min: Number(issue.minimum) };
      return { kind: 'too_small', min: Number(issue.minimum) };
    case 'too_big':
      return issue.origin === 'string' ? { kind: 'too_long', max: Number(issue.maximum) } : { kind: 'too_big', max: Number(issue.maximum) };
    case 'invalid_format':
      return issue.format === 'email' ? { kind: 'invalid_email' } : { kind: 'invalid_format' };
    case 'invalid_value':
      return { kind: 'not_one_of', values: issue.values.map(String).join(', ') };
    case 'unrecognized_keys':
      return { kind: 'unknown_field', keys: issue.keys.join(', ') };
    default:
      return { kind: 'invalid' };
  }
}

/** A `validation_failed` answer's parts: the message, the field it names (absent when it names none), and `params` (`field` and `kind` always). */
export interface InputProblem {
  message: string;
  field?: string;
  params: { field: string; kind: ValidationKind } & ErrorParams;
}

/** Makes the service's 400 from a problem. */
export type InvalidInputError = (problem: InputProblem) => Error;

function problemOf(message: string, path: string, kind: { kind: ValidationKind } & ErrorParams): InputProblem {
  return { message, ...(path ? { field: path } : {}), params: { field: path || 'Input', ...kind } };
}

/**
 * Parses input with a zod schema; the first problem is thrown as `invalid(problem)`. Every string that
 * passed the schema must also be storable text (no NUL, no lone surrogates), whatever the field.
 */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown, invalid: InvalidInputError): z.infer<T> {
  const result = schema.safeParse(input ?? {}, { reportInput: true });
  if (result.success) {
    const bad = unstorableString(result.data);
    if (bad) throw invalid(problemOf(`${bad.path || 'Input'} ${bad.problem}.`, bad.path, { kind: bad.kind }));
    return result.data;
  }
  const issue = result.error.issues[0];
  if (!issue) throw invalid({ message: 'Invalid input.', params: { field: 'Input', kind: 'invalid' } });
  throw invalid(problemOf(issue.message, issue.path.map(String).join('.'), validationKind(issue)));
}
