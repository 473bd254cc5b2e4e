// Tool calls arrive in pieces: the first chunk of a call carries its index, id and name,
// later chunks only more of the arguments string. Several calls can interleave by index.
import { randomUUID } from 'node:crypto';
import type { ToolCall } from '../../../shared/domain';

export interface ToolCallDelta {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

export function createToolCallAccumulator() {
  const calls = new Map<number, ToolCall>();

  return {
    add(deltas: ToolCallDelta[] | null | undefined): void {
      for (const delta of deltas ?? []) {
        // Some servers omit the index when a turn has a single call.
        const index = delta.index ?? (calls.size ? Math.max(...calls.keys()) : 0);
        let call = calls.get(index);
        if (!call) {
          call = { id: '', name: '', arguments: '' };
          calls.set(index, call);
        }
        if (delta.id) call.id = delta.id;
        const name = delta.function?.name;
        // The name comes whole in the first chunk; some servers repeat it in later ones.
        if (name && name !== call.name) call.name = call.name ? call.name + name : name;
        if (delta.function?.arguments) call.arguments += delta.function.arguments;
      }
    },
    get size() {
      return calls.size;
    },
    /** The calls so far, in index order; a call the server sent without an id gets one. */
    calls(): ToolCall[] {
      return [...calls.entries()]
        .sort(([a], [b]) => a - b)
        .map(([, call]) => {
          if (!call.id) call.id = `call_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
          return { ...call };
        });
    },
  };
}
