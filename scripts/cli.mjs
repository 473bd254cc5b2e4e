// `npm run cli`: builds if needed (quietly, so standard output carries only the export),
// then runs the command line with the given arguments.
import { runBuilt } from './build.mjs';

await runBuilt('cli');
