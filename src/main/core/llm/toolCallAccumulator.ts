// Tool calls arrive in pieces: the first chunk of a call carries its index, id and name,
// later chunks only more of the arguments string. Several calls can interleave by index.
// Servers differ, and each quirk here comes from one that exists:
// - no `index` at all (Gemini's OpenAI endpoint, older Ollama): a delta with a new id
//   starts a new call, one without an id continues the latest call;
// - a different id at an index already taken (every call sent as index 0): a new call,
//   never one merged name like `manage_todo_listget_current_time`. A new call starts with
//   its name, so a new id on a delta without one (proxies that mint an id per chunk) does
//   not split a call;
// - the name or the arguments resent whole in every chunk (some DeepSeek-compatible and
//   GLM servers): a piece that repeats everything so far replaces it instead of being
//   appended.
import { randomUUID } from 'node:crypto';
import type { ToolCall } from '../../../shared/domain';

export interface ToolCallDelta {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

/** `next` extends what we have: either a continuation piece or the whole value resent. */
function grow(current: string, piece: string): string {
  if (current && piece.startsWith(current)) return piece;
  return current + piece;
}

export function createToolCallAccumulator() {
  const calls: ToolCall[] = [];
  /** The call each server index currently points at. */
  const byIndex = new Map<number, ToolCall>();

  function target(delta: ToolCallDelta): ToolCall {
    const id = delta.id || '';
    const byId = id ? calls.find((c) => c.id === id) : undefined;
    if (byId) return byId;
    const known = delta.index === undefined ? calls.at(-1) : byIndex.get(delta.index);
    // A new id with a name is a new call, whatever the index says.
    const starts = id && delta.function?.name && known?.id && known.id !== id;
    if (known && !starts) return known;
    const call: ToolCall = { id: '', name: '', arguments: '' };
    calls.push(call);
    if (delta.index !== undefined) byIndex.set(delta.index, call);
    return call;
  }

  return {
    add(deltas: ToolCallDelta[] | null | undefined): void {
      for (const delta of deltas ?? []) {
        const call = target(delta);
        if (delta.id && !call.id) call.id = delta.id;
        const name = delta.function?.name;
        // The name comes whole in the first chunk; some servers repeat it, a few split it.
        if (name && name !== call.name) call.name = grow(call.name, name);
        const piece = delta.function?.arguments;
        if (piece) call.arguments = grow(call.arguments, piece);
      }
    },
    get size() {
      return calls.length;
    },
    /** The calls so far, in the order they started; a call the server sent without an id gets one. */
    calls(): ToolCall[] {
      return calls.map((call) => {
        if (!call.id) call.id = `call_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
        return { ...call };
      });
    },
  };
}
