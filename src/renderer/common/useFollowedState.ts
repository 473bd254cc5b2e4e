// A form field's own state that starts from a saved value and follows it whenever the saved
// value changes: a save's answer that arrives after the form was opened again, or another
// window's change. What the user typed stays until the saved value itself changes.
import { useState, type Dispatch, type SetStateAction } from 'react';

export function useFollowedState<T>(saved: T): [T, Dispatch<SetStateAction<T>>] {
  const [state, setState] = useState(saved);
  const [seen, setSeen] = useState(saved);
  if (!Object.is(seen, saved)) {
    // React's pattern for state derived from a prop: set during render, drawn once.
    setSeen(saved);
    setState(saved);
  }
  return [state, setState];
}
