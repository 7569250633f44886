/**
 * Builds hub/web (the manager's page and the kitchen display) once before any test file runs,
 * when its sources are newer than the build. Test files running in parallel forks would
 * otherwise each start a build, and one build's emptyOutDir would pull the page from under
 * another file's browser.
 */
import { ensureWebBuild } from './build.js';

export default async function setup(): Promise<void> {
  await ensureWebBuild();
}
