// Sharing task lists with other agents over MCP: the Settings section's calls. The token
// itself never reaches the renderer except inside the configuration it copies.
import { z } from 'zod';
import { call, Empty } from './contract';

export const TaskShareStatus = z.object({
  /** The setting: serve the endpoint while Stepwise runs. */
  enabled: z.boolean(),
  port: z.number().int(),
  /** Where clients connect, e.g. http://127.0.0.1:47123/mcp. */
  url: z.string(),
  /** The endpoint is accepting connections now. */
  listening: z.boolean(),
  /** Why it is not, when it should be (e.g. the port is taken). */
  error: z.string().nullable(),
  /** MCP clients connected right now. */
  clients: z.number().int(),
});
export type TaskShareStatus = z.infer<typeof TaskShareStatus>;

export const taskShareCalls = {
  'taskShare:status': call(Empty, TaskShareStatus),
  /** A new token: every connected client is disconnected and must be given the new configuration. */
  'taskShare:regenerateToken': call(Empty, TaskShareStatus),
  /** The ready `mcpServers` JSON, token included, for the clipboard. */
  'taskShare:configuration': call(Empty, z.object({ json: z.string() })),
};

export const taskShareEvents = {
  /** The endpoint started, stopped, or a client connected or left. */
  'taskShare:status': TaskShareStatus,
};
