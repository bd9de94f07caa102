import type { RpcResult } from '#shared/wire/index.js';
import { DriverError } from '../provider.js';
import { AXE_FINISH_SCRIPT, AXE_PARTIAL_SCRIPT, axeSource, frameElementExpression } from './accessibility.js';
import type { CdpCall } from './input.js';
import { UI_TREE_SCRIPT } from './ui-tree.js';

const UI_TREE_NODE_LIMIT = 3_000;
/** Most findings one scan reports (a broken page can have thousands of identical ones). */
const ACCESSIBILITY_FINDING_LIMIT = 1_000;
/** Most frames one scan visits (the rest count as not scanned). */
const ACCESSIBILITY_FRAME_LIMIT = 50;

/** The page's elements as a tree of the device's pixels (at most a few thousand nodes). */
export async function readUiTree(call: CdpCall, scale: number): Promise<RpcResult<'uiTree'>> {
  const { result, exceptionDetails } = await call<{ result: { value?: RpcResult<'uiTree'> }; exceptionDetails?: { text: string } }>('Runtime.evaluate', {
    expression: `${UI_TREE_SCRIPT}(${scale}, ${UI_TREE_NODE_LIMIT})`,
    returnByValue: true,
  });
  if (exceptionDetails || !result.value) throw new DriverError('DEVICE_ERROR', `Reading the page failed: ${exceptionDetails?.text ?? 'no value'}`);
  return result.value;
}

/**
 * axe-core injected through CDP into an isolated world of every frame (the page's own scripts
 * neither see it nor can replace it; it shares their DOM): `runPartial` in each frame, depth first
 * as axe-core finds them, then `finishRun` in the top frame. A frame that cannot be reached (a
 * cross-origin frame in another renderer) counts as not scanned. Its violations, one per element.
 */
export async function scanAccessibility(call: CdpCall, scale: number): Promise<RpcResult<'accessibilityScan'>> {
  type Evaluated<T> = { result: { value?: T; objectId?: string }; exceptionDetails?: { text: string; exception?: { description?: string } } };
  const failure = (what: string, e: Evaluated<unknown>['exceptionDetails']) => new DriverError('DEVICE_ERROR', `${what}: ${e?.exception?.description ?? e?.text ?? 'no value'}`.slice(0, 500));
  const world = async (frameId: string): Promise<number> => {
    const { executionContextId } = await call<{ executionContextId: number }>('Page.createIsolatedWorld', { frameId, worldName: 'accessibility-scan' });
    const injected = await call<Evaluated<unknown>>('Runtime.evaluate', { expression: `if (!window.axe) { ${axeSource()}\n}`, contextId: executionContextId, returnByValue: true });
    if (injected.exceptionDetails) throw failure('Loading axe-core into the page failed', injected.exceptionDetails);
    return executionContextId;
  };
  const partials: unknown[] = [];
  let frames = 0;
  const visit = async (contextId: number, context: unknown): Promise<void> => {
    frames += 1;
    const ran = await call<Evaluated<{ partial: unknown; frames: { frameSelector: unknown; frameContext: unknown }[] }>>('Runtime.evaluate', {
      expression: `(${AXE_PARTIAL_SCRIPT})(${JSON.stringify(context)})`,
      contextId,
      awaitPromise: true,
      returnByValue: true,
    });
    if (ran.exceptionDetails || !ran.result.value) throw failure('axe-core failed', ran.exceptionDetails);
    partials.push(ran.result.value.partial);
    for (const child of ran.result.value.frames) {
      let childContext: number | null = null;
      if (frames < ACCESSIBILITY_FRAME_LIMIT) {
        try {
          const owner = await call<Evaluated<unknown>>('Runtime.evaluate', { expression: frameElementExpression(child.frameSelector), contextId });
          const { node } = await call<{ node: { frameId?: string } }>('DOM.describeNode', { objectId: owner.result.objectId });
          if (node.frameId) childContext = await world(node.frameId);
        } catch {
          childContext = null;
        }
      }
      if (childContext === null) partials.push(null);
      else await visit(childContext, child.frameContext);
    }
  };
  const { frameTree } = await call<{ frameTree: { frame: { id: string } } }>('Page.getFrameTree');
  const top = await world(frameTree.frame.id);
  await visit(top, null);
  const { result, exceptionDetails } = await call<Evaluated<RpcResult<'accessibilityScan'>>>('Runtime.evaluate', {
    expression: `(${AXE_FINISH_SCRIPT})(${JSON.stringify(partials)}, ${scale}, ${ACCESSIBILITY_FINDING_LIMIT})`,
    contextId: top,
    awaitPromise: true,
    returnByValue: true,
  });
  if (exceptionDetails || !result.value) throw failure('axe-core failed', exceptionDetails);
  return result.value;
}
