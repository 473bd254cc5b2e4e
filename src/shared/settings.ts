// The settings schema. Every field has a default, so `Settings.parse({})` is a valid
// configuration and a file missing fields (an older version) still loads.
import { z } from 'zod';
import { ModelRef, ProfileView, ProviderProfile } from './providers';
import { InstructionsText } from './instructions';
import { PromptLibrary } from './promptLibrary';
import { PlanReviewMode } from './planContract';

export const Theme = z.enum(['system', 'light', 'dark']);
export type Theme = z.infer<typeof Theme>;

export const TaskToolStyle = z.enum(['full-list', 'granular']);
export type TaskToolStyle = z.infer<typeof TaskToolStyle>;

/** Each setting's own schema, without a default (a patch must not invent values). */
const fields = {
  theme: Theme,
  /** The model new conversations start with (the picker of a new conversation sets it). */
  lastModel: ModelRef.nullable(),
  /** Model for workers; null: the same as the conversation. */
  workerModel: ModelRef.nullable(),
  /** Model for the Autopilot assessor; null: the same as the conversation. */
  assessorModel: ModelRef.nullable(),
  temperature: z.number().min(0).max(2),
  maxToolRounds: z.number().int().min(1).max(200),
  taskToolStyle: TaskToolStyle,
  workerConcurrency: z.number().int().min(1).max(10),
  autopilotDefault: z.boolean(),
  autopilotCap: z.number().int().min(1).max(20),
  /** Run MCP tools the server marks read-only (`readOnlyHint`) without asking. */
  autoAllowReadOnly: z.boolean(),
  /** "Folders the tools may use": absolute paths sent to every MCP server as roots. */
  mcpRoots: z
    .array(
      z
        .string()
        .trim()
        .max(4096)
        .regex(/^(\/|[A-Za-z]:[\\/]|\\\\)/, { error: 'a folder must be an absolute path (e.g. /home/me/project)' }),
    )
    .max(50, { error: 'at most 50 folders' }),
  /** Sent first in every request of every conversation ('' for none). */
  systemPrompt: InstructionsText,
  /** Saved prompts, inserted with "/" in the composer. */
  prompts: PromptLibrary,
  /** Serve the task lists to other agents over MCP (docs/tools.md, "Sharing task lists"). */
  shareTaskLists: z.boolean(),
  /** The loopback port of that MCP endpoint. */
  taskSharePort: z.number().int().min(1024).max(65535),
  /** "Review plans" of conversations that have no choice of their own (docs/task-lists.md). */
  planReviewDefault: PlanReviewMode,
};

/** A fixed port, so the configuration other agents keep stays valid across restarts. */
export const TASK_SHARE_DEFAULT_PORT = 47123;

export const Settings = z.object({
  theme: fields.theme.default('system'),
  /** Provider profiles (keys are kept apart, in main's secret store). */
  profiles: z.array(ProviderProfile).max(100).default([]),
  /** The last model chosen in a conversation: new conversations start with it. */
  lastModel: fields.lastModel.default(null),
  workerModel: fields.workerModel.default(null),
  assessorModel: fields.assessorModel.default(null),
  temperature: fields.temperature.default(0.7),
  maxToolRounds: fields.maxToolRounds.default(25),
  taskToolStyle: fields.taskToolStyle.default('full-list'),
  workerConcurrency: fields.workerConcurrency.default(5),
  autopilotDefault: fields.autopilotDefault.default(false),
  autopilotCap: fields.autopilotCap.default(5),
  autoAllowReadOnly: fields.autoAllowReadOnly.default(false),
  mcpRoots: fields.mcpRoots.default([]),
  systemPrompt: fields.systemPrompt.default(''),
  prompts: fields.prompts.default([]),
  shareTaskLists: fields.shareTaskLists.default(false),
  taskSharePort: fields.taskSharePort.default(TASK_SHARE_DEFAULT_PORT),
  planReviewDefault: fields.planReviewDefault.default('before_acting'),
});
export type Settings = z.infer<typeof Settings>;

/** What the renderer may change: only the fields it names, each validated, no defaults filled in. */
export const SettingsPatch = z.strictObject(fields).partial();
export type SettingsPatch = z.infer<typeof SettingsPatch>;

/**
 * What the renderer sees: the settings with each profile's key state, never a key.
 * `profiles` includes the read-only "Environment" profile when its variables are set;
 * `defaultModel` is what a new conversation starts with.
 */
export const SettingsView = Settings.extend({
  profiles: z.array(ProfileView),
  defaultModel: ModelRef.nullable(),
  canStoreKey: z.boolean(),
});
export type SettingsView = z.infer<typeof SettingsView>;
