import { useState, type ReactNode } from 'react';
import type { CallResponse } from '../../shared/ipc';
import { useModal } from '../common/useModal';
import { call, useApi } from '../api/apiContext';
import { useGuard, useToast } from '../common/toasts';
import { deliverExport } from '../common/download';
import { ChoiceGroup, type Choice } from '../common/ChoiceGroup';
import { DialogActions } from '../common/DialogActions';

type Format = 'md' | 'json';

const FORMATS: Choice<Format>[] = [
  { value: 'md', label: 'Markdown (readable)' },
  { value: 'json', label: 'JSON (complete, can be imported)' },
];

/** Exports conversations (one, or a folder's) as Markdown or importable JSON. */
export function ConversationsExportDialog(props: {
  heading: string;
  body: ReactNode;
  /** The radio group's name, unique on the page. */
  name: string;
  exportAs: (format: Format) => Promise<CallResponse<'export:conversation'>>;
  onClose: () => void;
}) {
  const guard = useGuard();
  const toast = useToast();
  const ref = useModal();
  const [format, setFormat] = useState<Format>('md');
  const run = async () => {
    const result = await guard(() => props.exportAs(format));
    if (result) {
      deliverExport(result, toast);
      props.onClose();
    }
  };

  return (
    <dialog ref={ref} className="dialog" aria-label={props.heading} onClose={props.onClose}>
      <h2>{props.heading}</h2>
      <p className="dialog-body">{props.body}</p>
      <ChoiceGroup legend="Format" name={props.name} choices={FORMATS} value={format} onChange={setFormat} />
      <DialogActions label="Export" onCancel={props.onClose} onConfirm={() => void run()} />
    </dialog>
  );
}

export function ExportConversationDialog(props: { conversationId: string; title: string; onClose: () => void }) {
  const api = useApi();
  return (
    <ConversationsExportDialog
      heading="Export conversation"
      body={`“${props.title}”`}
      name="conversation-format"
      exportAs={(format) => call(api, 'export:conversation', { conversationId: props.conversationId, format })}
      onClose={props.onClose}
    />
  );
}
