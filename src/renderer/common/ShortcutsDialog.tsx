import { KeyChips } from './KeyChips';
import { useModal } from './useModal';
import { BOARD_KEYS, NEW_CONVERSATION_KEYS, SEARCH_ALT_KEY, SEARCH_KEYS, SIDEBAR_KEYS } from './shortcuts';
import './ShortcutsDialog.css';

/** Each action with its keys; several keys for one action are each their own chip. */
const SHORTCUTS: Array<[string[], string]> = [
  [[NEW_CONVERSATION_KEYS], 'New conversation'],
  [SEARCH_ALT_KEY ? [SEARCH_KEYS, SEARCH_ALT_KEY] : [SEARCH_KEYS], 'Search conversations'],
  [[SIDEBAR_KEYS], 'Hide or show the sidebar'],
  [[BOARD_KEYS], 'Task board: every open task'],
  [['F2'], 'Rename the open conversation'],
  [['Enter'], 'Send the message'],
  [['Shift + Enter'], 'New line in the message'],
  [['Esc'], 'Stop generating; close Settings'],
  [['Ctrl/⌘ + ,'], 'Settings'],
];

export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  const ref = useModal();
  return (
    <dialog ref={ref} className="dialog" aria-label="Keyboard shortcuts" onClose={onClose}>
      <h2>Keyboard shortcuts</h2>
      <table className="shortcuts">
        <tbody>
          {SHORTCUTS.map(([keys, what]) => (
            <tr key={what}>
              <th scope="row">
                <KeyChips keys={keys} />
              </th>
              <td>{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="dialog-actions">
        <button type="button" className="primary" onClick={onClose}>
          Close
        </button>
      </div>
    </dialog>
  );
}
