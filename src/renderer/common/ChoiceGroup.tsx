// A labelled group of radio buttons (a fieldset with a legend), for dialogs.
import './ChoiceGroup.css';
export interface Choice<T extends string> {
  value: T;
  label: string;
  disabled?: boolean;
}

export function ChoiceGroup<T extends string>(props: {
  legend: string;
  name: string;
  choices: Choice<T>[];
  value: T;
  onChange: (value: T) => void;
}) {
  return (
    <fieldset className="choice-group">
      <legend>{props.legend}</legend>
      {props.choices.map((choice) => (
        <label key={choice.value} className="choice">
          <input
            type="radio"
            name={props.name}
            checked={props.value === choice.value}
            disabled={choice.disabled}
            onChange={() => props.onChange(choice.value)}
          />
          {choice.label}
        </label>
      ))}
    </fieldset>
  );
}
