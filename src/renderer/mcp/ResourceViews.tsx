// Resources an MCP call returned, in its card: a link opens its content (read from the
// server): text in a viewer, an image in the image viewer, anything else as a download.
// An embedded binary resource is an image, an audio player, or a download chip with its type
// and size; so is audio content.
import { useState } from 'react';
import { formatBytes, IMAGE_TYPES } from '../../shared/attachments';
import type { McpContent } from '../../shared/mcpCatalog';
import type { ToolAttachment } from '../../shared/mcp';
import { call, useApi } from '../api/apiContext';
import { ImageViewer } from '../attachments/ImageViewer';
import { useModal } from '../common/useModal';
import { DialogCloseActions } from '../common/DialogCloseActions';

const SAFE_IMAGE: readonly string[] = IMAGE_TYPES;

const dataUrl = (mimeType: string | null, data: string) =>
  `data:${mimeType ?? 'application/octet-stream'};base64,${data}`;

/** A file name for a download: the URI's last segment. */
function fileName(uri: string): string {
  const last = uri.split(/[?#]/)[0].split('/').filter(Boolean).pop() ?? 'resource';
  try {
    return decodeURIComponent(last) || 'resource';
  } catch {
    return last;
  }
}

/** Binary content as a download chip: its name, type and size. */
export function DownloadChip({
  name,
  mimeType,
  data,
  size,
}: {
  name: string;
  mimeType: string | null;
  data: string;
  size: number;
}) {
  return (
    <a className="mcp-download" href={dataUrl(mimeType, data)} download={fileName(name)}>
      Download {fileName(name)}
      <span className="mcp-badge">{mimeType ?? 'binary'}</span>
      <span className="mcp-badge">{formatBytes(size)}</span>
    </a>
  );
}

/** Whether this page plays the audio type (else it is only offered as a download). */
function playable(mimeType: string | null): boolean {
  return !!mimeType?.startsWith('audio/') && document.createElement('audio').canPlayType(mimeType) !== '';
}

/** Audio content: the browser's player (its own labelled controls), with the download beside it. */
export function AudioPlayer({
  name,
  mimeType,
  data,
  size,
}: {
  name: string;
  mimeType: string;
  data: string;
  size: number;
}) {
  return (
    <figure className="mcp-audio" aria-label={name}>
      <audio controls preload="metadata" src={dataUrl(mimeType, data)} aria-label={`Play ${name}`} />
      <figcaption>
        <DownloadChip name={name} mimeType={mimeType} data={data} size={size} />
      </figcaption>
    </figure>
  );
}

/** An embedded binary resource: shown as an image or played as audio when it is one, else downloadable. */
export function EmbeddedBinary({ item }: { item: ToolAttachment }) {
  const [viewing, setViewing] = useState(false);
  if (item.data === null || item.data === undefined)
    return <span className="field-note">Too large to keep ({formatBytes(item.size ?? 0)}).</span>;
  if (item.mimeType && playable(item.mimeType))
    return <AudioPlayer name={item.name} mimeType={item.mimeType} data={item.data} size={item.size ?? 0} />;
  if (item.mimeType && SAFE_IMAGE.includes(item.mimeType)) {
    const url = dataUrl(item.mimeType, item.data);
    return (
      <>
        <button
          type="button"
          className="attachment-open"
          aria-label={`View ${item.name}`}
          onClick={() => setViewing(true)}
        >
          <img src={url} alt={item.name} className="mcp-embedded-image" />
        </button>
        {viewing && <ImageViewer name={item.name} url={url} onClose={() => setViewing(false)} />}
      </>
    );
  }
  return <DownloadChip name={item.name} mimeType={item.mimeType} data={item.data} size={item.size ?? 0} />;
}

/** "Open" on a resource link: reads it from its server and shows what came back. */
export function ResourceLinkOpen({ item }: { item: ToolAttachment }) {
  const api = useApi();
  const [opened, setOpened] = useState<McpContent[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!item.server) return null;
  const server = item.server;
  const open = async () => {
    setBusy(true);
    setError(null);
    try {
      setOpened((await call(api, 'mcp:readResource', { server, uri: item.uri })).contents);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" className="ghost" disabled={busy} onClick={() => void open()}>
        Open {item.name}
      </button>
      {error && (
        <span role="alert" className="field-note">
          {error}
        </span>
      )}
      {opened && <ResourceViewer title={item.name} contents={opened} onClose={() => setOpened(null)} />}
    </>
  );
}

function ResourceViewer({ title, contents, onClose }: { title: string; contents: McpContent[]; onClose: () => void }) {
  const ref = useModal();
  return (
    <dialog ref={ref} className="dialog mcp-resource-viewer" aria-label={title} onClose={onClose}>
      <h2>{title}</h2>
      {contents.length === 0 && <p>The server returned no content.</p>}
      {contents.map((content, i) =>
        content.text !== null ? (
          <pre key={i} aria-label={`Contents of ${content.name}`}>
            {content.text}
          </pre>
        ) : content.data !== null && content.mimeType && SAFE_IMAGE.includes(content.mimeType) ? (
          <img key={i} src={dataUrl(content.mimeType, content.data)} alt={content.name} />
        ) : content.data !== null && content.mimeType && playable(content.mimeType) ? (
          <AudioPlayer
            key={i}
            name={content.name}
            mimeType={content.mimeType}
            data={content.data}
            size={content.size}
          />
        ) : content.data !== null ? (
          <DownloadChip
            key={i}
            name={content.uri}
            mimeType={content.mimeType}
            data={content.data}
            size={content.size}
          />
        ) : null,
      )}
      <DialogCloseActions dialog={ref} />
    </dialog>
  );
}
