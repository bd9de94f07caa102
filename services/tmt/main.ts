import { main } from '../run.js';

await main(['tmt']);
