// `npm run serve`: builds if needed (quietly, so the only line printed is the address),
// then runs the browser host with the given arguments.
import { runBuilt } from './build.mjs';

await runBuilt('host');
