import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { InlineStyleSheets } from './inline-styles';
import { renderPageHead } from './page-head';

describe('the head of a server-rendered page', () => {
  it('escapes what an item says, in attributes and in its JSON-LD', () => {
    const name = `Tom & Jerry's </script><script>alert(1)</script> "Pro"`;
    const head = renderPageHead(
      {
        title: name,
        description: `<b>bold</b> & "quoted"`,
        path: '/plugin/7-tom-jerry',
        image: { url: 'https://cdn.example/theme.png', width: 382, height: 213, alt: name },
        structuredData: { '@type': 'SoftwareApplication', name },
      },
      { publicUrl: 'https://plugins.example.com/', requestUrl: '/plugin/7-old-name' },
    );
    expect(head).toContain(
      '<title>Tom &#38; Jerry&#39;s &#60;/script&#62;&#60;script&#62;alert(1)&#60;/script&#62; &#34;Pro&#34; | Marketplace</title>',
    );
    expect(head).toContain('<link rel="canonical" href="https://plugins.example.com/plugin/7-tom-jerry">');
    expect(head).toContain('<meta name="twitter:card" content="summary_large_image">');
    expect(head).toContain('<meta property="og:image:width" content="382">');
    // The only script element is the JSON-LD, and nothing in it can end it.
    expect(head.match(/<script/g)).toHaveLength(1);
    expect(head.match(/<\/script>/g)).toHaveLength(1);
    const json = /<script type="application\/ld\+json">(.*)<\/script>/.exec(head)?.[1] ?? '';
    expect(JSON.parse(json)).toEqual({ '@type': 'SoftwareApplication', name });
  });

  it('gives a not-found page no canonical address and asks not to index it', () => {
    const head = renderPageHead(
      { title: 'Page not found', status: 404 },
      { publicUrl: 'https://plugins.example.com', requestUrl: '/plugin/9-gone' },
    );
    expect(head).toContain('<meta name="robots" content="noindex">');
    expect(head).not.toContain('canonical');
    expect(head).toContain(
      '<meta name="description" content="Plugins, themes, courses and apps for your IDE.">',
    );
  });
});

describe('the style attributes of server-rendered markup', () => {
  it('moves them to data attributes with a stylesheet, and never repeats a value that could break out', () => {
    const sheets = new InlineStyleSheets();
    const { html, sheet } = sheets.extract(
      '<div><span class="a" style="width:50%">x</span><p>a style="width:1%" in text</p>' +
        '<i style="color:red}body{display:none">y</i><b style="background-image:linear-gradient(135deg, #123 0%, #456 100%)"></b></div>',
    );
    expect(html).not.toMatch(/<[a-z][^<>]* style="/);
    expect(html).toContain('<span class="a" data-mp-style="width:50%">');
    // Text is text: only start tags are touched.
    expect(html).toContain('<p>a style="width:1%" in text</p>');
    const css = sheets.get(sheet!.replace(/^.*\/|\.css$/g, ''));
    expect(css).toContain('[data-mp-style="width:50%"]{width:50% !important}');
    expect(css).toContain(
      '[data-mp-style="background-image:linear-gradient(135deg, #123 0%, #456 100%)"]{background-image:linear-gradient(135deg, #123 0%, #456 100%) !important}',
    );
    expect(css).not.toContain('display:none');
    expect(sheets.extract('<p>plain</p>').sheet).toBeUndefined();
  });

  it('serves a sheet from its name alone, on any node and after a restart, and nothing from a made-up name', () => {
    const { sheet } = new InlineStyleSheets().extract('<span style="width:42%"></span>');
    const name = sheet!.replace(/^.*\/|\.css$/g, '');
    // Another process that never drew the page.
    expect(new InlineStyleSheets().get(name)).toBe('[data-mp-style="width:42%"]{width:42% !important}\n');
    const other = new InlineStyleSheets();
    expect(other.get('not-a-sheet')).toBeUndefined();
    const packed = (value: unknown) => deflateRawSync(JSON.stringify(value)).toString('base64url');
    // Values that could break out of the rule, and a name that unpacks to megabytes, are refused.
    expect(other.get(packed(['color:red}body{display:none']))).toBeUndefined();
    expect(other.get(deflateRawSync(Buffer.alloc(5_000_000, 32)).toString('base64url'))).toBeUndefined();
  });
});
