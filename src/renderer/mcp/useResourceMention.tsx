// "@" in the composer lists the MCP servers' resources and resource templates, filtered
// by what follows it; ↑/↓ choose, Enter (or a click) attaches the resource's content to
// the message (like an attached file) and takes the "@…" out of the text, Esc closes. A
// template asks for its variables first, with the server's suggestions.
import { useState } from 'react';
import type { McpContent, McpResource, McpResourceTemplate } from '../../shared/mcpCatalog';
import { call, useApi } from '../api/apiContext';
import { useToast } from '../common/toasts';
import { useListKeyboard } from '../common/useListKeyboard';
import { contentFiles } from './mcpFiles';
import { ServerArgumentsForm } from './ServerArgumentsForm';
import { useMcpResources } from './useMcpCatalog';
import './mcp.css';

type Choice = { kind: 'resource'; item: McpResource } | { kind: 'template'; item: McpResourceTemplate };

/** The "@word" being typed at the end of the text, if any. */
const MENTION = /(^|\s)@([^\s@]*)$/;

function matches(choice: Choice, query: string): boolean {
  const q = query.toLowerCase();
  const { item } = choice;
  const uri = choice.kind === 'resource' ? choice.item.uri : choice.item.uriTemplate;
  return [item.name, item.title ?? '', uri, item.server].some((s) => s.toLowerCase().includes(q));
}

export function useResourceMention(
  text: string,
  setText: (value: string) => void,
  attach: (files: File[]) => void,
  enabled: boolean,
) {
  const api = useApi();
  const toast = useToast();
  const [active, setActive] = useState(0);
  const [chosen, setForm] = useState<McpResourceTemplate | null>(null);
  const mention = enabled ? MENTION.exec(text) : null;
  const query = mention?.[2];
  // The variables form stays only while the "@…" it was chosen from does.
  const form = query === undefined ? null : chosen;
  const listed = useMcpResources(query !== undefined && !form);

  const choices: Choice[] =
    query === undefined || !listed
      ? []
      : [
          ...listed.resources.map((item) => ({ kind: 'resource' as const, item })),
          ...listed.templates.map((item) => ({ kind: 'template' as const, item })),
        ].filter((choice) => matches(choice, query));
  /** The text without the "@…" the user typed to find the resource. */
  const withoutMention = (value: string) => value.replace(MENTION, (_all, space: string) => space);

  const attachContents = (contents: McpContent[]) => {
    setText(withoutMention(text));
    setActive(0);
    setForm(null);
    if (contents.length) attach(contentFiles(contents));
    else toast('The server returned no content for this resource.', 'info');
  };

  const choose = (choice: Choice) => {
    if (choice.kind === 'template') {
      setForm(choice.item);
      return;
    }
    call(api, 'mcp:readResource', { server: choice.item.server, uri: choice.item.uri }).then(
      ({ contents }) => attachContents(contents),
      (error: unknown) => toast(error instanceof Error ? error.message : String(error), 'error'),
    );
  };

  const keyboard = useListKeyboard({ text, options: choices, shown: !form, active, setActive, choose });
  const { open, onKeyDown, inputProps } = keyboard;

  const list = form ? (
    <ServerArgumentsForm
      item={form}
      completing={{ type: 'resource', uri: form.uriTemplate }}
      fields={form.variables.map((name) => ({ name, label: name, description: null, required: true }))}
      submitLabel="Attach"
      onSubmit={async (variables) => {
        const { contents } = await call(api, 'mcp:readResource', {
          server: form.server,
          uriTemplate: form.uriTemplate,
          variables,
        });
        attachContents(contents);
      }}
      onCancel={() => setForm(null)}
    />
  ) : open ? (
    <ul {...keyboard.listProps} aria-label="Resources" className="prompt-slash">
      {choices.map((choice, index) => (
        <li
          key={`${choice.kind}:${choice.item.server}:${choice.kind === 'resource' ? choice.item.uri : choice.item.uriTemplate}`}
          {...keyboard.optionProps(index)}
        >
          <strong>
            @{choice.item.title ?? choice.item.name}
            <span className="mcp-badge">{choice.item.server}</span>
            {choice.kind === 'template' && <span className="mcp-badge">template</span>}
          </strong>
          <span>{choice.kind === 'resource' ? choice.item.uri : choice.item.uriTemplate}</span>
        </li>
      ))}
    </ul>
  ) : null;

  return { list, onKeyDown, inputProps };
}
