#!/usr/bin/env node
/**
 * dfctl: the device farm from a terminal (docs/modules/dfctl.md). Bundled into one file with no
 * dependencies by scripts/build-dfctl.mjs; `npm run dfctl -- <args>` runs it from the repository.
 */
import { Api, version } from './api.js';
import { parseArgs, type ParsedArgs } from './args.js';
import type { Command, Context } from './command.js';
import { login, logout, whoami, workspace, workspaces } from './commands/auth.js';
import { devices, end, logs, open, screenshot, sessions } from './commands/devices.js';
import { audit } from './commands/audit.js';
import { evidence } from './commands/evidence.js';
import { adb, devtools, forward, targets, usbmux } from './commands/tunnels.js';
import { run } from './commands/run.js';
import { upload } from './commands/upload.js';
import { CliError, EXIT, usage } from './errors.js';
import { printLine } from './output.js';

const COMMANDS: readonly Command[] = [login, logout, whoami, workspaces, workspace, devices, sessions, open, end, logs, screenshot, upload, run, targets, adb, forward, devtools, usbmux, evidence, audit];

const EXIT_CODES = `Exit codes: 0 done, 1 API or other error, 2 usage error, 3 not signed in or sign-in refused,
4 not found, 5 server unreachable; dfctl run: 0 every test passed, 1 tests failed, 2 the run could not
complete; dfctl audit verify: 0 intact, 1 broken. Errors go to stderr as "dfctl: <message> (<CODE>)".`;

function overview(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return `dfctl ${version()}: the device farm from your terminal

Usage: dfctl <command> [arguments] [--json]

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n')}
  ${'help'.padEnd(width)}  help [command]: this text, or one command's

Every command takes --json (one JSON document on stdout) and --server <url>.
Config: ~/.config/dfctl/config.json (or $DFCTL_CONFIG). DFCTL_API_KEY=dfk_... uses a device-testing
API key instead of a sign-in.
${EXIT_CODES}`;
}

function helpOf(name: string): string {
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) throw usage(`unknown command ${name} (dfctl help lists them)`);
  return `${command.usage}\n\nEvery command also takes --json and --server <url>.\n${EXIT_CODES}`;
}

async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    const topic = name === 'help' ? rest.find((a) => !a.startsWith('-')) : undefined;
    printLine(topic ? helpOf(topic) : overview());
    return EXIT.OK;
  }
  if (name === '--version' || name === '-V' || name === 'version') {
    printLine(version());
    return EXIT.OK;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) throw usage(`unknown command ${name} (dfctl help lists them)`);
  const args: ParsedArgs = parseArgs(rest, command.flags);
  if (args.booleans.has('help')) {
    printLine(helpOf(command.name));
    return EXIT.OK;
  }
  let api: Api | undefined;
  const server = args.values.get('server');
  const ctx: Context = {
    args,
    json: args.booleans.has('json'),
    api: () => (api ??= new Api(server === undefined ? {} : { server })),
  };
  return (await command.run(ctx)) ?? EXIT.OK;
}

/**
 * Exits once stdout and stderr have taken everything written (a pipe can be asynchronous, and
 * exiting at once could cut a long JSON document short). Exiting explicitly, because keep-alive
 * sockets of fetch would hold the process for seconds after the work is done.
 */
function exitAfterFlush(code: number): void {
  process.exitCode = code;
  let pending = 2;
  const done = () => {
    if (--pending === 0) process.exit(code);
  };
  process.stdout.write('', done);
  process.stderr.write('', done);
}

main(process.argv.slice(2)).then(exitAfterFlush, (err: unknown) => {
  if (err instanceof CliError) {
    process.stderr.write(`dfctl: ${err.message} (${err.code})\n`);
    return exitAfterFlush(err.exitCode);
  }
  process.stderr.write(`dfctl: ${err instanceof Error ? err.message : String(err)} (INTERNAL)\n`);
  if (process.env.DFCTL_DEBUG && err instanceof Error) process.stderr.write(`${err.stack}\n`);
  exitAfterFlush(EXIT.ERROR);
});
