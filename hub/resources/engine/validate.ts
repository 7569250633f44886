import type { z } from 'zod';
import { errors, type MemberError, type MemberErrorCode } from '../../http/errors.js';

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
  const members: MemberError[] = result.error.issues.map((issue) => {
    const code = codeOf(issue);
    return {
      memberName: memberName([...prefix, ...issue.path]),
      message: code === 'Required' ? 'is required.' : issue.message,
      code,
    };
  });
  const detail = members.map((m) => `${m.memberName}: ${m.message}`).join(' ');
  throw errors.validation(`The request is not valid. ${detail}`, members);
}
