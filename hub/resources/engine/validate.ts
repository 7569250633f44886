/** Reading a value with a zod schema into a 400 that lists every member at fault lives with the rest of the request plumbing (hub/http/validate.ts). */
export { memberName, memberOfIssue, parseOr400 } from '../../http/validate.js';
