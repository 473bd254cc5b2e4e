import { useState } from 'react';
import { useModal } from '../common/useModal';
import { call, useApi } from '../api/apiContext';
import { useGuard, useToast } from '../common/toasts';
import { deliverExport } from '../common/download';

export function ExportConversationDialog(props: { conversationId: string; title: string; onClose: () => void }) {
  const api = useApi();
  const guard = useGuard();
  const toast = useToast();
  const ref = useModal();
  const [format, setFormat] = useState<'md' | 'json'>('md');
  return (
    <dialog ref={ref} className="dialog" aria-label="Export conversation" onClose={props.onClose}>
      <h2>Export conversation</h2>
      <p className="dialog-body">“{props.title}”</p>
      <fieldset className="choice-group">
        <legend>Format</legend>
        <label className="choice">
          <input type="radio" name="conversation-format" checked={format === 'md'} onChange={() => setFormat('md')} />
          Markdown (readable)
        </label>
        <label className="choice">
          <input type="radio" name="conversation-format" checked={format === 'json'} onChange={() => setFormat('json')} />
          JSON (complete, can be imported)
        </label>
      </fieldset>
      <div className="dialog-actions">
        <button type="button" onClick={props.onClose}>
          Cancel
        </button>
        <button
          type="button"
          className="primary"
          onClick={() =>
            void guard(() => call(api, 'export:conversation', { conversationId: props.conversationId, format })).then(
              (result) => {
                if (result) {
                  deliverExport(result, toast);
                  props.onClose();
                }
              },
            )
          }
        >
          Export
        </button>
      </div>
    </dialog>
  );
}
