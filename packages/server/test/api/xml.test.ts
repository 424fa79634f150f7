import { describe, expect, it } from 'vitest';
import { cdata, escapeXml, stripInvalidXmlCharacters, XmlWriter } from '../../src/routes/ide/xml';

describe('the feed XML writer', () => {
  it('escapes markup in text and attributes', () => {
    expect(escapeXml(`Tom & "Jerry" <b>'s</b>`)).toBe(
      'Tom &amp; &quot;Jerry&quot; &lt;b&gt;&apos;s&lt;/b&gt;',
    );
    expect(escapeXml('plain 1.0')).toBe('plain 1.0');
    const xml = new XmlWriter().text('name', 'A <b>', { url: 'https://x.example/?a=1&b="2"' }).toString();
    expect(xml).toContain('<name url="https://x.example/?a=1&amp;b=&quot;2&quot;">A &lt;b&gt;</name>');
  });

  it('keeps HTML in CDATA without letting "]]>" close it', () => {
    expect(cdata('<p>a ]]> b</p>')).toBe('<![CDATA[<p>a ]]]]><![CDATA[> b</p>]]>');
  });

  it('drops characters XML cannot carry, which would make the IDE reject the whole feed', () => {
    expect(stripInvalidXmlCharacters('a\u0000b\u0007c\td\ufffee')).toBe('abc\tde');
    expect(new XmlWriter().text('name', 'x\u0001y').toString()).toContain('<name>xy</name>');
  });
});
