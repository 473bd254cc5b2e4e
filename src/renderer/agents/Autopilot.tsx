import type { AutopilotState } from '../../shared/agents';
import { call, useApi } from '../api/apiContext';
import { useGuard } from '../common/toasts';
import './autopilot.css';

/** `onToggle` replaces the stored toggle (a new conversation keeps the choice until its first send). */
export function AutopilotToggle({
  state,
  onToggle,
}: {
  state: Pick<AutopilotState, 'conversationId' | 'enabled'> | null;
  onToggle?: (enabled: boolean) => void;
}) {
  const api = useApi();
  const guard = useGuard();
  if (!state) return null;
  return (
    <label className="switch" title="Carry on through the task list by itself">
      <button
        type="button"
        role="switch"
        aria-checked={state.enabled}
        aria-label="Autopilot"
        className={state.enabled ? 'switch-track on' : 'switch-track'}
        onClick={() =>
          onToggle
            ? onToggle(!state.enabled)
            : void guard(() =>
                call(api, 'autopilot:set', { conversationId: state.conversationId, enabled: !state.enabled }),
              )
        }
      >
        <span className="switch-thumb" />
      </button>
      <span className="switch-label" aria-hidden="true">
        Autopilot
      </span>
    </label>
  );
}

/** What Autopilot does right now, straight from the core's state for this step. */
export function AutopilotNotice({ state }: { state: AutopilotState | null }) {
  const api = useApi();
  const guard = useGuard();
  if (state?.checking) {
    return (
      <div className="autopilot-line" role="status">
        <span className="spinner small" aria-hidden="true" />
        Autopilot is checking whether the current task is done… (Esc to stop)
      </div>
    );
  }
  if (state?.continuing) {
    return (
      <div className="autopilot-line" role="status">
        <span className="spinner small" aria-hidden="true" />
        Continuing: {state.continuing}
      </div>
    );
  }
  if (state?.enabled && state.pausedReason) {
    return (
      <div className="autopilot-line paused" role="status">
        <span>{state.pausedReason}</span>
        <button
          type="button"
          className="small"
          onClick={() => void guard(() => call(api, 'autopilot:continue', { conversationId: state.conversationId }))}
        >
          Continue
        </button>
      </div>
    );
  }
  return null;
}
