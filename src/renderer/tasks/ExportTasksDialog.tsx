// "Export tasks…": pick a format and a scope. The desktop app saves through the native
// dialog in main; in a browser the file is downloaded.
import { useState } from 'react';
import { useModal } from '../common/useModal';
import { call, useApi } from '../api/apiContext';
import { useGuard, useToast } from '../common/toasts';
import { deliverExport } from '../common/download';

type Format = 'md' | 'json' | 'csv';
type Scope = 'open' | 'history' | 'all';

const FORMATS: Array<[Format, string]> = [
  ['md', 'Markdown'],
  ['json', 'JSON'],
  ['csv', 'CSV'],
];
const SCOPES: Array<[Scope, string]> = [
  ['open', 'This task list'],
  ['history', 'Every list in this conversation'],
  ['all', 'Every conversation'],
];

export function ExportTasksDialog(props: { conversationId: string | null; onClose: () => void; initialScope?: Scope }) {
  const api = useApi();
  const guard = useGuard();
  const toast = useToast();
  const ref = useModal();
  const [format, setFormat] = useState<Format>('md');
  const [scope, setScope] = useState<Scope>(props.initialScope ?? (props.conversationId ? 'open' : 'all'));


  const run = async () => {
    const result = await guard(() =>
      call(api, 'export:tasks', { format, scope, conversationId: props.conversationId ?? undefined }),
    );
    if (result) {
      deliverExport(result, toast);
      props.onClose();
    }
  };

  return (
    <dialog ref={ref} className="dialog" aria-label="Export tasks" onClose={props.onClose}>
      <h2>Export tasks</h2>
      <fieldset className="choice-group">
        <legend>Format</legend>
        {FORMATS.map(([value, label]) => (
          <label key={value} className="choice">
            <input type="radio" name="export-format" checked={format === value} onChange={() => setFormat(value)} />
            {label}
          </label>
        ))}
      </fieldset>
      <fieldset className="choice-group">
        <legend>Scope</legend>
        {SCOPES.map(([value, label]) => (
          <label key={value} className="choice">
            <input
              type="radio"
              name="export-scope"
              checked={scope === value}
              disabled={value !== 'all' && !props.conversationId}
              onChange={() => setScope(value)}
            />
            {label}
          </label>
        ))}
      </fieldset>
      <div className="dialog-actions">
        <button type="button" onClick={props.onClose}>
          Cancel
        </button>
        <button type="button" className="primary" onClick={() => void run()}>
          Export
        </button>
      </div>
    </dialog>
  );
}
