// The browser host's entry. Node's compile cache goes on before anything else is loaded,
// so every start after the first reuses the compiled code of all modules instead of
// compiling them again (a third of start-up); then the host starts.
import module from 'node:module';
import { fileURLToPath } from 'node:url';

module.enableCompileCache?.();
const { main } = await import('./main');
await main(
  fileURLToPath(new URL('../renderer', import.meta.url)),
  fileURLToPath(new URL('./migrate.js', import.meta.url)),
);
