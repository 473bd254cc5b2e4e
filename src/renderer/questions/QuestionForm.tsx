// A form question (an MCP elicitation): one control per field, opened with the server's
// defaults. Text (with the input type its format names), numbers with their range,
// switches, one choice from a list, several from checkboxes. The same check main applies
// (formProblem) says what is missing before anything is sent.
import { useId, useState } from 'react';
import { formDefaults, formProblem, type FieldValue, type Question, type QuestionField } from '../../shared/questions';

const INPUT_TYPES: Record<string, string> = { email: 'email', uri: 'url', date: 'date' };

function FieldControl(props: { field: QuestionField; value: FieldValue | undefined; set: (v: FieldValue) => void }) {
  const { field, value, set } = props;
  const label = `${field.label}${field.required ? ' (required)' : ''}`;
  const id = useId();
  // The description is the control's description, not part of its name.
  const described = field.description ? `${id}-note` : undefined;
  const note = field.description ? (
    <small id={described} className="question-field-note">
      {field.description}
    </small>
  ) : null;
  if (field.kind === 'boolean') {
    return (
      <div className="question-field">
        <label className="checkbox-field">
          <input
            type="checkbox"
            aria-describedby={described}
            checked={value === true}
            onChange={(e) => set(e.target.checked)}
          />
          <span>{label}</span>
        </label>
        {note}
      </div>
    );
  }
  if (field.kind === 'choices') {
    const chosen = Array.isArray(value) ? value : [];
    return (
      <fieldset className="question-field question-choices" aria-describedby={described}>
        <legend>{label}</legend>
        {field.options.map((option) => (
          <label key={option.value} className="checkbox-field">
            <input
              type="checkbox"
              checked={chosen.includes(option.value)}
              onChange={(e) =>
                set(e.target.checked ? [...chosen, option.value] : chosen.filter((v) => v !== option.value))
              }
            />
            <span>{option.label}</span>
          </label>
        ))}
        {note}
      </fieldset>
    );
  }
  if (field.kind === 'choice') {
    return (
      <div className="question-field">
        <label className="field">
          <span>{label}</span>
          <select
            aria-describedby={described}
            value={typeof value === 'string' ? value : ''}
            onChange={(e) => set(e.target.value)}
          >
            <option value="">Choose…</option>
            {field.options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
        {note}
      </div>
    );
  }
  if (field.kind === 'number' || field.kind === 'integer') {
    return (
      <div className="question-field">
        <label className="field">
          <span>{label}</span>
          <input
            type="number"
            step={field.kind === 'integer' ? 1 : 'any'}
            min={field.minimum ?? undefined}
            max={field.maximum ?? undefined}
            value={typeof value === 'number' ? value : ''}
            onChange={(e) => set(e.target.value === '' ? '' : Number(e.target.value))}
            aria-describedby={described}
          />
        </label>
        {note}
      </div>
    );
  }
  return (
    <div className="question-field">
      <label className="field">
        <span>{label}</span>
        <input
          type={INPUT_TYPES[field.format ?? ''] ?? 'text'}
          aria-describedby={described}
          minLength={field.minimum ?? undefined}
          maxLength={field.maximum ?? undefined}
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => set(e.target.value)}
        />
      </label>
      {note}
    </div>
  );
}

export function QuestionForm(props: {
  question: Question;
  disabled: boolean;
  onSubmit: (values: Record<string, FieldValue>) => void;
}) {
  const form = props.question.form ?? [];
  const [values, setValues] = useState(() => formDefaults(form));
  const [tried, setTried] = useState(false);
  const problem = formProblem(form, values);
  return (
    <form
      className="question-form"
      aria-label={`Answer to ${props.question.agentName}`}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        setTried(true);
        if (!problem) props.onSubmit(values);
      }}
    >
      {form.map((field) => (
        <FieldControl
          key={field.name}
          field={field}
          value={values[field.name]}
          set={(value) => setValues((current) => ({ ...current, [field.name]: value }))}
        />
      ))}
      {tried && problem && (
        <p className="question-form-problem" role="alert">
          {problem}
        </p>
      )}
      <button type="submit" className="primary" disabled={props.disabled}>
        Submit
      </button>
    </form>
  );
}
