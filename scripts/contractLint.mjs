// Lint rules oxlint cannot express, about the IPC contract's handlers (docs/architecture.md,
// "The contract"): a module types its handlers from its contract fragment
// (`HandlersFor<typeof planCalls>`), never as a `Pick<Handlers, '…'>` list, and reaches
// another module through that module's typed services, never through its handler table
// (`autopilot.handlers['autopilot:set'](…)`). createCore may still spread whole tables.
// `node scripts/contractLint.mjs` checks src/ and exits 1 with one line per finding.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const RULES = [
  {
    pattern: /\bPick<\s*Handlers\b/g,
    message: "a Pick<Handlers, '…'> list: type the handlers from the fragment, HandlersFor<typeof xCalls>",
  },
  {
    // `x.handlers[…]`, `x.handlers.y`, `x.handlers?.[…]`: another module's table, entry by entry.
    pattern: /\.handlers\s*(?:\?\.)?\s*[[.](?!\.)/g,
    message: "a call into another module's handler table: use that module's typed service",
  },
  {
    pattern: /\bhandlers\s*(?:\?\.)?\s*\[\s*['"`]/g,
    message: "a handler called by its name (handlers['…']): call the service behind it",
  },
];

/** Comments may name what is forbidden; only code counts. Keeps line breaks, so lines still match. */
function withoutComments(text) {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ' '))
    .replace(/(^|[^:'"`\\])\/\/.*$/gm, (_, before) => before);
}

/** Findings in one file's text, as `file:line: message`. */
export function contractFindings(file, text) {
  const code = withoutComments(text);
  const findings = [];
  for (const { pattern, message } of RULES) {
    for (const match of code.matchAll(pattern)) {
      const line = code.slice(0, match.index).split('\n').length;
      findings.push(`${file}:${line}: ${message}`);
    }
  }
  return findings;
}

function sourceFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Every finding under `root/src`, paths relative to root. */
export function checkTree(root) {
  return sourceFiles(path.join(root, 'src')).flatMap((file) =>
    contractFindings(path.relative(root, file), fs.readFileSync(file, 'utf8')),
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const findings = checkTree(path.resolve(import.meta.dirname, '..'));
  for (const finding of findings) console.error(finding);
  if (findings.length) process.exit(1);
}
