// "Export tasks…": pick a format and a scope. The desktop app saves through the native
// dialog in main; in a browser the file is downloaded.
import { useState } from 'react';
import { useModal } from '../common/useModal';
import { call, useApi } from '../api/apiContext';
import { useGuard, useToast } from '../common/toasts';
import { deliverExport } from '../common/download';
import { ChoiceGroup, type Choice } from '../common/ChoiceGroup';
import { DialogActions } from '../common/DialogActions';

type Format = 'md' | 'json' | 'csv';
/** `across`: the open tasks across conversations, what the task board shows unfiltered. */
type Scope = 'open' | 'history' | 'across' | 'all';

const FORMATS: Choice<Format>[] = [
  { value: 'md', label: 'Markdown' },
  { value: 'json', label: 'JSON' },
  { value: 'csv', label: 'CSV' },
];
const SCOPES: Choice<Scope>[] = [
  { value: 'open', label: 'This task list' },
  { value: 'history', label: 'Every list in this conversation' },
  { value: 'across', label: 'Open tasks across conversations' },
  { value: 'all', label: 'Every conversation' },
];

export function ExportTasksDialog(props: { conversationId: string | null; onClose: () => void; initialScope?: Scope }) {
  const api = useApi();
  const guard = useGuard();
  const toast = useToast();
  const ref = useModal();
  const [format, setFormat] = useState<Format>('md');
  const [scope, setScope] = useState<Scope>(props.initialScope ?? (props.conversationId ? 'open' : 'all'));

  const run = async () => {
    // The open scope without a conversation is the board's: every unfinished list.
    const request =
      scope === 'across'
        ? { format, scope: 'open' as const }
        : { format, scope, conversationId: props.conversationId ?? undefined };
    const result = await guard(() => call(api, 'export:tasks', request));
    if (result) {
      deliverExport(result, toast);
      props.onClose();
    }
  };

  return (
    <dialog ref={ref} className="dialog" aria-label="Export tasks" onClose={props.onClose}>
      <h2>Export tasks</h2>
      <ChoiceGroup legend="Format" name="export-format" choices={FORMATS} value={format} onChange={setFormat} />
      <ChoiceGroup
        legend="Scope"
        name="export-scope"
        choices={SCOPES.map((choice) => ({
          ...choice,
          disabled: (choice.value === 'open' || choice.value === 'history') && !props.conversationId,
        }))}
        value={scope}
        onChange={setScope}
      />
      <DialogActions label="Export" onCancel={props.onClose} onConfirm={() => void run()} />
    </dialog>
  );
}
