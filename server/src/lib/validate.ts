import { parseInput, type InputProblem } from '@tukio/shared/node/input-validation';
import { z } from 'zod';
import { AppError } from './app-error.js';

/** A `validation_failed` 400 as the server answers it: the message, the field it names (when it names one) and the kind of problem. */
export const invalidInput = (problem: InputProblem): AppError =>
  AppError.badRequest('validation_failed', problem.message, { ...(problem.field === undefined ? {} : { field: problem.field }), params: problem.params });

/**
 * Parses input with a zod schema; the first problem becomes a 400 naming the field and the kind of
 * problem (@tukio/shared/node/input-validation, which also sets zod's field-naming messages). Every
 * string that passed the schema must also be storable text (no NUL, no lone surrogates), whatever the field.
 */
export function parse<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  return parseInput(schema, input, invalidInput);
}

/** Trimmed text with a length cap; the cap protects storage and every page that renders it. */
export const text = (field: string, max: number, min = 1) =>
  z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? `${field} is required.` : `${field} must be text.`) })
    .trim()
    .min(min, min === 1 ? `${field} is required.` : `${field} must be at least ${min} characters.`)
    .max(max, `${field} must be at most ${max} characters.`)
    .refine((value) => !value.includes('\u0000'), `${field} must not contain null characters.`);

/** A 24-hex id (ObjectId-shaped), as the payment service checks it too. */
export { idParam } from '@tukio/shared/internal-api';

/** NFKC first: fullwidth and other compatibility forms are stored and compared as their plain letters. */
export const nfkc = (value: string) => value.normalize('NFKC');

/** An email address as accounts and the contact form accept it. */
export const emailSchema = z
  .string({ error: 'Email is required.' })
  .overwrite(nfkc)
  .trim()
  .min(1, 'Email is required.')
  .max(254, 'Email must be at most 254 characters.')
  .pipe(z.email('Please enter a valid email address.'));
