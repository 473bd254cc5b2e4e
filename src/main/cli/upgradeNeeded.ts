// The stdio bridge on a database an older Stepwise wrote (its schema is behind this
// version's), while Stepwise is not running: the bridge must not guess at an old schema
// nor migrate it behind the app's back. It answers `initialize` and `ping`, and every
// other request with one MCP error saying what to do.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

export const UPGRADE_MESSAGE = 'Open Stepwise once to upgrade this database';

export function upgradeNeededServer(version: string, found: number, needed: number): Server {
  const message = `${UPGRADE_MESSAGE} (it has schema ${found}; this version reads ${needed}). Until then its task lists cannot be shared; nothing was changed.`;
  const server = new Server(
    { name: 'stepwise-tasks', version },
    { capabilities: { tools: {}, resources: {} }, instructions: message },
  );
  server.fallbackRequestHandler = () => Promise.reject(new McpError(ErrorCode.InternalError, message));
  return server;
}
