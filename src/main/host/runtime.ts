// What the host needs once it runs: the core and the server, loaded as one piece after the
// data dir is locked and a pending update's worker has started (main.ts).
export { createNodeCore } from '../core/createNodeCore';
export { startHost } from './server';
