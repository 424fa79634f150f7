import { describe, expect, it } from 'vitest';
import { decodeXmlText, readPluginDescriptor } from './descriptor';
import type { DescriptorReading } from './descriptor';

const NOW = new Date('2026-11-21T00:00:00Z');
const DESCRIPTION =
  '<description>Shows the time spent in each file of the project, per day and per branch.</description>';

function descriptorXml(body: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<idea-plugin>${body}</idea-plugin>`;
}

const COMPLETE =
  '<id>com.example.clock</id><name>Project Clock</name><version>1.0.0</version>' +
  '<vendor>Example</vendor>' +
  DESCRIPTION +
  '<idea-version since-build="241"/>';

function read(xml: string | Uint8Array): DescriptorReading {
  return readPluginDescriptor(typeof xml === 'string' ? Buffer.from(xml) : xml, NOW);
}

function errorsOf(reading: DescriptorReading): string[] {
  return reading.ok ? [] : reading.errors;
}

describe('readPluginDescriptor', () => {
  it('reads a minimal descriptor, with empty optional parts as null', () => {
    expect(read(descriptorXml(COMPLETE))).toEqual({
      ok: true,
      warnings: [],
      descriptor: {
        id: 'com.example.clock',
        name: 'Project Clock',
        version: '1.0.0',
        vendor: { name: 'Example', email: null, url: null },
        description: 'Shows the time spent in each file of the project, per day and per branch.',
        changeNotes: null,
        sinceBuild: '241',
        untilBuild: null,
        dependencies: [],
        productDescriptor: null,
      },
    });
  });

  it('reads the product descriptor of a paid plugin, and refuses a malformed one with what to write', () => {
    const paid = read(
      descriptorXml(
        COMPLETE +
          '<product-descriptor code="PCLOCK" release-date="20260115" release-version="20261" optional="true"/>',
      ),
    );
    expect(paid.ok && paid.descriptor.productDescriptor).toEqual({
      code: 'PCLOCK',
      releaseDate: '2026-01-15',
      releaseVersion: 20261,
      optional: true,
    });
    const malformed = read(
      descriptorXml(
        COMPLETE + '<product-descriptor code="clock" release-date="2026-02-30" release-version="x"/>',
      ),
    );
    expect(malformed.ok).toBe(false);
    expect(!malformed.ok && malformed.errors).toEqual([
      expect.stringContaining('<product-descriptor code="clock"> is not a product code'),
      expect.stringContaining('release-date="2026-02-30"> is not a date written YYYYMMDD'),
      expect.stringContaining('release-version="x"> is not a release number'),
    ]);
    const impossibleDay = read(
      descriptorXml(
        COMPLETE + '<product-descriptor code="PCLOCK" release-date="20260230" release-version="1"/>',
      ),
    );
    expect(impossibleDay.ok).toBe(false);
  });

  it('decodes the predefined entities and character references, and keeps CDATA verbatim', () => {
    const reading = read(
      descriptorXml(
        COMPLETE.replace('Project Clock', 'Clock &amp; Timer &#x263A; &#9731; &lt;beta&gt;').replace(
          '<vendor>Example</vendor>',
          '<vendor url="https://example.com/?a=1&amp;b=2">A &quot;B&quot; &apos;C&apos;</vendor>',
        ) + '<change-notes>Fixed &amp; <![CDATA[<b>&amp; stays</b>]]></change-notes>',
      ),
    );
    expect(reading.ok && reading.descriptor.name).toBe('Clock & Timer ☺ ☃ <beta>');
    expect(reading.ok && reading.descriptor.vendor).toEqual({
      name: 'A "B" \'C\'',
      email: null,
      url: 'https://example.com/?a=1&b=2',
    });
    expect(reading.ok && reading.descriptor.changeNotes).toBe('Fixed & <b>&amp; stays</b>');
  });

  it('reads both kinds of dependency', () => {
    const reading = read(
      descriptorXml(
        COMPLETE +
          '<depends>com.intellij.modules.java</depends><depends optional="true" config-file="git.xml">Git4Idea</depends>' +
          '<dependencies><plugin id="org.jetbrains.plugins.yaml"/><module name="intellij.platform.vcs"/></dependencies>',
      ),
    );
    expect(reading.ok && reading.descriptor.dependencies).toEqual([
      { id: 'com.intellij.modules.java', optional: false, configFile: null },
      { id: 'Git4Idea', optional: true, configFile: 'git.xml' },
      { id: 'org.jetbrains.plugins.yaml', optional: false, configFile: null },
    ]);
  });

  it('lists every missing required element at once', () => {
    expect(errorsOf(read(descriptorXml('<id>com.example.clock</id>')))).toEqual([
      'plugin.xml does not declare <name>: add <name>, the name people see in the marketplace and the IDE.',
      'plugin.xml does not declare <version>: add <version>, for example <version>1.0.0</version>.',
      'plugin.xml does not declare <vendor>: add <vendor email="..." url="...">Your name or company</vendor>.',
      'plugin.xml does not declare <description>: add <description> with HTML that tells people what it does.',
      'plugin.xml does not declare since-build: add <idea-version since-build="..."/> with the oldest IDE build the plugin supports, for example since-build="241".',
    ]);
    expect(errorsOf(read(descriptorXml('')))).toHaveLength(6);
  });

  it.each([
    ['<!DOCTYPE idea-plugin SYSTEM "http://example.com/x.dtd">', /<!DOCTYPE> or <!ENTITY> declaration/],
    ['<!-- <!ENTITY x "y"> -->', /<!DOCTYPE> or <!ENTITY> declaration/],
  ])('refuses document type declarations outright: %s', (prefix, message) => {
    expect(errorsOf(read(prefix + descriptorXml(COMPLETE)))[0]).toMatch(message);
  });

  it('points at the line of a well-formedness error', () => {
    expect(errorsOf(read('<idea-plugin>\n  <id>x</name>\n</idea-plugin>'))).toEqual([
      "plugin.xml is not well-formed XML: Expected closing tag 'id' (opened in line 2, col 3) instead of closing tag 'name' (line 2, column 8).",
    ]);
  });

  it('asks for the <idea-plugin> root', () => {
    expect(errorsOf(read('<plugin><id>x</id></plugin>'))).toEqual([
      'plugin.xml has no <idea-plugin> root element: a plugin descriptor starts with <idea-plugin>.',
    ]);
  });

  it('refuses repeated, malformed and overlong values', () => {
    expect(errorsOf(read(descriptorXml(COMPLETE + '<version>2.0</version>')))).toEqual([
      'plugin.xml declares <version> 2 times; declare it once.',
    ]);
    expect(errorsOf(read(descriptorXml(COMPLETE.replace('com.example.clock', 'com/example'))))).toEqual([
      "The plugin id 'com/example' may contain only letters, digits, '.', '_', '-', '+' and spaces.",
    ]);
    expect(errorsOf(read(descriptorXml(COMPLETE.replace('1.0.0', '1.0 beta'))))).toEqual([
      "The version '1.0 beta' must not contain spaces, slashes, quotes or angle brackets.",
    ]);
    expect(errorsOf(read(descriptorXml(COMPLETE.replace('Project Clock', 'n'.repeat(256)))))).toEqual([
      'The name is 256 characters long; at most 255 are allowed.',
    ]);
    expect(errorsOf(read(descriptorXml(COMPLETE + '<depends> </depends>')))).toEqual([
      'plugin.xml has an empty <depends> element: name the plugin or module depended upon.',
    ]);
  });

  it('warns about a short description and a vendor url that is not a web address', () => {
    const reading = read(
      descriptorXml(
        COMPLETE.replace(DESCRIPTION, '<description><![CDATA[<p>A clock.</p>]]></description>').replace(
          '<vendor>',
          '<vendor url="javascript:alert(document.cookie)">',
        ),
      ),
    );
    expect(reading.ok).toBe(true);
    expect(reading.ok && reading.descriptor.vendor.url).toBeNull();
    expect(reading.warnings).toEqual([
      "The vendor url 'javascript:alert(document.cookie)' is not a web address, so it was left out.",
      'The description is 8 characters long; at least 40 tell people what the plugin does.',
    ]);
  });

  it('honours byte-order marks and declared encodings, and refuses bytes that are not text', () => {
    const latin1 = Buffer.from(
      descriptorXml(COMPLETE.replace('Example', 'Société Générale')).replace('UTF-8', 'ISO-8859-1'),
      'latin1',
    );
    expect(
      read(latin1).ok &&
        (read(latin1) as { descriptor: { vendor: { name: string } } }).descriptor.vendor.name,
    ).toBe('Société Générale');
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from(descriptorXml(COMPLETE).replace('UTF-8', 'UTF-16'), 'utf16le'),
    ]);
    expect(read(utf16).ok).toBe(true);
    expect(errorsOf(read(Buffer.from([0x3c, 0x61, 0xff, 0xfe, 0x3e])))).toEqual([
      'plugin.xml is not valid utf-8 text; save it as UTF-8.',
    ]);
    expect(errorsOf(read(descriptorXml(COMPLETE).replace('UTF-8', 'x-klingon')))).toEqual([
      "plugin.xml declares the encoding 'x-klingon', which is not supported; save it as UTF-8.",
    ]);
  });

  it('survives absurdly deep nesting', () => {
    const deep = '<a>'.repeat(50_000) + '</a>'.repeat(50_000);
    const reading = read(descriptorXml(COMPLETE + `<extensions>${deep}</extensions>`));
    expect(reading.ok || reading.errors.length > 0).toBe(true);
  });
});

describe('decodeXmlText', () => {
  it('leaves unknown entities and out-of-range references as written', () => {
    expect(decodeXmlText('&nbsp; &#0; &#x110000; &amp;amp;')).toBe('&nbsp; &#0; &#x110000; &amp;');
  });
});
