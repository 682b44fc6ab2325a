/**
 * Redaction of the files a run leaves behind (Developers' guide, Standards: "no credential
 * or test password in any artefact").
 *
 * Some artefacts cannot avoid holding a secret when they are written: a Playwright trace
 * records the network body of the widget's credentials POST and, in its DOM snapshots,
 * the value of every input (the password field included); a failing test's
 * error-context.md holds a page snapshot. These are rewritten here, after the fact:
 *
 *   - a zip archive (a trace, a blob report) is opened and every entry redacted, zips
 *     inside zips included, then written back;
 *   - a text file (no NUL byte) goes through the project's redactor
 *     (targets/profiles/redact.ts): known secret values in every encoding it knows,
 *     `Basic …` / `Bearer …` credentials, credentials in query strings;
 *   - a binary file (an image, a font) keeps its layout: each known secret value found in
 *     its bytes is overwritten with as many `*`. A screenshot shows a password field as
 *     dots, never its value, so pixels are not searched.
 *
 * A file or entry that holds no known secret and no unredacted credential is left as it
 * is, byte for byte: the pass costs a read, never a rewrite, on a clean run.
 */
import AdmZip from 'adm-zip';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createRedactor } from '../targets/index.ts';
import { hasUnredactedCredential } from './secret-scan.ts';

export interface ArtefactRedactor {
  /** A text with every secret removed (step titles, error messages, annotations). */
  text(value: string): string;
  /** The content with every secret removed, or undefined when it holds none. */
  buffer(content: Buffer): Buffer | undefined;
  /** Rewrites the file in place, synchronously, when it holds a secret; true when it did. */
  file(path: string): boolean;
}

const ZIP_MAGIC = 0x04034b50;
/** Shorter values would match ordinary words (the redactor ignores them too). */
const MIN_SECRET_LENGTH = 4;

function isZip(content: Buffer): boolean {
  return content.length >= 4 && content.readUInt32LE(0) === ZIP_MAGIC;
}

/** Every form a secret takes in a file: as is, base64 (Basic credentials, binary bodies), percent- and JSON-escaped. */
function formsOf(secret: string): string[] {
  return [secret, Buffer.from(secret).toString('base64').replace(/=+$/, ''), encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)];
}

/**
 * @param secrets the run's credential values, e.g. `profileSecrets(profile)`; values
 *   shorter than 4 characters are ignored.
 */
export function createArtefactRedactor(secrets: readonly (string | undefined)[]): ArtefactRedactor {
  const values = [...new Set(secrets.filter((s): s is string => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH))];
  const forms = [...new Set(values.flatMap(formsOf))].filter((f) => f.length >= MIN_SECRET_LENGTH);
  const redactor = createRedactor(forms);
  const needles = forms.map((f) => Buffer.from(f)).sort((a, b) => b.length - a.length);
  const holdsSecret = (content: Buffer) => needles.some((n) => content.includes(n));

  /** Overwrites every needle with as many `*`, in place. */
  const mask = (content: Buffer): Buffer => {
    for (const n of needles) {
      for (let at = content.indexOf(n); at !== -1; at = content.indexOf(n, at + n.length)) content.fill(0x2a, at, at + n.length);
    }
    return content;
  };

  const buffer = (content: Buffer): Buffer | undefined => {
    if (isZip(content)) {
      let zip: AdmZip;
      try {
        zip = new AdmZip(content);
      } catch {
        // Not a readable archive after all: treat it as any binary file.
        return holdsSecret(content) ? mask(Buffer.from(content)) : undefined;
      }
      let changed = false;
      for (const entry of zip.getEntries()) {
        if (entry.isDirectory) continue;
        const redacted = buffer(entry.getData());
        if (redacted) {
          zip.updateFile(entry, redacted);
          changed = true;
        }
      }
      return changed ? zip.toBuffer() : undefined;
    }
    if (content.includes(0)) return holdsSecret(content) ? mask(Buffer.from(content)) : undefined;
    const text = content.toString('utf8');
    if (!holdsSecret(content) && !hasUnredactedCredential(text)) return undefined;
    // A secret split by an encoding the redactor does not know still loses its bytes.
    return mask(Buffer.from(redactor.text(text)));
  };

  const file = (path: string): boolean => {
    let content: Buffer;
    try {
      content = readFileSync(path);
    } catch {
      return false; // an attachment whose file is gone (a trace Playwright removed)
    }
    const redacted = buffer(content);
    if (!redacted) return false;
    writeFileSync(path, redacted);
    return true;
  };

  return { text: (value) => redactor.text(value), buffer, file };
}

export interface ArtefactPass {
  /** Files read. */
  files: number;
  /** Files rewritten, because they held a secret. */
  rewritten: string[];
}

/**
 * Redacts every file under a folder in place (a run's output folder, an HTML report, an
 * allure-results folder): the pass for artefacts no reporter saw, e.g. a run whose
 * reporters were replaced on the command line. Files in `done` (absolute paths already
 * redacted) are skipped. A missing folder is an empty pass.
 */
export function redactArtefacts(dir: string, secrets: readonly (string | undefined)[] | ArtefactRedactor, done: ReadonlySet<string> = new Set()): ArtefactPass {
  const redactor = Array.isArray(secrets) ? createArtefactRedactor(secrets) : (secrets as ArtefactRedactor);
  const pass: ArtefactPass = { files: 0, rewritten: [] };
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (!done.has(p)) {
        pass.files++;
        if (redactor.file(p)) pass.rewritten.push(p);
      }
    }
  };
  if (existsSync(dir)) walk(resolve(dir));
  return pass;
}
