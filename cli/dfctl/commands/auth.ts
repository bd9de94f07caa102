import type { TokenPair, User, Workspace } from '@qa-platform/client';
import { Api, normaliseServer } from '../api.js';
import { positionals } from '../args.js';
import type { Command } from '../command.js';
import { CliError, EXIT, usage } from '../errors.js';
import { claimsOf } from '../jwt.js';
import { printJson, printLine, printTable } from '../output.js';
import { ask, readStdin } from '../prompt.js';

export const login: Command = {
  name: 'login',
  summary: 'sign in and keep the token pair',
  usage: `dfctl login --server <url> [--email <e-mail>] [--password-stdin]

Signs in with an e-mail (or username) and password and saves the token pair in the config file.
The password comes from standard input with --password-stdin, else from DFCTL_PASSWORD, else it is
asked for (not echoed) when the terminal is interactive. --server may be left out once saved.`,
  flags: { values: ['email'], booleans: ['password-stdin'] },
  async run(ctx) {
    positionals(ctx.args, []);
    const api = ctx.api();
    const server = normaliseServer(ctx.args.values.get('server') ?? process.env.DFCTL_SERVER ?? api.saved.server ?? (await ask('Server URL: ')));
    const email = ctx.args.values.get('email') ?? (await ask('E-mail: '));
    if (!email) throw usage('an e-mail or username is needed (--email)');
    let password: string;
    if (ctx.args.booleans.has('password-stdin')) password = await readStdin();
    else if (process.env.DFCTL_PASSWORD) password = process.env.DFCTL_PASSWORD;
    else password = await ask('Password: ', true);
    if (!password) throw usage('the password is empty');

    const anonymous = new Api({ server, ...(process.env.DFCTL_CONFIG ? { configPath: process.env.DFCTL_CONFIG } : {}) });
    const pair = await anonymous.request<TokenPair>('POST', '/api/v1/auth/login', { anonymous: true, body: { username: email, password } });
    const claims = claimsOf(pair.token);
    api.save({ server, accessToken: pair.token, refreshToken: pair.refreshToken, login: email, ...(claims.wid !== undefined ? { workspaceId: claims.wid } : {}) });
    if (ctx.json) printJson({ server, login: email, userId: claims.sub === undefined ? null : Number(claims.sub), workspaceId: claims.wid ?? null });
    else printLine(`Signed in to ${server} as ${email}${claims.wid !== undefined ? ` (workspace ${claims.wid})` : ''}.`);
  },
};

export const logout: Command = {
  name: 'logout',
  summary: 'sign out: end the sign-in on the server and forget the tokens',
  usage: `dfctl logout

Ends the sign-in session on the server (every token of it stops working) and removes the tokens
from the config file. The server address is kept for the next dfctl login.`,
  flags: {},
  async run(ctx) {
    positionals(ctx.args, []);
    const api = ctx.api();
    const saved = api.saved;
    if (!saved.accessToken) throw new CliError('not signed in', 'NOT_SIGNED_IN', EXIT.AUTH);
    let serverEnded = true;
    try {
      await api.request('POST', '/api/v1/auth/logout');
    } catch (err) {
      // A sign-in the server already ended (revoked, expired) is signed out all the same.
      if (!(err instanceof CliError) || err.exitCode !== EXIT.AUTH) throw err;
      serverEnded = false;
    }
    api.save({ ...(saved.server ? { server: saved.server } : {}) });
    if (ctx.json) printJson({ signedOut: true, server: saved.server ?? null, sessionEnded: serverEnded });
    else printLine(serverEnded ? 'Signed out.' : 'Signed out (the sign-in had already ended on the server).');
  },
};

export const whoami: Command = {
  name: 'whoami',
  summary: 'who is signed in, where, and in which workspace',
  usage: 'dfctl whoami',
  flags: {},
  async run(ctx) {
    positionals(ctx.args, []);
    const api = ctx.api();
    if (api.apiKey) {
      const out = { server: api.server, credential: 'api-key' };
      if (ctx.json) printJson(out);
      else printLine(`Using the API key of DFCTL_API_KEY on ${out.server}.`);
      return;
    }
    const me = await api.get<User>('/api/v1/users/me');
    const out = { server: api.server, id: me.id, email: me.email, name: me.name, companyId: me.companyId, isAdmin: me.isAdmin, workspaceId: api.workspaceId ?? null };
    if (ctx.json) printJson(out);
    else printLine(`${me.name} <${me.email}> (user ${me.id}, company ${me.companyId}${me.isAdmin ? ', administrator' : ''}) on ${out.server}, workspace ${out.workspaceId ?? '-'}`);
  },
};

export const workspaces: Command = {
  name: 'workspaces',
  summary: 'the workspaces you can enter (* marks the current one)',
  usage: 'dfctl workspaces',
  flags: {},
  async run(ctx) {
    positionals(ctx.args, []);
    const api = ctx.api();
    const list = await api.get<Workspace[]>('/api/v1/workspaces/accessible');
    const current = api.workspaceId;
    if (ctx.json) {
      printJson(list.map((w) => ({ ...w, current: w.id === current })));
      return;
    }
    printTable(
      ['', 'ID', 'NAME', 'MODULES'],
      list.map((w) => [w.id === current ? '*' : '', String(w.id), w.name + (w.archived ? ' (archived)' : ''), w.modules.join(',')]),
      'No workspace.',
    );
  },
};

export const workspace: Command = {
  name: 'workspace',
  summary: 'show the current workspace, or switch: workspace use <id>',
  usage: `dfctl workspace
dfctl workspace use <id>

Without arguments prints the current workspace id. "use" re-issues the token for another workspace
(POST /api/v1/auth/switch-workspace/{id}) and saves it; later commands act there.`,
  flags: {},
  async run(ctx) {
    const api = ctx.api();
    const [verb, id] = positionals(ctx.args, ['use', 'id'], 2);
    if (verb === undefined) {
      const current = api.workspaceId;
      if (ctx.json) printJson({ workspaceId: current ?? null });
      else printLine(current === undefined ? 'No workspace.' : String(current));
      return;
    }
    if (verb !== 'use') throw usage(`unknown workspace command ${verb} (try: dfctl workspace use <id>)`);
    if (id === undefined || !/^\d{1,10}$/.test(id) || Number(id) < 1) throw usage('dfctl workspace use <id>: the id is a workspace number (dfctl workspaces lists them)');
    if (api.apiKey) throw usage('an API key acts in its own workspace; unset DFCTL_API_KEY to switch');
    const pair = await api.post<TokenPair>(`/api/v1/auth/switch-workspace/${id}`);
    api.save({ ...api.saved, accessToken: pair.token, refreshToken: pair.refreshToken, workspaceId: Number(id) });
    if (ctx.json) printJson({ workspaceId: Number(id) });
    else printLine(`Now in workspace ${id}.`);
  },
};
