// Token counting and the history build of a request. Each figure is measured against its
// floor in the same interleaved run: the bare gpt-tokenizer call over the same texts, and
// the bare SQLite read of the same conversation.
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { countTokens } from 'gpt-tokenizer';
import { registerRawImports } from './rawImports';
import { interleave, ratioRow, type Bench, type BenchRow } from './benchKit';

const HISTORY_MESSAGES = 10_000;
const ROUNDS = 20;

const sentence = (i: number) =>
  `Step ${i}: we checked the widget-${i % 97} config, found ${i % 13} issues and fixed them in module ${i % 31}. `;
const text = (i: number, sentences: number) =>
  Array.from({ length: sentences }, (_, k) => sentence(i * 7 + k)).join('');

const bench: Bench = {
  title: 'Context: token counting and the history build of a request',
  async run() {
    registerRawImports();
    const { createTokenCounter } = await import('../src/main/core/context/tokenCount');
    const { buildRequestHistory } = await import('../src/main/core/context/requestHistory');
    const { loadHistory } = await import('../src/main/core/llm/compactHistory');
    const { createNodeCore } = await import('../src/main/core/createNodeCore');
    const rows: BenchRow[] = [];

    // About 100,000 tokens of history in 400 messages.
    const params = Array.from({ length: 400 }, (_, i) => ({
      role: i % 2 ? ('assistant' as const) : ('user' as const),
      content: text(i, 9),
    }));
    const tokens = params.reduce((n, m) => n + countTokens(m.content), 0);
    const warm = createTokenCounter();
    warm.messages(params);
    const counted = await interleave(
      {
        cold: () => void createTokenCounter().messages(params),
        warm: () => void warm.messages(params),
        floor: () => void params.reduce((n, m) => n + countTokens(m.content), 0),
      },
      { rounds: ROUNDS },
    );
    const perSecond = (median: number) => `${Math.round(tokens / (median / 1000)).toLocaleString('en')} tokens/s`;
    rows.push(
      ratioRow(
        `count ${tokens.toLocaleString('en')} tokens, new counter (${perSecond(counted.cold.median)})`,
        counted.cold,
        counted.floor,
        'countTokens per message',
        '≈ 1×',
      ),
    );
    rows.push(
      ratioRow(
        `count them again, cached (${perSecond(counted.warm.median)})`,
        counted.warm,
        counted.floor,
        'countTokens per message',
        '≪ 1×',
      ),
    );

    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-bench-context-'));
    const core = createNodeCore({ dataDir: path.join(root, 'data'), env: {}, chat: { log: () => {} } });
    try {
      const { id } = core.conversations.create('Long');
      core.db.transaction(() => {
        for (let i = 0; i < HISTORY_MESSAGES; i++) {
          core.messages.insert({ conversationId: id, role: i % 2 ? 'assistant' : 'user', content: text(i, 2) });
        }
      })();
      const counter = createTokenCounter();
      const select = core.db.prepare('SELECT * FROM messages WHERE conversation_id = ? ORDER BY id');
      const build = () =>
        buildRequestHistory(
          {
            systemPrompt: 'You are Stepwise.',
            ...loadHistory(core.messages, id, { maxTokens: 128_000, counter }),
            toolTokens: 500,
            contextWindow: 128_000,
          },
          counter,
        );
      build();
      const built = await interleave({ app: () => void build(), floor: () => void select.all(id) }, { rounds: ROUNDS });
      rows.push(
        ratioRow(
          `history build, ${HISTORY_MESSAGES.toLocaleString('en')} messages (counts cached)`,
          built.app,
          built.floor,
          'SELECT of the rows',
          '< 20 ms',
        ),
      );
    } finally {
      core.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
    return rows;
  },
};

export default bench;
