// Token usage as the server reported it: a details line under a reply, and the running
// total of the conversation in its header. A cost appears when prices were entered.
import { useCallback, useEffect, useState } from 'react';
import type { MessageUsage } from '../../shared/domain';
import type { CallResponse } from '../../shared/ipc';
import { plural } from '../../shared/providers';
import { call, useApi, useEvent } from '../api/apiContext';

export function formatCost(cost: number): string {
  return cost < 0.01 ? `$${cost.toFixed(4)}` : `$${cost.toFixed(2)}`;
}

export function UsageLine({ usage, model }: { usage: MessageUsage; model: string | null }) {
  const parts = [
    `${usage.promptTokens.toLocaleString('en-US')} prompt`,
    `${plural(usage.completionTokens, 'completion token')}`,
  ];
  if (usage.cost !== null) parts.push(formatCost(usage.cost));
  return (
    <p className="usage-line" title={model ? `Written by ${model}` : undefined}>
      {parts.join(' · ')}
    </p>
  );
}

/** The conversation's running total, from main (the page may hold only the newest messages). */
export function UsageTotal({ conversationId }: { conversationId: string }) {
  const api = useApi();
  const [total, setTotal] = useState<CallResponse<'conversations:usage'> | null>(null);
  const refresh = useCallback(() => {
    void call(api, 'conversations:usage', { id: conversationId }).then(setTotal, () => {});
  }, [api, conversationId]);
  useEffect(refresh, [refresh]);
  useEvent(
    'messages:changed',
    (payload) => {
      if (payload.conversationId === conversationId && payload.message.usage) refresh();
    },
    [conversationId, refresh],
  );
  if (!total || (!total.promptTokens && !total.completionTokens)) return null;
  const { promptTokens: prompt, completionTokens: completion, cost } = total;
  const text = `${plural(prompt + completion, 'token')}${cost !== null ? ` · ${formatCost(cost)}` : ''}`;
  return (
    <span
      className="usage-total"
      role="note"
      aria-label={`Conversation usage: ${text}`}
      title={`${prompt.toLocaleString('en-US')} prompt + ${completion.toLocaleString('en-US')} completion tokens`}
    >
      {text}
    </span>
  );
}
