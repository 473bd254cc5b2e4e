// The small form a server prompt with arguments, or a resource template with variables,
// opens above the composer: one field per argument, with the server's suggestions
// (`completion/complete`) as the user types, where it offers them.
import { useId, useRef, useState, type KeyboardEvent } from 'react';

export interface ArgumentField {
  name: string;
  label: string;
  description: string | null;
  required: boolean;
}

export function McpArgumentsForm(props: {
  title: string;
  server: string;
  description: string | null;
  fields: ArgumentField[];
  submitLabel: string;
  /** Suggestions for a field given what it holds and the other fields (absent: the server offers none). */
  complete?: (field: string, value: string, values: Record<string, string>) => Promise<string[]>;
  onSubmit: (values: Record<string, string>) => Promise<void>;
  onCancel: () => void;
}) {
  const id = useId();
  const [values, setValues] = useState<Record<string, string>>({});
  const [suggestions, setSuggestions] = useState<Record<string, string[]>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** Only the latest request of a field is shown (answers may arrive out of order). */
  const latest = useRef<Record<string, number>>({});

  const suggest = (field: string, value: string, all: Record<string, string>) => {
    if (!props.complete) return;
    const n = (latest.current[field] ?? 0) + 1;
    latest.current[field] = n;
    props.complete(field, value, all).then(
      (list) => {
        if (latest.current[field] === n) setSuggestions((s) => ({ ...s, [field]: list }));
      },
      () => undefined,
    );
  };

  const change = (field: string, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    suggest(field, value, next);
  };

  const submit = async () => {
    const missing = props.fields.find((f) => f.required && !values[f.name]?.trim());
    if (missing) {
      setError(`${missing.label} is required.`);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      // Empty optional arguments are left out.
      await props.onSubmit(Object.fromEntries(Object.entries(values).filter(([, v]) => v !== '')));
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      setBusy(false);
    }
  };

  // Not a <form>: it sits inside the composer's, whose submit would send the message.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      props.onCancel();
    } else if (event.key === 'Enter' && event.target instanceof HTMLInputElement) {
      event.preventDefault();
      void submit();
    }
  };

  return (
    <div
      role="group"
      className="prompt-slash mcp-arguments"
      aria-label={`${props.title} from ${props.server}`}
      onKeyDown={onKeyDown}
    >
      <p className="mcp-arguments-title">
        <strong>{props.title}</strong> <span className="mcp-badge">{props.server}</span>
      </p>
      {props.description && <p className="field-note">{props.description}</p>}
      {props.fields.map((field, index) => (
        <div key={field.name} className="mcp-argument">
          <label htmlFor={`${id}-input-${index}`}>
            {field.label}
            {field.required ? ' (required)' : ''}
          </label>
          <input
            id={`${id}-input-${index}`}
            aria-describedby={field.description ? `${id}-note-${index}` : undefined}
            value={values[field.name] ?? ''}
            list={props.complete ? `${id}-${index}` : undefined}
            autoFocus={index === 0}
            required={field.required}
            autoComplete="off"
            onFocus={() => suggest(field.name, values[field.name] ?? '', values)}
            onChange={(e) => change(field.name, e.target.value)}
          />
          {field.description && (
            <small id={`${id}-note-${index}`} className="field-note">
              {field.description}
            </small>
          )}
          {props.complete && (
            <datalist id={`${id}-${index}`}>
              {(suggestions[field.name] ?? []).map((value) => (
                <option key={value} value={value} />
              ))}
            </datalist>
          )}
        </div>
      ))}
      {error && (
        <p role="alert" className="field-note">
          {error}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="button" className="primary" disabled={busy} onClick={() => void submit()}>
          {props.submitLabel}
        </button>
      </div>
    </div>
  );
}
