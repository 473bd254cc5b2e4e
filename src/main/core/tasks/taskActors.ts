// Who changes a task list: the user, the conversation's own agent, a worker, or another
// agent over the task-share endpoint, as recorded in task_events and on the tasks.

/** Who makes a change: the actor recorded in task_events and the owner it acts as. */
export interface Who {
  actor: string;
  owner: string;
  /** Agents take ownership of a task they start; the user does not. */
  claims: boolean;
}

export const USER: Who = { actor: 'user', owner: 'main', claims: false };

/** Actors of changes made by another agent over the task-share endpoint: `mcp:<client name>`. */
export const EXTERNAL_PREFIX = 'mcp:';

/** An MCP client acts for the user: its edits are protected and told to the model like theirs. */
export function externalWho(clientName: string): Who {
  return { actor: `${EXTERNAL_PREFIX}${clientName}`, owner: 'main', claims: false };
}

/** The MCP client's name for a change it makes; null for everyone else. */
export const sourceOf = (who: Who) =>
  who.actor.startsWith(EXTERNAL_PREFIX) ? who.actor.slice(EXTERNAL_PREFIX.length) : null;

/** The user, or another agent acting for them (not the conversation's own agents). */
export const speaksForUser = (actor: string) => actor === 'user' || actor.startsWith(EXTERNAL_PREFIX);

/** The conversation's own agent acts as `model`; a worker acts under its own id. */
export function agentWho(agentId: string): Who {
  return agentId === 'main'
    ? { actor: 'model', owner: 'main', claims: true }
    : { actor: agentId, owner: agentId, claims: true };
}
