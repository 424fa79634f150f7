import { describe, expect, it } from 'vitest';
import { urlSuffixOf } from '../../src/publishing/media-routes';
import { renderMarkdown, sanitizeDocumentHtml, sanitizeSvg } from '../../src/publishing/sanitize';

describe('sanitising what developers upload', () => {
  it('keeps an SVG drawing and drops scripts, handlers, foreign content and outside references', () => {
    const svg = `<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 16 16">
  <defs><linearGradient id="g"><stop offset="0" stop-color="#167dff"/></linearGradient></defs>
  <script>fetch('/steal')</script>
  <foreignObject><iframe src="https://evil.example"></iframe></foreignObject>
  <rect width="16" height="16" fill="url(#g)" onclick="alert(1)"/>
  <use xlink:href="https://evil.example/sprite.svg#x"/>
  <circle r="4" style="fill:url(https://evil.example/track)"/>
  <a href="javascript:alert(1)"><path d="M0 0h4"/></a>
</svg>`;
    const cleaned = sanitizeSvg(svg);
    expect(cleaned).toContain(
      '<linearGradient id="g"><stop offset="0" stop-color="#167dff"></stop></linearGradient>',
    );
    expect(cleaned).toContain('<rect width="16" height="16" fill="url(#g)"></rect>');
    expect(cleaned).toContain('viewBox="0 0 16 16"');
    for (const hostile of [
      'script',
      'foreignObject',
      'iframe',
      'onclick',
      'evil.example',
      'javascript',
      'style',
    ]) {
      expect(cleaned).not.toContain(hostile);
    }
  });

  it('refuses SVG with a document type, and text that is not SVG', () => {
    expect(
      sanitizeSvg('<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg>&x;</svg>'),
    ).toBeUndefined();
    expect(sanitizeSvg('<html><body>hello</body></html>')).toBeUndefined();
  });

  it('renders Markdown and keeps HTML formatting, links and images without scripts or handlers', () => {
    expect(
      renderMarkdown('## Usage\n\n[Docs](https://example.com) <img src="https://x/y.png" onerror="a()">'),
    ).toBe(
      '<h2>Usage</h2>\n<p><a href="https://example.com" rel="nofollow noopener noreferrer">Docs</a> <img src="https://x/y.png" /></p>\n',
    );
    expect(
      sanitizeDocumentHtml('<p style="x">a<iframe src="//evil"></iframe><a href="javascript:x()">b</a></p>'),
    ).toBe('<p>a<a rel="nofollow noopener noreferrer">b</a></p>');
  });

  it('makes URL suffixes of documentation tabs from their paths', () => {
    expect(urlSuffixOf('Getting Started.md')).toBe('getting-started');
    expect(urlSuffixOf('../../etc/passwd')).toBe('etc-passwd');
    expect(urlSuffixOf('Über Café.html')).toBe('uber-cafe');
  });
});
