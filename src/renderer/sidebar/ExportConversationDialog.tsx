import { useState } from 'react';
import { useModal } from '../common/useModal';
import { call, useApi } from '../api/apiContext';
import { useGuard, useToast } from '../common/toasts';
import { deliverExport } from '../common/download';
import { ChoiceGroup, type Choice } from '../common/ChoiceGroup';
import { DialogActions } from '../common/DialogActions';

const FORMATS: Choice<'md' | 'json'>[] = [
  { value: 'md', label: 'Markdown (readable)' },
  { value: 'json', label: 'JSON (complete, can be imported)' },
];

export function ExportConversationDialog(props: { conversationId: string; title: string; onClose: () => void }) {
  const api = useApi();
  const guard = useGuard();
  const toast = useToast();
  const ref = useModal();
  const [format, setFormat] = useState<'md' | 'json'>('md');
  const run = async () => {
    const result = await guard(() => call(api, 'export:conversation', { conversationId: props.conversationId, format }));
    if (result) {
      deliverExport(result, toast);
      props.onClose();
    }
  };

  return (
    <dialog ref={ref} className="dialog" aria-label="Export conversation" onClose={props.onClose}>
      <h2>Export conversation</h2>
      <p className="dialog-body">“{props.title}”</p>
      <ChoiceGroup legend="Format" name="conversation-format" choices={FORMATS} value={format} onChange={setFormat} />
      <DialogActions label="Export" onCancel={props.onClose} onConfirm={() => void run()} />
    </dialog>
  );
}
