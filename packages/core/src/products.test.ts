import { describe, expect, it } from 'vitest';
import { PRODUCT_FAMILIES } from './families';
import { PROGRAMMING_LANGUAGES } from './enums';
import {
  COURSE_LANGUAGE_PRODUCTS,
  EDUCATIONAL_IDE_LANGUAGES,
  productKeyFromBuildNumber,
  productKeysForCourseLanguage,
  toProgrammingLanguage,
} from './product-codes';
import {
  IDE_PRODUCTS,
  IDE_PRODUCT_KEYS,
  isIdeProductKey,
  productByCode,
  productFromBuildNumber,
  productFullName,
  productsForCourseLanguage,
} from './products';

const SPEC_KEYS =
  'IDEA, IDEA_COMMUNITY, IDEA_EDUCATIONAL, PHPSTORM, WEBSTORM, PYCHARM, PYCHARM_PRO, PYCHARM_COMMUNITY, ' +
  'PYCHARM_EDUCATIONAL, DATASPELL, RUBYMINE, APPCODE, CLION, GOLAND, DBE, RIDER, JBCLIENT, CWMGUEST, GATEWAY, ' +
  'ANDROID_STUDIO, MPS, AQUA, RUST, WRITERSIDE, FLEET, AIR, AIR_NEXT, TEAMCITY, TEAMCITY_RECIPE, HUB_WIDGET, ' +
  'SPACE, YOUTRACK_WIDGET, YOUTRACK_APP, UPSOURCE_WIDGET, RESHARPER, EDUCATIONAL';

