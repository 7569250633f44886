/**
 * HQ's answer to a heartbeat (protocol.ts HeartbeatAnswer), as the store takes it: checked as every
 * message from HQ is (CONTRACT §13) before it moves anything — what HQ holds decides what the store
 * may forget, so a message that is not an answer for this store moves nothing.
 */
import { z } from 'zod';
import type { HeartbeatAnswer } from '../hq/protocol.js';

const seq = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

const answerSchema = (storeId: string) =>
  z.object({
    storeId: z.literal(storeId),
    ingestedSeq: seq,
    republishFrom: seq.min(1).nullable(),
  });

/** The answer, or why it is none. */
export function readHeartbeatAnswer(storeId: string, text: string): HeartbeatAnswer | { refused: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    return { refused: `not JSON: ${(e as Error).message}` };
  }
  const result = answerSchema(storeId).safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    return { refused: `${issue.path.join('.') || 'answer'}: ${issue.message}` };
  }
  return result.data;
}
