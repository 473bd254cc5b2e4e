// The files of a sent message, as chips (images with a thumbnail) in the transcript.
// Thumbnails (at most 512 px, made when the file was stored) come through the typed API as
// data URLs (the CSP allows `data:` images only); the viewer asks for the original. A file
// gone from disk shows as missing.
import { useEffect, useState } from 'react';
import { ImageViewer } from './ImageViewer';
import { formatBytes, type AttachmentInfo, type AttachmentPreview } from '../../shared/attachments';
import { call, useApi } from '../api/apiContext';
import { FileIcon } from './FileIcon';
import { revealBidiControls } from '../../shared/bidi';
import './attachments.css';

/** Previews already fetched, so scrolling back and forth does not fetch them again. */
const previews = new Map<string, AttachmentPreview>();
const PREVIEWS_KEPT = 200;

export function MessageFiles({ files, label = 'Attached files' }: { files: AttachmentInfo[]; label?: string }) {
  return (
    <ul className="attachment-chips message-files" aria-label={label}>
      {files.map((file) => (
        <SentChip key={file.id} file={file} />
      ))}
    </ul>
  );
}

function SentChip({ file: stored }: { file: AttachmentInfo }) {
  const preview = usePreview(stored);
  // "invoice\u202Etxt.exe" would display as "invoiceexe.txt": every bidi control is shown as a marker.
  const file = { ...stored, name: revealBidiControls(stored.name) };
  const [viewing, setViewing] = useState(false);
  const missing = preview?.status === 'missing';
  return (
    <li
      className={`attachment-chip${missing ? ' missing' : ''}`}
      title={missing ? preview.message : `${file.name} (${formatBytes(file.size)})`}
    >
      {preview?.status === 'ok' ? (
        <button
          type="button"
          className="attachment-open"
          aria-label={`View ${file.name}`}
          onClick={() => setViewing(true)}
        >
          <img className="attachment-thumb large" src={preview.dataUrl} alt={file.name} />
        </button>
      ) : (
        <FileIcon />
      )}
      {viewing && preview?.status === 'ok' && (
        <FullImage id={file.id} name={file.name} thumbnail={preview.dataUrl} onClose={() => setViewing(false)} />
      )}
      <span className="attachment-name">{file.name}</span>
      <span className="attachment-size">{missing ? 'Missing' : formatBytes(file.size)}</span>
    </li>
  );
}

/** The original in the viewer; its thumbnail until the original arrives (or if it cannot). */
function FullImage({
  id,
  name,
  thumbnail,
  onClose,
}: {
  id: string;
  name: string;
  thumbnail: string;
  onClose: () => void;
}) {
  const api = useApi();
  const [url, setUrl] = useState(thumbnail);
  useEffect(() => {
    let live = true;
    void call(api, 'attachments:preview', { id, full: true }).then(
      (result) => {
        if (live && result.status === 'ok') setUrl(result.dataUrl);
      },
      () => {},
    );
    return () => {
      live = false;
    };
  }, [api, id]);
  return <ImageViewer name={name} url={url} onClose={onClose} />;
}

function usePreview(file: AttachmentInfo): AttachmentPreview | null {
  const api = useApi();
  const [preview, setPreview] = useState(() => previews.get(file.id) ?? null);
  useEffect(() => {
    if (file.kind !== 'image' || previews.has(file.id)) return;
    let live = true;
    void call(api, 'attachments:preview', { id: file.id }).then(
      (result) => {
        if (previews.size >= PREVIEWS_KEPT) previews.delete(previews.keys().next().value!);
        previews.set(file.id, result);
        if (live) setPreview(result);
      },
      () => {},
    );
    return () => {
      live = false;
    };
  }, [api, file.id, file.kind]);
  return preview;
}
