import { main } from '../run.js';

await main(['healthcheck']);
