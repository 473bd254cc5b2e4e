import type { Message } from '../../shared/domain';
import { Markdown } from './Markdown';

const ROLE_LABEL: Record<Message['role'], string> = {
  user: 'You',
  assistant: 'Assistant',
  tool: 'Tool',
  system: 'Stepwise',
};

export function MessageView({ message }: { message: Message }) {
  const label = message.origin === 'auto' ? 'Autopilot' : ROLE_LABEL[message.role];
  return (
    <article className={`message message-${message.role}`} aria-label={`${label} message`}>
      <div className="message-author">{label}</div>
      <div className="message-body">
        {message.role === 'user' ? <p className="user-text">{message.content}</p> : <Markdown text={message.content} />}
      </div>
    </article>
  );
}
