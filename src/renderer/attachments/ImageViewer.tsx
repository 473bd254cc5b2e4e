// An image at full size in a modal dialog (Esc or Close): attached images and the images
// MCP tools return.
import { useModal } from '../common/useModal';
import './attachments.css';
import { DialogCloseActions } from '../common/DialogCloseActions';

export function ImageViewer({ name, url, onClose }: { name: string; url: string; onClose: () => void }) {
  const ref = useModal();
  return (
    <dialog ref={ref} className="dialog attachment-viewer" aria-label={name} onClose={onClose}>
      <img src={url} alt={name} />
      <DialogCloseActions dialog={ref} />
    </dialog>
  );
}
