// "/" at the start of the composer lists the saved prompts, the commands (/clear,
// /compact) and the MCP servers' prompts (marked with the server's name), filtered by
// what follows it; ↑/↓ choose, Enter (or a click) inserts the prompt in place of the
// "/…", Esc closes. A server prompt with arguments opens a small form first; its messages
// go into the composer as text, and the files it embeds are attached, or, when the prompt
// holds a conversation (the assistant has a part), they are sent as given, roles kept.
// The message box keeps the focus; the list is announced through aria-activedescendant.
import { useState } from 'react';
import type { McpPrompt } from '../../shared/mcpCatalog';
import { slashOptions } from '../../shared/promptLibrary';
import { call, useApi } from '../api/apiContext';
import { useToast } from '../common/toasts';
import { useListKeyboard } from '../common/useListKeyboard';
import { contentFiles } from '../mcp/mcpFiles';
import { ServerArgumentsForm } from '../mcp/ServerArgumentsForm';
import { useMcpPrompts } from '../mcp/useMcpCatalog';
import { useSettings } from '../settings/useSettings';
import './instructions.css';

interface SlashOption {
  key: string;
  title: string;
  detail: string;
  server: string | null;
  choose(): void;
}

function matchesPrompt(prompt: McpPrompt, query: string): boolean {
  const q = query.toLowerCase().replace(/^\//, '');
  return [prompt.name, prompt.title ?? '', prompt.server].some((s) => s.toLowerCase().includes(q));
}

/** Sends a prompt as it is into the composer's conversation; resolves with the notes, or null when refused. */
export type SendPrompt = (prompt: {
  server: string;
  name: string;
  arguments: Record<string, string>;
}) => Promise<{ notes: string[] } | null>;

export function usePromptSlash(
  text: string,
  setText: (value: string) => void,
  attach: (files: File[]) => void,
  sendPrompt?: SendPrompt,
) {
  const settings = useSettings();
  const api = useApi();
  const toast = useToast();
  const [active, setActive] = useState(0);
  const [chosen, setForm] = useState<McpPrompt | null>(null);
  const query = /^\/([^\n]*)$/.exec(text)?.[1];
  // The arguments form stays only while the "/…" it was chosen from does.
  const form = query === undefined ? null : chosen;
  const server = useMcpPrompts(query !== undefined && !form);

  const run = async (prompt: McpPrompt, args: Record<string, string>) => {
    const request = { server: prompt.server, name: prompt.name, arguments: args };
    const result = await call(api, 'mcp:getPrompt', request);
    if (result.sendAsGiven && sendPrompt) {
      const sent = await sendPrompt(request);
      if (!sent) return;
      setText('');
      setForm(null);
      setActive(0);
      for (const note of sent.notes) toast(note, 'info');
      return;
    }
    setText(result.text);
    setForm(null);
    setActive(0);
    if (result.files.length) attach(contentFiles(result.files));
    for (const note of result.notes) toast(note, 'info');
  };

  const chooseServerPrompt = (prompt: McpPrompt) => {
    if (prompt.arguments.length) setForm(prompt);
    else
      void run(prompt, {}).catch((error: unknown) =>
        toast(error instanceof Error ? error.message : String(error), 'error'),
      );
  };

  const matches: SlashOption[] =
    query === undefined || !settings
      ? []
      : [
          ...slashOptions(settings.prompts, query.trim()).map((prompt) => ({
            key: `saved:${prompt.title}`,
            title: prompt.title,
            detail: prompt.text,
            server: null,
            choose: () => {
              setText(prompt.text);
              setActive(0);
            },
          })),
          ...(server?.prompts ?? [])
            .filter((prompt) => matchesPrompt(prompt, query.trim()))
            .map((prompt) => ({
              key: `mcp:${prompt.server}:${prompt.name}`,
              title: `/${prompt.name}`,
              detail: prompt.description ?? prompt.title ?? '',
              server: prompt.server,
              choose: () => chooseServerPrompt(prompt),
            })),
        ];
  const keyboard = useListKeyboard({
    text,
    options: matches,
    shown: !form,
    active,
    setActive,
    choose: (option) => option.choose(),
  });
  const { open, onKeyDown, inputProps } = keyboard;

  const list = form ? (
    <ServerArgumentsForm
      item={form}
      completing={{ type: 'prompt', name: form.name }}
      fields={form.arguments.map((a) => ({ ...a, label: a.title ?? a.name }))}
      submitLabel="Use prompt"
      onSubmit={(values) => run(form, values)}
      onCancel={() => setForm(null)}
    />
  ) : open ? (
    <ul {...keyboard.listProps} aria-label="Commands and saved prompts" className="prompt-slash">
      {matches.map((option, index) => (
        <li key={option.key} {...keyboard.optionProps(index)}>
          <strong>
            {option.title}
            {option.server && <span className="mcp-badge">{option.server}</span>}
          </strong>
          <span>{option.detail}</span>
        </li>
      ))}
    </ul>
  ) : null;

  return { list, onKeyDown, inputProps, open: open || form !== null };
}
