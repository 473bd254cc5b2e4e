// The browser host's streamed download of the task board (`GET /export/board`): guarded by
// the token and the Origin like the WebSocket, the same file as the document rendered at
// once in every format, and the host answers other calls while it streams.
// (How long the host is held meanwhile: bench/taskShareLoad.bench.ts.)
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createNodeCore } from '../../src/main/core/createNodeCore';
import { startHost, type RunningHost } from '../../src/main/host/server';
import { createExportReader } from '../../src/main/core/export/exportReader';
import { collectTasks, renderTasks } from '../../src/main/core/export/tasksExport';
import { ALL_OPEN, type BoardFilterShape } from '../../src/shared/boardView';
import { BOARD_EXPORT_PATH } from '../../src/shared/exportContract';
import { seedShareLists } from '../support/shareLists';
import { makeTempDir, removeDir } from '../support/tempDir';

const EXPORTED_AT = Date.UTC(2026, 10, 28, 6, 0, 0);

let dir: string;
let core: ReturnType<typeof createNodeCore>;
let host: RunningHost;

beforeAll(async () => {
  dir = makeTempDir('stepwise-download-');
  const rendererDir = path.join(dir, 'renderer');
  fs.mkdirSync(rendererDir, { recursive: true });
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>Stepwise test page</title>');
  core = createNodeCore({
    dataDir: path.join(dir, 'data'),
    env: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' },
    now: () => EXPORTED_AT,
  });
  // Fourteen pages of lists, some with titles that need escaping in every format.
  seedShareLists(core.db, 350, 4, (i) => (i % 7 === 0 ? `Äpfel, "quoted"\u202e ${i}` : `Project ${i}`));
  host = await startHost({ core, rendererDir, port: 0 });
}, 120_000);

afterAll(async () => {
  await host?.close();
  await core?.close();
  removeDir(dir);
});

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const origin = () => `http://127.0.0.1:${host.port}`;

function exportPath(format: string, filter: unknown = ALL_OPEN): string {
  return `${BOARD_EXPORT_PATH}?${new URLSearchParams({ format, filter: JSON.stringify(filter) })}`;
}

/** A GET whose body is read as it comes; `onResponse` runs once the headers are in. */
function get(
  target: string,
  headers: Record<string, string> = { Authorization: `Bearer ${host.token}` },
  onResponse: () => void = () => {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: host.port, path: target, headers, agent: false }, (res) => {
      onResponse();
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function expected(format: 'md' | 'json' | 'csv', filter: BoardFilterShape = ALL_OPEN): string {
  const whole = renderTasks(collectTasks(createExportReader(core.db), { scope: 'open', filter }, EXPORTED_AT), format);
  return format === 'csv' ? `\uFEFF${whole}` : whole;
}

describe('GET /export/board', () => {
  it('is refused without the token, with a wrong one, or from another origin', async () => {
    const refused: Array<Record<string, string>> = [
      {},
      { Authorization: 'Bearer wrong' },
      { Authorization: `Bearer ${host.token}x` },
    ];
    for (const headers of refused) {
      const reply = await get(exportPath('json'), headers);
      expect(reply.status).toBe(401);
      expect(reply.body).toMatch(/Unauthorized/);
      expect(reply.body).not.toContain('Project');
    }
    const foreign = await get(exportPath('json'), {
      Authorization: `Bearer ${host.token}`,
      Origin: 'http://evil.example',
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body).not.toContain('Project');
  });

  it('says what is wrong with a bad request', async () => {
    const format = await get(exportPath('pdf'));
    expect(format.status).toBe(400);
    expect(format.body).toMatch(/^Invalid request: .*format/);
    const notJson = await get(`${BOARD_EXPORT_PATH}?format=md&filter=%7B`);
    expect(notJson).toMatchObject({ status: 400, body: 'Invalid request: filter is not JSON' });
    const unknownKey = await get(exportPath('md', { ...ALL_OPEN, sql: 'DROP TABLE tasks' }));
    expect(unknownKey.status).toBe(400);
    expect(unknownKey.body).toMatch(/^Invalid request: /);
  });

  for (const format of ['md', 'json', 'csv'] as const) {
    it(`downloads the whole ${format} file, the same as the document rendered at once`, async () => {
      for (const filter of [ALL_OPEN, { ...ALL_OPEN, text: 'äpfel' }, { ...ALL_OPEN, text: 'nothing matches' }]) {
        const reply = await get(exportPath(format, filter), {
          Authorization: `Bearer ${host.token}`,
          Origin: origin(),
        });
        expect(reply.status).toBe(200);
        expect(reply.headers['content-disposition']).toMatch(
          new RegExp(`^attachment; filename="stepwise-tasks-open-[^"]+\\.${format}"$`),
        );
        expect(reply.headers['content-type']).toMatch(/; charset=utf-8$/);
        expect(reply.headers['cache-control']).toBe('no-store');
        expect(reply.body).toBe(expected(format, filter));
      }
    });
  }

  it('answers other calls over the WebSocket while it streams', async () => {
    const socket = new WebSocket(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`, {
      headers: { Origin: origin() },
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    const info = new Promise<{ id: number; result: { version: string } }>((resolve) =>
      socket.on('message', (data) => resolve(JSON.parse(String(data)) as { id: number; result: { version: string } })),
    );
    let ended = false;
    let started = false;
    const download = get(exportPath('json'), undefined, () => (started = true)).then((reply) => {
      ended = true;
      return reply;
    });
    socket.send(JSON.stringify({ id: 7, method: 'app:info', params: {} }));
    const answer = await info;
    expect(answer.id).toBe(7);
    expect(typeof answer.result.version).toBe('string');
    // Answered before the download's last byte: the export gives way between its pages.
    expect(ended).toBe(false);
    const reply = await download;
    expect(started).toBe(true);
    expect(reply.status).toBe(200);
    expect(reply.body).toBe(expected('json'));
    expect((JSON.parse(reply.body) as { conversations: unknown[] }).conversations).toHaveLength(350);
    socket.close();
  });

  it('stops when the client goes away, and the next download is whole', async () => {
    await new Promise<void>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: host.port,
          path: exportPath('md'),
          headers: { Authorization: `Bearer ${host.token}` },
          agent: false,
        },
        (res) => {
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        },
      );
      req.on('error', (error) => ((error as NodeJS.ErrnoException).code === 'ECONNRESET' ? resolve() : reject(error)));
      req.end();
    });
    const reply = await get(exportPath('md'));
    expect(reply.status).toBe(200);
    expect(reply.body).toBe(expected('md'));
  });
});
