// The "Review plans" choice: per conversation in its header, and the default for new
// conversations in Settings → Agent.
import type { PlanReviewMode } from '../../shared/planContract';
import { isPlanReviewMode, PLAN_REVIEW_LABELS, PLAN_REVIEW_MODES } from '../../shared/planModes';
import './PlanReviewCard.css';

const MODES = PLAN_REVIEW_MODES;

export function PlanReviewField(props: { value: PlanReviewMode; onChange: (mode: PlanReviewMode) => void }) {
  return (
    <label className="field">
      <span>Review plans</span>
      <select
        value={props.value}
        onChange={(e) => {
          if (isPlanReviewMode(e.target.value)) props.onChange(e.target.value);
        }}
      >
        {MODES.map((mode) => (
          <option key={mode} value={mode}>
            {PLAN_REVIEW_LABELS[mode]}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The conversation header's control (and a new conversation's, before its first send). */
export function PlanReviewModeSelect(props: { value: PlanReviewMode; onChange: (mode: PlanReviewMode) => void }) {
  return (
    <select
      className="plan-review-select"
      aria-label="Review plans"
      title="Review plans: approve the agent's plan before tools that change things run"
      value={props.value}
      onChange={(e) => {
        const mode = e.target.value;
        if (isPlanReviewMode(mode)) props.onChange(mode);
      }}
    >
      {MODES.map((mode) => (
        <option key={mode} value={mode}>
          {mode === 'off' ? 'Plan review off' : `Review: ${PLAN_REVIEW_LABELS[mode].toLowerCase()}`}
        </option>
      ))}
    </select>
  );
}