describe('the IDE product catalogue', () => {
  it('has every key of the spec, in its order, each entry under its own key', () => {
    expect(IDE_PRODUCT_KEYS).toEqual(SPEC_KEYS.split(', '));
    expect(Object.keys(IDE_PRODUCTS)).toEqual(SPEC_KEYS.split(', '));
    for (const key of IDE_PRODUCT_KEYS) expect(IDE_PRODUCTS[key].key).toBe(key);
  });

  it('gives every product an id, a code, a title and a known family', () => {
    for (const product of Object.values(IDE_PRODUCTS)) {
      expect(product.id).toMatch(/^[a-z_]+$/);
      expect(product.code).toMatch(/^[A-Z]+$/);
      expect(product.title.length).toBeGreaterThan(0);
      expect(PRODUCT_FAMILIES).toContain(product.family);
    }
  });

  it('keeps ids unique, and codes unique except the two PyCharm entries that share PY', () => {
    const products = Object.values(IDE_PRODUCTS);
    expect(new Set(products.map((product) => product.id)).size).toBe(products.length);
    const codes = products.map((product) => product.code);
    const shared = codes.filter((code, index) => codes.indexOf(code) !== index);
    expect(shared).toEqual(['PY']);
  });

  it('uses the product codes the IDEs put in their build numbers', () => {
    const codes = Object.fromEntries(IDE_PRODUCT_KEYS.map((key) => [key, IDE_PRODUCTS[key].code]));
    expect(codes).toMatchObject({
      IDEA: 'IU',
      IDEA_COMMUNITY: 'IC',
      IDEA_EDUCATIONAL: 'IE',
      PHPSTORM: 'PS',
      WEBSTORM: 'WS',
      PYCHARM: 'PY',
      PYCHARM_COMMUNITY: 'PC',
      PYCHARM_EDUCATIONAL: 'PE',
      DATASPELL: 'DS',
      RUBYMINE: 'RM',
      APPCODE: 'OC',
      CLION: 'CL',
      GOLAND: 'GO',
      DBE: 'DB',
      RIDER: 'RD',
      JBCLIENT: 'JBC',
      CWMGUEST: 'CWMG',
      GATEWAY: 'GW',
      ANDROID_STUDIO: 'AI',
      MPS: 'MPS',
      AQUA: 'QA',
      RUST: 'RR',
      WRITERSIDE: 'WRS',
      FLEET: 'FL',
    });
    expect(IDE_PRODUCTS.DBE.title).toBe('DataGrip');
    expect(IDE_PRODUCTS.APPCODE.title).toBe('AppCode');
  });

  it('marks exactly IDEA community/educational, PyCharm community/educational, Android Studio and MPS unpaid', () => {
    const unpaid = IDE_PRODUCT_KEYS.filter((key) => !IDE_PRODUCTS[key].paid);
    expect(unpaid).toEqual([
      'IDEA_COMMUNITY',
      'IDEA_EDUCATIONAL',
      'PYCHARM_COMMUNITY',
      'PYCHARM_EDUCATIONAL',
      'ANDROID_STUDIO',
      'MPS',
    ]);
  });

  it('gives every product in preview a tooltip naming it, and no tooltip to the others', () => {
    for (const product of Object.values(IDE_PRODUCTS)) {
      if (product.beta) expect(product.betaTooltip).toContain(product.title);
      else expect(product.betaTooltip).toBeUndefined();
    }
    expect(IDE_PRODUCTS.FLEET.beta).toBe(true);
    expect(IDE_PRODUCTS.IDEA.beta).toBe(false);
  });

  it('places the non-IDE products in their families', () => {
    expect(IDE_PRODUCTS.FLEET.family).toBe('fleet');
    expect(IDE_PRODUCTS.TEAMCITY.family).toBe('teamcity');
    expect(IDE_PRODUCTS.TEAMCITY_RECIPE.family).toBe('teamcity_recipes');
    expect(IDE_PRODUCTS.HUB_WIDGET.family).toBe('hub');
    expect(IDE_PRODUCTS.YOUTRACK_WIDGET.family).toBe('hub');
    expect(IDE_PRODUCTS.UPSOURCE_WIDGET.family).toBe('hub');
    expect(IDE_PRODUCTS.SPACE.family).toBe('space');
    expect(IDE_PRODUCTS.YOUTRACK_APP.family).toBe('youtrack');
    expect(IDE_PRODUCTS.RESHARPER.family).toBe('dotnet');
    expect(IDE_PRODUCTS.EDUCATIONAL.family).toBe('edu');
    expect(IDE_PRODUCTS.IDEA.family).toBe('intellij');
  });

  it('cannot be changed by a consumer', () => {
    expect(Object.isFrozen(IDE_PRODUCTS)).toBe(true);
    expect(Object.isFrozen(IDE_PRODUCTS.IDEA)).toBe(true);
  });

  it('recognises product keys', () => {
    expect(isIdeProductKey('ANDROID_STUDIO')).toBe(true);
    expect(isIdeProductKey('android_studio')).toBe(false);
    expect(isIdeProductKey(7)).toBe(false);
  });

  it('names products with their edition', () => {
    expect(productFullName(IDE_PRODUCTS.IDEA)).toBe('IntelliJ IDEA Ultimate');
    expect(productFullName(IDE_PRODUCTS.PYCHARM_COMMUNITY)).toBe('PyCharm Community');
    expect(productFullName(IDE_PRODUCTS.GOLAND)).toBe('GoLand');
  });
});

describe('finding a product', () => {
  it('finds a product by its code, ignoring case and surrounding spaces', () => {
    expect(productByCode('IU')?.key).toBe('IDEA');
    expect(productByCode('ai')?.key).toBe('ANDROID_STUDIO');
    expect(productByCode(' RR ')?.key).toBe('RUST');
    expect(productByCode('PY')?.key).toBe('PYCHARM');
  });

  it('finds nothing for an unknown or empty code', () => {
    expect(productByCode('ZZ')).toBeUndefined();
    expect(productByCode('')).toBeUndefined();
  });

  it('identifies the IDE by the code before the first dash of its build number', () => {
    expect(productFromBuildNumber('IU-241.1')?.key).toBe('IDEA');
    expect(productFromBuildNumber('IC-252.23892.409')?.key).toBe('IDEA_COMMUNITY');
    expect(productFromBuildNumber('PC-241.1-EAP')?.key).toBe('PYCHARM_COMMUNITY');
    expect(productFromBuildNumber('CWMG-233.2')?.key).toBe('CWMGUEST');
  });

  it('identifies nothing when the build number has no code or an unknown one', () => {
    expect(productFromBuildNumber('241.1')).toBeUndefined();
    expect(productFromBuildNumber('-241.1')).toBeUndefined();
    expect(productFromBuildNumber('XX-241.1')).toBeUndefined();
    expect(productFromBuildNumber('')).toBeUndefined();
  });
});

