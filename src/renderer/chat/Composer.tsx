// The message box: Enter sends, Shift+Enter adds a line. Text is kept if sending fails.
// While the assistant works, the button becomes "Stop".
import { useRef, useState, type KeyboardEvent } from 'react';

export function Composer(props: {
  onSend: (text: string) => Promise<boolean>;
  onStop: () => void;
  running: boolean;
  /** Kept mounted (so a draft survives) but not shown. */
  hidden?: boolean;
  placeholder?: string;
  label?: string;
}) {
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const ref = useRef<HTMLTextAreaElement>(null);

  const send = async () => {
    const value = text;
    if (!value.trim() || sending) return;
    setSending(true);
    const ok = await props.onSend(value);
    setSending(false);
    if (ok) setText('');
    ref.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      if (!props.running) void send();
    }
  };

  return (
    <form
      hidden={props.hidden}
      // `.composer { display: flex }` would override the hidden attribute on its own.
      style={props.hidden ? { display: 'none' } : undefined}
      className="composer"
      aria-label="Message composer"
      onSubmit={(e) => {
        e.preventDefault();
        if (!props.running) void send();
      }}
    >
      <textarea
        ref={ref}
        aria-label={props.label ?? 'Message'}
        placeholder={props.placeholder ?? 'Ask for something… (Enter to send, Shift+Enter for a new line)'}
        value={text}
        rows={Math.min(8, Math.max(1, text.split('\n').length))}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        autoFocus
      />
      {props.running ? (
        <button type="button" className="stop" onClick={props.onStop} title="Stop generating (Esc)">
          <span aria-hidden="true">■</span> Stop
        </button>
      ) : (
        <button type="submit" className="primary send" disabled={!text.trim() || sending}>
          Send
        </button>
      )}
    </form>
  );
}
