import { describe, expect, it } from 'vitest';
import { apiPaths, buildQuery, encodeMultipart, parseLinkHeader } from '../src';

const BASE = 'https://plugins.example/api/comments?pluginId=1';

describe('parseLinkHeader', () => {
  it('reads the four page relations and resolves paths against the answer’s address', () => {
    const header =
      '</api/comments?pluginId=1&page=1&size=20>; rel="first", </api/comments?pluginId=1&page=3&size=20>; rel="next", ' +
      '</api/comments?pluginId=1&page=1&size=20>; rel="prev", </api/comments?pluginId=1&page=9&size=20>; rel="last"';
    expect(parseLinkHeader(header, BASE)).toEqual({
      first: 'https://plugins.example/api/comments?pluginId=1&page=1&size=20',
      next: 'https://plugins.example/api/comments?pluginId=1&page=3&size=20',
      prev: 'https://plugins.example/api/comments?pluginId=1&page=1&size=20',
      last: 'https://plugins.example/api/comments?pluginId=1&page=9&size=20',
    });
  });

  it('accepts unquoted and multiple relations, commas inside targets, and the long name of prev', () => {
    const header =
      '<https://plugins.example/a?tags=x,y>; rel=next, <../b>; title="One, two"; rel="previous first"';
    expect(parseLinkHeader(header, BASE)).toEqual({
      next: 'https://plugins.example/a?tags=x,y',
      prev: 'https://plugins.example/b',
      first: 'https://plugins.example/b',
    });
  });

  it('ignores other relations, links without rel, empty headers, and keeps the first of a repeated relation', () => {
    expect(parseLinkHeader('<https://x.example/style.css>; rel="stylesheet", </c>', BASE)).toEqual({});
    expect(parseLinkHeader(null, BASE)).toEqual({});
    expect(parseLinkHeader('', BASE)).toEqual({});
    expect(parseLinkHeader('</one>; rel="next", </two>; rel="next"', BASE)).toEqual({
      next: 'https://plugins.example/one',
    });
  });
});

describe('query and path builders', () => {
  it('repeat array parameters and leave out what is not set', () => {
    expect(buildQuery({ tags: ['Formatting', 'Code Style'], products: [], search: undefined, max: 10 })).toBe(
      '?tags=Formatting&tags=Code+Style&max=10',
    );
    expect(buildQuery({})).toBe('');
  });

  it('build the spec’s paths with its defaults', () => {
    expect(apiPaths.userPlugins(7)).toBe(
      '/api/users/7/plugins?page=1&size=12&family=intellij&family=teamcity&family=hub&family=fleet&family=dotnet' +
        '&family=space&family=toolbox&family=youtrack&family=teamcity_recipes',
    );
    expect(apiPaths.userComments(7)).toBe('/api/users/7/comments?page=1&size=20');
    expect(apiPaths.comments(3, { page: 2 })).toBe('/api/comments?pluginId=3&page=2&size=20');
    expect(apiPaths.download(42)).toBe('/plugin/download?rel=true&updateId=42');
    expect(apiPaths.plugin(5, 'rating-granular')).toBe('/api/plugins/5/rating-granular');
    expect(apiPaths.featured('IDEA', 'intellij')).toBe('/api/featured-plugins/intellij/product?product=IDEA');
    expect(apiPaths.downloadCompatible('com.acme.x', 'IU-241.1')).toBe(
      '/pluginManager?action=download&id=com.acme.x&build=IU-241.1',
    );
    expect(() => apiPaths.update(0)).toThrow('Update id must be a whole number from 1, got 0.');
  });
});

describe('encodeMultipart', () => {
  it('writes a form a server reads back field by field, with the exact length announced', async () => {
    const form = new FormData();
    form.append('channel', 'eap');
    form.append('notes', 'line one\nline two');
    form.append('name"odd', 'x');
    const archive = new Uint8Array(200_000).map((_, index) => index % 251);
    form.append('file', new Blob([archive], { type: 'application/zip' }), 'tool "v1".zip');
    const encoded = encodeMultipart(form);
    const chunks: number[] = [];
    const bytes = new Uint8Array(
      await new Response(encoded.stream((size) => chunks.push(size))).arrayBuffer(),
    );
    expect(bytes.byteLength).toBe(encoded.length);
    expect(chunks.reduce((sum, size) => sum + size, 0)).toBe(encoded.length);

    const parsed = await new Response(bytes, { headers: { 'content-type': encoded.contentType } }).formData();
    expect(parsed.get('channel')).toBe('eap');
    expect(parsed.get('notes')).toBe('line one\r\nline two');
    expect(parsed.get('name"odd')).toBe('x');
    const file = parsed.get('file') as File;
    expect(file.name).toBe('tool "v1".zip');
    expect(file.type).toBe('application/zip');
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(archive);
  });
});
