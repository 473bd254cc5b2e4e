// Images and resources an MCP call returned, inside its card (fetched when it is opened).
import { lazy, Suspense, useEffect, useState } from 'react';
import { IMAGE_TYPES } from '../../shared/attachments';
import type { ToolOutput } from '../../shared/mcp';
import { call, useApi } from '../api/apiContext';
import { ImageViewer } from '../attachments/ImageViewer';
// Links and binary resources are rare in results: their views load with the first one.
const EmbeddedBinary = lazy(() => import('./ResourceViews').then((m) => ({ default: m.EmbeddedBinary })));
const ResourceLinkOpen = lazy(() => import('./ResourceViews').then((m) => ({ default: m.ResourceLinkOpen })));
import './mcp.css';

const SAFE_IMAGE: readonly string[] = IMAGE_TYPES;

export function ToolOutputView({ conversationId, toolCallId }: { conversationId: string; toolCallId: string }) {
  const api = useApi();
  const [output, setOutput] = useState<ToolOutput | null>(null);
  useEffect(() => {
    let current = true;
    call(api, 'tools:output', { conversationId, toolCallId }).then(
      (value) => current && setOutput(value),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [api, conversationId, toolCallId]);
  if (!output) return null;
  return (
    <div className="tool-section tool-output">
      {output.images.length > 0 && (
        <div className="tool-images">
          {output.images
            .filter((image) => SAFE_IMAGE.includes(image.mimeType))
            .map((image, i) => (
              <ToolImageView
                key={i}
                url={`data:${image.mimeType};base64,${image.data}`}
                name={`Image ${i + 1} from the tool`}
              />
            ))}
        </div>
      )}
      {output.attachments.length > 0 && (
        <ul className="tool-attachments" aria-label="Attachments">
          {output.attachments.map((item, i) => (
            <li key={i}>
              <span className="tool-attachment-name">{item.name}</span>
              {item.name !== item.uri && <code>{item.uri}</code>}
              {item.mimeType && <span className="mcp-badge">{item.mimeType}</span>}
              <Suspense fallback={null}>
                {item.kind === 'link' && <ResourceLinkOpen item={item} />}
                {item.kind === 'embedded' && item.text === null && <EmbeddedBinary item={item} />}
              </Suspense>
              {item.text !== null && (
                <details>
                  <summary>Show contents</summary>
                  <pre>{item.text}</pre>
                </details>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** A returned image; a click shows it at full size, as attached images do. */
function ToolImageView({ url, name }: { url: string; name: string }) {
  const [viewing, setViewing] = useState(false);
  return (
    <>
      <button
        type="button"
        className="attachment-open"
        aria-label={`View ${name.toLowerCase()}`}
        onClick={() => setViewing(true)}
      >
        <img src={url} alt={name} />
      </button>
      {viewing && <ImageViewer name={name} url={url} onClose={() => setViewing(false)} />}
    </>
  );
}
