// `npm run -s mcp`: builds if needed (quietly, so standard output carries only MCP
// messages), then runs the stdio MCP server for Stepwise's task lists.
import { runBuilt } from './build.mjs';

await runBuilt('mcp');
