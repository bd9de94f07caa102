import { useQuery } from '@tanstack/preact-query';
import type { Schemas } from '@qa-platform/client';
import { api } from '../api';
import { DataTable, ErrorNote, Loading, useClipboard } from '../ui';

type Manifest = Schemas['ClientPackagesManifest'];

/** Kilobytes, for a tarball's size. */
const kilobytes = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024))} KB`;

/**
 * The client packages this server hands out (typed API client, WebdriverIO service, Playwright fixture):
 * beside the keys a CI job needs, the `npm install` lines that add them to a project, each to copy.
 */
export function ClientPackages() {
  const manifest = useQuery({ queryKey: ['packages-manifest'], queryFn: () => api<Manifest>('/df/api/client-config/packages-manifest') });
  const clipboard = useClipboard('the command');
  const packages = manifest.data?.packages ?? [];
  return (
    <section class="stack" aria-labelledby="client-packages-title">
      <h2 id="client-packages-title">Client packages</h2>
      <p class="muted" style="margin-top:0">
        For a CI project (Node.js {manifest.data?.node ?? '20 or later'}): the typed API client, and the WebdriverIO service and Playwright fixture that
        depend on it, installed from this server. Install the client first; the downloads need no key, the runners take a device key or an API key with the{' '}
        <code>devices</code> scope.
      </p>
      {manifest.isLoading ? <Loading /> : null}
      <ErrorNote error={manifest.error} />
      {packages.length > 0 ? (
        <>
          <DataTable
            caption="Client packages"
            rows={packages}
            rowKey={(p) => p.name}
            columns={[
              { header: 'Package', cell: (p) => <code>{p.name}</code> },
              { header: 'Version', cell: (p) => p.version },
              { header: 'Size', cell: (p) => kilobytes(p.size) },
              { header: 'Install', cell: (p) => clipboard.command(p.name, p.install, `the install command for ${p.name}`) },
            ]}
          />
          <p>All three at once:</p>
          {clipboard.command('all', manifest.data!.install, 'the install command for all three packages')}
        </>
      ) : null}
      {clipboard.status}
    </section>
  );
}
