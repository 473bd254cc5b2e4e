export function FileIcon() {
  return (
    <svg className="attachment-icon" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
      <path
        d="M6 2.8h8l4.2 4.2v14.2H6z M14 2.8V7h4.2"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.6"
        strokeLinejoin="round"
      />
    </svg>
  );
}
