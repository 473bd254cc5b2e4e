// Builds the app once before the integration and e2e projects run (both start the built
// host), so tests drive exactly what `npm run serve` ships. A build newer than every
// source file is kept: the second project, and a run beside another, reuse it.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export default async function setup(): Promise<void> {
  const root = path.resolve(import.meta.dirname, '../..');
  const { build, buildIsFresh } = (await import(pathToFileURL(path.join(root, 'scripts/build.mjs')).href)) as {
    build(options?: { quiet?: boolean }): void;
    buildIsFresh(): boolean;
  };
  if (!buildIsFresh()) build();
}
