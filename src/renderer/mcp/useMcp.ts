// The MCP servers as main reports them (live: states, tools, stderr).
import type { McpState } from '../../shared/mcp';
import { useFollowed } from '../common/useFollowed';

export function useMcp(): [McpState | null, (state: McpState) => void] {
  return useFollowed({ call: 'mcp:get', params: {}, event: 'mcp:changed', pick: (state) => state }, null);
}
