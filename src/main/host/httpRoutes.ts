// Extra HTTP endpoints of the browser host (downloads and uploads that a WebSocket
// frame is a poor fit for). Token and origin are checked before a route runs.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { BoardFilter } from '../../shared/boardContract';
import { BOARD_EXPORT_PATH } from '../../shared/exportContract';
import { describeZodError } from '../../shared/ipc';
import type { Core } from '../core/createCore';

export interface HttpRoute {
  method: 'GET' | 'POST';
  path: string;
  handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void>;
}

const BoardExportQuery = z.strictObject({ format: z.enum(['md', 'json', 'csv']), filter: BoardFilter });

function badRequest(res: ServerResponse, message: string): void {
  res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
  res.end(message);
}

/** The query as the route's request, or a message saying what is wrong with it. */
function boardExportQuery(url: URL): z.infer<typeof BoardExportQuery> | string {
  let filter: unknown;
  try {
    filter = JSON.parse(url.searchParams.get('filter') ?? '{}');
  } catch {
    return 'Invalid request: filter is not JSON';
  }
  const parsed = BoardExportQuery.safeParse({ format: url.searchParams.get('format') ?? undefined, filter });
  return parsed.success ? parsed.data : `Invalid request: ${describeZodError(parsed.error)}`;
}

/** Resolves when the response can take more, or is gone. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * Writes the pieces to the response as they are made, waiting for the socket to drain:
 * the whole file never exists at once in the host, and no single turn of its event loop
 * makes or sends more than one page. A client that goes away ends the export.
 */
async function streamPieces(res: ServerResponse, pieces: AsyncGenerator<string>, headers: Record<string, string>) {
  // Nothing is sent before the first piece: a failure before it is still a plain 500.
  const first = await pieces.next();
  res.writeHead(200, headers);
  try {
    if (!first.done) {
      let piece: string = first.value;
      for (;;) {
        if (res.destroyed) return;
        if (!res.write(piece)) {
          await drained(res);
          if (res.destroyed) return;
        }
        const next = await pieces.next();
        if (next.done) break;
        piece = next.value;
      }
    }
    res.end();
  } catch (error) {
    // Half a file must not look whole: the connection is cut, and the page reports a failed download.
    res.destroy(error instanceof Error ? error : new Error(String(error)));
  } finally {
    await pieces.return(undefined);
  }
}

function boardExportRoute(core: Core): HttpRoute {
  return {
    method: 'GET',
    path: BOARD_EXPORT_PATH,
    async handle(_req, res, url) {
      const query = boardExportQuery(url);
      if (typeof query === 'string') return badRequest(res, query);
      const download = core.exports.boardDownload(query.filter, query.format);
      await streamPieces(res, download.chunks(), {
        'Content-Type': `${download.mimeType}; charset=utf-8`,
        'Content-Disposition': `attachment; filename="${download.filename}"`,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      });
    },
  };
}

export function registerHttpRoutes(routes: HttpRoute[], core: Core): void {
  routes.push(boardExportRoute(core));
}
