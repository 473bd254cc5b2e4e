// "@" in the composer lists the MCP servers' resources and resource templates, filtered
// by what follows it; ↑/↓ choose, Enter (or a click) attaches the resource's content to
// the message (like an attached file) and takes the "@…" out of the text, Esc closes. A
// template asks for its variables first, with the server's suggestions.
import { lazy, Suspense, useId, useState, type KeyboardEvent } from 'react';
import type { McpContent, McpResource, McpResourceTemplate } from '../../shared/mcpCatalog';
import { call, useApi } from '../api/apiContext';
import { useToast } from '../common/toasts';
import { contentFiles } from './mcpFiles';
import { useMcpResources } from './useMcpCatalog';
import './mcp.css';

// A server prompt or template with arguments is rare: its form loads with the first one.
const McpArgumentsForm = lazy(() => import('./McpArgumentsForm').then((m) => ({ default: m.McpArgumentsForm })));

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
  const listId = useId();
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<string | null>(null);
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
  const open = !form && choices.length > 0 && dismissed !== text;
  const current = Math.min(active, choices.length - 1);

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

  /** True when the key was the list's. */
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open) return false;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current + step + choices.length) % choices.length);
    } else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      const choice = choices[current];
      if (choice) choose(choice);
    } else if (event.key === 'Escape') {
      setDismissed(text);
    } else {
      return false;
    }
    event.preventDefault();
    event.stopPropagation();
    return true;
  };

  const optionId = (index: number) => `${listId}-${index}`;
  const inputProps = open
    ? { 'aria-controls': listId, 'aria-activedescendant': optionId(current), 'aria-autocomplete': 'list' as const }
    : {};

  const list = form ? (
    <Suspense fallback={null}>
      <McpArgumentsForm
        title={form.title ?? form.name}
        server={form.server}
        description={form.description}
        fields={form.variables.map((name) => ({ name, label: name, description: null, required: true }))}
        submitLabel="Attach"
        complete={
          form.completes
            ? async (field, value, values) =>
                (
                  await call(api, 'mcp:complete', {
                    server: form.server,
                    ref: { type: 'resource', uri: form.uriTemplate },
                    argument: { name: field, value },
                    context: Object.fromEntries(Object.entries(values).filter(([k]) => k !== field)),
                  })
                ).values
            : undefined
        }
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
    </Suspense>
  ) : open ? (
    <ul id={listId} role="listbox" aria-label="Resources" className="prompt-slash">
      {choices.map((choice, index) => (
        <li
          key={`${choice.kind}:${choice.item.server}:${choice.kind === 'resource' ? choice.item.uri : choice.item.uriTemplate}`}
          id={optionId(index)}
          role="option"
          aria-selected={index === current}
          className={index === current ? 'active' : undefined}
          // Keeps the focus in the message box.
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => choose(choice)}
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
