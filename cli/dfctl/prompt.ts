import { createInterface } from 'node:readline';
import { CliError, EXIT, usage } from './errors.js';

/** Everything on standard input, without the trailing newline (`--password-stdin`). */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

/** Asks on the terminal (stderr, so stdout stays clean); `hidden` does not echo what is typed. */
export async function ask(question: string, hidden = false): Promise<string> {
  if (!process.stdin.isTTY) throw usage(`${question.replace(/:\s*$/, '')} is needed and standard input is not a terminal`);
  if (!hidden) {
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
    try {
      return await new Promise<string>((resolve) => rl.question(question, resolve));
    } finally {
      rl.close();
    }
  }
  process.stderr.write(question);
  const stdin = process.stdin;
  stdin.setRawMode(true);
  stdin.resume();
  stdin.setEncoding('utf8');
  try {
    return await new Promise<string>((resolve, reject) => {
      let value = '';
      const onData = (text: string) => {
        for (const ch of text) {
          if (ch === '\r' || ch === '\n') {
            stdin.off('data', onData);
            resolve(value);
            return;
          }
          if (ch === '\u0003') {
            stdin.off('data', onData);
            reject(new CliError('cancelled', 'CANCELLED', EXIT.ERROR));
            return;
          }
          if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
          else value += ch;
        }
      };
      stdin.on('data', onData);
    });
  } finally {
    stdin.setRawMode(false);
    stdin.pause();
    process.stderr.write('\n');
  }
}
