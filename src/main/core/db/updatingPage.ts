// What a host shows while migrations run in a worker (migrateAside.ts): a page that says so
// at once. The browser host's page also loads a script (the CSP allows no inline one) that
// waits for the update to end and then loads the app at the same address; the desktop app
// loads the app into its window itself.

export const UPDATING_PATHS = { script: '/__stepwise/updating.js', wait: '/__stepwise/ready' } as const;

export const UPDATING_TEXT = 'Updating your data…';

export function updatingPage(options: { script: boolean }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Stepwise</title>
<style>
body { font: 15px/1.5 system-ui, sans-serif; margin: 0; min-height: 100vh; display: grid; place-items: center; color: #222; background: #fafafa; }
@media (prefers-color-scheme: dark) { body { color: #eee; background: #1c1c1c; } }
</style>
${options.script ? `<script src="${UPDATING_PATHS.script}" defer></script>\n` : ''}</head>
<body>
<main>
<p role="status">${UPDATING_TEXT}</p>
<p>Stepwise is bringing its database up to this version. The app opens here when it is done.</p>
</main>
</body>
</html>
`;
}

/** Waits for the host to answer that the update ended, then reloads (the app is served then). */
export function updatingScript(): string {
  return `fetch(${JSON.stringify(UPDATING_PATHS.wait)} + location.search, { cache: 'no-store' }).then(
  () => location.reload(),
  () => setTimeout(() => location.reload(), 1000),
);
`;
}
