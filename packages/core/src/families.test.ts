import { describe, expect, it } from 'vitest';
import {
  MARKETPLACE_NAME,
  PAGE_TITLE_TEMPLATE,
  PRODUCT_FAMILIES,
  USER_PLUGIN_FAMILIES,
  NEUTRAL_ITEM_NOUN,
  downloadWording,
  familyLabel,
  isProductFamily,
  itemNoun,
  itemNounWithArticle,
  pageTitle,
  sharedFamily,
} from './families';

describe('product families', () => {
  it('covers the ten families of the spec, in its order', () => {
    expect(PRODUCT_FAMILIES).toEqual([
      'intellij',
      'teamcity',
      'hub',
      'fleet',
      'dotnet',
      'edu',
      'space',
      'toolbox',
      'youtrack',
      'teamcity_recipes',
    ]);
  });

  it('recognises family names and rejects anything else', () => {
    expect(isProductFamily('intellij')).toBe(true);
    expect(isProductFamily('teamcity_recipes')).toBe(true);
    expect(isProductFamily('IntelliJ')).toBe(false);
    expect(isProductFamily('')).toBe(false);
    expect(isProductFamily(undefined)).toBe(false);
    expect(isProductFamily(['intellij'])).toBe(false);
  });
});

describe('family labels', () => {
  it("calls intellij 'IntelliJ-based IDEs'", () => {
    expect(familyLabel('intellij')).toBe('IntelliJ-based IDEs');
  });

  it("calls dotnet '.NET' in short and 'ReSharper (.NET)' in long", () => {
    expect(familyLabel('dotnet')).toBe('.NET');
    expect(familyLabel('dotnet', { long: false })).toBe('.NET');
    expect(familyLabel('dotnet', { long: true })).toBe('ReSharper (.NET)');
  });

  it("calls edu '{product} Academy' with the product name put in", () => {
    expect(familyLabel('edu', { productName: 'Acme' })).toBe('Acme Academy');
    expect(familyLabel('edu')).toBe(`${MARKETPLACE_NAME} Academy`);
    expect(familyLabel('edu', { productName: '   ' })).toBe(`${MARKETPLACE_NAME} Academy`);
  });

  it('names the other families after their products', () => {
    expect(familyLabel('teamcity')).toBe('TeamCity');
    expect(familyLabel('hub')).toBe('Hub');
    expect(familyLabel('fleet')).toBe('Fleet');
    expect(familyLabel('space')).toBe('Space');
    expect(familyLabel('toolbox')).toBe('Toolbox');
    expect(familyLabel('youtrack')).toBe('YouTrack');
    expect(familyLabel('teamcity_recipes')).toBe('TeamCity recipes');
  });

  it('has a label for every family, and the long form changes only dotnet', () => {
    for (const family of PRODUCT_FAMILIES) {
      expect(familyLabel(family).length).toBeGreaterThan(0);
      if (family !== 'dotnet') expect(familyLabel(family, { long: true })).toBe(familyLabel(family));
    }
  });
});

