import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import * as core from 'kubernetes-models/v1';
import * as apps from 'kubernetes-models/apps/v1';
import * as autoscaling from 'kubernetes-models/autoscaling/v2';
import * as networking from 'kubernetes-models/networking.k8s.io/v1';
import * as policy from 'kubernetes-models/policy/v1';
import { loadConfig } from '#shared/config.js';

/**
 * The manifests under deploy/kubernetes, rendered by `kubectl kustomize` exactly as an operator renders
 * them, and every object checked against the Kubernetes schemas of its kind (kubernetes-models), then
 * against what the platform needs of them (probes, the stores, the WebSocket paths, availability).
 */
const run = promisify(execFile);
type K8sObject = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; annotations?: Record<string, string> }; spec?: any; data?: Record<string, string> };

/** The schema-checking model class of each kind the manifests use; a kind not listed is refused. */
const MODELS: Record<string, new (data: any) => { validate(): void }> = {
  'v1/ConfigMap': core.ConfigMap,
  'v1/Service': core.Service,
  'apps/v1/Deployment': apps.Deployment,
  'networking.k8s.io/v1/Ingress': networking.Ingress,
  'policy/v1/PodDisruptionBudget': policy.PodDisruptionBudget,
  'autoscaling/v2/HorizontalPodAutoscaler': autoscaling.HorizontalPodAutoscaler,
};

async function render(overlay: string): Promise<K8sObject[]> {
  const { stdout } = await run('kubectl', ['kustomize', `deploy/kubernetes/overlays/${overlay}`], { maxBuffer: 16 << 20 });
  return parseAllDocuments(stdout).map((doc) => doc.toJSON() as K8sObject).filter(Boolean);
}

const MODULES = ['organization', 'df', 'tmt', 'healthcheck', 'autorunner'];
const SERVED = ['gateway', ...MODULES];

