/** Parses with a zod schema into one 400 listing every member at fault (CONTRACT §2): the hub's bodies, queries and headers (http/route.ts), its engine's documents, HQ's. */
import type { z } from 'zod';
import { errors, memberError, type MemberError, type MemberErrorCode } from './errors.js';

/** `cards[0].serialNumber` from a zod path. */
export function memberName(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out ? `.${String(seg)}` : String(seg);
  }
  return out || '$body';
}

function codeOf(issue: z.core.$ZodIssue): MemberErrorCode {
  // A schema's own check names its code (http/route.ts catalogIssue: a date that is required, out of range).
  const own = (issue as { params?: { memberCode?: MemberErrorCode } }).params?.memberCode;
  if (issue.code === 'custom' && own) return own;
  // A missing member fails as invalid_type, or as invalid_value for enums (which preprocess their input).
  if ((issue.code === 'invalid_type' || issue.code === 'invalid_value') && (issue as { input?: unknown }).input === undefined) return 'Required';
  if (issue.code === 'too_big' || issue.code === 'too_small') return 'OutOfRange';
  if (issue.code === 'unrecognized_keys') return 'Unknown';
  return 'Invalid';
}

/** Parses with a zod schema; failures become one 400 listing every member at fault. */
export function parseOr400<S extends z.ZodType>(schema: S, value: unknown, prefix: ReadonlyArray<PropertyKey> = []): z.output<S> {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  throw errors.validation('error.invalidRequest', {}, result.error.issues.map((issue) => memberOfIssue(issue, prefix)));
}

/** A zod issue as a member at fault; the issue itself is kept, to be said in the caller's language (zod's locales). */
export function memberOfIssue(issue: z.core.$ZodIssue, prefix: ReadonlyArray<PropertyKey> = []): MemberError {
  const name = memberName([...prefix, ...issue.path]);
  const code = codeOf(issue);
  if (code === 'Required' && issue.code !== 'custom') return memberError(name, 'member.required', {}, code);
  return { memberName: name, message: issue.message, code, said: { issue } };
}
