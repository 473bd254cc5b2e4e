// Token usage as the server reported it: a details line under a reply, and the running
// total of the conversation in its header. A cost appears when prices were entered.
import type { Message, MessageUsage } from '../../shared/domain';
import { plural } from '../../shared/providers';

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

export function UsageTotal({ messages }: { messages: Message[] }) {
  let prompt = 0;
  let completion = 0;
  let cost: number | null = null;
  for (const m of messages) {
    if (!m.usage) continue;
    prompt += m.usage.promptTokens;
    completion += m.usage.completionTokens;
    if (m.usage.cost !== null) cost = (cost ?? 0) + m.usage.cost;
  }
  if (!prompt && !completion) return null;
  const text = `${plural(prompt + completion, 'token')}${cost !== null ? ` · ${formatCost(cost)}` : ''}`;
  return (
    <span className="usage-total" role="note" aria-label={`Conversation usage: ${text}`} title={`${prompt.toLocaleString('en-US')} prompt + ${completion.toLocaleString('en-US')} completion tokens`}>
      {text}
    </span>
  );
}
