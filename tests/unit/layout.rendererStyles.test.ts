// Where the renderer's styles live (issue 25): styles.css keeps only what every feature
// shares, each feature's CSS sits beside the component that imports it, and the task
// list's styles are all in renderer/tasks/.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const RENDERER = path.resolve(import.meta.dirname, '../../src/renderer');
const files = fs.readdirSync(RENDERER, { recursive: true, encoding: 'utf8' });
const read = (file: string) => fs.readFileSync(path.join(RENDERER, file), 'utf8');
const cssFiles = files.filter((f) => f.endsWith('.css'));

describe('renderer styles', () => {
  it('keeps the global styles.css within 450 lines', () => {
    expect(read('styles.css').split('\n').length).toBeLessThanOrEqual(450);
  });

  it('imports every stylesheet from a module beside it or in another feature', () => {
    const imported = new Set<string>();
    for (const file of files.filter((f) => /\.tsx?$/.test(f))) {
      for (const match of read(file).matchAll(/^import '(\.{1,2}\/[^']+\.css)';$/gm)) {
        imported.add(path.join(path.dirname(file), match[1]));
      }
    }
    expect(cssFiles.filter((f) => !imported.has(f))).toEqual([]);
  });

  // The plan-review card is the task header in review (renderer/plans/), so it styles it too.
  it('styles the task list only in renderer/tasks/ and the plan-review card', () => {
    const outside = cssFiles
      .filter((f) => !f.startsWith(`tasks${path.sep}`) && f !== path.join('plans', 'PlanReviewCard.css'))
      .flatMap((f) =>
        read(f)
          .replace(/\/\*[\s\S]*?\*\//g, '')
          .split('\n')
          .filter((line) => /\.task-(?!share-)[\w-]+/.test(line))
          .map((line) => `${f}: ${line.trim()}`),
      );
    expect(outside).toEqual([]);
  });
});
