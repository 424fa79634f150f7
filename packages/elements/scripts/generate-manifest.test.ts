// @vitest-environment node
import { WIDGET_MESSAGE_TYPES } from '@marketplace/protocol';
import { describe, expect, it } from 'vitest';
import { WIDGET_ELEMENT_NAMES } from '../src/loader/widget-types';
import { buildManifest, declarationsOf } from './generate-manifest';

describe('custom-elements.json', () => {
  const declarations = buildManifest().modules.flatMap((module) => module.declarations);

  it('documents every element the loader can create, with its plugin-id and api-base attributes', () => {
    expect(declarations.map((declaration) => declaration.tagName).sort()).toEqual(
      Object.values(WIDGET_ELEMENT_NAMES).sort(),
    );
    for (const declaration of declarations) {
      expect(declaration.attributes.map((attribute) => attribute.name)).toEqual(
        expect.arrayContaining(['plugin-id', 'api-base']),
      );
      expect(declaration.description).not.toBe('');
    }
  });

  it("lists every AI button message of the protocol among mp-ai-button's events", () => {
    const aiButton = declarations.find((declaration) => declaration.tagName === 'mp-ai-button');
    const aiMessages = WIDGET_MESSAGE_TYPES.filter((type) => type.startsWith('ai-button:'));
    expect(aiButton?.events.map((event) => event.name)).toEqual(expect.arrayContaining([...aiMessages]));
  });

  it('reads types, names and descriptions from the JSDoc tags', () => {
    const [declaration] = declarationsOf(
      'mp-x.tsx',
      `/**
        * Says hello.
        * @tag mp-x
        * @attr {string} greeting - What to say.
        * @event x:said - Said it.
        * @csspart base - The box.
        */
       export const MpX = make();`,
    );
    expect(declaration).toMatchObject({
      name: 'MpX',
      tagName: 'mp-x',
      description: 'Says hello.',
      attributes: [{ name: 'greeting', type: { text: 'string' }, description: 'What to say.' }],
      events: [{ name: 'x:said', description: 'Said it.' }],
      cssParts: [{ name: 'base', description: 'The box.' }],
    });
  });
});
