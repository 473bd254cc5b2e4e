// Entry point of `npm run cli` (built to out/main/cli.js; scripts/cli.mjs runs it).
import { runCli } from './runCli';

process.exitCode = runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  // npm runs scripts in the package root; INIT_CWD is where the user typed the command.
  cwd: process.env.INIT_CWD ?? process.cwd(),
});
