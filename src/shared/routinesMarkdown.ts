// The Markdown "## Routines" section, in the routines' own export and in the export of
// every task list (docs/export-format.md).
import type { RoutineExport } from './routinesExport';
import { escapeMarkdownLine, formatUtc } from './markdownText';

/** The "## Routines" section: each routine, its schedule and settings, and its last runs. */
export function routinesMarkdown(data: { routines: RoutineExport[] }, lastRuns = 10): string {
  const lines = ['## Routines', ''];
  if (data.routines.length === 0) lines.push('No routines.', '');
  for (const r of data.routines) {
    lines.push(`### ${escapeMarkdownLine(r.name)}`, '');
    lines.push(`- Schedule: ${escapeMarkdownLine(r.scheduleText)}${r.paused ? ' (paused)' : ''}`);
    lines.push(
      `- Model: ${r.model ? escapeMarkdownLine(`${r.model.profileId} / ${r.model.model}`) : 'the default model'}`,
    );
    if (r.folder) lines.push(`- Folder: ${escapeMarkdownLine(r.folder)}`);
    lines.push(`- Review plans: ${r.planReview} · Autopilot: ${r.autopilot ? 'on' : 'off'}`);
    lines.push(
      `- When a run was missed: ${r.missed === 'run_once' ? 'run once when Stepwise starts' : 'skip it and note it'}`,
    );
    const tools = r.tools.map((t) => `${t.server}/${t.tool}`).join(', ');
    lines.push(`- Tools without asking: ${tools ? escapeMarkdownLine(tools) : 'none'}`);
    lines.push('', ...r.instructions.split('\n').map((line) => `> ${escapeMarkdownLine(line)}`), '');
    const runs = r.runs.slice(-lastRuns).reverse();
    if (runs.length) {
      lines.push(`Last runs (newest first, ${runs.length} of ${r.runs.length}):`, '');
      for (const run of runs) {
        const at = run.endedAt ?? run.startedAt ?? run.dueAt;
        const detail = run.detail ? ` — ${escapeMarkdownLine(run.detail)}` : '';
        lines.push(`- ${at ? formatUtc(Date.parse(at)) : '—'}: ${run.status}${detail}`);
      }
      lines.push('');
    }
  }
  return `${lines.join('\n')}\n`;
}
