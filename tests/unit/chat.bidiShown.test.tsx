// Bidi controls (U+202E and the others) show as visible markers in replies, attachment
// chips and tool cards, as they do in titles: "invoice\u202Etxt.exe" never displays as
// "invoiceexe.txt".
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Markdown } from '../../src/renderer/chat/Markdown';
import { MessageFiles } from '../../src/renderer/attachments/MessageFiles';
import { ToolCallCard } from '../../src/renderer/chat/ToolCallCard';
import { ApiContext } from '../../src/renderer/api/apiContext';
import type { StepwiseApi } from '../../src/shared/ipc';

const CONTROLS = /[\u202A-\u202E\u2066-\u2069]/;
const api = { call: () => new Promise(() => undefined), on: () => () => undefined } as unknown as StepwiseApi;

describe('bidi controls on screen', () => {
  it('are marked in a reply, its code included', () => {
    const html = renderToStaticMarkup(
      <Markdown text={'Open invoice\u202Etxt.exe now.\n\n```\nrun("\u2066x\u2069")\n```'} />,
    );
    expect(html).toContain('invoice[U+202E]txt.exe');
    expect(html).toContain('[U+2066]x[U+2069]');
    expect(html).not.toMatch(CONTROLS);
  });

  it('are marked in an attachment chip', () => {
    const file = { id: 'att_1', name: 'invoice\u202Etxt.exe', mimeType: 'text/plain', kind: 'text' as const, size: 12 };
    const html = renderToStaticMarkup(
      <ApiContext.Provider value={api}>
        <MessageFiles files={[file]} />
      </ApiContext.Provider>,
    );
    expect(html).toContain('invoice[U+202E]txt.exe');
    expect(html).not.toMatch(CONTROLS);
  });

  it('are marked in a tool card', () => {
    const call = { id: 'c1', name: 'mcp__x__\u202Eevil', arguments: '{"path":"a\u202Eb"}' };
    const html = renderToStaticMarkup(
      <ApiContext.Provider value={api}>
        <ToolCallCard view={{ call, result: null }} running={false} agentName="Stepwise" />
      </ApiContext.Provider>,
    );
    expect(html).toContain('mcp__x__[U+202E]evil');
    expect(html).not.toMatch(CONTROLS);
  });
});
