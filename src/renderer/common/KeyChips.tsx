// "Ctrl/⌘ + K or /": a chip per key, "or" between them as plain text.
export function KeyChips({ keys }: { keys: string[] }) {
  return keys.map((key, i) => (
    <span key={key}>
      {i > 0 && ' or '}
      <kbd>{key}</kbd>
    </span>
  ));
}
