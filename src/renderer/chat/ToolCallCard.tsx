// A collapsible card for one tool call: name, arguments, result.
import type { ToolCallView } from './displayItems';

function pretty(json: string): string {
  if (!json.trim()) return '{}';
  try {
    return JSON.stringify(JSON.parse(json), null, 2);
  } catch {
    return json;
  }
}

export function ToolCallCard({ view, running }: { view: ToolCallView; running: boolean }) {
  const { call, result } = view;
  if (call.name === 'think') return <ThinkingCard view={view} />;
  const state = result ? (result.content.startsWith('cancelled') ? 'cancelled' : 'done') : running ? 'running' : 'no result';
  return (
    <details className={`tool-card tool-${state.replace(' ', '-')}`}>
      <summary aria-label={`Tool call ${call.name}, ${state}`}>
        <span className="tool-icon" aria-hidden="true">
          {state === 'running' ? <span className="spinner" /> : '⚙'}
        </span>
        <span className="tool-name">{call.name}</span>
        <span className="tool-state">{state}</span>
      </summary>
      <div className="tool-section">
        <div className="tool-label">Arguments</div>
        <pre>{pretty(call.arguments)}</pre>
      </div>
      {result && (
        <div className="tool-section">
          <div className="tool-label">Result</div>
          <pre>{pretty(result.content)}</pre>
        </div>
      )}
    </details>
  );
}

function ThinkingCard({ view }: { view: ToolCallView }) {
  let thought = view.call.arguments;
  try {
    thought = String((JSON.parse(view.call.arguments) as { thought?: unknown }).thought ?? thought);
  } catch {
    // Arguments still streaming or not JSON: show them as they are.
  }
  return (
    <details className="tool-card thinking-card">
      <summary aria-label="Thinking">
        <span className="tool-icon" aria-hidden="true">
          💭
        </span>
        <span className="tool-name">Thinking</span>
      </summary>
      <p className="thought">{thought}</p>
    </details>
  );
}
