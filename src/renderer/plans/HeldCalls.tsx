// Under the review card's list: the calls that wait for the plan's approval, one line per
// tool ("Waiting for your approval: memory · create_entities (1 call)"), each opening to
// the calls' arguments.
import type { PlanCall } from '../../shared/planContract';
import { callGroups, callLabel, countCalls } from '../../shared/planText';
import { revealBidiControls } from '../../shared/bidi';

/** `worker-2` reads "worker 2". */
const agentName = (agentId: string) => agentId.replace(/^worker-(\d+)$/, 'worker $1');

function pretty(json: string): string {
  try {
    return JSON.stringify(JSON.parse(json), null, 2);
  } catch {
    return json;
  }
}

export function HeldCalls({ calls }: { calls: readonly PlanCall[] }) {
  const groups = callGroups(calls);
  if (!groups.length) return null;
  return (
    <ul className="plan-held" aria-label="Calls waiting for your approval">
      {groups.map((group) => {
        const agents = [...new Set(group.calls.map((c) => c.agentId))].filter((a) => a !== 'main').map(agentName);
        const gone = group.calls.some((c) => !c.runnable);
        return (
          <li key={group.name}>
            <details>
              <summary>
                Waiting for your approval: {revealBidiControls(callLabel(group.name))} ({countCalls(group.calls.length)}
                ){agents.length ? ` · ${agents.join(', ')}` : ''}
                {gone && <span className="plan-held-gone"> — can no longer run: its server is not connected</span>}
              </summary>
              {group.calls.map((c) => (
                <pre key={c.toolCallId} aria-label={`Arguments of ${callLabel(group.name)}`}>
                  {revealBidiControls(pretty(c.arguments))}
                </pre>
              ))}
            </details>
          </li>
        );
      })}
    </ul>
  );
}