describe('IDEs for a course language', () => {
  it('lists the IDEs of the spec for every language', () => {
    expect(COURSE_LANGUAGE_PRODUCTS).toEqual({
      Python: ['PYCHARM_COMMUNITY', 'PYCHARM', 'IDEA', 'IDEA_COMMUNITY'],
      Rust: ['RUST', 'CLION', 'IDEA'],
      go: ['GOLAND'],
      ObjectiveC: ['CLION'],
      JavaScript: ['WEBSTORM', 'IDEA', 'PHPSTORM'],
      kotlin: ['IDEA_COMMUNITY', 'IDEA', 'ANDROID_STUDIO'],
      Scala: ['IDEA_COMMUNITY', 'IDEA'],
      JAVA: ['IDEA_COMMUNITY', 'IDEA', 'ANDROID_STUDIO'],
      PHP: ['IDEA', 'PHPSTORM', 'WEBSTORM'],
    });
    expect(Object.keys(COURSE_LANGUAGE_PRODUCTS).sort()).toEqual([...PROGRAMMING_LANGUAGES].sort());
  });

  it('knows educational IDEA takes Java, Kotlin, Scala, Rust, PHP and educational PyCharm Python, Rust', () => {
    expect(EDUCATIONAL_IDE_LANGUAGES).toEqual({
      IDEA_EDUCATIONAL: ['JAVA', 'kotlin', 'Scala', 'Rust', 'PHP'],
      PYCHARM_EDUCATIONAL: ['Python', 'Rust'],
    });
  });

  it('adds the educational IDEs that support the language after the listed ones', () => {
    const keys = (language: string) => productsForCourseLanguage(language).map((product) => product.key);
    expect(keys('Python')).toEqual([
      'PYCHARM_COMMUNITY',
      'PYCHARM',
      'IDEA',
      'IDEA_COMMUNITY',
      'PYCHARM_EDUCATIONAL',
    ]);
    expect(keys('Rust')).toEqual(['RUST', 'CLION', 'IDEA', 'IDEA_EDUCATIONAL', 'PYCHARM_EDUCATIONAL']);
    expect(keys('go')).toEqual(['GOLAND']);
    expect(keys('JavaScript')).toEqual(['WEBSTORM', 'IDEA', 'PHPSTORM']);
    expect(keys('JAVA')).toEqual(['IDEA_COMMUNITY', 'IDEA', 'ANDROID_STUDIO', 'IDEA_EDUCATIONAL']);
  });

  it('matches the language without regard to case', () => {
    expect(toProgrammingLanguage('java')).toBe('JAVA');
    expect(toProgrammingLanguage('Kotlin')).toBe('kotlin');
    expect(productsForCourseLanguage('Go').map((product) => product.key)).toEqual(['GOLAND']);
  });

  it('has no IDE for an unknown or empty language', () => {
    expect(productsForCourseLanguage('Haskell')).toEqual([]);
    expect(productsForCourseLanguage('')).toEqual([]);
    expect(toProgrammingLanguage('C++')).toBeUndefined();
  });
});

describe('recognising an IDE without the whole catalogue', () => {
  it('gives the same product keys as the full lookups', () => {
    for (const build of ['IU-241.1', 'py-252.2', 'AI-243.1', 'PC-241.1', '241.14494', 'XX-241.1', '-241.1']) {
      expect(productKeyFromBuildNumber(build)).toBe(productFromBuildNumber(build)?.key);
    }
    for (const language of [...PROGRAMMING_LANGUAGES, 'java', 'COBOL', '']) {
      expect(productKeysForCourseLanguage(language)).toEqual(
        productsForCourseLanguage(language).map((product) => product.key),
      );
    }
  });
});
