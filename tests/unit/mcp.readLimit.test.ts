// The stdio reader's limit: messages under it pass as the SDK's reader would pass them;
// a message over it, whether it arrives whole or in many chunks, is skipped and its
// request answered with an error naming its size; the messages after it still arrive.
import { describe, expect, it } from 'vitest';
import { limitedReadBuffer, RESULT_TOO_LARGE } from '../../src/main/core/mcp/stdioReadLimit';

const parse = (line: string) => JSON.parse(line) as never;
const drain = (buffer: ReturnType<typeof limitedReadBuffer>) => {
  const out: unknown[] = [];
  for (let message = buffer.readMessage(); message; message = buffer.readMessage()) out.push(message);
  return out;
};
const line = (message: object) => `${JSON.stringify(message)}\n`;

describe('the stdio read limit', () => {
  it('passes messages under the limit, split anywhere', () => {
    const buffer = limitedReadBuffer(parse, 100);
    const text =
      line({ jsonrpc: '2.0', id: 1, result: { a: 1 } }) + line({ jsonrpc: '2.0', method: 'notifications/x' });
    const got: unknown[] = [];
    for (const char of text) {
      buffer.append(Buffer.from(char));
      got.push(...drain(buffer));
    }
    expect(got).toEqual([
      { jsonrpc: '2.0', id: 1, result: { a: 1 } },
      { jsonrpc: '2.0', method: 'notifications/x' },
    ]);
  });

  it('answers an oversized response, arriving in chunks, with its size, and goes on', () => {
    const buffer = limitedReadBuffer(parse, 1024);
    const big = line({ result: { text: 'x'.repeat(5000) }, jsonrpc: '2.0', id: 7 });
    const got: unknown[] = [];
    for (let at = 0; at < big.length; at += 300) {
      buffer.append(Buffer.from(big.slice(at, at + 300)));
      got.push(...drain(buffer));
    }
    buffer.append(Buffer.from(line({ jsonrpc: '2.0', id: 8, result: {} })));
    got.push(...drain(buffer));
    expect(got).toEqual([
      {
        jsonrpc: '2.0',
        id: 7,
        error: {
          code: RESULT_TOO_LARGE,
          message: expect.stringMatching(/^The answer is 0\.0 MB, over the/),
          data: { bytes: big.length - 1, limit: 1024 },
        },
      },
      { jsonrpc: '2.0', id: 8, result: {} },
    ]);
  });

  it('answers an oversized message that arrives whole, with the id first', () => {
    const buffer = limitedReadBuffer(parse, 1024);
    buffer.append(
      Buffer.from(
        line({ jsonrpc: '2.0', id: 'abc', result: { text: 'y'.repeat(3000) } }) +
          line({ jsonrpc: '2.0', id: 2, result: {} }),
      ),
    );
    expect(drain(buffer)).toMatchObject([
      { id: 'abc', error: { code: RESULT_TOO_LARGE } },
      { id: 2, result: {} },
    ]);
  });

  it("hands a server's log lines to the log without the SDK, and only those", () => {
    const logs: unknown[] = [];
    const parsed: string[] = [];
    const buffer = limitedReadBuffer(
      (text) => {
        parsed.push(text);
        return JSON.parse(text) as never;
      },
      1000,
      (params) => logs.push(params),
    );
    const log = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'line 1' } };
    // A result whose text names the method is still a result.
    const result = { jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: '"notifications/message"' }] } };
    buffer.append(Buffer.from(line(log) + line(result) + line(log)));
    expect(drain(buffer)).toEqual([result]);
    expect(logs).toEqual([log.params, log.params]);
    expect(parsed).toHaveLength(1);
  });
});
