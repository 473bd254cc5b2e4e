// The folder dialogs, loaded when one is first opened: name a new folder or rename one,
// move a conversation to a folder (the keyboard's way to do what dragging does), export
// a folder, and delete one (its conversations stay).
import { useEffect, useState } from 'react';
import type { Folder } from '../../shared/folders';
import { call, useApi } from '../api/apiContext';
import { useModal } from '../common/useModal';
import { useGuard } from '../common/toasts';
import { ChoiceGroup, type Choice } from '../common/ChoiceGroup';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { revealBidiControls } from '../../shared/bidi';
import './folders.css';
import { DialogActions } from '../common/DialogActions';
import { ConversationsExportDialog } from '../sidebar/ExportConversationDialog';
import { folderExportText } from './folderExportText';
import { McpFolderRootsDialog } from '../mcp/McpFolderRootsDialog';

/** Mirrors FOLDER_NAME_MAX in shared/folders (not imported: that module brings zod). */
const NAME_MAX = 100;

export type FolderDialog =
  | { kind: 'new' }
  | { kind: 'rename'; folder: Folder }
  | { kind: 'roots'; folder: Folder }
  | { kind: 'export'; folder: Folder }
  | { kind: 'delete'; folder: Folder }
  | { kind: 'move'; conversation: { id: string; title: string; folderId: string | null } };

export function FolderDialogs(props: { dialog: FolderDialog; onClose: () => void }) {
  const { dialog, onClose } = props;
  switch (dialog.kind) {
    case 'new':
      return <NameDialog folder={null} onClose={onClose} />;
    case 'rename':
      return <NameDialog folder={dialog.folder} onClose={onClose} />;
    case 'roots':
      return <McpFolderRootsDialog folder={dialog.folder} onClose={onClose} />;
    case 'export':
      return <ExportFolderDialog folder={dialog.folder} onClose={onClose} />;
    case 'delete':
      return <DeleteFolderDialog folder={dialog.folder} onClose={onClose} />;
    case 'move':
      return <MoveToFolderDialog conversation={dialog.conversation} onClose={onClose} />;
  }
}

function NameDialog(props: { folder: Folder | null; onClose: () => void }) {
  const api = useApi();
  const ref = useModal();
  const [name, setName] = useState(props.folder?.name ?? '');
  const [error, setError] = useState<string | null>(null);
  const title = props.folder ? 'Rename folder' : 'New folder';
  const save = async () => {
    if (!name.trim()) return setError('Give the folder a name.');
    const request = props.folder
      ? call(api, 'folders:rename', { id: props.folder.id, name })
      : call(api, 'folders:create', { name });
    await request.then(props.onClose, (failure: { message?: string }) => setError(failure.message ?? String(failure)));
  };
  return (
    <dialog ref={ref} className="dialog" aria-label={title} onClose={props.onClose}>
      <form
        method="dialog"
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <h2>{title}</h2>
        <label className="dialog-field">
          Folder name
          <input
            autoFocus
            value={name}
            maxLength={NAME_MAX}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'folder-name-error' : undefined}
            onChange={(event) => {
              setName(event.target.value);
              setError(null);
            }}
          />
        </label>
        {error && (
          <p id="folder-name-error" className="dialog-error" role="alert">
            {error}
          </p>
        )}
        <DialogActions label={props.folder ? 'Rename' : 'Create folder'} onCancel={props.onClose} />
      </form>
    </dialog>
  );
}

const NO_FOLDER = 'none';
const NEW_FOLDER = 'new';

function MoveToFolderDialog(props: {
  conversation: { id: string; title: string; folderId: string | null };
  onClose: () => void;
}) {
  const api = useApi();
  const guard = useGuard();
  const ref = useModal();
  const [folders, setFolders] = useState<Folder[] | null>(null);
  const [choice, setChoice] = useState(props.conversation.folderId ?? NO_FOLDER);
  const [newName, setNewName] = useState('');
  useEffect(() => {
    void guard(() => call(api, 'folders:list', {})).then((list) => setFolders(list ?? []));
  }, [api, guard]);
  const choices: Choice<string>[] = [
    { value: NO_FOLDER, label: 'No folder' },
    ...(folders ?? []).map((f) => ({ value: f.id, label: revealBidiControls(f.name) })),
    { value: NEW_FOLDER, label: 'A new folder' },
  ];
  const move = async () => {
    const moved = await guard(async () => {
      const folderId =
        choice === NO_FOLDER
          ? null
          : choice === NEW_FOLDER
            ? (await call(api, 'folders:create', { name: newName })).id
            : choice;
      if (folderId !== props.conversation.folderId)
        await call(api, 'conversations:setFolder', { id: props.conversation.id, folderId });
      return true;
    });
    if (moved) props.onClose();
  };
  return (
    <dialog ref={ref} className="dialog" aria-label="Move to folder" onClose={props.onClose}>
      <h2>Move to folder</h2>
      <p className="dialog-body">“{revealBidiControls(props.conversation.title)}”</p>
      {folders === null ? (
        <div className="loading" aria-busy="true" />
      ) : (
        <div className="folder-choices">
          <ChoiceGroup legend="Folder" name="move-to-folder" choices={choices} value={choice} onChange={setChoice} />
          {choice === NEW_FOLDER && (
            <label className="dialog-field">
              New folder name
              <input
                autoFocus
                value={newName}
                maxLength={NAME_MAX}
                onChange={(event) => setNewName(event.target.value)}
              />
            </label>
          )}
        </div>
      )}
      <DialogActions
        label="Move"
        onCancel={props.onClose}
        onConfirm={() => void move()}
        disabled={folders === null || (choice === NEW_FOLDER && !newName.trim())}
      />
    </dialog>
  );
}

function ExportFolderDialog(props: { folder: Folder; onClose: () => void }) {
  const api = useApi();
  const { folder } = props;
  return (
    <ConversationsExportDialog
      heading="Export folder"
      body={folderExportText(revealBidiControls(folder.name), folder.count)}
      name="folder-format"
      exportAs={(format) => call(api, 'export:folder', { folderId: folder.id, format })}
      onClose={props.onClose}
    />
  );
}

function DeleteFolderDialog(props: { folder: Folder; onClose: () => void }) {
  const api = useApi();
  const guard = useGuard();
  const { folder } = props;
  return (
    <ConfirmDialog
      title="Delete folder?"
      confirmLabel="Delete folder"
      danger
      onCancel={props.onClose}
      onConfirm={() => void guard(() => call(api, 'folders:delete', { id: folder.id })).then(props.onClose)}
    >
      <p>
        The folder “{revealBidiControls(folder.name)}” will be deleted.{' '}
        {folder.count > 0
          ? `Its ${folder.count === 1 ? 'conversation stays' : `${folder.count} conversations stay`}, out of any folder; nothing in ${folder.count === 1 ? 'it' : 'them'} is deleted.`
          : 'It is empty.'}
      </p>
    </ConfirmDialog>
  );
}
