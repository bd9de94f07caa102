/*
 * One configuration of the metrics-cost step (bench/metrics-cost.ts) in a process of its own: argv[2] is
 * `{config, options}`; the result goes back to the parent as one message, then the process exits.
 */
import { measureConfig, type MetricsConfig, type MetricsCostOptions } from './metrics-cost.js';

const { config, options } = JSON.parse(process.argv[2]!) as { config: MetricsConfig; options: MetricsCostOptions };
const message = await measureConfig(config, options).then(
  (result) => ({ result }),
  (err: Error) => ({ error: err.stack ?? String(err) }),
);
process.send!(message, () => process.exit(0));
