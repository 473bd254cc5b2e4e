// The desktop app's entry, as host/start.ts is the browser host's: Node's compile cache
// goes on before anything else is loaded, so every start after the first reuses the
// compiled code of all modules (a third of start-up). main.ts waits for `app.whenReady()`,
// which resolves even when `ready` fired while it loaded.
import module from 'node:module';

module.enableCompileCache?.();
await import('./main');
