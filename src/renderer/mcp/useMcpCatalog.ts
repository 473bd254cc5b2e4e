// The servers' prompts or resources, asked for each time "/" or "@" opens its list (a
// server's list may change while Stepwise runs), and nothing while it is closed.
import { useEffect, useState } from 'react';
import type { McpPromptList, McpResourceList } from '../../shared/mcpCatalog';
import { call, useApi } from '../api/apiContext';

function useCatalog<T>(active: boolean, ask: (api: ReturnType<typeof useApi>) => Promise<T>): T | null {
  const api = useApi();
  const [list, setList] = useState<T | null>(null);
  useEffect(() => {
    if (!active) return;
    let current = true;
    ask(api).then(
      (value) => current && setList(value),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [api, active, ask]);
  return active ? list : null;
}

const askPrompts = (api: ReturnType<typeof useApi>) => call(api, 'mcp:prompts', {});
const askResources = (api: ReturnType<typeof useApi>) => call(api, 'mcp:resources', {});

export const useMcpPrompts = (active: boolean): McpPromptList | null => useCatalog(active, askPrompts);
export const useMcpResources = (active: boolean): McpResourceList | null => useCatalog(active, askResources);
