// The task list invariants as a list of problems (empty = sound): unique positive ids,
// valid titles, blockers in the list, positions 0..n-1, at most one in_progress per
// owner, no dependency cycles.
import type { TaskList } from '../../src/shared/tasks';

export function checkInvariants(list: TaskList): string[] {
  const problems: string[] = [];
  const byId = new Map(list.tasks.map((t) => [t.id, t]));
  if (byId.size !== list.tasks.length) problems.push('task ids are not unique');
  list.tasks.forEach((t, i) => {
    if (!Number.isInteger(t.id) || t.id < 1) problems.push(`task id ${t.id} is not a positive integer`);
    if (!t.title.trim() || t.title.length > 200) problems.push(`task ${t.id} has an invalid title`);
    if (t.position !== i) problems.push(`task ${t.id} has position ${t.position}, expected ${i}`);
    for (const b of t.blockedBy) if (!byId.has(b)) problems.push(`task ${t.id} is blocked by missing task ${b}`);
  });
  const owners = list.tasks.filter((t) => t.status === 'in_progress').map((t) => t.owner);
  for (const owner of new Set(owners)) {
    if (owners.filter((o) => o === owner).length > 1) problems.push(`${owner} has more than one task in progress`);
  }
  const visiting = new Set<number>();
  const done = new Set<number>();
  const visit = (id: number): boolean => {
    if (done.has(id)) return false;
    if (visiting.has(id)) return true;
    visiting.add(id);
    const cyclic = (byId.get(id)?.blockedBy ?? []).some(visit);
    visiting.delete(id);
    done.add(id);
    return cyclic;
  };
  if (list.tasks.some((t) => visit(t.id))) problems.push('the dependencies contain a cycle');
  return problems;
}
