// Switching versions replaces the message row (its id changes), which would drop the
// keyboard focus: the focus moves to the same control of the version now shown.
import type { CallRequest, StepwiseApi } from '../../shared/ipc';
import { call } from '../api/apiContext';

/** How long (in frames) to wait for the new row to appear. */
const FRAMES = 60;

export async function showVersion(api: StepwiseApi, request: CallRequest<'messages:showVersion'>) {
  const active = document.activeElement;
  const label = active?.closest('.version-switch') ? active.getAttribute('aria-label') : null;
  const shown = await call(api, 'messages:showVersion', request);
  if (!label) return shown;
  let frames = 0;
  const refocus = () => {
    const group = document.querySelector(`[data-message-id="${shown.id}"] .version-switch`);
    const buttons = group ? [...group.querySelectorAll<HTMLButtonElement>('button:not(:disabled)')] : [];
    if (buttons.length) (buttons.find((b) => b.getAttribute('aria-label') === label) ?? buttons[0]).focus();
    else if (++frames < FRAMES) requestAnimationFrame(refocus);
  };
  requestAnimationFrame(refocus);
  return shown;
}
