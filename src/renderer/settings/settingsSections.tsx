// The sections of Settings, in the order the section list shows them. Each is one entry:
// its name, its address (#/settings/<id>) and the component that draws it. A new section
// is one more line here; its component draws a <fieldset className="settings-group">
// whose <legend> is the section's name (the page hides it and shows the name itself, and
// tests/e2e/layout.view.test.ts finds each section by that group to check its layout).
import type { ComponentType } from 'react';
import type { SettingsView } from '../../shared/settings';
import { McpSettings } from '../mcp/McpSettings';
import { ProviderSettings } from '../providers/ProviderSettings';
import { DefaultSystemPrompt } from '../instructions/DefaultSystemPrompt';
import { PromptLibrarySettings } from '../instructions/PromptLibrarySettings';
import { TaskShareSettings } from '../taskShare/TaskShareSettings';
import { NotificationSettings, RoutineSettings } from '../routines/ActivitySettings';
import { AboutSection, AgentSettings, AppearanceSettings, ModelSettings } from './SettingsView';
import './settingsSections.css';

export interface SettingsSectionProps {
  settings: SettingsView;
  /** The profile of the conversation Settings was opened from (null: none open). */
  profileId: string | null;
}

export interface SettingsSection {
  /** The address: #/settings/<id>. Lowercase letters, digits and dashes. */
  id: string;
  name: string;
  Component: ComponentType<SettingsSectionProps>;
}

export const SETTINGS_SECTIONS: SettingsSection[] = [
  {
    id: 'providers',
    name: 'Providers',
    Component: ({ settings, profileId }) => <ProviderSettings settings={settings} profileId={profileId} />,
  },
  { id: 'models', name: 'Models', Component: ModelSettings },
  { id: 'agent', name: 'Agent', Component: AgentSettings },
  {
    id: 'instructions',
    name: 'Instructions',
    Component: ({ settings }) => <DefaultSystemPrompt value={settings.systemPrompt} />,
  },
  {
    id: 'prompts',
    name: 'Prompt library',
    Component: ({ settings }) => <PromptLibrarySettings prompts={settings.prompts} />,
  },
  { id: 'mcp', name: 'Tools (MCP)', Component: McpSettings },
  { id: 'sharing', name: 'Sharing task lists', Component: TaskShareSettings },
  { id: 'notifications', name: 'Notifications', Component: NotificationSettings },
  { id: 'routines', name: 'Routines', Component: RoutineSettings },
  { id: 'appearance', name: 'Appearance', Component: AppearanceSettings },
  { id: 'about', name: 'About', Component: AboutSection },
];

/** The section an address names; an unknown or missing one opens the first. */
export function sectionOf(id: string | undefined): SettingsSection {
  return SETTINGS_SECTIONS.find((s) => s.id === id) ?? SETTINGS_SECTIONS[0];
}
