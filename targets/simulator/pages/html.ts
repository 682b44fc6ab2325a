/**
 * Tiny HTML helpers for the simulator's own pages (OAuth authorization page, connect
 * widget). No external assets: styles and scripts are inline.
 */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** JSON safe to place inside a <script> element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

export function page(title: string, body: string, script = ''): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem}button{margin:.25rem;padding:.5rem 1rem}input{display:block;margin:.25rem 0;padding:.4rem;width:100%}.error{color:#a00}</style>
</head><body>
${body}
${script ? `<script>${script}</script>` : ''}
</body></html>`;
}

export function errorPage(title: string, message: string): string {
  return page(title, `<h1 class="error" data-state="error">${escapeHtml(title)}</h1><p data-message>${escapeHtml(message)}</p>`);
}
