// New routine / Edit routine: the form, with each field's own error from main. Nothing is
// saved unless every field is right.
import { useEffect, useRef, useState } from 'react';
import type { Folder } from '../../shared/folders';
import type { PlanReviewMode } from '../../shared/planContract';
import type {
  MissedPolicy,
  Routine,
  RoutineDraft,
  RoutineField,
  RoutineFieldError,
  RoutineTool,
  ScheduleKind,
} from '../../shared/routinesContract';
import { call, useApi } from '../api/apiContext';
import { useGuard } from '../common/toasts';
import { useMcp } from '../mcp/useMcp';
import { choiceValue, modelGroups, parseChoice } from '../providers/modelChoices';
import { ModelOptions } from '../providers/ModelSelect';
import { useSettings } from '../settings/useSettings';
import { PlanReviewField } from '../plans/PlanReviewMode';

const SCHEDULES: Array<{ kind: ScheduleKind; label: string }> = [
  { kind: 'minutes', label: 'Every N minutes' },
  { kind: 'hourly', label: 'Every hour' },
  { kind: 'daily', label: 'Every day' },
  { kind: 'weekdays', label: 'Every weekday' },
  { kind: 'weekly', label: 'Every week' },
  { kind: 'cron', label: 'Custom (cron)' },
];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MISSED: Array<{ value: MissedPolicy; label: string }> = [
  { value: 'run_once', label: 'Run once when Stepwise starts' },
  { value: 'skip', label: 'Skip it and note it' },
];

interface FormState {
  name: string;
  instructions: string;
  kind: ScheduleKind;
  minutes: string;
  time: string;
  day: number;
  cron: string;
  model: string;
  folderId: string;
  /** null: not chosen yet (the Settings default). */
  planReview: PlanReviewMode | null;
  autopilot: boolean;
  tools: RoutineTool[];
  missed: MissedPolicy;
}

function initial(routine: Routine | null): FormState {
  const s = routine?.schedule;
  return {
    name: routine?.name ?? '',
    instructions: routine?.instructions ?? '',
    kind: s?.kind ?? 'daily',
    minutes: s?.minutes != null ? String(s.minutes) : '60',
    time: s?.time ?? '09:00',
    day: s?.day ?? 1,
    cron: s?.cron ?? '',
    model: routine?.model ? choiceValue(routine.model) : '',
    folderId: routine?.folderId ?? '',
    planReview: routine?.planReview ?? null,
    autopilot: routine?.autopilot ?? true,
    tools: routine?.tools ?? [],
    missed: routine?.missed ?? 'run_once',
  };
}

function draftOf(form: FormState, planReview: PlanReviewMode): RoutineDraft {
  const minutes = form.minutes.trim() === '' ? null : Number(form.minutes);
  return {
    name: form.name,
    instructions: form.instructions,
    schedule: {
      kind: form.kind,
      minutes: minutes !== null && Number.isFinite(minutes) ? minutes : null,
      time: form.time,
      day: form.day,
      cron: form.cron,
    },
    model: form.model ? parseChoice(form.model) : null,
    folderId: form.folderId || null,
    planReview,
    autopilot: form.autopilot,
    tools: form.tools,
    missed: form.missed,
  };
}

