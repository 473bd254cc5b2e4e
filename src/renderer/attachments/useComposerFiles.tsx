// The composer's files: the "Attach files" button, paste from the clipboard, drops onto
// the conversation around the composer, and the chips of what is attached (removable,
// images with a thumbnail). The limits and, for a model that does not see images, a note
// are shown before anything is sent.
import { revealBidiControls } from '../../shared/bidi';
import { useEffect, useEffectEvent, useRef, useSyncExternalStore, type ClipboardEvent, type RefObject } from 'react';
import { ATTACHMENT_LIMITS_TEXT, formatBytes } from '../../shared/attachments';
import type { ModelRef } from '../../shared/providers';
import { useApi } from '../api/apiContext';
import { useToast } from '../common/toasts';
import { stagedFiles, type StagedFile } from './stagedFiles';
import { useModelVision } from './useModelVision';
import { FileIcon } from './FileIcon';
import './attachments.css';

export function useComposerFiles(
  draft: string,
  form: RefObject<HTMLFormElement | null>,
  active: boolean,
  model?: ModelRef | null,
) {
  const api = useApi();
  const toast = useToast();
  const files = useSyncExternalStore(stagedFiles.subscribe, () => stagedFiles.get(draft));
  const input = useRef<HTMLInputElement>(null);
  const vision = useModelVision(model);
  const uploading = files.some((f) => !f.info);
  const ids = files.flatMap((f) => (f.info ? [f.info.id] : []));

  const add = (list: File[]) => {
    if (!list.length) return;
    void stagedFiles.add(api, draft, list).then((problems) => problems.forEach((problem) => toast(problem, 'error')));
  };
  const onDrop = useEffectEvent((list: File[]) => add(list));

  // A file dropped where nothing takes it (the sidebar, a worker's view) must not make
  // the window open the file in place of Stepwise.
  useEffect(() => {
    const guard = (event: DragEvent) => {
      if (event.dataTransfer?.types.includes('Files')) event.preventDefault();
    };
    window.addEventListener('dragover', guard);
    window.addEventListener('drop', guard);
    return () => {
      window.removeEventListener('dragover', guard);
      window.removeEventListener('drop', guard);
    };
  }, []);

  // Drops anywhere on the conversation (the section around the composer) attach the files.
  useEffect(() => {
    const zone = form.current?.closest('section');
    if (!zone || !active) return;
    const hasFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') ?? false;
    const over = (event: DragEvent) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      zone.classList.add('file-drop-target');
    };
    const leave = (event: DragEvent) => {
      if (!zone.contains(event.relatedTarget as Node | null)) zone.classList.remove('file-drop-target');
    };
    const drop = (event: DragEvent) => {
      zone.classList.remove('file-drop-target');
      if (!hasFiles(event)) return;
      event.preventDefault();
      onDrop([...(event.dataTransfer?.files ?? [])]);
    };
    zone.addEventListener('dragover', over);
    zone.addEventListener('dragleave', leave);
    zone.addEventListener('drop', drop);
    return () => {
      zone.removeEventListener('dragover', over);
      zone.removeEventListener('dragleave', leave);
      zone.removeEventListener('drop', drop);
      zone.classList.remove('file-drop-target');
    };
  }, [form, active]);

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const pasted = [...event.clipboardData.files];
    if (!pasted.length) return;
    event.preventDefault();
    add(pasted);
  };

  const button = (
    <>
      <button
        type="button"
        className="attach-button"
        aria-label="Attach files"
        title={`Attach files. ${ATTACHMENT_LIMITS_TEXT}`}
        onClick={() => input.current?.click()}
      >
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
          <path
            d="M21 11.5 12.6 19.9a5.5 5.5 0 0 1-7.8-7.8l8.5-8.5a3.7 3.7 0 0 1 5.2 5.2l-8.5 8.5a1.8 1.8 0 0 1-2.6-2.6l7.8-7.8"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.8"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
      </button>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        aria-label="Files to attach"
        onChange={(event) => {
          add([...(event.target.files ?? [])]);
          event.target.value = '';
        }}
      />
    </>
  );

  const images = files.filter((f) => f.info?.kind === 'image' || (!f.info && f.previewUrl));
  const tray = files.length ? (
    <div className="attachment-tray">
      <ul className="attachment-chips" aria-label="Attached files">
        {files.map((file) => (
          <StagedChip key={file.key} file={file} onRemove={() => stagedFiles.remove(draft, file.key)} />
        ))}
      </ul>
      <p className="attachment-limits">
        {formatBytes(files.reduce((n, f) => n + f.size, 0))} attached. {ATTACHMENT_LIMITS_TEXT}
      </p>
      {images.length > 0 && vision && !vision.sees && (
        <p className="attachment-note" role="note">
          {vision.model} is not set up to see images, so it will get only the name of{' '}
          {images.length === 1 ? 'the image' : 'each image'}. Choose a model that sees images, or mark this one in
          Settings → Model details → Sees images.
        </p>
      )}
    </div>
  ) : null;

  return {
    button,
    tray,
    onPaste,
    /** Files from elsewhere (an MCP resource or prompt), uploaded as attached files. */
    attach: add,
    ids,
    uploading,
    hasFiles: files.length > 0,
    sent: (sentIds: string[]) => stagedFiles.sent(draft, sentIds),
  };
}

function StagedChip({ file, onRemove }: { file: StagedFile; onRemove: () => void }) {
  const name = revealBidiControls(file.name);
  return (
    <li className="attachment-chip" aria-busy={!file.info}>
      {file.previewUrl ? <img className="attachment-thumb" src={file.previewUrl} alt="" /> : <FileIcon />}
      <span className="attachment-name">{name}</span>
      <span className="attachment-size">{file.info ? formatBytes(file.size) : 'Uploading…'}</span>
      <button type="button" className="attachment-remove" aria-label={`Remove ${name}`} onClick={onRemove}>
        <span aria-hidden="true">×</span>
      </button>
    </li>
  );
}
