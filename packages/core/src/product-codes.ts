/**
 * The light half of the IDE product catalogue: the build-number code of each product and the IDEs of each
 * course language, by product key. Kept apart from the full entries (titles, editions, tooltips) so that code
 * which only needs to recognise an IDE, such as the widget SDK, does not carry the whole catalogue.
 */
import type { ProgrammingLanguage } from './enums';
import { PROGRAMMING_LANGUAGES } from './enums';
import type { IdeProductKey } from './products';

/**
 * The code that starts each product's build numbers (`IU` in `IU-241.14494.240`): the spec names IU, IC, PS, WS,
 * PY, PC, GO, RM, CL, RD, AI, QA and RR; the others are the codes the IDEs themselves use. In spec order.
 */
export const PRODUCT_CODES: Readonly<Record<IdeProductKey, string>> = {
  IDEA: 'IU',
  IDEA_COMMUNITY: 'IC',
  IDEA_EDUCATIONAL: 'IE',
  PHPSTORM: 'PS',
  WEBSTORM: 'WS',
  PYCHARM: 'PY',
  PYCHARM_PRO: 'PY',
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
  AIR: 'AIR',
  AIR_NEXT: 'AIRN',
  TEAMCITY: 'TC',
  TEAMCITY_RECIPE: 'TCR',
  HUB_WIDGET: 'HUB',
  SPACE: 'SPACE',
  YOUTRACK_WIDGET: 'YTW',
  YOUTRACK_APP: 'YT',
  UPSOURCE_WIDGET: 'UPS',
  RESHARPER: 'RS',
  EDUCATIONAL: 'EDU',
};

/** The product key of a build-number code, ignoring case; where two keys share a code (PY), the first wins. */
export function productKeyByCode(code: string): IdeProductKey | undefined {
  const wanted = code.trim().toUpperCase();
  if (wanted === '') return undefined;
  return (Object.keys(PRODUCT_CODES) as IdeProductKey[]).find((key) => PRODUCT_CODES[key] === wanted);
}

/** The product key of the code before a build number's first dash; none for a build number without a code. */
export function productKeyFromBuildNumber(buildNumber: string): IdeProductKey | undefined {
  const dash = buildNumber.indexOf('-');
  if (dash <= 0) return undefined;
  return productKeyByCode(buildNumber.slice(0, dash));
}

/** The IDEs that open a course in each language (spec §9), in the spec's order. */
export const COURSE_LANGUAGE_PRODUCTS: Readonly<Record<ProgrammingLanguage, readonly IdeProductKey[]>> = {
  Python: ['PYCHARM_COMMUNITY', 'PYCHARM', 'IDEA', 'IDEA_COMMUNITY'],
  Rust: ['RUST', 'CLION', 'IDEA'],
  go: ['GOLAND'],
  ObjectiveC: ['CLION'],
  JavaScript: ['WEBSTORM', 'IDEA', 'PHPSTORM'],
  kotlin: ['IDEA_COMMUNITY', 'IDEA', 'ANDROID_STUDIO'],
  Scala: ['IDEA_COMMUNITY', 'IDEA'],
  JAVA: ['IDEA_COMMUNITY', 'IDEA', 'ANDROID_STUDIO'],
  PHP: ['IDEA', 'PHPSTORM', 'WEBSTORM'],
};

/** The course languages each educational IDE supports (spec §9). */
export const EDUCATIONAL_IDE_LANGUAGES: Readonly<
  Record<'IDEA_EDUCATIONAL' | 'PYCHARM_EDUCATIONAL', readonly ProgrammingLanguage[]>
> = {
  IDEA_EDUCATIONAL: ['JAVA', 'kotlin', 'Scala', 'Rust', 'PHP'],
  PYCHARM_EDUCATIONAL: ['Python', 'Rust'],
};

/** The spec's spelling of a course language, matched without regard to case ('java' -> 'JAVA'). */
export function toProgrammingLanguage(language: string): ProgrammingLanguage | undefined {
  const wanted = language.trim().toLowerCase();
  return PROGRAMMING_LANGUAGES.find((known) => known.toLowerCase() === wanted);
}

/**
 * The keys of the IDEs that can open a course in this language: those of spec §9 in its order, then the
 * educational IDEs that support the language. An unknown language has none.
 */
export function productKeysForCourseLanguage(language: string): IdeProductKey[] {
  const known = toProgrammingLanguage(language);
  if (known === undefined) return [];
  const educational = (
    Object.keys(EDUCATIONAL_IDE_LANGUAGES) as (keyof typeof EDUCATIONAL_IDE_LANGUAGES)[]
  ).filter((key) => EDUCATIONAL_IDE_LANGUAGES[key].includes(known));
  return [...COURSE_LANGUAGE_PRODUCTS[known], ...educational];
}
