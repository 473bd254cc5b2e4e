// What MCP Apps tell the model (`ui/update-model-context`): the latest context of each app,
// per conversation, for its own agent only, cut to size and marked as the app's report.
import { describe, expect, it } from 'vitest';
import { APP_CONTEXT_CHARS, APP_CONTEXTS_KEPT, createAppContexts } from '../../src/main/core/mcp/mcpAppContext';

const app = { server: 'maps', tool: 'show' };
const text = (value: string) => [{ type: 'text', text: value }];

describe('MCP App model context', () => {
  it('keeps only the latest update of each app, in its conversation', () => {
    const contexts = createAppContexts();
    contexts.update('c1', 'call_1', app, text('Picked Porto.'), undefined);
    contexts.update('c1', 'call_1', app, text('Picked Lisbon.'), { zoom: 4 });
    const section = contexts.section('c1')!;
    expect(section).toContain(
      '<appContext server="maps" tool="show" step="call_1">\nPicked Lisbon.\n{"zoom":4}\n</appContext>',
    );
    expect(section).not.toContain('Porto');
    expect(section).toContain("the app's own report");
    expect(contexts.section('c2')).toBeNull();
  });

  it('an empty update removes the context; images are named, not sent', () => {
    const contexts = createAppContexts();
    contexts.update('c1', 'call_1', app, [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }], undefined);
    expect(contexts.section('c1')).toContain('[image content, not shown to the model]');
    contexts.update('c1', 'call_1', app, [], undefined);
    expect(contexts.section('c1')).toBeNull();
  });

  it('cuts long contexts and keeps the most recent apps only', () => {
    const contexts = createAppContexts();
    contexts.update('c1', 'call_long', app, text('x'.repeat(APP_CONTEXT_CHARS + 50)), undefined);
    expect(contexts.section('c1')).toContain('… (cut)');
    for (let i = 0; i < APP_CONTEXTS_KEPT; i++) contexts.update('c1', `call_${i}`, app, text(`app ${i}`), undefined);
    const section = contexts.section('c1')!;
    expect(section).not.toContain('call_long');
    expect(section.match(/<appContext /g)).toHaveLength(APP_CONTEXTS_KEPT);
  });
});
