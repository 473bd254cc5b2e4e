// What a host shows while migrations run in a worker (migrateAside.ts): a notice that says
// so at once. The browser host serves the app's own page with the notice in its root and
// loads the app once the notice is painted, so the app loads while the data is updated and
// draws itself over the notice once the host answers (renderer/main.tsx), without a second
// page load; the desktop window shows a page of its own until the core is there, then
// loads the app.

import { UPDATING_ATTRIBUTE } from '../../../shared/updatingNotice';

export const UPDATING_TEXT = 'Updating your data…';

const ROOT = '<div id="root"></div>';

function updatingNotice(): string {
  return `<main ${UPDATING_ATTRIBUTE} style="font: 15px/1.5 system-ui, sans-serif; min-height: 100vh; display: grid; place-content: center; text-align: center; padding: 0 1rem">
<p role="status">${UPDATING_TEXT}</p>
<p>Stepwise is bringing its database up to this version. The app opens here when it is done.</p>
</main>`;
}

/** The desktop window's page while it migrates (a data: URL: no script, no preload calls). */
export function updatingPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Stepwise</title>
<style>
body { margin: 0; color: #222; background: #fafafa; }
@media (prefers-color-scheme: dark) { body { color: #eee; background: #1c1c1c; } }
</style>
</head>
<body>
${updatingNotice()}
</body>
</html>
`;
}

/** The script of the app's page while updating: the host serves it (no inline script: CSP). */
export const UPDATING_SCRIPT_PATH = '/__stepwise/updating.js';
const HELD_ID = 'stepwise-app-assets';
const ASSET_TAG = /\s*(<script\b[^>]*><\/script>|<link\b[^>]*\brel="(?:stylesheet|modulepreload)"[^>]*>)/g;

/**
 * The app's page with the notice in its (empty) root, its scripts and styles held back in an
 * inert template until the notice is painted (they would hold the first paint up by their
 * download and compile); a page without an empty root is left as it is.
 */
export function withUpdatingNotice(appPage: string): string {
  if (!appPage.includes(ROOT)) return appPage;
  const assets: string[] = [];
  const page = appPage.replace(ASSET_TAG, (_, tag: string) => {
    assets.push(tag);
    return '';
  });
  return page.replace(
    ROOT,
    `<div id="root">${updatingNotice()}</div>
<template id="${HELD_ID}">${assets.join('')}</template>
<script src="${UPDATING_SCRIPT_PATH}" defer></script>`,
  );
}

/** Loads the held scripts and styles after the first paint (a frame, then a task). */
export function updatingScript(): string {
  return `requestAnimationFrame(() => setTimeout(() => {
  for (const held of document.getElementById(${JSON.stringify(HELD_ID)}).content.children) {
    const tag = document.createElement(held.localName);
    for (const { name, value } of held.attributes) tag.setAttribute(name, value);
    document.head.append(tag);
  }
}));
`;
}
