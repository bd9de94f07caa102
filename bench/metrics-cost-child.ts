/*
 * One configuration of the metrics-cost step (bench/metrics-cost.ts) in a process of its own: argv[2] is
 * `{config, options}`. It starts the configuration's server and answers `{ready}`; then each `{measure}`
 * message is answered with one measured slice (`{result}`), and `{stop}` stops the server and ends the
 * process. A failure is answered as `{error}`.
 */
import { ConfigHost, type MetricsConfig, type MetricsCostOptions } from './metrics-cost.js';

const { config, options } = JSON.parse(process.argv[2]!) as { config: MetricsConfig; options: MetricsCostOptions };
const failed = (err: unknown) => ({ error: err instanceof Error ? (err.stack ?? err.message) : String(err) });

try {
  const host = await ConfigHost.start(config, options);
  process.on('message', (m: { measure?: string; stop?: boolean }) => {
    if (m.stop) {
      void host.stop().finally(() => process.exit(0));
      return;
    }
    void host.measure(m.measure ?? '').then(
      (result) => process.send!({ result }),
      (err: unknown) => process.send!(failed(err)),
    );
  });
  process.send!({ ready: true });
} catch (err) {
  process.send!(failed(err), () => process.exit(1));
}
