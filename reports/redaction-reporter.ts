/**
 * Playwright reporter that removes the run's secrets from everything the other reporters
 * write (Developers' guide, Standards: "no credential or test password in any artefact").
 * It must come FIRST in the reporter list (playwright.config.ts).
 *
 * Why first, and why synchronously: Playwright 1.65's reporter multiplexer calls each
 * reporter's onStepBegin, onStepEnd and onTestEnd in list order, without awaiting them,
 * and onEnd in list order, awaiting each. What the others keep is what they read then:
 *   - allure-playwright names its steps at onStepBegin, records step errors at
 *     onStepEnd, and copies the attachment files (the trace zip among them) at
 *     onTestEnd, into allure-results;
 *   - the HTML, JUnit and JSON reporters read step titles, errors, annotations, stdout
 *     and attachment bodies from the result objects at onEnd, and the HTML reporter
 *     copies attachment files into its data/ folder then;
 *   - the list reporter prints a failure's errors at onTestEnd.
 * So this reporter rewrites the step objects at onStepBegin/onStepEnd and the result,
 * and the attachment FILES (trace zips entry by entry, error-context.md), synchronously
 * in onTestEnd, before any other reporter runs for that test; each copy the others make
 * is then a copy of the redacted file. At onEnd it passes over each project's output
 * folder once more, for files a test wrote without attaching them.
 *
 * The secrets are the profile's (targets/profiles/profile.ts profileSecrets: the API key,
 * the audience secret, the Basic pairs, the test institution's passwords and answer
 * word), plus those of each project that reads its target from its own environment
 * (the `targetEnv` option, proof/playwright.runs.config.ts). Tokens learned at run time
 * never reach this process: the checked client redacts them where it attaches them.
 *
 * Not covered: a reporter given on the command line (`--reporter`) replaces this list;
 * its artefacts can be redacted afterwards with redactArtefacts (reports/artefact-redaction.ts).
 * Text a test prints to stdout is shown live by the list reporter before any test end.
 */
import { resolve } from 'node:path';
import type { FullConfig, Reporter, Suite, TestCase, TestError, TestResult, TestStep } from '@playwright/test/reporter';
import { loadProfile, profileSecrets } from '../targets/index.ts';
import { createArtefactRedactor, redactArtefacts, type ArtefactRedactor } from './artefact-redaction.ts';

type Attachment = TestResult['attachments'][number];
/** The step object the runner builds also carries the call's parameters (not in the public type). */
type RunnerStep = TestStep & { subtitle?: string; params?: Record<string, unknown> };

const TEXT_CONTENT = /^(text\/|application\/(json|xml|x-ndjson|javascript)|[^;]*\+(json|xml))/i;

export interface RedactionReporterOptions {
  /** The environment the run's profile is read from; default the process's. */
  targetEnv?: Record<string, string | undefined>;
}

export default class RedactionReporter implements Reporter {
  private secrets: string[];
  private redactor: ArtefactRedactor;
  private outputDirs: string[] = [];
  /** Attachments already redacted at their step's end (the same objects reach onTestEnd). */
  private readonly redacted = new WeakSet<Attachment>();
  private readonly wrapped = new WeakSet<TestStep>();
  /** Attachment files already redacted, skipped by the pass over the output folders. */
  private readonly files = new Set<string>();

  constructor(options: RedactionReporterOptions = {}) {
    this.secrets = profileSecrets(loadProfile(options.targetEnv ?? process.env));
    this.redactor = createArtefactRedactor(this.secrets);
  }

  printsToStdio(): boolean {
    return false;
  }

  onBegin(config: FullConfig, _suite: Suite): void {
    const own = config.projects.flatMap((p) => {
      const env = (p.use as { targetEnv?: Record<string, string> }).targetEnv;
      return env ? profileSecrets(loadProfile(env)) : [];
    });
    if (own.length) {
      this.secrets = [...new Set([...this.secrets, ...own])];
      this.redactor = createArtefactRedactor(this.secrets);
    }
    this.outputDirs = [...new Set(config.projects.map((p) => p.outputDir))];
  }

  onError(error: TestError): void {
    this.error(error);
  }

  onStepBegin(_test: TestCase, _result: TestResult, step: TestStep): void {
    this.step(step as RunnerStep);
  }

  onStepEnd(_test: TestCase, _result: TestResult, step: TestStep): void {
    this.step(step as RunnerStep);
    if (step.error) this.error(step.error);
    for (const a of step.attachments) this.attachment(a);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    for (const e of result.errors) this.error(e);
    if (result.error && !result.errors.includes(result.error)) this.error(result.error);
    const walk = (steps: TestStep[]) => {
      for (const s of steps) {
        this.step(s as RunnerStep);
        if (s.error) this.error(s.error);
        walk(s.steps);
      }
    };
    walk(result.steps);
    for (const a of [...result.annotations, ...test.annotations]) if (a.description) a.description = this.redactor.text(a.description);
    for (const a of result.attachments) this.attachment(a);
    for (const stream of [result.stdout, result.stderr]) {
      stream.forEach((chunk, i) => {
        stream[i] = typeof chunk === 'string' ? this.redactor.text(chunk) : (this.redactor.buffer(chunk) ?? chunk);
      });
    }
  }

  async onEnd(): Promise<void> {
    for (const dir of this.outputDirs) redactArtefacts(dir, this.redactor, this.files);
  }

  private step(step: RunnerStep): void {
    const text = (s: string) => this.redactor.text(s);
    step.title = text(step.title);
    if (typeof step.subtitle === 'string') step.subtitle = text(step.subtitle);
    if (!this.wrapped.has(step)) {
      this.wrapped.add(step);
      const titlePath = step.titlePath.bind(step);
      step.titlePath = () => titlePath().map(text);
    }
    if (step.params) step.params = JSON.parse(text(JSON.stringify(step.params))) as Record<string, unknown>;
  }

  private error(error: TestError): void {
    const e = error as Record<string, unknown>;
    for (const [key, value] of Object.entries(e)) {
      if (typeof value === 'string') e[key] = this.redactor.text(value);
      else if (key === 'cause' && value && typeof value === 'object') this.error(value as TestError);
    }
  }

  private attachment(a: Attachment): void {
    if (this.redacted.has(a)) return;
    this.redacted.add(a);
    if (a.path) {
      this.redactor.file(a.path);
      this.files.add(resolve(a.path));
    }
    if (a.body) {
      const body = Buffer.isBuffer(a.body) ? a.body : Buffer.from(a.body);
      const redacted = TEXT_CONTENT.test(a.contentType) ? Buffer.from(this.redactor.text(body.toString('utf8'))) : this.redactor.buffer(body);
      if (redacted) a.body = redacted;
    }
  }
}
