// The "Review plans" values and their labels, without zod: the renderer's first chunk
// uses them and must not ship the schema library (see shared/tasks.ts).
export const PLAN_REVIEW_MODES = ['off', 'before_acting', 'every_plan'] as const;
export type PlanReviewModeName = (typeof PLAN_REVIEW_MODES)[number];

export const PLAN_REVIEW_LABELS: Record<PlanReviewModeName, string> = {
  off: 'Off',
  before_acting: 'Before tools that change things',
  every_plan: 'Every plan',
};

export function isPlanReviewMode(value: string): value is PlanReviewModeName {
  return (PLAN_REVIEW_MODES as readonly string[]).includes(value);
}
