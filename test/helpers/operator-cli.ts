import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Runs an operator's command line as its npm script does (`tsx <file>`), from the repository's root, with
 * the platform's configuration `env` beside a bare PATH: its exit code and output.
 */
export function runOperatorCli(file: string, args: readonly string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', file, ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'warn', ...env }, timeout: 120_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}
