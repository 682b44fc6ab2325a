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
import type { RunOrder, WireRequest, WireSample } from './wire.ts';
import type { VuWorkerData } from './vu-worker.ts';

/** Requests of one http.batch() in flight at once: k6's defaults, batch 20 and batchPerHost 6 (the options are not implemented). */
const BATCH_CONCURRENCY = 6;

let workerFile: Promise<string> | undefined;

/** The worker entry, bundled once per content (workers cannot rely on tsx's loader). */
function workerEntry(): Promise<string> {
  workerFile ??= (async () => {
    const here = dirname(fileURLToPath(import.meta.url));
    const out = await build({
      entryPoints: [join(here, 'vu-worker.ts')],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      logLevel: 'silent',
    });
    const code = out.outputFiles[0].text;
    // Kept across unit-test runs by its name (scripts/run-unit-tests.mjs KEPT_CACHES).
    const dir = join(tmpdir(), 'svc-k6-runner');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `vu-worker-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
    if (!existsSync(file)) writeFileSync(file, code);
    return file;
  })();
  return workerFile;
}

/** What a VU needs from the engine: the script, its environment, and where its output goes. */
export interface VuContext {
  code: string;
  env: Record<string, string>;
  discardResponseBodies: boolean;
  http: HttpClient;
  store: MetricStore;
  onError(vuId: number, text: string): void;
  /** Where a VU's console goes (the run's output, load/runner/engine.ts), not the process's own. */
  stdout(text: string): void;
  stderr(text: string): void;
}

/** How a VU's part of a scenario ended: with the message of exec.test.abort(), if the script called it. */
export interface VuRunResult {
  aborted?: string;
}

interface VuMessage {
  kind: string;
  samples?: WireSample[];
  metrics?: MetricDefinition[];
  error?: string;
  aborted?: string;
  json?: string | null;
}

function storeSamples(store: MetricStore, samples: WireSample[]): void {
  for (const [metric, value, key, tags] of samples) {
    // A VU sends the tags of a key once; a key it sent is always known here.
    store.add(metric, value, store.tagSets.internKeyed(key, tags));
  }
}

export class Vu {
  busy = false;
  dead = false;
  private pending?: (m: VuMessage) => void;

  private constructor(
    readonly id: number,
    private worker: Worker,
  ) {}

  static async spawn(id: number, ctx: VuContext, setupJson: string | null | undefined): Promise<Vu> {
    const file = await workerEntry();
    const { port1, port2 } = new MessageChannel();
    const signalBuffer = new SharedArrayBuffer(4);
    const signal = new Int32Array(signalBuffer);
    const workerData: VuWorkerData = {
      code: ctx.code,
      vuId: id,
      env: ctx.env,
      discardResponseBodies: ctx.discardResponseBodies,
      httpPort: port2,
      signal: signalBuffer,
    };
    const worker = new Worker(file, {
      workerData,
      transferList: [port2],
      // The worker entry is plain bundled JS: do not inherit tsx's loader from the parent.
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: 256 },
      // A script's console.log in a VU (setup included) goes to the run's output: a caller
      // that keeps the output (load/load-run.ts) gets it, instead of the process's stdout.
      stdout: true,
      stderr: true,
    });
    worker.stdout.setEncoding('utf8').on('data', (text: string) => ctx.stdout(text));
    worker.stderr.setEncoding('utf8').on('data', (text: string) => ctx.stderr(text));
    port1.on('message', async function onVuRequests(requests: WireRequest[]) {
      const responses = await ctx.http.executeAll(requests, BATCH_CONCURRENCY);
      // Bodies are moved, not copied: the VU decodes them only if the script reads them.
      const bodies: ArrayBuffer[] = [];
      for (const r of responses) if (r.raw) bodies.push(r.raw);
      port1.postMessage(responses, bodies);
      Atomics.store(signal, 0, 1);
      Atomics.notify(signal, 0);
    });
    port1.unref();
    const vu = new Vu(id, worker);
    await new Promise<void>((resolve, reject) => {
      worker.once('error', reject);
      worker.once('message', (m: { kind: string; error?: string; metrics?: MetricDefinition[] }) => {
        if (m.kind === 'initError') return reject(new Error(`init of VU ${id} failed: ${m.error}`));
        (m.metrics ?? []).forEach((d) => {
          ctx.store.define(d);
        });
        resolve();
      });
    });
    worker.on('message', function onVuMessage(m: VuMessage) {
      m.metrics?.forEach((d) => {
        ctx.store.define(d);
      });
      if (m.samples?.length) storeSamples(ctx.store, m.samples);
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
      p?.({ kind: 'crashed', error: String(e) });
    });
    if (setupJson !== undefined) vu.sendData(setupJson);
    return vu;
  }

  sendData(json: string | null): void {
    this.worker.postMessage({ kind: 'data', json });
  }

  /** Hands the VU its part of a scenario; resolves when its loop ends (RunDone) or it is terminated. */
  run(order: RunOrder): Promise<VuRunResult> {
    return new Promise((resolve) => {
      this.pending = (m) => resolve({ aborted: m.aborted });
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
    p?.({ kind: 'terminated' });
    await this.worker.terminate();
  }
}

/**
 * The test's VUs: k6 initialises them before setup() and lends them to scenarios; a
 * scenario takes idle ones first and the pool starts more when none is idle. The
 * lifecycle VU (id 0) runs setup() and teardown() and is not counted in vus_max.
 */
export class VuPool {
  private nextId = 1;
  private idle: Vu[] = [];
  private all = new Set<Vu>();
  private lifecycleVu: Vu | undefined;
  private closed = false;
  /** setup()'s JSON once it has run: every VU gets it, including VUs started later. */
  private setupJson: string | null | undefined;

  constructor(readonly ctx: VuContext) {}

  /** VUs started so far (k6's vus_max), the lifecycle VU aside. */
  get size(): number {
    return this.all.size;
  }

  async spawn(): Promise<Vu> {
    const vu = await Vu.spawn(this.nextId++, this.ctx, this.setupJson);
    // Finished starting after the run ended: nothing will use it.
    if (this.closed) await vu.terminate();
    else this.all.add(vu);
    return vu;
  }

  /** Starts `n` VUs now (k6's VU initialisation before setup). */
  async prepare(n: number): Promise<void> {
    this.idle.push(...(await Promise.all(Array.from({ length: n }, () => this.spawn()))));
  }

  /** `n` VUs for a scenario: idle ones first, the rest started now. */
  async take(n: number): Promise<Vu[]> {
    const taken = this.idle.splice(Math.max(0, this.idle.length - n));
    taken.push(...(await Promise.all(Array.from({ length: n - taken.length }, () => this.spawn()))));
    return taken;
  }

  /** An idle VU, if there is one. */
  takeIdle(): Vu | undefined {
    return this.idle.pop();
  }

  /** VUs a scenario is done with (terminated ones are dropped). */
  give(vus: Vu[]): void {
    for (const vu of vus) if (!vu.dead) this.idle.push(vu);
  }

  async terminate(vu: Vu): Promise<void> {
    await vu.terminate();
    this.all.delete(vu);
  }

  async lifecycle(stage: 'setup' | 'teardown'): Promise<{ json: string | null; error?: string; aborted?: string }> {
    this.lifecycleVu ??= await Vu.spawn(0, this.ctx, stage === 'setup' ? undefined : this.setupJson);
    return this.lifecycleVu.lifecycle(stage);
  }

  /** Hands setup()'s data (null: no setup) to every VU, before any iteration. */
  shareSetupData(json: string | null): void {
    this.setupJson = json;
    for (const vu of this.all) vu.sendData(json);
    this.lifecycleVu?.sendData(json);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.all, ...(this.lifecycleVu ? [this.lifecycleVu] : [])].map((v) => v.terminate()));
    await this.ctx.http.close();
  }
}
