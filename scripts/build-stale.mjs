// What `npm start` runs before the server: the web console, dfctl and the client packages, each built only
// when it is missing or older than its sources, in one process (three Node starts cost a restart ~0.3 s).
import { buildClients } from './build-clients.mjs';
import { buildConsole } from './build-console.mjs';
import { buildDfctl } from './build-dfctl.mjs';

await buildConsole();
await buildDfctl();
await buildClients();
