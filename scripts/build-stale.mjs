// What `npm start` runs before the server: the web console, dfctl, the client packages and the server's
// own compiled bundle, each built only when it is missing or older than its sources, in one process
// (a Node start per build cost a restart ~0.1 s each).
import { buildClients } from './build-clients.mjs';
import { buildConsole } from './build-console.mjs';
import { buildDfctl } from './build-dfctl.mjs';
import { buildServer } from './build-server.mjs';

await buildConsole();
await buildDfctl();
await buildClients();
await buildServer();
