/**
 * Every answer a test gets from the hub, held against the OpenAPI document (CONTRACT §2, issue #18):
 * the status must be documented for its operation, and a JSON body must match the declared schema
 * with no field the document leaves out (objects are closed here, so a field the hub sends but the
 * document lacks — one a generated client could not see — fails the test that received it).
 *
 * Answers of paths the document does not describe (unknown routes, a 405 for a method a path lacks)
 * are not checked here: errors.test.ts and openapi.test.ts cover those.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { documentJson } from '../../hub/openapi.js';

type Json = Record<string, any>;

interface Operation {
  pattern: RegExp;
  /** Literal characters in the template: `/api/tickets/current` beats `/api/tickets/{id}`. */
  specificity: number;
  method: string;
  template: string;
  responses: Json;
}

const DOC_ID = 'poshub:openapi';

/** Closes every object schema (unevaluatedProperties: false) except those a composition extends. */
function closeObjects(doc: Json): Json {
  const copy = structuredClone(doc) as Json;
  const extended = new Set<string>();
  const findExtended = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(findExtended);
    const n = node as Json;
    if (Array.isArray(n.allOf)) for (const b of n.allOf) if (typeof b?.$ref === 'string') extended.add(b.$ref);
    Object.values(n).forEach(findExtended);
  };
  findExtended(copy);
  const close = (node: unknown, inAllOf: boolean, ref?: string): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((n) => close(n, false));
    const n = node as Json;
    const objectLike = n.properties !== undefined || n.type === 'object' || (Array.isArray(n.type) && n.type.includes('object'));
    const open = n.additionalProperties !== undefined || n.unevaluatedProperties !== undefined || n.patternProperties !== undefined;
    if (Array.isArray(n.allOf)) {
      n.allOf.forEach((b: unknown) => close(b, true));
      if (!inAllOf && !open && !(ref && extended.has(ref))) n.unevaluatedProperties = false;
    } else if (objectLike && n.properties && !open && !inAllOf && !(ref && extended.has(ref))) {
      n.unevaluatedProperties = false;
    }
    for (const [k, v] of Object.entries(n)) if (k !== 'allOf') close(v, false);
  };
  for (const [name, schema] of Object.entries(copy.components?.schemas ?? {})) close(schema, false, `#/components/schemas/${name}`);
  close(copy.paths, false);
  return copy;
}

type Checker = { operations: Operation[]; validators: Map<string, ValidateFunction | null>; ajv: Ajv2020 };

function load(document: () => string): Checker {
  const doc = closeObjects(JSON.parse(document()));
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema({ ...doc, $id: DOC_ID });
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries(doc.paths as Json)) {
    const pattern = new RegExp('^' + template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+') + '$');
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const op = (item as Json)[method];
      if (op) operations.push({ pattern, specificity: template.replace(/\{[^}]+\}/g, '').length, method, template, responses: op.responses ?? {} });
    }
  }
  operations.sort((a, b) => b.specificity - a.specificity);
  return { operations, validators: new Map(), ajv };
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/**
 * A checker of answers against `document` (the hub's by default; HQ's has its own): it throws when
 * a documented operation answered a status it does not document, or a JSON body its schema
 * rejects. `path` may carry a query string.
 */
export function answerChecker(document: () => string): (method: string, path: string, status: number, contentType: string | null, body: unknown) => void {
  let checker: Checker | undefined;
  return (method, path, status, contentType, body) => check((checker ??= load(document)), method, path, status, contentType, body);
}

/** Every answer of the hub, against the hub's document. */
export const checkAnswer = answerChecker(documentJson);

function check({ operations, validators, ajv }: Checker, method: string, path: string, status: number, contentType: string | null, body: unknown): void {
  const bare = path.split('?')[0].replace(/\/+$/, '') || '/';
  const op = operations.find((o) => o.method === method.toLowerCase() && o.pattern.test(bare));
  // A 500 is never a documented outcome: a test that gets one unasked fails on its own status check,
  // and the durability tests provoke it on purpose (a failed sync).
  if (!op || status === 500) return;
  const response = op.responses[String(status)] ?? op.responses.default;
  if (!response) throw new Error(`${method} ${path} answered ${status}, which ${op.method.toUpperCase()} ${op.template} does not document (documented: ${Object.keys(op.responses).join(', ')})`);
  const type = (contentType ?? '').split(';')[0].trim();
  if (!/json$/.test(type) || body === undefined) return;
  const declared = Object.keys(response.content ?? {});
  if (!declared.includes(type)) throw new Error(`${method} ${path} answered ${status} as ${type}; the document declares ${declared.join(', ') || 'no body'}`);
  const key = `${op.method} ${op.template} ${status} ${type}`;
  let validate = validators.get(key);
  if (validate === undefined) {
    const status_ = op.responses[String(status)] ? String(status) : 'default';
    const ref = `${DOC_ID}#/${pointer('paths', op.template, op.method, 'responses', status_, 'content', type, 'schema')}`;
    validate = response.content[type].schema ? ajv.compile({ $ref: ref }) : null;
    validators.set(key, validate);
  }
  if (validate && !validate(body)) {
    const problems = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message}${e.params && 'unevaluatedProperty' in e.params ? ` '${(e.params as Json).unevaluatedProperty}'` : ''}`);
    throw new Error(`${method} ${path} → ${status}: the body does not match ${op.method.toUpperCase()} ${op.template}'s documented schema: ${problems.join('; ')}`);
  }
}
