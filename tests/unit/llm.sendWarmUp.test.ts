// The idle-time warm-up of the first send (llm/sendWarmUp.ts): every step runs once, in
// order, after start-up; a step that fails leaves only its part cold; closing the core
// first cancels what has not run; the request that compiles Node's fetch path goes to a
// server of its own on the loopback address and reads a streamed reply through the SDK.
import { expect, it } from 'vitest';
import { loopbackRequest, warmUpSend } from '../../src/main/core/llm/sendWarmUp';

it('runs each step once, in order, past a step that fails', async () => {
  const ran: string[] = [];
  await new Promise<void>((resolve) => {
    warmUpSend(
      {
        connection: () => ran.push('connection'),
        write: () => {
          ran.push('write');
          throw new Error('SQLITE_BUSY: database is locked');
        },
        turn: () => ran.push('turn'),
        request: async () => {
          ran.push('request');
        },
        done: resolve,
      },
      0,
    );
  });
  // No commit, so no conversation to build a request for.
  expect(ran).toEqual(['connection', 'write', 'request']);
});

it('builds the request of the conversation the first commit was in', async () => {
  const ran: string[] = [];
  await new Promise<void>((resolve) => {
    warmUpSend(
      {
        write: () => 'conversation-7',
        turn: (conversationId) => ran.push(`turn ${conversationId}`),
        done: resolve,
      },
      0,
    );
  });
  expect(ran).toEqual(['turn conversation-7']);
});

it('runs nothing once cancelled', async () => {
  const ran: string[] = [];
  const cancel = warmUpSend({ connection: () => ran.push('connection') }, 0);
  cancel();
  // A later timer of the same delay fires after the warm-up's would have.
  await new Promise((resolve) => setTimeout(resolve, 0));
  await new Promise((resolve) => setImmediate(resolve));
  expect(ran).toEqual([]);
});

it('streams a reply from a server of its own, and stops when aborted', async () => {
  await expect(loopbackRequest(new AbortController().signal)).resolves.toBeUndefined();
  const aborted = new AbortController();
  aborted.abort();
  await expect(loopbackRequest(aborted.signal)).rejects.toThrow();
});
