import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { caller, idParam } from '../../http.js';
import { TestApkListings } from '../test-apks.js';
import { tags, type FileRoutesOptions } from './schemas.js';

const TestMethod = z
  .object({
    className: z.string().describe('Java name of the class the test runs in (`com.example.FooTest`, nested classes with `$`)'),
    methodName: z.string(),
    annotations: z.array(z.string()).describe('Runtime annotations of the class and the method, as Java names (`androidx.test.filters.LargeTest`), for filters'),
    ignored: z.boolean().describe('`@org.junit.Ignore` on the method or its class'),
  })
  .meta({ id: 'DfTestMethod' });
const TestApk = z
  .object({
    runner: z.string().describe('The instrumentation runner (`<instrumentation android:name>`)'),
    targetPackage: z.string().describe('The package under test (`android:targetPackage`)'),
    tests: z.array(TestMethod).describe('By class name, then method name'),
  })
  .meta({ id: 'DfTestApk' });

/** `/df/api/files/app-versions/{versionId}/tests`: the tests of an Android test APK, read from its DEX files. */
export async function testApkRoutes(app: FastifyInstance, opts: FileRoutesOptions): Promise<void> {
  const { platform } = opts;
  const listings = new TestApkListings({ db: platform.db, blobs: platform.blobs, logger: platform.logger });
  app.withTypeProvider<ZodTypeProvider>().get('/api/files/app-versions/:versionId/tests', {
    schema: {
      tags,
      summary: 'The tests of a test APK version: its instrumentation runner, target package and test methods',
      description:
        'Read from the DEX files of the build: JUnit 4 `@Test` methods (inherited ones included) and JUnit 3 `test*` methods of `TestCase` subclasses, abstract classes skipped. 409 `NOT_A_TEST_APK` for a build without `<instrumentation>` or without tests, and for an iOS build; 422 `DEX_UNREADABLE` for DEX files that cannot be read.',
      params: z.object({ versionId: idParam }),
      response: { 200: TestApk },
    },
    handler: async (request) => listings.of(await caller(request, 'df:session:read'), request.params.versionId),
  });
}
