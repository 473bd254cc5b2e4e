// The servers' prompts or resources, asked for each time "/" or "@" opens its list (a
// server's list may change while Stepwise runs), and nothing while it is closed.
import { useEffect, useState } from 'react';
import type { McpPromptList, McpResourceList } from '../../shared/mcpCatalog';
import { call, useApi } from '../api/apiContext';

export function useMcpPrompts(active: boolean): McpPromptList | null {
  const api = useApi();
  const [list, setList] = useState<McpPromptList | null>(null);
  useEffect(() => {
    if (!active) return;
    let current = true;
    call(api, 'mcp:prompts', {}).then(
      (value) => current && setList(value),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [api, active]);
  return active ? list : null;
}

export function useMcpResources(active: boolean): McpResourceList | null {
  const api = useApi();
  const [list, setList] = useState<McpResourceList | null>(null);
  useEffect(() => {
    if (!active) return;
    let current = true;
    call(api, 'mcp:resources', {}).then(
      (value) => current && setList(value),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [api, active]);
  return active ? list : null;
}
