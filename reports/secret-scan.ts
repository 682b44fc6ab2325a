/**
 * Scans every artifact under a directory for credentials (DESIGN.md, "What it is for": it "leaks
 * nothing"; the API key, client secrets, data-exchange tokens, bearer tokens and Basic
 * credentials never appear in any file under reports/out/).
 *
 * Looks inside what a plain grep would miss: zip archives (Playwright traces, blob
 * reports) and the base64 zip Playwright's HTML report embeds in its index.html.
 * Finds each given secret literally, base64-encoded and percent-encoded, and any
 * `Basic <base64>` / `Bearer <token>` credential that was not redacted.
 */
import AdmZip from 'adm-zip';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface SecretHit {
  file: string;
  /** What was found (never the secret itself): `secret #2 (base64)`, `Basic credential`. */
  what: string;
}

export interface ScanResult {
  artifacts: number;
  bytes: number;
  hits: SecretHit[];
}

/** A credential after its scheme word; `[REDACTED]` and short words (`Basic realm=`) do not count. */
const SCHEME_CREDENTIAL = /\b(Basic|Bearer)\s+([A-Za-z0-9._~+/-]{12,}={0,2})/g;

function needlesOf(secrets: readonly string[]): { label: string; value: string }[] {
  const out: { label: string; value: string }[] = [];
  secrets.forEach((s, i) => {
    out.push({ label: `secret #${i + 1}`, value: s });
    out.push({ label: `secret #${i + 1} (base64)`, value: Buffer.from(s).toString('base64').replace(/=+$/, '') });
    const enc = encodeURIComponent(s);
    if (enc !== s) out.push({ label: `secret #${i + 1} (url-encoded)`, value: enc });
  });
  return out;
}

/**
 * Prose says "Basic authentication"; a credential does not. Basic: the value decodes
 * to printable `user:password`. Bearer: an opaque token has a digit or a symbol.
 */
export function looksLikeCredential(scheme: string, value: string): boolean {
  if (/^basic$/i.test(scheme)) {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    return /^[\x20-\x7e]+:[\x20-\x7e]*$/.test(decoded);
  }
  return /[0-9._~+/-]/.test(value);
}

/** A `Basic <base64>` / `Bearer <token>` credential in the text that was not redacted. */
export function hasUnredactedCredential(text: string): boolean {
  for (const m of text.matchAll(SCHEME_CREDENTIAL)) if (looksLikeCredential(m[1], m[2])) return true;
  return false;
}

function scanText(text: string, file: string, needles: { label: string; value: string }[], hits: SecretHit[]): void {
  for (const n of needles) if (n.value.length >= 4 && text.includes(n.value)) hits.push({ file, what: n.label });
  for (const m of text.matchAll(SCHEME_CREDENTIAL)) if (looksLikeCredential(m[1], m[2])) hits.push({ file, what: `${m[1]} credential not redacted` });
}

function scanBuffer(buf: Buffer, name: string, needles: { label: string; value: string }[], hits: SecretHit[], count: () => void): void {
  count();
  if (buf.length >= 4 && buf.readUInt32LE(0) === 0x04034b50) {
    // A zip archive: scan every entry. One that cannot be opened cannot be shown clean: it
    // is reported, and its bytes are still searched as they are.
    let entries;
    try {
      entries = new AdmZip(buf).getEntries();
    } catch (e) {
      hits.push({ file: name, what: `an archive that could not be opened (${(e as Error).message}), so not scanned inside` });
      scanText(buf.toString('latin1'), name, needles, hits);
      return;
    }
    for (const entry of entries) {
      if (!entry.isDirectory) scanBuffer(entry.getData(), `${name}!${entry.entryName}`, needles, hits, count);
    }
    return;
  }
  const text = buf.toString('utf8');
  scanText(text, name, needles, hits);
  // Playwright's HTML report: the whole report is a base64 zip inside index.html.
  for (const m of text.matchAll(/data:application\/zip;base64,([A-Za-z0-9+/=]+)/g)) {
    scanBuffer(Buffer.from(m[1], 'base64'), `${name}#embedded.zip`, needles, hits, count);
  }
}

export function scanForSecrets(dir: string, secrets: readonly string[]): ScanResult {
  const needles = needlesOf(secrets.filter((s) => s && s.length >= 4));
  const result: ScanResult = { artifacts: 0, bytes: 0, hits: [] };
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const s = statSync(p);
      if (s.isDirectory()) walk(p);
      else {
        result.bytes += s.size;
        scanBuffer(readFileSync(p), relative(dir, p), needles, result.hits, () => result.artifacts++);
      }
    }
  };
  walk(dir);
  return result;
}
