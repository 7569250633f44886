import { Router } from 'express';

/** Placeholder until the generated description lands (issue 2, item 8). */
export function openApiRouter(): Router {
  return Router();
}
