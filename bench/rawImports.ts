// Lets tsx (which runs `npm run bench`) import `file?raw` the way vite and vitest do, so
// benchmarks can load the core, which ships Markdown this way (task-planning.md).
import fs from 'node:fs';
import module from 'node:module';
import { fileURLToPath } from 'node:url';

let registered = false;

export function registerRawImports(): void {
  if (registered) return;
  registered = true;
  module.registerHooks({
    resolve(specifier, context, nextResolve) {
      if (!specifier.endsWith('?raw') || !context.parentURL) return nextResolve(specifier, context);
      return { url: new URL(specifier, context.parentURL).href, shortCircuit: true };
    },
    load(url, context, nextLoad) {
      if (!url.endsWith('?raw')) return nextLoad(url, context);
      const text = fs.readFileSync(fileURLToPath(url.slice(0, -'?raw'.length)), 'utf8');
      return { format: 'module', source: `export default ${JSON.stringify(text)};`, shortCircuit: true };
    },
  });
}

registerRawImports();
