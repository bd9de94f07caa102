import { main } from '../run.js';

await main(['autorunner']);
