// "Load, then follow the event" as one hook: the list of a conversation's workers,
// questions, approvals, or the MCP servers. See followLatest.ts for why a late answer is dropped.
import { useEffect, useRef, useState } from 'react';
import type { CallName, CallRequest, CallResponse, EventName, EventPayload } from '../../shared/ipc';
import { call, useApi, useEvent } from '../api/apiContext';
import { followLatest, type Follower } from './followLatest';

export interface Followed<N extends CallName, E extends EventName> {
  call: N;
  params: CallRequest<N>;
  event: E;
  /** The new state an event carries for this view, or undefined when it is about another one. */
  pick: (payload: EventPayload<E>) => CallResponse<N> | undefined;
}

/** `initial` is what shows until the first answer (e.g. [] or null). */
export function useFollowed<N extends CallName, E extends EventName, I = CallResponse<N>>(
  followed: Followed<N, E>,
  initial: I,
): [CallResponse<N> | I, (value: CallResponse<N>) => void] {
  const api = useApi();
  const [value, setValue] = useState<CallResponse<N> | I>(initial);
  const follower = useRef<Follower<CallResponse<N>> | null>(null);
  const key = JSON.stringify(followed.params);
  useEffect(() => {
    const current = followLatest(setValue);
    follower.current = current;
    current.load(call(api, followed.call, followed.params));
    return () => current.drop();
    // `key` stands for the params: a new object with the same content is the same view.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, followed.call, key]);
  useEvent(
    followed.event,
    (payload) => {
      const next = followed.pick(payload);
      if (next !== undefined) follower.current?.push(next);
    },
    [key],
  );
  // A state the page set itself (an answer to its own call) is the newest word too.
  const set = (next: CallResponse<N>) => (follower.current ? follower.current.push(next) : setValue(next));
  return [value, set];
}
