// A POST body up to BODY_MAX bytes. Over it, the rest is read and dropped (up to
// DRAIN_MAX) so that the client, still sending, gets the 413 and its message rather than
// a reset connection; beyond DRAIN_MAX the connection is cut.
import type { IncomingMessage } from 'node:http';

export const BODY_MAX = 1024 * 1024;
const DRAIN_MAX = 64 * 1024 * 1024;

/** The body as text, or null when it is over BODY_MAX (the caller answers 413 at once). */
export function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (over) {
        if (size > DRAIN_MAX) req.destroy();
        return;
      }
      if (size > BODY_MAX) {
        over = true;
        chunks.length = 0;
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!over) resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', (error) => {
      if (!over) reject(error);
    });
  });
}