describe.each(['small', 'ha'])('the %s overlay', (overlay) => {
  let objects: K8sObject[];
  const ofKind = (kind: string) => objects.filter((o) => o.kind === kind);
  const named = (kind: string, name: string) => ofKind(kind).find((o) => o.metadata.name === name);

  beforeAll(async () => {
    objects = await render(overlay);
  });

  it('renders objects that each validate against the Kubernetes schema of their kind', () => {
    expect(objects.length).toBeGreaterThan(10);
    for (const object of objects) {
      const Model = MODELS[`${object.apiVersion}/${object.kind}`];
      expect(Model, `${object.apiVersion} ${object.kind} ${object.metadata.name}`).toBeDefined();
      expect(() => new Model!(object).validate(), `${object.kind} ${object.metadata.name}`).not.toThrow();
      expect(object.metadata.namespace).toBe('qa-platform');
    }
  });

  it('runs every module, the gateway and the projections runner, each ready on /ready and alive on /health', () => {
    expect(ofKind('Deployment').map((d) => d.metadata.name).sort()).toEqual([...SERVED, 'projections'].sort());
    for (const deployment of ofKind('Deployment')) {
      const [container] = deployment.spec.template.spec.containers;
      expect(container.env).toContainEqual({ name: 'SERVICES', value: deployment.metadata.name });
      expect(container.readinessProbe.httpGet.path).toBe('/ready');
      expect(container.livenessProbe.httpGet.path).toBe('/health');
      expect(container.envFrom).toEqual([{ configMapRef: { name: 'qa-platform-config' } }, { secretRef: { name: 'qa-platform-secrets' } }]);
      expect(container.resources.requests.cpu).toBeTruthy();
    }
    for (const name of SERVED) expect(named('Service', name)?.spec.selector).toEqual({ 'app.kubernetes.io/name': name });
  });

  it('takes the stores from outside the cluster: external names, no StatefulSet, no volume claim', () => {
    for (const store of ['postgres', 'nats', 'redis']) {
      const service = named('Service', store);
      expect(service?.spec.type).toBe('ExternalName');
      expect(service?.spec.externalName).not.toMatch(/example\.internal$/);
    }
    expect(objects.filter((o) => ['StatefulSet', 'PersistentVolumeClaim'].includes(o.kind))).toEqual([]);
  });

  it('configures the platform so that its own start-up validation accepts it, each module URL naming a Service', () => {
    const config = named('ConfigMap', 'qa-platform-config')!.data!;
    const secrets = { DATABASE_URL: 'postgres://qa:qa@postgres:5432/qa', NATS_URL: 'nats://df-service:pw@nats:4222', JWT_PRIVATE_KEY: 'set-by-the-operator', S3_ACCESS_KEY_ID: 'a', S3_SECRET_ACCESS_KEY: 'b' };
    for (const service of [...SERVED, 'projections']) expect(() => loadConfig({ ...config, ...secrets, SERVICES: service })).not.toThrow();
    for (const module of MODULES) {
      const url = new URL(config[`${module.toUpperCase()}_URL`]!);
      expect(named('Service', url.hostname), module).toBeDefined();
    }
  });

  it("has every process serve /metrics on METRICS_PORT, named on its container and announced to Prometheus's pod discovery", () => {
    const port = named('ConfigMap', 'qa-platform-config')!.data!.METRICS_PORT;
    expect(port).toBe('9464');
    for (const deployment of ofKind('Deployment')) {
      const template = deployment.spec.template;
      expect(template.metadata.annotations, deployment.metadata.name).toMatchObject({ 'prometheus.io/scrape': 'true', 'prometheus.io/port': port, 'prometheus.io/path': '/metrics' });
      expect(template.spec.containers[0].ports, deployment.metadata.name).toContainEqual({ name: 'metrics', containerPort: Number(port) });
    }
    // Inside the cluster only: no Service exposes the metrics port.
    for (const service of ofKind('Service')) expect(JSON.stringify(service.spec.ports ?? []), service.metadata.name).not.toContain(port);
  });

  it('gives the long-lived WebSocket paths their own time-outs', () => {
    const streams = named('Ingress', 'qa-platform-streams')!;
    const paths = streams.spec.rules[0].http.paths.map((p: { path: string }) => p.path);
    expect(paths.sort()).toEqual(['/df/debug-tunnel', '/df/devtools', '/df/wd', '/df/ws']);
    expect(Number(streams.metadata.annotations!['nginx.ingress.kubernetes.io/proxy-read-timeout'])).toBeGreaterThanOrEqual(3600);
    expect(named('Ingress', 'qa-platform')!.spec.rules[0].http.paths[0].backend.service.name).toBe('gateway');
  });

  it('runs the projections runner (two in ha, leased) and replaces a version only after the old ones stopped', () => {
    const runner = named('Deployment', 'projections')!;
    expect(runner.spec.replicas).toBe(overlay === 'ha' ? 2 : 1);
    expect(runner.spec.strategy.type).toBe('Recreate');
    if (overlay === 'ha') expect(named('PodDisruptionBudget', 'projections')?.spec.minAvailable).toBe(1);
  });

  it(overlay === 'ha' ? 'keeps two or more of each served Deployment through disruptions and scales them' : 'runs one of each, with no budget that would block a node drain', () => {
    for (const name of SERVED) {
      const deployment = named('Deployment', name)!;
      if (overlay === 'small') {
        expect(deployment.spec.replicas).toBe(1);
        expect(named('PodDisruptionBudget', name)).toBeUndefined();
        continue;
      }
      expect(deployment.spec.replicas).toBeGreaterThanOrEqual(2);
      expect(named('PodDisruptionBudget', name)?.spec.selector.matchLabels).toEqual({ 'app.kubernetes.io/name': name });
      const hpa = named('HorizontalPodAutoscaler', name)!;
      expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name });
      expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
    }
  });
});