describe('item nouns and wording', () => {
  it('calls items plugins, except in space, hub, edu, youtrack and teamcity recipes', () => {
    expect(itemNoun('intellij')).toBe('plugin');
    expect(itemNoun('teamcity')).toBe('plugin');
    expect(itemNoun('fleet')).toBe('plugin');
    expect(itemNoun('dotnet')).toBe('plugin');
    expect(itemNoun('toolbox')).toBe('plugin');
    expect(itemNoun('space')).toBe('application');
    expect(itemNoun('hub')).toBe('dashboard widget');
    expect(itemNoun('edu')).toBe('course');
    expect(itemNoun('youtrack')).toBe('app');
    expect(itemNoun('teamcity_recipes')).toBe('recipe');
  });

  it("says 'installation' for space and 'download' for every other family", () => {
    expect(downloadWording('space')).toBe('installation');
    for (const family of PRODUCT_FAMILIES.filter((candidate) => candidate !== 'space')) {
      expect(downloadWording(family)).toBe('download');
    }
  });

  it('maps every family to the noun and wording of spec §1, in every form', () => {
    const spec: Record<string, [string, string, string, string]> = {
      intellij: ['plugin', 'plugins', 'Plugins', 'download'],
      teamcity: ['plugin', 'plugins', 'Plugins', 'download'],
      hub: ['dashboard widget', 'dashboard widgets', 'Dashboard widgets', 'download'],
      fleet: ['plugin', 'plugins', 'Plugins', 'download'],
      dotnet: ['plugin', 'plugins', 'Plugins', 'download'],
      edu: ['course', 'courses', 'Courses', 'download'],
      space: ['application', 'applications', 'Applications', 'installation'],
      toolbox: ['plugin', 'plugins', 'Plugins', 'download'],
      youtrack: ['app', 'apps', 'Apps', 'download'],
      teamcity_recipes: ['recipe', 'recipes', 'Recipes', 'download'],
    };
    expect(Object.keys(spec)).toEqual([...PRODUCT_FAMILIES]);
    for (const family of PRODUCT_FAMILIES) {
      const [noun, plural, heading, wording] = spec[family] as [string, string, string, string];
      expect(itemNoun(family), family).toBe(noun);
      expect(itemNoun(family, { plural: true }), family).toBe(plural);
      expect(itemNoun(family, { plural: true, capitalised: true }), family).toBe(heading);
      expect(downloadWording(family), family).toBe(wording);
      expect(downloadWording(family, { plural: true }), family).toBe(`${wording}s`);
    }
  });

  it('capitalises the singular for buttons and headings', () => {
    expect(itemNoun('hub', { capitalised: true })).toBe('Dashboard widget');
    expect(itemNoun('space', { capitalised: true })).toBe('Application');
    expect(downloadWording('space', { plural: true, capitalised: true })).toBe('Installations');
    expect(downloadWording('edu', { plural: true, capitalised: true })).toBe('Downloads');
  });

  it("says 'item' and 'downloads' where no one family applies (lists of mixed families)", () => {
    expect(NEUTRAL_ITEM_NOUN).toBe('item');
    expect(itemNoun(undefined)).toBe('item');
    expect(itemNoun(undefined, { plural: true, capitalised: true })).toBe('Items');
    expect(downloadWording(undefined, { plural: true })).toBe('downloads');
  });

  it('names a list by the one family all its items share, else by none', () => {
    expect(sharedFamily([{ family: 'edu' }, { family: 'edu' }])).toBe('edu');
    expect(sharedFamily([{ family: 'edu' }, { family: 'intellij' }, { family: 'edu' }])).toBeUndefined();
    expect(sharedFamily([])).toBeUndefined();
    expect(itemNoun(sharedFamily([{ family: 'space' }]), { plural: true, capitalised: true })).toBe(
      'Applications',
    );
    expect(itemNoun(sharedFamily([{ family: 'space' }, { family: 'hub' }]), { plural: true })).toBe('items');
  });

  it('puts the right article before each noun', () => {
    expect(itemNounWithArticle('intellij')).toBe('a plugin');
    expect(itemNounWithArticle('space')).toBe('an application');
    expect(itemNounWithArticle('hub')).toBe('a dashboard widget');
    expect(itemNounWithArticle('edu')).toBe('a course');
    expect(itemNounWithArticle('youtrack')).toBe('an app');
    expect(itemNounWithArticle('teamcity_recipes')).toBe('a recipe');
    expect(itemNounWithArticle(undefined)).toBe('an item');
  });
});

describe('page titles', () => {
  it("follow the form '%s | Marketplace'", () => {
    expect(PAGE_TITLE_TEMPLATE).toBe('%s | Marketplace');
    expect(pageTitle('Rainbow Brackets')).toBe('Rainbow Brackets | Marketplace');
  });

  it('keep titles with $ patterns exactly as written', () => {
    expect(pageTitle("$& and $' costs")).toBe("$& and $' costs | Marketplace");
  });

  it('fall back to the marketplace name when the page has no title', () => {
    expect(pageTitle('')).toBe('Marketplace');
    expect(pageTitle('  ')).toBe('Marketplace');
  });
});

describe("a user's plugin list", () => {
  it('asks for every family except edu', () => {
    expect(USER_PLUGIN_FAMILIES).toEqual(PRODUCT_FAMILIES.filter((family) => family !== 'edu'));
    expect(USER_PLUGIN_FAMILIES).toHaveLength(9);
    expect(USER_PLUGIN_FAMILIES).not.toContain('edu');
  });
});
