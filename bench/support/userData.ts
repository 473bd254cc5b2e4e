// Data shaped as users have it, for the start-up and search rows: messages of 25–85 words
// of Markdown (emphasis, code spans, links, list items), and 1,000 pinned conversations of
// 50,000. Written with plain SQL into a database whose schema the host being measured made
// (it starts once on the empty data dir first), so the same data can be seeded for this
// build and for an older one (`npm run bench -- --against <ref>`).
import Database from 'better-sqlite3';
import path from 'node:path';
import { randomUUID } from 'node:crypto';

/** Found in the oldest message and in one of RARE_EVERY after it; "the" is in nearly every one. */
export const RARE_WORD = 'quokka';
export const COMMON_WORD = 'the';
const RARE_EVERY = 2_000;

const WORDS = (
  'the plan step report widget config release module test check build data page list task note draft review ' +
  'server client request reply error value field table index query search result change update version branch ' +
  'file folder export import setting model prompt token window summary history message answer question ' +
  'should would could first then after before every each some other next last small large quick slow'
).split(' ');

/** A deterministic generator (mulberry32), so both builds get the same text. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One message: 25–85 words of Markdown; `rare` puts RARE_WORD in it. */
export function markdownMessage(seed: number, rare = false): string {
  const next = random(seed);
  const pick = () => WORDS[Math.floor(next() * WORDS.length)];
  const count = 25 + Math.floor(next() * 61);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const word = i % 9 === 0 ? COMMON_WORD : pick();
    const r = next();
    if (r < 0.05) out.push(`**${word}**`);
    else if (r < 0.09) out.push(`\`${word}_${Math.floor(next() * 100)}\``);
    else if (r < 0.11) out.push(`[${word}](https://example.com/${word})`);
    else out.push(word);
    if (i > 0 && i % 20 === 0) out.push(next() < 0.5 ? '\n\n- ' : '.\n\n');
  }
  if (rare) out.splice(Math.floor(count / 2), 0, RARE_WORD);
  return `${out.join(' ')}.`;
}

export type Shape = { kind: 'messages'; count: number } | { kind: 'conversations'; count: number; pinned: number };

/** Fills the database of `dataDir` (its schema already made by a host's first start). */
export function seedUserData(dataDir: string, shape: Shape): void {
  const db = new Database(path.join(dataDir, 'stepwise.db'));
  try {
    const conversation = db.prepare(
      'INSERT INTO conversations (id, title, created_at, updated_at, pinned) VALUES (?, ?, ?, ?, ?)',
    );
    const message = db.prepare(
      `INSERT INTO messages (conversation_id, role, content, created_at, origin, parent_id)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    const start = Date.UTC(2025, 0, 1);
    let n = 0;
    const add = (conversationId: string, parent: number | null) => {
      n++;
      const user = n % 2 === 1;
      return Number(
        message.run(
          conversationId,
          user ? 'user' : 'assistant',
          markdownMessage(n, n === 1 || n % RARE_EVERY === 0),
          start + n * 1000,
          user ? 'user' : 'system',
          parent,
        ).lastInsertRowid,
      );
    };
    db.transaction(() => {
      if (shape.kind === 'messages') {
        const id = randomUUID();
        conversation.run(id, 'A long conversation', start, start + shape.count * 1000, 0);
        let parent: number | null = null;
        for (let i = 0; i < shape.count; i++) parent = add(id, parent);
        return;
      }
      const pinEvery = Math.max(1, Math.round(shape.count / shape.pinned));
      for (let i = 0; i < shape.count; i++) {
        const id = randomUUID();
        const at = start + (n + 2) * 1000;
        conversation.run(id, `Project ${i} notes on topic ${i % 97}`, at, at, i % pinEvery === 0 ? 1 : 0);
        add(id, add(id, null));
      }
    })();
  } finally {
    db.close();
  }
}
