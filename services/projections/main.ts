import { main } from '../run.js';

await main(['projections']);
