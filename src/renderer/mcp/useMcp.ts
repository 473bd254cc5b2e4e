// The MCP servers as main reports them (live: states, tools, stderr).
import type { McpState } from '../../shared/mcp';
import { followedCall, useQuery } from '../query/useQuery';

export function useMcp(): [McpState | null, (state: McpState) => void] {
  return useQuery(followedCall({ call: 'mcp:get', params: {}, event: 'mcp:changed', pick: (state) => state }), null);
}
