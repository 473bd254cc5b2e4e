// A sidebar folder's "Folders the tools may use": absolute paths sent to MCP servers as
// roots for the conversations in it, after Settings → Tools (MCP)'s (docs/tools.md, Roots).
import { useEffect, useState } from 'react';
import type { Folder } from '../../shared/folders';
import { revealBidiControls } from '../../shared/bidi';
import { call, useApi } from '../api/apiContext';
import { useModal } from '../common/useModal';
import { useGuard } from '../common/toasts';
import { RootPathsEditor } from './McpRootsSettings';
import { DialogCloseActions } from '../common/DialogCloseActions';

export function McpFolderRootsDialog(props: { folder: Folder; onClose: () => void }) {
  const api = useApi();
  const guard = useGuard();
  const ref = useModal();
  const [roots, setRoots] = useState<string[] | null>(null);
  const folderId = props.folder.id;
  useEffect(() => {
    let live = true;
    void guard(() => call(api, 'mcp:folderRoots', { folderId })).then((got) => live && got && setRoots(got.paths));
    return () => {
      live = false;
    };
  }, [api, guard, folderId]);
  const save = async (next: string[]) => {
    const saved = await guard(() => call(api, 'mcp:setFolderRoots', { folderId, paths: next }));
    if (saved) setRoots(saved.paths);
    return saved !== undefined;
  };
  const title = `Folders the tools may use in ${props.folder.name}`;
  return (
    <dialog ref={ref} className="dialog mcp-roots" aria-label={title} onClose={props.onClose}>
      <h2>Folders the tools may use</h2>
      <p className="field-note">
        Sent to MCP servers as roots for the conversations in “{revealBidiControls(props.folder.name)}”, after the
        folders set in Settings → Tools (MCP).
      </p>
      {roots && <RootPathsEditor roots={roots} save={save} />}
      <DialogCloseActions dialog={ref} />
    </dialog>
  );
}
