// The row that adds a task at the end of a list: Enter adds and stays for the next one,
// Esc or leaving the field ends adding. The header and the plan review card both use it.
import { useState } from 'react';
import { call, useApi } from '../api/apiContext';
import { useGuard } from '../common/toasts';

export function AddTaskRow({ conversationId, onDone }: { conversationId: string; onDone: () => void }) {
  const api = useApi();
  const guard = useGuard();
  const [title, setTitle] = useState('');
  return (
    <li className="task-row adding">
      <input
        autoFocus
        className="inline-rename"
        aria-label="New task title"
        placeholder="New task"
        maxLength={200}
        value={title}
        onChange={(e) => setTitle(e.target.value)}
        onBlur={onDone}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && title.trim()) {
            e.preventDefault();
            void guard(() => call(api, 'tasks:add', { conversationId, title })).then(() => setTitle(''));
          } else if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            onDone();
          }
        }}
      />
    </li>
  );
}
