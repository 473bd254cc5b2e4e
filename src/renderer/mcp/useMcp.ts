// The MCP servers as main reports them (live: states, tools, stderr).
import { useEffect, useState } from 'react';
import type { McpState } from '../../shared/mcp';
import { call, useApi, useEvent } from '../api/apiContext';

export function useMcp(): [McpState | null, (state: McpState) => void] {
  const api = useApi();
  const [state, setState] = useState<McpState | null>(null);
  useEffect(() => {
    call(api, 'mcp:get', {}).then(setState, () => undefined);
  }, [api]);
  useEvent('mcp:changed', setState, []);
  return [state, setState];
}
