// `npm run cli`: task lists and conversations for scripts, read from the same database the
// app uses, over a read-only connection (safe while the app is running).
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import writeFileAtomic from 'write-file-atomic';
import { PRIVATE_FILE_MODE } from '../core/storage/privateFiles';
import { ConversationId } from '../../shared/domain';
import { defaultDataDir } from '../core/dataDir';
import { DB_FILE, LATEST_VERSION } from '../core/db/databaseFile';
import { openDatabase, type Db } from '../core/db/openDatabase';

import { exportConversation } from '../core/export/exportModule';
import { createAttachmentFiles } from '../core/attachments/attachmentFiles';
import { createExportReader } from '../core/export/exportReader';
import { exportTasks } from '../core/export/tasksExport';
import { progressOf } from '../../shared/taskProgress';
import { revealBidiControls } from '../../shared/bidi';
import { RoutinesCliError, routinesCommand } from './routinesCli';

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: NodeJS.ProcessEnv;
  /** The directory relative paths are meant from (npm runs scripts in the package root). */
  cwd: string;
  now?: () => number;
}

export const USAGE = `Stepwise command line (reads the app's database; never changes it; \`routines run\` asks the running app)

Usage:
  npm run cli -- list [--json]
  npm run cli -- export --format md|json|csv [--conversation <id>] [--scope open|history|all] [--out <file>]
  npm run cli -- export-conversation --conversation <id> --format md|json [--out <file>]
  npm run cli -- routines list [--json]
  npm run cli -- routines runs <name> [--json]
  npm run cli -- routines run <name>     (starts a run in the running Stepwise)

Options:
  --data-dir <dir>       where the database is (default: $STEPWISE_DATA_DIR, else the app's data directory)
  --conversation <id>    a conversation id from \`list\`
  --scope                open: the open task list (without --conversation: the open tasks
                         across conversations, as the task board shows them); history: every
                         list of the conversation; all: every conversation
                         (default: open with --conversation, else all)
  --out <file>           write to a file instead of standard output (- for standard output;
                         a FIFO or device such as /dev/stdout is written into, never replaced)

Use \`npm run -s cli -- …\` to keep npm's own lines out of standard output.
`;

/** The one line printed after an argument mistake. */
export const USAGE_LINE =
  'Usage: npm run cli -- list|export|export-conversation [options] (`npm run cli -- help` for details)';

/** Exit codes: 1 for a failure, 2 for a mistake in the arguments (as most command-line tools). */
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

class CliError extends Error {}
/** A mistake in the arguments: the message is followed by a pointer to the usage text. */
class UsageError extends CliError {}

const FORMATS = ['md', 'json', 'csv'] as const;
const SCOPES = ['open', 'history', 'all'] as const;

function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value))
    throw new UsageError(`--${name} must be one of ${allowed.join(', ')} (got "${value}")`);
  return value as T;
}

function openReadOnly(dataDir: string): Db {
  const file = path.join(dataDir, DB_FILE);
  if (!fs.existsSync(file)) {
    throw new CliError(
      `No Stepwise database at ${file}. Start Stepwise once, or point --data-dir (or STEPWISE_DATA_DIR) at the right directory.`,
    );
  }
  let db: Db;
  try {
    db = openDatabase(dataDir, { readonly: true }).db;
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error));
  }
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version < LATEST_VERSION) {
    db.close();
    throw new CliError(
      `${file} has an older schema (${version}; this version uses ${LATEST_VERSION}). Open Stepwise once to upgrade it, then try again.`,
    );
  }
  return db;
}

function requireConversation(db: Db, id: string | undefined, file: string): string {
  if (id === undefined)
    throw new UsageError('--conversation <id> is required here (`npm run cli -- list` shows the ids).');
  const known = ConversationId.safeParse(id).success && createExportReader(db).conversation(id) !== undefined;
  if (!known)
    throw new CliError(`No conversation with id "${id}" in ${file}. Run \`npm run cli -- list\` to see the ids.`);
  return id;
}

/** Replaces line breaks and other control characters so one conversation stays one line. */
const oneLine = (text: string) => revealBidiControls(text.replace(/[\p{Cc}\u2028\u2029]+/gu, ' '));

function listConversations(db: Db, json: boolean, io: CliIo): void {
  const reader = createExportReader(db);
  const withLists = reader.conversationIdsWithLists();
  const rows = reader.conversations().map((c) => {
    const lists = withLists.has(c.id) ? reader.lists(c.id, 'history') : [];
    const open = lists.find((l) => l.closedAt === null);
    const progress = open ? progressOf(open.tasks) : null;
    return { conversation: c, lists: lists.length, open: progress && { done: progress.done, total: progress.total } };
  });
  if (json) {
    const out = rows.map(({ conversation: c, lists, open }) => ({
      id: c.id,
      title: c.title,
      pinned: c.pinned,
      createdAt: new Date(c.createdAt).toISOString(),
      updatedAt: new Date(c.updatedAt).toISOString(),
      taskLists: lists,
      openList: open,
    }));
    io.stdout(`${JSON.stringify(out, null, 2)}\n`);
    return;
  }
  if (rows.length === 0) {
    io.stderr('No conversations yet.\n');
    return;
  }
  const table = rows.map(({ conversation: c, lists, open }) => [
    c.id,
    new Date(c.updatedAt).toISOString().slice(0, 16).replace('T', ' '),
    open ? `${open.done}/${open.total}` : '-',
    String(lists),
    oneLine(c.title),
  ]);
  const header = ['ID', 'UPDATED (UTC)', 'TASKS', 'LISTS', 'TITLE'];
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i].length)));
  const format = (r: string[]) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ');
  io.stdout(`${[header, ...table].map(format).join('\n')}\n`);
}

