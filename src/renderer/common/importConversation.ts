// "Import conversation…": the desktop app picks the file in main; in a browser the page
// reads the picked file and sends its text (never a path).
import type { StepwiseApi } from '../../shared/ipc';
import { call } from '../api/apiContext';

function pickFileText(): Promise<string | null> {
  return new Promise((resolve) => {
    const input = document.createElement('input');
    input.type = 'file';
    input.accept = '.json,application/json';
    input.setAttribute('aria-label', 'Conversation export file');
    input.style.display = 'none';
    input.addEventListener('change', () => {
      const file = input.files?.[0];
      input.remove();
      if (!file) resolve(null);
      else void file.text().then(resolve, () => resolve(null));
    });
    input.addEventListener('cancel', () => {
      input.remove();
      resolve(null);
    });
    document.body.append(input);
    input.click();
  });
}

export async function importConversation(api: StepwiseApi): Promise<{ conversationId: string; title: string } | null> {
  const first = await call(api, 'import:conversation', {});
  if (first.kind === 'imported') return first;
  if (first.kind === 'cancelled') return null;
  const content = await pickFileText();
  if (content === null) return null;
  const second = await call(api, 'import:conversation', { content });
  return second.kind === 'imported' ? second : null;
}
