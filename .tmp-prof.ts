import { measureConfig } from './bench/metrics-cost.js';
const ratio = process.argv[2] === 'none' ? null : Number(process.argv[2]);
const r = await measureConfig({ metrics: true, ratio }, { connections: 50, durationSeconds: 10, warmupSeconds: 3, rounds: 1 });
console.log(JSON.stringify({ ratio, rps: r.requestsPerSecond, cpuUs: r.cpuPerRequestUs }));
process.exit(0);
