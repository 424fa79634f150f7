/**
 * Who is asking: an IDE (and which one, at which build) or a browser. The IDE names itself in its
 * User-Agent as `<full product name>/<build without code>` (`IntelliJ IDEA/241.14494.240`, its
 * `productNameAsUserAgent`), and its download and update URLs carry `build=IU-241.14494.240`; the build
 * parameter wins, being the only one that names the edition (both IDEA editions call themselves
 * "IntelliJ IDEA").
 */
import { parseBuildNumber } from '../build-number';
import { PRODUCT_CODES } from '../product-codes';
import type { IdeProductKey } from '../products';

export interface IdeClient {
  /** The product code (`IU`), '' when it cannot be told. */
  productCode: string;
  /** The build without product code (`241.14494.240`), '' when unknown. */
  build: string;
  /** The build's branch (`241`), 0 when unknown. */
  branch: number;
  /** The request came from an IDE (its User-Agent or a `build` parameter says so), not from a browser. */
  fromIde: boolean;
}

/**
 * The names IDEs give themselves in the User-Agent, for the products whose name alone tells the code.
 * IntelliJ IDEA and PyCharm are left out: each name stands for two editions with different codes.
 */
const NAMES_OF_ONE_PRODUCT: Readonly<Record<string, IdeProductKey>> = {
  PhpStorm: 'PHPSTORM',
  WebStorm: 'WEBSTORM',
  DataSpell: 'DATASPELL',
  RubyMine: 'RUBYMINE',
  AppCode: 'APPCODE',
  CLion: 'CLION',
  GoLand: 'GOLAND',
  DataGrip: 'DBE',
  'JetBrains Rider': 'RIDER',
  Rider: 'RIDER',
  'JetBrains Client': 'JBCLIENT',
  'JetBrains Gateway': 'GATEWAY',
  'Android Studio': 'ANDROID_STUDIO',
  'JetBrains MPS': 'MPS',
  MPS: 'MPS',
  Aqua: 'AQUA',
  RustRover: 'RUST',
  Writerside: 'WRITERSIDE',
};

/** Names of IDEs whose edition the name does not tell. */
const AMBIGUOUS_NAMES = new Set(['IntelliJ IDEA', 'PyCharm']);

/** `<name>/<digits and dots>` at the start of the User-Agent, as the IDE's HTTP client sends it. */
const IDE_AGENT = /^([A-Za-z][A-Za-z ]{0,40}?)\/(\d{1,4}(?:\.(?:\d{1,9}|SNAPSHOT|\*))*)(?:\s|$)/;

const MAX_BUILD_LENGTH = 60;

function branchOf(build: string): number {
  const parsed = parseBuildNumber(build);
  const branch = parsed?.components[0];
  return branch !== undefined && branch > 0 && branch < 10_000 ? branch : 0;
}

/** Reads the IDE, if any, from a request's User-Agent and its `build` query parameter. */
export function readIdeClient(userAgent: string | undefined, buildParameter: string | undefined): IdeClient {
  let productCode = '';
  let build = '';
  let fromIde = false;
  const agent = IDE_AGENT.exec(userAgent?.trim() ?? '');
  if (agent) {
    const [, name = '', version = ''] = agent;
    const key = NAMES_OF_ONE_PRODUCT[name.trim()];
    if (key || AMBIGUOUS_NAMES.has(name.trim())) {
      fromIde = true;
      productCode = key ? PRODUCT_CODES[key] : '';
      build = version;
    }
  }
  const parameter = buildParameter?.trim().slice(0, MAX_BUILD_LENGTH);
  const parsed = parameter ? parseBuildNumber(parameter) : undefined;
  if (parameter && parsed) {
    fromIde = true;
    if (parsed.productCode) productCode = parsed.productCode.toUpperCase().slice(0, 10);
    build = parsed.productCode ? parameter.slice(parameter.indexOf('-') + 1) : parameter;
  }
  return { productCode, build, branch: build ? branchOf(build) : 0, fromIde };
}
