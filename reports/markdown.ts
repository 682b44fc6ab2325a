/**
 * The reports' Markdown: how a writer puts a text into a table cell or a list item, and how
 * a report's Markdown becomes one HTML page. Every report that puts a target's own words
 * (a field's value, an error's message, a path) or a user's file name into Markdown writes
 * it through here, so those words are shown as they are: never a code span, emphasis, a
 * link, an entity or a new table row that the words happened to spell.
 */
import MarkdownIt from 'markdown-it';

/** Text as HTML text or an attribute's value. */
export const htmlText = (s: unknown): string =>
  String(s ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

/** Text for an XML attribute or element (the JUnit files): the five markup characters escaped, the control characters XML 1.0 forbids dropped. */
export const xmlText = (s: string): string =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

/**
 * A line ending of any kind: CommonMark counts a lone CR as one (it would end a table's row),
 * and NEL and Unicode's line and paragraph separators read as breaks (markdown-it counts
 * them as whitespace, where a code span's padding is decided).
 */
const LINE_ENDINGS = /\r\n|[\r\n\u0085\u2028\u2029]/g;

/**
 * Plain text for a table cell or a list item, shown as written and as readable in the raw
 * file as the text allows. Escaped: what opens a code span, emphasis, strikethrough, raw
 * HTML or an autolink, or ends a cell (backtick, `*`, `~`, `<`, `>`, the pipe); a bracket
 * that would close a link (`](`, `][`); `&` where it would spell an entity; a backslash
 * before punctuation or at the end; an underscore that could open emphasis (after a letter
 * or digit it cannot: `account_guid` stays as it is); a leading block marker (`-`, `+`, `[`,
 * `# `, `1. `), so a list item stays one item (`- --` would be a rule). Line endings become
 * spaces and the ends are trimmed, as a cell's are.
 */
export function markdownText(s: string | undefined): string {
  const text = (s ?? '')
    .replace(LINE_ENDINGS, ' ')
    .trim()
    .replace(/\\(?=[!-/:-@[-`{-~]|$)/g, '\\\\')
    .replace(/[`*~<>|]/g, '\\$&')
    .replace(/&(?=#?[A-Za-z0-9]+;)/g, '\\&')
    .replace(/\](?=[([])/g, '\\]')
    .replace(/(?<![\p{L}\p{N}])_/gu, '\\_');
  return text.replace(/^[+[-]|^#(?=#{0,5}(?:[ \t]|$))/, '\\$&').replace(/^(\d{1,9})([.)])(?=[ \t]|$)/, '$1\\$2');
}

/**
 * Text as a code span, shown as written: its fence is one backtick longer than the longest
 * run of backticks inside, padded with a space where the text starts or ends with a
 * backtick or a space (the renderer strips one such space from each end; markdown-it does
 * so even for a span of spaces only, which CommonMark would keep: such a value shows two
 * spaces more on GitHub). `where` says where the span stands: in a table cell a pipe is
 * escaped (the table's escape, which also reaches into code spans); elsewhere a code span
 * shows a backslash as it is, so nothing is escaped.
 */
export function markdownCode(s: string | undefined, where: 'table' | 'text' = 'table'): string {
  let text = (s ?? '').replace(LINE_ENDINGS, ' ');
  if (!text) return '';
  if (where === 'table') text = text.replace(/\|/g, '\\|');
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = /^[` ]|[` ]$/.test(text) ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/**
 * Markdown as HTML, by markdown-it: raw HTML in the text is shown as text, never markup; a
 * line break in the Markdown is one on the page, as the writers lay out their lines.
 */
const markdown = new MarkdownIt({ html: false, linkify: false, breaks: true });

/** A report's Markdown (the nightly summary, the integration's and tolerance reports, the version report) as one HTML page. */
export function markdownToHtml(md: string, title: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${htmlText(title)}</title><style>
body{font:14px/1.45 system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f3f3f3}code{background:#f3f3f3;padding:0 3px}h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.5em}
</style></head><body>${markdown.render(md)}</body></html>\n`;
}
