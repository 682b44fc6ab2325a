/**
 * VUs as worker threads (vu-worker.ts), and the engine side of their synchronous HTTP:
 * a VU posts requests on its own MessagePort and blocks; the engine runs them with
 * undici and wakes the VU through a shared Int32Array (Atomics.notify).
 */
import { MessageChannel, Worker } from 'node:worker_threads';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { HttpClient } from './http-client.ts';
import type { MetricDefinition, MetricStore } from './metrics.ts';
import type { RunDone, RunOrder, WireRequest, WireSample } from './wire.ts';
import type { VuHost } from './shims.ts';

let workerFile: Promise<string> | undefined;

/** The worker entry, bundled once per content (workers cannot rely on tsx's loader). */
function workerEntry(): Promise<string> {
  workerFile ??= (async () => {
    const here = dirname(fileURLToPath(import.meta.url));
    const out = await build({ entryPoints: [join(here, 'vu-worker.ts')], bundle: true, write: false, format: 'esm', platform: 'node', target: 'node20', logLevel: 'silent' });
    const code = out.outputFiles[0].text;
    const dir = join(tmpdir(), 'svc-k6-runner');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `vu-worker-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
    if (!existsSync(file)) writeFileSync(file, code);
    return file;
  })();
  return workerFile;
}

export interface PoolContext {
  code: string;
  env: Record<string, string>;
  globalTags: Record<string, string>;
  options: Record<string, unknown>;
  testStartMs: number;
  httpDefaults: VuHost['httpDefaults'];
  batchConcurrency: number;
  store: MetricStore;
  http: HttpClient;
  onDefinitions(defs: MetricDefinition[]): void;
  onSamples(samples: WireSample[]): void;
  onError(vuId: number, text: string): void;
  onAbort(message: string): void;
}

/** How a VU's part of a scenario ended (interrupted: terminated, e.g. after gracefulStop). */
export interface RunResult {
  iterations: number;
  aborted?: string;
  interrupted?: boolean;
}

interface VuMessage {
  kind: string;
  samples?: WireSample[];
  metrics?: MetricDefinition[];
  error?: string;
  aborted?: string;
  json?: string | null;
  iterations?: number;
  interrupted?: boolean;
}

export class Vu {
  busy = false;
  dead = false;
  private pending?: (m: VuMessage) => void;

  private constructor(readonly id: number, private worker: Worker, private ctx: PoolContext) {}

  static async spawn(id: number, ctx: PoolContext, setupJson: string | null | undefined): Promise<Vu> {
    const file = await workerEntry();
    const { port1, port2 } = new MessageChannel();
    const signalBuffer = new SharedArrayBuffer(4);
    const signal = new Int32Array(signalBuffer);
    const worker = new Worker(file, {
      workerData: { code: ctx.code, vuId: id, env: ctx.env, globalTags: ctx.globalTags, options: ctx.options, testStartMs: ctx.testStartMs, httpDefaults: ctx.httpDefaults, httpPort: port2, signal: signalBuffer },
      transferList: [port2],
      // The worker entry is plain bundled JS: do not inherit tsx's loader from the parent.
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    port1.on('message', async function onVuRequests(requests: WireRequest[]) {
      const responses = await ctx.http.executeAll(requests, ctx.batchConcurrency);
      // Bodies are moved, not copied: the VU decodes them only if the script reads them.
      const bodies: ArrayBuffer[] = [];
      for (const r of responses) if (r.raw) bodies.push(r.raw);
      port1.postMessage(responses, bodies);
      Atomics.store(signal, 0, 1);
      Atomics.notify(signal, 0);
    });
    port1.unref();
    const vu = new Vu(id, worker, ctx);
    await new Promise<void>((resolve, reject) => {
      worker.once('error', reject);
      worker.once('message', (m: { kind: string; error?: string; metrics?: MetricDefinition[] }) => {
        if (m.kind === 'initError') return reject(new Error(`init of VU ${id} failed: ${m.error}`));
        ctx.onDefinitions(m.metrics ?? []);
        resolve();
      });
    });
    worker.on('message', function onVuMessage(m: VuMessage) {
      if (m.metrics?.length) ctx.onDefinitions(m.metrics);
      if (m.samples?.length) ctx.onSamples(m.samples);
      if (m.kind === 'samples') return;
      if (m.kind === 'error') {
        ctx.onError(id, m.error!);
        return;
      }
      const p = vu.pending;
      vu.pending = undefined;
      p?.(m);
    });
    worker.on('error', (e) => {
      ctx.onError(id, e.stack ?? String(e));
      vu.dead = true;
      const p = vu.pending;
      vu.pending = undefined;
      p?.({ kind: 'crashed', error: String(e), interrupted: true });
    });
    if (setupJson !== undefined) vu.sendData(setupJson);
    return vu;
  }

  sendData(json: string | null): void {
    this.worker.postMessage({ kind: 'data', json });
  }

  /** Hands the VU its part of a scenario; resolves when its loop ends (RunDone) or it is terminated. */
  run(order: RunOrder): Promise<RunResult> {
    return new Promise((resolve) => {
      this.pending = (m) => {
        if (m.aborted) this.ctx.onAbort(m.aborted);
        resolve({ iterations: (m as Partial<RunDone>).iterations ?? 0, aborted: m.aborted, interrupted: m.interrupted });
      };
      this.worker.postMessage(order);
    });
  }

  lifecycle(stage: 'setup' | 'teardown'): Promise<{ json: string | null; error?: string; aborted?: string }> {
    return new Promise((resolve) => {
      this.pending = (m) => resolve({ json: m.json ?? null, error: m.error, aborted: m.aborted });
      this.worker.postMessage({ kind: 'lifecycle', stage });
    });
  }

  /** Ends the VU; a blocked VU (in a request or a sleep) is interrupted, as k6 interrupts at gracefulStop. */
  async terminate(): Promise<void> {
    this.dead = true;
    const p = this.pending;
    this.pending = undefined;
    p?.({ kind: 'terminated', interrupted: true });
    await this.worker.terminate();
  }
}
