// Message versions in a `stepwise.conversation` file: each message may name its `parent`
// (by number) and whether it is `shown`. Absent fields mean a straight line: the previous
// message of the transcript, shown. Import checks the tree and places every message in it.

/** The fields of an exported message that place it in the tree. */
export interface FileMessage {
  id: number;
  parent?: number | null;
  shown?: boolean;
}

export interface Placement {
  /** The parent's number in the file (null for a first message). */
  parent: number | null;
  chosen: boolean;
  shown: boolean;
}

const parentOf = (messages: readonly FileMessage[], i: number) =>
  messages[i].parent !== undefined ? messages[i].parent : i ? messages[i - 1].id : null;

/** Why the transcript's versions cannot be imported (empty when they can). */
export function treeProblems(messages: readonly FileMessage[], where: string): string[] {
  const problems: string[] = [];
  const earlier = new Set<number>();
  let lastShown: number | null = null;
  for (const [i, message] of messages.entries()) {
    const parent = parentOf(messages, i);
    if (parent !== null && !earlier.has(parent)) {
      problems.push(
        `${where} message ${message.id}: its parent ${parent} is not an earlier message of the same transcript`,
      );
    }
    if (message.shown ?? true) {
      if (parent !== lastShown) {
        problems.push(
          `${where} message ${message.id}: a shown message must follow the previous shown one (${lastShown ?? 'none'}), not ${parent ?? 'none'}`,
        );
      }
      lastShown = message.id;
    }
    earlier.add(message.id);
  }
  return problems;
}

/**
 * Where each message goes. Among versions, the shown one is chosen; where none is shown
 * (a branch not shown), the newest is, as it would be after writing it.
 */
export function placements(messages: readonly FileMessage[]): Map<number, Placement> {
  const placed = new Map<number, Placement>();
  const newestChild = new Map<number | null, number>();
  const shownChild = new Set<number | null>();
  messages.forEach((message, i) => {
    const parent = parentOf(messages, i);
    const shown = message.shown ?? true;
    placed.set(message.id, { parent, chosen: false, shown });
    newestChild.set(parent, message.id);
    if (shown) shownChild.add(parent);
  });
  for (const [id, place] of placed) {
    place.chosen = place.shown || (!shownChild.has(place.parent) && newestChild.get(place.parent) === id);
  }
  return placed;
}
