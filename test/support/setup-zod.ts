/**
 * Before every test file (vitest setupFiles): zod extended with `.openapi()` (hub/http/api-docs.ts
 * does it when imported), as the hub's own start does before it makes its schemas. A zod schema
 * only gets the method if it is made after the extension; the files share one process and its
 * loaded modules (isolate: false), so a file that loaded some resource's schemas without the API
 * docs would otherwise leave schemas without it for the next file that builds the document.
 */
import '../../hub/http/api-docs.js';
