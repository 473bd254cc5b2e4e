// The message box: Enter sends, Shift+Enter adds a line. Text is kept if sending fails.
// While the assistant works, the button becomes "Stop". With a `draftId` the text is that
// conversation's draft (kept across views, reloads and restarts); otherwise it is local.
// Enter while files are still uploading sends once they are stored ("Uploading…" meanwhile);
// with no model set up, Send is off and the composer points to "Connect a model".
import { useEffect, useEffectEvent, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useDraft, useDrafts } from '../drafts/drafts';
import { useToastClearance } from '../common/toastClearance';
import { usePromptSlash, type SendPrompt } from '../instructions/usePromptSlash';
import { useComposerFiles } from '../attachments/useComposerFiles';
import { useResourceMention } from '../mcp/useResourceMention';
import type { ModelRef } from '../../shared/providers';
import { useRequest } from '../navigation/navigation';
import './composer.css';

export function Composer(props: {
  /** `attachments`: ids of the files attached (attachments:add). */
  onSend: (text: string, attachments: string[]) => Promise<boolean>;
  onStop: () => void;
  running: boolean;
  /** The conversation whose draft this composer edits. */
  draftId?: string;
  /** Kept mounted (so a draft survives) but not shown. */
  hidden?: boolean;
  placeholder?: string;
  label?: string;
  /** The conversation's model (for the note on images); absent: the default model. */
  model?: ModelRef | null;
  /** No model is set up: nothing can be sent, and the composer says where to connect one. */
  noModel?: boolean;
  /** Sends a server prompt that holds a conversation as it is (its messages, roles kept); true when sent. */
  onSendPrompt?: SendPrompt;
}) {
  const drafts = useDrafts();
  const draftId = props.draftId ?? null;
  const draft = useDraft(draftId);
  const [localText, setLocalText] = useState('');
  const [localSending, setLocalSending] = useState(false);
  const text = draftId ? draft.text : localText;
  const sending = draftId ? draft.sending : localSending;
  const ref = useRef<HTMLTextAreaElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  useToastClearance(formRef);
  const [localKey] = useState(() => crypto.randomUUID());
  const files = useComposerFiles(draftId ?? localKey, formRef, !props.hidden, props.model);

  // A restored draft continues where it ended: the caret goes to its end.
  useLayoutEffect(() => {
    const el = ref.current;
    el?.setSelectionRange(el.value.length, el.value.length);
  }, []);
  // Focused again whenever its conversation is chosen (e.g. "New conversation" clicked twice).
  useRequest('focusComposer', draftId, () => {
    const el = ref.current;
    el?.focus();
    el?.setSelectionRange(el.value.length, el.value.length);
  });
  // Leaving the conversation saves its draft at once rather than after the debounce.
  useEffect(() => () => (draftId ? drafts.flush(draftId) : undefined), [drafts, draftId]);

  const setText = (value: string) => (draftId ? drafts.setText(draftId, value) : setLocalText(value));
  const slash = usePromptSlash(text, setText, files.attach, props.onSendPrompt);
  const mention = useResourceMention(text, setText, files.attach, !slash.open);

  // Enter pressed while files upload: the send waits for them (below).
  const sendWhenUploaded = useRef(false);
  const send = async () => {
    if (props.noModel) return;
    if (files.uploading) {
      sendWhenUploaded.current = true;
      return;
    }
    sendWhenUploaded.current = false;
    const attached = files.ids;
    const withFiles = (value: string) => props.onSend(value, attached);
    let ok: boolean;
    if (draftId) {
      ok = await drafts.send(draftId, withFiles, attached.length > 0);
    } else {
      const value = localText;
      if ((!value.trim() && !attached.length) || localSending) return;
      setLocalSending(true);
      ok = await withFiles(value);
      setLocalSending(false);
      if (ok) setLocalText((current) => (current === value ? '' : current));
    }
    if (ok) files.sent(attached);
    ref.current?.focus();
  };

  const uploading = files.uploading;
  const sendQueued = useEffectEvent(() => {
    if (sendWhenUploaded.current) void send();
  });
  useEffect(() => {
    if (!uploading) sendQueued();
  }, [uploading]);

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (slash.onKeyDown(event)) return;
    if (mention.onKeyDown(event)) return;
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      if (!props.running) void send();
    }
  };

  return (
    <form
      ref={formRef}
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
      {files.tray}
      {props.noModel && (
        <p className="composer-no-model" role="note">
          No model is set up yet. <a href="#/">Connect a model</a> to start.
        </p>
      )}
      {slash.list}
      {mention.list}
      {files.button}
      <textarea
        ref={ref}
        {...slash.inputProps}
        {...mention.inputProps}
        aria-label={props.label ?? 'Message'}
        placeholder={props.placeholder ?? 'Message Stepwise… (Shift+Enter: new line)'}
        value={text}
        rows={Math.min(8, Math.max(1, text.split('\n').length))}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        onPaste={files.onPaste}
        autoFocus
      />
      {props.running ? (
        <button type="button" className="stop" onClick={props.onStop} title="Stop generating (Esc)">
          <span aria-hidden="true">■</span> Stop
        </button>
      ) : (
        <button
          type="submit"
          className="primary send"
          disabled={(!text.trim() && !files.hasFiles) || sending || files.uploading || props.noModel}
        >
          {files.uploading ? 'Uploading…' : 'Send'}
        </button>
      )}
    </form>
  );
}
