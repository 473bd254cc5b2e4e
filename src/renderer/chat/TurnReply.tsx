// One agent turn as one reply: every model response of the turn in order — its thinking,
// its text, its tool calls and list updates as the step lines they fold into — under one
// author line, with one Copy (the text parts only), one Regenerate, one version switch
// and one token count. Each step keeps its message id, so a jump lands on it.
import type { Message, MessageUsage } from '../../shared/domain';
import { Markdown } from './LazyMarkdown';
import { ThinkingBlock } from './ThinkingBlock';
import { ToolCallCard } from './ToolCallCard';
import type { DisplayItem } from './displayItems';
import { UsageLine } from './usage';
import { MessageToolbar, type VersionActions } from '../versions/MessageToolbar';

const STATUS_TAG: Partial<Record<Message['status'], string>> = {
  stopped: 'Stopped',
  interrupted: 'Interrupted',
  error: 'Failed',
};

/** The text parts of a reply, as Copy puts them on the clipboard. */
export function replyText(steps: ReadonlyArray<{ message: Message }>): string {
  return steps
    .map((step) => step.message.content.trim())
    .filter(Boolean)
    .join('\n\n');
}

/** The tokens of every response of the turn together (each was a request). */
export function replyUsage(steps: ReadonlyArray<{ message: Message }>): MessageUsage | null {
  const used = steps.flatMap((step) => (step.message.usage ? [step.message.usage] : []));
  if (!used.length) return null;
  const costs = used.map((u) => u.cost);
  return {
    promptTokens: used.reduce((n, u) => n + u.promptTokens, 0),
    completionTokens: used.reduce((n, u) => n + u.completionTokens, 0),
    cost: costs.every((c) => c !== null) ? costs.reduce((n, c) => n + c!, 0) : null,
  };
}

export function TurnReply(props: {
  item: DisplayItem & { steps: NonNullable<DisplayItem['steps']> };
  label: string;
  running: boolean;
  agentName: string;
  actions: VersionActions;
}) {
  const { item, label } = props;
  const first = item.message;
  const last = item.steps.at(-1)!.message;
  const tag = STATUS_TAG[last.status];
  const usage = replyUsage(item.steps);
  return (
    <article
      className="message message-assistant turn-reply"
      aria-label={`${label} message`}
      data-message-id={first.id}
    >
      <div className="message-author">
        {label}
        {tag && <span className={`status-tag status-${last.status}`}>{tag}</span>}
      </div>
      {item.steps.map(({ message, toolCalls }) => {
        const streaming = message.status === 'streaming';
        return (
          <div className="turn-step" key={message.id} data-message-id={message.id}>
            {(message.reasoning || message.content) && (
              <div className="message-body">
                {message.reasoning && <ThinkingBlock reasoning={message.reasoning} streaming={streaming} />}
                {message.content && <Markdown text={message.content} streaming={streaming} />}
                {streaming && message.content && <span className="caret" aria-hidden="true" />}
              </div>
            )}
            {toolCalls.length > 0 && (
              <div className="tool-calls">
                {toolCalls.map((view) => (
                  <div key={view.call.id} data-message-id={view.result?.id}>
                    <ToolCallCard view={view} running={props.running} agentName={props.agentName} />
                  </div>
                ))}
              </div>
            )}
            {streaming && !message.content && !message.reasoning && !toolCalls.length && (
              <span className="typing" role="img" aria-label="Assistant is typing">
                <span />
                <span />
                <span />
              </span>
            )}
            {message.error && <p className="message-error">{message.error}</p>}
          </div>
        );
      })}
      {usage && <UsageLine usage={usage} model={last.model} />}
      <MessageToolbar
        message={first}
        label={label}
        actions={props.actions}
        copyText={replyText(item.steps)}
        regenerable={last.status !== 'streaming'}
      />
    </article>
  );
}