export function RoutineForm(props: { routine: Routine | null; onDone: () => void }) {
  const api = useApi();
  const guard = useGuard();
  const settings = useSettings();
  const [mcp] = useMcp();
  const [folders, setFolders] = useState<Folder[]>([]);
  const [form, setForm] = useState<FormState>(() => initial(props.routine));
  const [errors, setErrors] = useState<RoutineFieldError[]>([]);
  const [saving, setSaving] = useState(false);
  // Servers start on a conversation's first request: start the idle ones, so their tools can be ticked.
  const started = useRef(new Set<string>());
  useEffect(() => {
    for (const server of mcp?.servers ?? []) {
      if (!server.enabled || server.state !== 'stopped' || server.tools.length || started.current.has(server.name))
        continue;
      started.current.add(server.name);
      void call(api, 'mcp:restart', { name: server.name }).catch(() => {});
    }
  }, [api, mcp]);
  useEffect(() => {
    void call(api, 'folders:list', {}).then(setFolders, () => {});
  }, [api]);
  // Until chosen, a new routine reviews plans as new conversations do.
  const planReview = form.planReview ?? settings?.planReviewDefault ?? 'before_acting';

  const set = (patch: Partial<FormState>) => setForm((f) => ({ ...f, ...patch }));
  const errorOf = (field: RoutineField) => errors.find((e) => e.field === field)?.message;
  const described = (field: RoutineField) =>
    errorOf(field) ? { 'aria-invalid': true as const, 'aria-describedby': `routine-${field}-error` } : {};
  const fieldError = (field: RoutineField) =>
    errorOf(field) ? (
      <span id={`routine-${field}-error`} className="field-error" role="alert">
        {errorOf(field)}
      </span>
    ) : null;

  const ticked = (server: string, tool: string) => form.tools.some((t) => t.server === server && t.tool === tool);
  const toggleTool = (server: string, tool: string, on: boolean) =>
    set({
      tools: on
        ? [...form.tools, { server, tool }]
        : form.tools.filter((t) => !(t.server === server && t.tool === tool)),
    });
  const servers = (mcp?.servers ?? [])
    .map((server) => ({ name: server.name, tools: server.tools.filter((t) => !t.readOnly && !server.readOnly) }))
    .filter((server) => server.tools.length > 0);

  const save = () =>
    void guard(async () => {
      setSaving(true);
      try {
        const saved = await call(api, 'routines:save', {
          id: props.routine?.id ?? null,
          routine: draftOf(form, planReview),
        });
        if (saved.ok) props.onDone();
        else setErrors(saved.errors);
      } finally {
        setSaving(false);
      }
    });

  const needsTime = form.kind === 'daily' || form.kind === 'weekdays' || form.kind === 'weekly';
  return (
    <form
      className="routine-form"
      aria-label={props.routine ? 'Edit routine' : 'New routine'}
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <h2>{props.routine ? 'Edit routine' : 'New routine'}</h2>
      <label className="field">
        <span>Name</span>
        <input value={form.name} onChange={(e) => set({ name: e.target.value })} {...described('name')} />
        {fieldError('name')}
      </label>
      <label className="field">
        <span>Instructions</span>
        <textarea
          rows={4}
          value={form.instructions}
          onChange={(e) => set({ instructions: e.target.value })}
          {...described('instructions')}
        />
        {fieldError('instructions')}
      </label>
      <label className="field">
        <span>Schedule</span>
        <select value={form.kind} onChange={(e) => set({ kind: e.target.value as ScheduleKind })}>
          {SCHEDULES.map((s) => (
            <option key={s.kind} value={s.kind}>
              {s.label}
            </option>
          ))}
        </select>
      </label>
      {form.kind === 'minutes' && (
        <label className="field">
          <span>Minutes</span>
          <input
            type="number"
            min={1}
            step={1}
            value={form.minutes}
            onChange={(e) => set({ minutes: e.target.value })}
            {...described('minutes')}
          />
          {fieldError('minutes')}
        </label>
      )}
      {form.kind === 'weekly' && (
        <label className="field">
          <span>Day</span>
          <select value={form.day} onChange={(e) => set({ day: Number(e.target.value) })} {...described('day')}>
            {DAYS.map((day, i) => (
              <option key={day} value={i}>
                {day}
              </option>
            ))}
          </select>
          {fieldError('day')}
        </label>
      )}
      {needsTime && (
        <label className="field">
          <span>Time</span>
          <input type="time" value={form.time} onChange={(e) => set({ time: e.target.value })} {...described('time')} />
          {fieldError('time')}
        </label>
      )}
      {form.kind === 'cron' && (
        <label className="field">
          <span>Cron expression</span>
          <input
            value={form.cron}
            placeholder="0 9 * * 1-5"
            spellCheck={false}
            onChange={(e) => set({ cron: e.target.value })}
            {...described('cron')}
          />
          {fieldError('cron')}
        </label>
      )}
      <label className="field">
        <span>Model</span>
        <select value={form.model} onChange={(e) => set({ model: e.target.value })} {...described('model')}>
          <option value="">The default model</option>
          {settings && <ModelOptions groups={modelGroups(settings, form.model ? parseChoice(form.model) : null)} />}
        </select>
        {fieldError('model')}
      </label>
      <label className="field">
        <span>Folder</span>
        <select value={form.folderId} onChange={(e) => set({ folderId: e.target.value })} {...described('folder')}>
          <option value="">No folder</option>
          {folders.map((folder) => (
            <option key={folder.id} value={folder.id}>
              {folder.name}
            </option>
          ))}
        </select>
        {fieldError('folder')}
      </label>
      <PlanReviewField value={planReview} onChange={(planReview) => set({ planReview })} />
      <label className="checkbox-field">
        <input type="checkbox" checked={form.autopilot} onChange={(e) => set({ autopilot: e.target.checked })} />
        <span>Run on Autopilot</span>
      </label>
      <fieldset className="routine-tools">
        <legend>Tools this routine may use without asking</legend>
        {servers.length === 0 && (
          <p className="field-note">
            {mcp?.servers.some((s) => s.state === 'starting')
              ? 'Starting the MCP servers…'
              : 'No MCP server offers tools that act.'}
          </p>
        )}
        {servers.map((server) => (
          <fieldset key={server.name} className="routine-tool-server">
            <legend>{server.name}</legend>
            {server.tools.map((tool) => (
              <label key={tool.name} className="checkbox-field">
                <input
                  type="checkbox"
                  checked={ticked(server.name, tool.name)}
                  onChange={(e) => toggleTool(server.name, tool.name, e.target.checked)}
                />
                <span>{tool.name}</span>
              </label>
            ))}
          </fieldset>
        ))}
      </fieldset>
      <fieldset className="routine-missed">
        <legend>When a run was missed</legend>
        {MISSED.map((choice) => (
          <label key={choice.value} className="checkbox-field">
            <input
              type="radio"
              name="routine-missed"
              checked={form.missed === choice.value}
              onChange={() => set({ missed: choice.value })}
            />
            <span>{choice.label}</span>
          </label>
        ))}
      </fieldset>
      <div className="routine-form-actions">
        <button type="button" className="ghost" onClick={props.onDone}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={saving}>
          Save routine
        </button>
      </div>
    </form>
  );
}