const STDOUT_PATHS = ['/dev/stdout', '/dev/fd/1', '/proc/self/fd/1'];

/**
 * Where `--out` points decides how to write:
 * - `-`: standard output;
 * - a FIFO, a character device (a terminal, /dev/null) or anything under /dev or /proc
 *   (/dev/stdout): written into as it is, never replaced;
 * - a regular file, or nothing yet: a temp file beside it, renamed over it (a new file is
 *   private, 0600; an existing one keeps its mode).
 */
function writeOut(text: string, out: string | undefined, io: CliIo): void {
  const file = out === undefined || out === '-' ? null : path.resolve(io.cwd, out);
  // Opening /dev/stdout fails when standard output is a socket (as from many launchers),
  // and it is standard output anyway.
  if (file === null || STDOUT_PATHS.includes(file)) {
    io.stdout(text);
    return;
  }
  let stat: fs.Stats | null = null;
  try {
    stat = fs.statSync(file);
  } catch {
    // Nothing there yet: a new regular file.
  }
  const describe = (error: unknown) =>
    new CliError(`Could not write ${file}: ${error instanceof Error ? error.message : String(error)}`);
  if (stat?.isDirectory()) throw new CliError(`${file} is a directory; give a file name to --out.`);
  const special = stat !== null && (!stat.isFile() || /^\/(dev|proc)\//.test(file));
  if (special) {
    if (stat!.isBlockDevice() || stat!.isSocket())
      throw new CliError(
        `${file} is a ${stat!.isSocket() ? 'socket' : 'block device'}; --out writes to files, FIFOs and character devices.`,
      );
    try {
      // Append: for /dev/stdout redirected with >> the shell's file keeps what it had.
      fs.writeFileSync(file, text, { flag: 'a' });
    } catch (error) {
      throw describe(error);
    }
    return;
  }
  try {
    writeFileAtomic.sync(file, text, stat ? {} : { mode: PRIVATE_FILE_MODE });
  } catch (error) {
    throw describe(error);
  }
  io.stderr(`Wrote ${file}\n`);
}

export function runCli(argv: string[], io: CliIo): number {
  const now = io.now ?? Date.now;
  let db: Db | null = null;
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        'data-dir': { type: 'string' },
        format: { type: 'string' },
        conversation: { type: 'string' },
        scope: { type: 'string' },
        out: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    const [command, ...extra] = positionals;
    if (values.help || command === 'help') {
      io.stdout(USAGE);
      return 0;
    }
    if (!command) throw new UsageError('Say what to do: list, export, export-conversation or routines.');
    if (command === 'routines') {
      const dir = path.resolve(io.cwd, values['data-dir'] ?? io.env.STEPWISE_DATA_DIR ?? defaultDataDir(io.env));
      return routinesCommand(extra, {
        dataDir: dir,
        json: values.json === true,
        openDb: () => (db = openReadOnly(dir)),
        stdout: io.stdout,
      });
    }
    if (extra.length) throw new UsageError(`Unexpected argument "${extra[0]}".`);

    const dataDir = path.resolve(io.cwd, values['data-dir'] ?? io.env.STEPWISE_DATA_DIR ?? defaultDataDir(io.env));
    const file = path.join(dataDir, DB_FILE);
    if (command === 'list') {
      db = openReadOnly(dataDir);
      listConversations(db, values.json === true, io);
      return 0;
    }
    if (command === 'export') {
      const format = oneOf('format', values.format, FORMATS);
      if (!format) throw new UsageError('--format md|json|csv is required.');
      const scope = oneOf('scope', values.scope, SCOPES) ?? (values.conversation === undefined ? 'all' : 'open');
      if (scope === 'all' && values.conversation !== undefined) {
        throw new UsageError(
          '--scope all exports every conversation; leave out --conversation, or use --scope open or history.',
        );
      }
      db = openReadOnly(dataDir);
      // `--scope open` without a conversation: every open list with unfinished tasks.
      const across = scope === 'open' && values.conversation === undefined;
      const conversationId = scope === 'all' || across ? undefined : requireConversation(db, values.conversation, file);
      writeOut(exportTasks(createExportReader(db), { conversationId, format, scope }, now()).text, values.out, io);
      return 0;
    }
    if (command === 'export-conversation') {
      const format = oneOf('format', values.format, ['md', 'json'] as const);
      if (!format) throw new UsageError('--format md|json is required.');
      db = openReadOnly(dataDir);
      const conversationId = requireConversation(db, values.conversation, file);
      writeOut(
        exportConversation(db, conversationId, format, now(), createAttachmentFiles(dataDir)).text,
        values.out,
        io,
      );
      return 0;
    }
    throw new UsageError(`Unknown command "${command}".`);
  } catch (error) {
    // Argument mistakes (ours or parseArgs') get the usage line and exit code 2.
    const isUsage =
      error instanceof UsageError ||
      (error instanceof RoutinesCliError && error.usage) ||
      String((error as { code?: unknown }).code ?? '').startsWith('ERR_PARSE_ARGS');
    const message = error instanceof Error ? error.message : String(error);
    // parseArgs adds a hint about positionals starting with '-' that only confuses here.
    io.stderr(`stepwise: ${isUsage ? message.replace(/ To specify a positional argument.*$/s, '') : message}\n`);
    if (isUsage) io.stderr(`${USAGE_LINE}\n`);
    return isUsage ? EXIT_USAGE : EXIT_FAILURE;
  } finally {
    db?.close();
  }
}
