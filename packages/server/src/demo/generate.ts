import {
  PROGRAMMING_LANGUAGES,
  RATING_CATEGORIES,
  THEME_TAG_ID,
  productsForCourseLanguage,
  type IdeProductKey,
  type PricingModel,
  type ProductFamily,
  type ProgrammingLanguage,
  type RatingCategory,
} from '@marketplace/core';
import type { BlockState, LifecycleState, PluginLinkKind, VersionApprovalState } from '../db/schema';
import {
  demoProductDescriptors,
  generateItemCommerce,
  type DemoBuyer,
  type DemoItemCommerce,
  type DemoProductDescriptor,
} from './commerce';
import { DemoRandom } from './random';
import {
  BRANCH_BUILDS,
  BRANCHES,
  CHANGE_NOTES,
  CODE_TOOL_NOUNS,
  CODE_TOOL_TAGS,
  COURSE_TOPICS,
  DAYS_BETWEEN_BRANCHES,
  DEMO_TAGS,
  FAMILY_WEIGHTS,
  FIRST_NAMES,
  HUB_WIDGET_TAGS,
  HUB_WIDGETS,
  LANGUAGE_TAGS,
  LANGUAGES_BY_ECOSYSTEM,
  LAST_NAMES,
  NEWEST_BRANCH_AGE_DAYS,
  REPLY_TEXTS,
  REVIEW_TEXTS,
  SPACE_APP_TAGS,
  SPACE_APPS,
  TEAMCITY_SERVICES,
  THEME_COLOURS,
  TOOL_TAGS,
  TOOLBOX_APP_TAGS,
  TOOLBOX_APPS,
  TOOLS,
  VENDOR_FIRST,
  VENDOR_SECOND,
  VENDOR_SUFFIX,
  YOUTRACK_APP_TAGS,
  YOUTRACK_APPS,
  type DemoTag,
  type DemoTagName,
} from './vocabulary';

export const DEFAULT_DEMO_PLUGIN_COUNT = 300;
export const DEFAULT_DEMO_SEED = 20190626;
/** Days of daily download counters, ending at the seed date. */
export const DOWNLOAD_HISTORY_DAYS = 365;
const DAY_MS = 86_400_000;

export interface DemoCatalogueOptions {
  /** How many items (default 300). */
  plugins?: number;
  seed?: number;
  /** The last day of the download history; dates are computed back from it (default: now). */
  today?: Date;
}

export interface DemoUser {
  id: number;
  login: string;
  name: string;
  email: string;
  emailVerified: boolean;
  isAdmin: boolean;
  createdAt: Date;
}

export interface DemoVendor {
  id: number;
  name: string;
  url: string;
  email: string;
  verified: boolean;
  domain: string;
  createdAt: Date;
}

export interface DemoVersion {
  id: number;
  version: string;
  channel: string;
  sinceBuild: string;
  untilBuild: string | null;
  notes: string;
  dependencies: string[];
  hidden: boolean;
  approvalState: VersionApprovalState;
  createdAt: Date;
  /** A jar with META-INF/plugin.xml, or a zip holding `<slug>/lib/<slug>.jar`. */
  packaging: 'jar' | 'zip';
  fileName: string;
  downloads: number;
  /** `<product-descriptor>`: declared by every version of a paid or freemium item. */
  product: DemoProductDescriptor | null;
}

export interface DemoReview {
  id: number;
  authorId: number;
  rating: number;
  text: string;
  createdAt: Date;
  categories: Array<{ category: RatingCategory; rating: number }>;
  reply?: { authorId: number; text: string; createdAt: Date };
}

export interface DemoPlugin {
  id: number;
  family: ProductFamily;
  xmlId: string;
  name: string;
  slug: string;
  description: string;
  preview: string;
  email: string;
  copyright: string;
  pricingModel: PricingModel;
  vendorId: number;
  ownerId: number | null;
  language: string | null;
  programmingLanguage: ProgrammingLanguage | null;
  url: string;
  bugtrackerUrl: string | null;
  forumUrl: string | null;
  licenseUrl: string;
  sourceCodeUrl: string | null;
  docUrl: string | null;
  privacyPolicyUrl: string | null;
  lifecycleState: LifecycleState;
  approved: boolean;
  blockState: BlockState;
  hidden: boolean;
  createdAt: Date;
  publishedAt: Date | null;
  lastUpdatedAt: Date;
  iconColour: string;
  tagIds: number[];
  developerIds: number[];
  compatibleProducts: IdeProductKey[];
  themes: Array<{ name: string; dark: boolean }>;
  screenshots: Array<{ title: string; dark: boolean }>;
  documentationTabs: Array<{ tabName: string; urlSuffix: string; generateToc: boolean; html: string }>;
  links: Array<{ kind: PluginLinkKind; title: string; url: string }>;
  bundleMemberIds: number[];
  versions: DemoVersion[];
  reviews: DemoReview[];
  /** Daily counters: parallel arrays of version id, ISO day and count (only days with downloads). */
  dailyDownloads: { versionIds: number[]; days: string[]; counts: number[] };
  /** Prices, terms, offers, trials and orders of a paid or freemium item (its sales: generateItemSales). */
  commerce: DemoItemCommerce | null;
}

export interface DemoCatalogue {
  seed: number;
  today: Date;
  pluginCount: number;
  users: DemoUser[];
  vendors: DemoVendor[];
  tags: readonly DemoTag[];
  /** Generated one at a time so that large catalogues never sit in memory whole. */
  plugins(): Generator<DemoPlugin>;
}

/** The demo accounts every catalogue has; passwords are set by the sign-in code, not here. */
export const DEMO_ACCOUNTS = {
  admin: { id: 1, login: 'admin', name: 'Administrator', isAdmin: true },
  developer: { id: 2, login: 'developer', name: 'Demo Developer', isAdmin: false },
  visitor: { id: 3, login: 'visitor', name: 'Demo Visitor', isAdmin: false },
} as const;
/** The developer account owns the first items of every catalogue. */
export const DEVELOPER_OWNED_PLUGINS = 6;

const UNIVERSAL_PRODUCTS: readonly IdeProductKey[] = [
  'IDEA',
  'IDEA_COMMUNITY',
  'PYCHARM',
  'PYCHARM_COMMUNITY',
  'WEBSTORM',
  'PHPSTORM',
  'GOLAND',
  'RUBYMINE',
  'CLION',
  'RIDER',
  'DATASPELL',
  'RUST',
  'ANDROID_STUDIO',
  'DBE',
];
const LANGUAGE_PRODUCTS: Readonly<Record<string, readonly IdeProductKey[]>> = {
  Kotlin: ['IDEA', 'IDEA_COMMUNITY', 'ANDROID_STUDIO'],
  Java: ['IDEA', 'IDEA_COMMUNITY', 'ANDROID_STUDIO'],
  Python: ['PYCHARM', 'PYCHARM_COMMUNITY', 'IDEA', 'DATASPELL'],
  Go: ['GOLAND', 'IDEA'],
  Rust: ['RUST', 'CLION', 'IDEA'],
  TypeScript: ['WEBSTORM', 'IDEA', 'PHPSTORM'],
  JavaScript: ['WEBSTORM', 'IDEA', 'PHPSTORM'],
  PHP: ['PHPSTORM', 'IDEA'],
  Ruby: ['RUBYMINE', 'IDEA'],
  'C#': ['RIDER'],
  'F#': ['RIDER'],
  SQL: ['DBE', 'IDEA', 'DATASPELL'],
};
const FAMILY_PRODUCTS: Readonly<Partial<Record<ProductFamily, readonly IdeProductKey[]>>> = {
  teamcity: ['TEAMCITY'],
  teamcity_recipes: ['TEAMCITY_RECIPE'],
  hub: ['HUB_WIDGET'],
  youtrack: ['YOUTRACK_APP', 'YOUTRACK_WIDGET'],
  space: ['SPACE'],
  fleet: ['FLEET'],
  dotnet: ['RESHARPER', 'RIDER'],
  toolbox: [],
};
const PLATFORM_DEPENDENCY = 'com.intellij.modules.platform';
const LANGUAGE_DEPENDENCIES: Readonly<Record<string, string>> = {
  Kotlin: 'org.jetbrains.kotlin',
  Java: 'com.intellij.modules.java',
  Python: 'com.intellij.modules.python',
  Go: 'org.jetbrains.plugins.go',
  TypeScript: 'JavaScript',
  JavaScript: 'JavaScript',
  PHP: 'com.jetbrains.php',
  Ruby: 'com.intellij.modules.ruby',
};

function slugify(text: string): string {
  return text
    .toLowerCase()
    .replaceAll('#', 'sharp')
    .replaceAll('+', 'plus')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

function startOfUtcDay(moment: Date): Date {
  return new Date(Date.UTC(moment.getUTCFullYear(), moment.getUTCMonth(), moment.getUTCDate()));
}

function isoDay(moment: Date): string {
  return moment.toISOString().slice(0, 10);
}

/** The branch index current `ageDays` before the seed date. */
function branchIndexAt(ageDays: number): number {
  const newest = BRANCHES.length - 1;
  if (ageDays <= NEWEST_BRANCH_AGE_DAYS) return newest;
  return Math.max(0, newest - Math.ceil((ageDays - NEWEST_BRANCH_AGE_DAYS) / DAYS_BETWEEN_BRANCHES));
}

export function generateDemoCatalogue(options: DemoCatalogueOptions = {}): DemoCatalogue {
  const pluginCount = options.plugins ?? DEFAULT_DEMO_PLUGIN_COUNT;
  if (!Number.isSafeInteger(pluginCount) || pluginCount < 1) {
    throw new RangeError(
      `The number of demo items must be a whole number of at least 1, got ${pluginCount}.`,
    );
  }
  const seed = options.seed ?? DEFAULT_DEMO_SEED;
  if (!Number.isSafeInteger(seed)) throw new RangeError(`The demo seed must be a whole number, got ${seed}.`);
  const today = startOfUtcDay(options.today ?? new Date());
  const daysAgo = (days: number, random?: DemoRandom) =>
    new Date(today.getTime() - days * DAY_MS + (random ? random.int(8 * 3600, 20 * 3600) * 1000 : 0));

  const users = generateUsers(seed, pluginCount, daysAgo);
  const reviewerIds = users.filter((user) => user.id > 3).map((user) => user.id);
  const buyers: DemoBuyer[] = users
    .filter((user) => user.id > 3)
    .map((user) => ({ id: user.id, name: user.name, email: user.email }));
  const vendors = generateVendors(seed, pluginCount, daysAgo);

  const firstHistoryDay = today.getTime() - (DOWNLOAD_HISTORY_DAYS - 1) * DAY_MS;
  const dayTexts = Array.from({ length: DOWNLOAD_HISTORY_DAYS }, (_, day) =>
    isoDay(new Date(firstHistoryDay + day * DAY_MS)),
  );

  function* plugins(): Generator<DemoPlugin> {
    const usedNames = new Set<string>();
    const pluginsByVendor = new Map<number, number[]>();
    let nextVersionId = 1;
    let nextReviewId = 1;
    for (let index = 0; index < pluginCount; index++) {
      const random = new DemoRandom(seed, 1, index);
      const id = index + 1;
      const developerOwned = index < DEVELOPER_OWNED_PLUGINS;
      const family: ProductFamily = developerOwned ? 'intellij' : random.weighted(FAMILY_WEIGHTS);
      const vendor = developerOwned ? (vendors[0] as DemoVendor) : random.pick(vendors.slice(1));
      const isTheme = family === 'intellij' && !developerOwned && random.chance(0.12);
      const vendorPlugins = pluginsByVendor.get(vendor.id) ?? [];
      const isBundle = family === 'intellij' && !isTheme && vendorPlugins.length >= 3 && random.chance(0.06);
      const identity = nameFor(random, family, isTheme, isBundle, vendor);
      let name = identity.name;
      for (let attempt = 2; usedNames.has(name); attempt++) name = `${identity.name} ${attempt}`;
      usedNames.add(name);
      const slug = slugify(name);
      const xmlId = `${vendor.domain.split('.').reverse().join('.')}.${slug.replaceAll('-', '.')}`;

      // Age and popularity drive everything else: versions, downloads, reviews.
      const ageDays = random.chance(0.6)
        ? random.int(30, 1400)
        : Math.floor(Math.exp(random.next() * Math.log(1400 / 3)) * 3);
      const hit = random.chance(0.03) ? random.int(40, 500) : 1;
      // Long tail: half the items see fewer than one download every two days; a few see thousands a day.
      const baseDaily = Math.exp(random.normal(-0.8, 1.7)) * hit;
      const quality = 2.6 + random.next() * 2.4;
      const createdAt = daysAgo(ageDays, random);

      const lifecycle = lifecycleFor(random, index);
      const pricingModel: PricingModel =
        (family === 'intellij' || family === 'dotnet') && !isTheme && !developerOwned
          ? random.weighted<PricingModel>([
              ['FREE', 84],
              ['FREEMIUM', 8],
              ['PAID', 8],
            ])
          : 'FREE';
      const programmingLanguage = family === 'edu' ? identity.courseLanguage : null;

      const versions = generateVersions(random, {
        ageDays,
        createdAt,
        family,
        slug,
        daysAgo,
        firstVersionId: nextVersionId,
        dependencies: [PLATFORM_DEPENDENCY, ...(identity.dependency ? [identity.dependency] : [])],
        pendingUpdate: index === 5,
      });
      nextVersionId += versions.length;
      // A partial block blocks chosen versions (migration 0082): here the oldest approved stable one, when
      // another approved stable version remains (the downloads below are counted on those).
      if (lifecycle.blockState === 'partial') {
        const approved = versions.filter(
          (version) => version.approvalState === 'approved' && version.channel === '' && !version.hidden,
        );
        if (approved.length > 1) (approved[0] as DemoVersion).approvalState = 'blocked';
      }
      const dailyDownloads = generateDownloads(random, { versions, baseDaily, createdAt, today, dayTexts });
      for (const [versionId, product] of demoProductDescriptors(name, pricingModel, versions)) {
        (versions.find((version) => version.id === versionId) as DemoVersion).product = product;
      }
      const commerce =
        generateItemCommerce(
          {
            id,
            pricingModel,
            vendorId: vendor.id,
            vendorDomain: vendor.domain,
            createdAt,
            downloads: versions.reduce((sum, version) => sum + version.downloads, 0),
            selling: lifecycle.approved && lifecycle.lifecycleState !== 'draft',
            listed:
              lifecycle.approved &&
              lifecycle.lifecycleState === 'published' &&
              !lifecycle.hidden &&
              lifecycle.blockState !== 'blocked',
          },
          { seed, today, buyers, catalogueSize: pluginCount },
        ) ?? null;

      const reviews = generateReviews(random, {
        reviewerIds,
        baseDaily,
        ageDays,
        quality,
        firstReviewId: nextReviewId,
        createdAt,
        today,
        replierId: developerOwned ? DEMO_ACCOUNTS.developer.id : undefined,
      });
      nextReviewId += reviews.length;

      const lastVisible = versions.filter((version) => !version.hidden).at(-1);
      const tagIds = tagsFor(random, family, isTheme, identity.tags);
      const themes = isTheme ? themesFor(random, identity.name) : [];
      const plugin: DemoPlugin = {
        id,
        family,
        xmlId,
        name,
        slug,
        description: identity.description,
        preview: identity.preview,
        email: `support@${vendor.domain}`,
        copyright: `Copyright © ${createdAt.getUTCFullYear()}-${today.getUTCFullYear()} ${vendor.name}`,
        pricingModel,
        vendorId: vendor.id,
        ownerId: developerOwned ? DEMO_ACCOUNTS.developer.id : null,
        language:
          family === 'edu'
            ? random.weighted([
                ['English', 8],
                ['Spanish', 1],
                ['German', 1],
                ['Chinese', 1],
              ])
            : null,
        programmingLanguage,
        url: `https://${vendor.domain}/${slug}`,
        bugtrackerUrl: random.chance(0.7) ? `https://issues.${vendor.domain}/${slug}` : null,
        forumUrl: random.chance(0.25) ? `https://forum.${vendor.domain}/c/${slug}` : null,
        licenseUrl:
          pricingModel === 'FREE'
            ? `https://${vendor.domain}/${slug}/license`
            : `https://${vendor.domain}/eula`,
        sourceCodeUrl:
          pricingModel === 'FREE' && random.chance(0.75) ? `https://code.${vendor.domain}/${slug}` : null,
        docUrl: random.chance(0.5) ? `https://docs.${vendor.domain}/${slug}` : null,
        privacyPolicyUrl: pricingModel === 'FREE' ? null : `https://${vendor.domain}/privacy`,
        lifecycleState: lifecycle.lifecycleState,
        approved: lifecycle.approved,
        blockState: lifecycle.blockState,
        hidden: lifecycle.hidden,
        createdAt,
        publishedAt: lifecycle.lifecycleState === 'draft' ? null : createdAt,
        lastUpdatedAt: lastVisible?.createdAt ?? createdAt,
        iconColour: random.pick([
          '#167dff',
          '#f26522',
          '#21d789',
          '#fc801d',
          '#9775f8',
          '#e83e8c',
          '#087cfa',
          '#0dbe7b',
        ]),
        tagIds,
        developerIds: developerOwned ? [DEMO_ACCOUNTS.developer.id] : [],
        compatibleProducts: productsFor(random, family, identity.ecosystem, programmingLanguage),
        themes,
        screenshots: screenshotsFor(random, isTheme, themes),
        documentationTabs: docTabsFor(random, name),
        links: linksFor(random, vendor),
        bundleMemberIds: isBundle
          ? random.sample(vendorPlugins, random.int(2, Math.min(5, vendorPlugins.length)))
          : [],
        versions,
        reviews,
        dailyDownloads,
        commerce,
      };
      vendorPlugins.push(id);
      pluginsByVendor.set(vendor.id, vendorPlugins);
      yield plugin;
    }
  }

  return { seed, today, pluginCount, users, vendors, tags: DEMO_TAGS, plugins };
}

/** How many users besides the demo accounts a catalogue of `pluginCount` items has (ids 4 onwards). */
export function demoReviewerCount(pluginCount: number): number {
  return Math.min(2000, Math.max(60, Math.round(pluginCount / 2)));
}

function generateUsers(seed: number, pluginCount: number, daysAgo: (days: number) => Date): DemoUser[] {
  const random = new DemoRandom(seed, 2);
  const users: DemoUser[] = Object.values(DEMO_ACCOUNTS).map((account) => ({
    ...account,
    email: `${account.login}@marketplace.example`,
    emailVerified: true,
    createdAt: daysAgo(1500),
  }));
  const reviewerCount = demoReviewerCount(pluginCount);
  const usedLogins = new Set(users.map((user) => user.login));
  for (let index = 0; index < reviewerCount; index++) {
    const first = random.pick(FIRST_NAMES);
    const last = random.pick(LAST_NAMES);
    let login = `${first}.${last}`.toLowerCase();
    for (let suffix = 2; usedLogins.has(login); suffix++) login = `${first}.${last}${suffix}`.toLowerCase();
    usedLogins.add(login);
    users.push({
      id: users.length + 1,
      login,
      name: `${first} ${last}`,
      email: `${login}@users.example`,
      emailVerified: random.chance(0.9),
      isAdmin: false,
      createdAt: daysAgo(random.int(30, 1500)),
    });
  }
  return users;
}

function generateVendors(seed: number, pluginCount: number, daysAgo: (days: number) => Date): DemoVendor[] {
  const random = new DemoRandom(seed, 3);
  const vendors: DemoVendor[] = [
    {
      id: 1,
      name: 'Demo Developer',
      url: 'https://developer.marketplace.example',
      email: 'developer@marketplace.example',
      verified: false,
      domain: 'developer.marketplace.example',
      createdAt: daysAgo(1500),
    },
  ];
  const count = Math.min(
    VENDOR_FIRST.length * VENDOR_SECOND.length,
    Math.max(12, Math.round(pluginCount / 6)),
  );
  const used = new Set<string>();
  while (vendors.length < count + 1) {
    const base = `${random.pick(VENDOR_FIRST)}${random.pick(VENDOR_SECOND)}`;
    if (used.has(base)) continue;
    used.add(base);
    const suffix = random.pick(VENDOR_SUFFIX);
    const domain = `${base.toLowerCase()}.example`;
    vendors.push({
      id: vendors.length + 1,
      name: suffix ? `${base} ${suffix}` : base,
      url: `https://${domain}`,
      email: `hello@${domain}`,
      verified: random.chance(0.3),
      domain,
      createdAt: daysAgo(random.int(400, 2000)),
    });
  }
  return vendors;
}

interface Identity {
  name: string;
  description: string;
  preview: string;
  ecosystem?: string;
  dependency?: string;
  courseLanguage: ProgrammingLanguage | null;
  /** The tags that describe the item, the one that says most first (themes get the theme tag instead). */
  tags: readonly DemoTagName[];
}

function describe(preview: string, features: string[], closing?: string): string {
  const items = features.map((feature) => `<li>${escapeHtml(feature)}</li>`).join('');
  return `<p>${escapeHtml(preview)}</p><p>Features:</p><ul>${items}</ul>${closing ? `<p>${escapeHtml(closing)}</p>` : ''}`;
}

function nameFor(
  random: DemoRandom,
  family: ProductFamily,
  isTheme: boolean,
  isBundle: boolean,
  vendor: DemoVendor,
): Identity {
  const vendorShort = vendor.name.split(' ')[0] as string;
  if (isBundle) {
    const name = `${vendorShort} ${random.pick(['Essentials', 'Toolkit', 'Pack', 'Suite'])}`;
    const preview = `All ${vendorShort} plugins in one install.`;
    return {
      name,
      preview,
      description: describe(preview, [
        'Installs every plugin of the pack',
        'One place to update them',
        'Shared settings',
      ]),
      courseLanguage: null,
      tags: ['Productivity', 'Code tools'],
    };
  }
  if (isTheme) {
    const colour = random.pick(THEME_COLOURS);
    const name = `${colour} Theme`;
    const preview = `A ${random.pick(['calm', 'high-contrast', 'warm', 'vivid', 'soft'])} colour scheme for the whole IDE, in dark and light variants.`;
    return {
      name,
      preview,
      description: describe(preview, [
        'Editor colour scheme for every language',
        'Matching UI theme',
        'Readable diff and VCS colours',
        'Accessible contrast',
      ]),
      courseLanguage: null,
      tags: ['Theme'],
    };
  }
  switch (family) {
    case 'edu': {
      const language = random.pick(PROGRAMMING_LANGUAGES);
      const course = random.pick(COURSE_TOPICS[language]);
      const name = course.name;
      const preview = `An interactive course: learn by solving tasks right in the IDE, with checks and hints.`;
      return {
        name,
        preview,
        description: describe(preview, [
          `${random.int(20, 120)} tasks with automatic checks`,
          'Hints and theory for every lesson',
          'Progress saved in the IDE',
        ]),
        courseLanguage: language,
        tags: course.tags,
      };
    }
    case 'teamcity': {
      const service = random.pick(TEAMCITY_SERVICES);
      const kind = random.pick(['Notifier', 'Build Reporter', 'Integration'] as const);
      const name = `${service} ${kind}`;
      const preview = `Sends TeamCity build results to ${service}.`;
      return {
        name,
        preview,
        description: describe(preview, ['Per-project rules', 'Failed-build mentions', 'Message templates']),
        courseLanguage: null,
        tags:
          kind === 'Build Reporter'
            ? ['Reports', 'Notifications']
            : kind === 'Integration'
              ? ['Tools integration', 'Notifications']
              : ['Notifications', 'Tools integration'],
      };
    }
    case 'teamcity_recipes': {
      const tool = random.pick(TOOLS);
      const step = random.pick(['Publish to', 'Deploy with', 'Run', 'Cache'] as const);
      const name = `${step} ${tool}`;
      const preview = `A build step recipe: ${name.toLowerCase()} in one step.`;
      return {
        name,
        preview,
        description: describe(preview, [
          'Works with any build agent',
          'Parameters with defaults',
          'Readable logs',
        ]),
        courseLanguage: null,
        tags: uniqueTags([RECIPE_STEP_TAGS[step], TOOL_TAGS[tool]]),
      };
    }
    case 'hub': {
      const widget = random.pick(HUB_WIDGETS);
      const name = `${widget} Widget`;
      const preview = `A dashboard widget that shows ${widget.toLowerCase()} at a glance.`;
      return {
        name,
        preview,
        description: describe(preview, ['Auto-refresh', 'Filters by project', 'Compact and full sizes']),
        courseLanguage: null,
        tags: HUB_WIDGET_TAGS[widget],
      };
    }
    case 'youtrack': {
      const app = random.pick(YOUTRACK_APPS);
      const name = `${app}`;
      const preview = `${app} for YouTrack projects.`;
      return {
        name,
        preview,
        description: describe(preview, ['Configurable per project', 'Works with workflows', 'Export to CSV']),
        courseLanguage: null,
        tags: YOUTRACK_APP_TAGS[app],
      };
    }
    case 'space': {
      const app = random.pick(SPACE_APPS);
      const preview = `A ${app.toLowerCase()} for your team's chats.`;
      return {
        name: app,
        preview,
        description: describe(preview, ['Slash commands', 'Scheduled messages', 'Per-channel settings']),
        courseLanguage: null,
        tags: SPACE_APP_TAGS[app],
      };
    }
    case 'toolbox': {
      const app = random.pick(TOOLBOX_APPS);
      const preview = `${app} for the Toolbox App.`;
      return {
        name: app,
        preview,
        description: describe(preview, ['One-click setup', 'Works offline', 'Keeps IDEs in sync']),
        courseLanguage: null,
        tags: TOOLBOX_APP_TAGS[app],
      };
    }
    case 'fleet': {
      const language = random.pick(LANGUAGES_BY_ECOSYSTEM);
      const name = `${language} for Fleet`;
      const preview = `${language} support for Fleet: highlighting, completion and navigation.`;
      return {
        name,
        preview,
        ecosystem: language,
        description: describe(preview, ['Syntax highlighting', 'Smart completion', 'Go to definition']),
        courseLanguage: null,
        tags: uniqueTags([['Languages'], LANGUAGE_TAGS[language] ?? [], ['Editor', 'Navigation']]),
      };
    }
    case 'dotnet': {
      const tool = random.pick(TOOLS);
      const kind = random.pick(['Support', 'Runner', 'Navigator', 'Inspections'] as const);
      const name = `${tool} ${kind} for ReSharper`;
      const preview = `${tool} in ReSharper and Rider.`;
      return {
        name,
        preview,
        ecosystem: 'C#',
        description: describe(preview, [
          'Inspections and quick-fixes',
          'Navigation',
          'Unit test runner integration',
        ]),
        courseLanguage: null,
        tags: uniqueTags([TOOL_TAGS[tool], RESHARPER_KIND_TAGS[kind]]),
      };
    }
    default: {
      const kind = random.weighted([
        ['language', 3],
        ['tool', 3],
        ['code', 4],
      ] as const);
      if (kind === 'language') {
        const language = random.pick(LANGUAGES_BY_ECOSYSTEM);
        const kind = random.pick(['Support', 'Language', 'Toolkit', 'Tools', 'Inspections'] as const);
        const name = `${language} ${kind}`;
        const preview = `${language} support: highlighting, completion, inspections and refactorings.`;
        return {
          name,
          preview,
          ecosystem: language,
          dependency: LANGUAGE_DEPENDENCIES[language],
          description: describe(
            preview,
            ['Syntax and semantic highlighting', 'Code completion', 'Structure view', 'Formatter'],
            'Contributions are welcome.',
          ),
          courseLanguage: null,
          tags: uniqueTags([
            ['Languages'],
            LANGUAGE_TAGS[language] ?? [],
            kind === 'Inspections' ? ['Code Style'] : ['Refactoring', 'Navigation'],
          ]),
        };
      }
      if (kind === 'tool') {
        const tool = random.pick(TOOLS);
        const kind = random.pick(['Integration', 'Support', 'Assistant', 'Runner', 'Explorer'] as const);
        const name = `${tool} ${kind}`;
        const preview = `Work with ${tool} without leaving the IDE.`;
        return {
          name,
          preview,
          description: describe(preview, [
            `${tool} tool window`,
            'Run configurations',
            'Inline problems',
            'Quick documentation',
          ]),
          courseLanguage: null,
          // An assistant is the AI-powered kind.
          tags: uniqueTags([
            kind === 'Assistant' ? ['AI-Powered'] : [],
            TOOL_TAGS[tool],
            ['Tools integration'],
          ]),
        };
      }
      const name = random.pick(CODE_TOOL_NOUNS);
      const preview = `${name} makes everyday editing faster.`;
      return {
        name,
        preview,
        description: describe(preview, [
          'Configurable shortcuts',
          'Works in every language',
          'Lightweight and fast',
        ]),
        courseLanguage: null,
        tags: CODE_TOOL_TAGS[name],
      };
    }
  }
}

function lifecycleFor(random: DemoRandom, index: number) {
  const published = {
    lifecycleState: 'published' as LifecycleState,
    approved: true,
    blockState: 'none' as BlockState,
    hidden: false,
  };
  // The developer's items show each state a developer meets: one awaits approval.
  if (index === 4) return { ...published, approved: false };
  if (index < DEVELOPER_OWNED_PLUGINS) return published;
  return random.weighted<typeof published>([
    [published, 960],
    [{ ...published, hidden: true }, 10],
    [{ ...published, blockState: 'blocked' }, 5],
    [{ ...published, blockState: 'partial' }, 3],
    [{ ...published, lifecycleState: 'removal_requested' }, 5],
    [{ ...published, lifecycleState: 'draft', approved: false }, 7],
    [{ ...published, approved: false }, 10],
  ]);
}

/** What a build-step recipe is tagged with first, by what the step does. */
const RECIPE_STEP_TAGS = {
  'Publish to': ['Publishing'],
  'Deploy with': ['Deployment'],
  Run: ['Build'],
  Cache: ['Build'],
} as const satisfies Record<string, readonly DemoTagName[]>;

/** What a ReSharper extension adds to its tool's tags, by what it does. */
const RESHARPER_KIND_TAGS = {
  Support: ['Framework integration'],
  Runner: ['Unit testing'],
  Navigator: ['Navigation'],
  Inspections: ['Code Style'],
} as const satisfies Record<string, readonly DemoTagName[]>;

function uniqueTags(groups: ReadonlyArray<readonly DemoTagName[]>): DemoTagName[] {
  return [...new Set(groups.flat())];
}

const TAG_IDS: ReadonlyMap<string, number> = new Map(DEMO_TAGS.map((tag) => [tag.name, tag.id]));

/**
 * One to three of the tags that describe the item, the first always; now and then an editor's pick. It draws
 * as many numbers as ever (one per tag), so every other value of an item stays the same for a seed.
 */
function tagsFor(
  random: DemoRandom,
  family: ProductFamily,
  isTheme: boolean,
  fitting: readonly DemoTagName[],
): number[] {
  if (isTheme) return [THEME_TAG_ID];
  const draws = Array.from({ length: random.int(1, 3) }, () => random.next());
  const [first, ...others] = fitting;
  const names: string[] = first === undefined ? [] : [first];
  for (const draw of draws.slice(1)) {
    const [picked] = others.splice(Math.floor(draw * others.length), 1);
    if (picked !== undefined) names.push(picked);
  }
  const tags = names.map((name) => TAG_IDS.get(name) as number);
  if (family === 'intellij' && random.chance(0.03)) tags.push(TAG_IDS.get('Staff Picks') as number);
  return tags.sort((a, b) => a - b);
}

function themesFor(random: DemoRandom, name: string): Array<{ name: string; dark: boolean }> {
  const base = name.replace(/ Theme$/, '');
  return random.weighted([
    [[{ name: `${base} Dark`, dark: true }], 4],
    [[{ name: `${base} Light`, dark: false }], 1],
    [
      [
        { name: `${base} Dark`, dark: true },
        { name: `${base} Light`, dark: false },
      ],
      4,
    ],
    [
      [
        { name: `${base} Dark`, dark: true },
        { name: `${base} Darker`, dark: true },
        { name: `${base} Light`, dark: false },
      ],
      1,
    ],
  ]);
}

function productsFor(
  random: DemoRandom,
  family: ProductFamily,
  ecosystem: string | undefined,
  courseLanguage: ProgrammingLanguage | null,
): IdeProductKey[] {
  if (family === 'edu' && courseLanguage)
    return productsForCourseLanguage(courseLanguage).map((product) => product.key);
  const fixed = FAMILY_PRODUCTS[family];
  if (fixed) return [...fixed];
  if (ecosystem && LANGUAGE_PRODUCTS[ecosystem])
    return [...(LANGUAGE_PRODUCTS[ecosystem] as IdeProductKey[])];
  return random.chance(0.8) ? [...UNIVERSAL_PRODUCTS] : random.sample(UNIVERSAL_PRODUCTS, random.int(2, 6));
}

function screenshotsFor(
  random: DemoRandom,
  isTheme: boolean,
  themes: Array<{ name: string; dark: boolean }>,
) {
  if (isTheme) return themes.map((theme) => ({ title: theme.name, dark: theme.dark }));
  if (!random.chance(0.45)) return [];
  return Array.from({ length: random.int(1, 4) }, (_, index) => ({
    title: ['Overview', 'Settings', 'In action', 'Tool window'][index] as string,
    dark: random.chance(0.6),
  }));
}

function docTabsFor(random: DemoRandom, name: string) {
  if (!random.chance(0.1)) return [];
  const tabs = [
    {
      tabName: 'Getting started',
      urlSuffix: 'getting-started',
      generateToc: true,
      html: `<h2>Install</h2><p>Install ${escapeHtml(name)} from the IDE's plugin settings.</p><h2>Configure</h2><p>Open Settings and find ${escapeHtml(name)} under Tools.</p>`,
    },
    {
      tabName: 'FAQ',
      urlSuffix: 'faq',
      generateToc: false,
      html: `<h2>Does it work offline?</h2><p>Yes, nothing leaves your machine.</p><h2>Where do I report problems?</h2><p>Use the issue tracker linked on this page.</p>`,
    },
  ];
  return tabs.slice(0, random.int(1, 2));
}

function linksFor(random: DemoRandom, vendor: DemoVendor) {
  const links: Array<{ kind: PluginLinkKind; title: string; url: string }> = [];
  if (random.chance(0.08))
    links.push({ kind: 'donation', title: 'Sponsor the project', url: `https://${vendor.domain}/sponsor` });
  if (random.chance(0.05))
    links.push({ kind: 'custom_contact', title: 'Community chat', url: `https://chat.${vendor.domain}` });
  return links;
}

interface VersionPlan {
  ageDays: number;
  createdAt: Date;
  family: ProductFamily;
  slug: string;
  daysAgo: (days: number, random?: DemoRandom) => Date;
  firstVersionId: number;
  dependencies: string[];
  pendingUpdate: boolean;
}

function generateVersions(random: DemoRandom, plan: VersionPlan): DemoVersion[] {
  const count = Math.max(1, Math.min(12, 1 + random.poisson(plan.ageDays / 160)));
  const ages = [plan.ageDays];
  for (let index = 1; index < count; index++) ages.push(random.int(1, Math.max(1, plan.ageDays - 1)));
  const sortedAges = [...new Set(ages)].sort((a, b) => b - a);
  let [major, minor, patch] = random.chance(0.3) ? [0, 1, 0] : [1, 0, 0];
  const versions: DemoVersion[] = [];
  const supportLag = random.weighted([
    [0, 2],
    [1, 4],
    [2, 3],
    [3, 1],
  ]);
  const untilStyle = random.weighted([
    ['open', 45],
    ['branch', 40],
    ['next', 15],
  ] as const);
  sortedAges.forEach((age, position) => {
    if (position > 0) {
      const step = random.weighted([
        ['patch', 70],
        ['minor', 25],
        ['major', 5],
      ] as const);
      if (step === 'major') [major, minor, patch] = [major + 1, 0, 0];
      else if (step === 'minor') [minor, patch] = [minor + 1, 0];
      else patch += 1;
    }
    const branchIndex = branchIndexAt(age);
    const sinceBranch = BRANCHES[Math.max(0, branchIndex - supportLag)] as number;
    const sinceBuild = random.chance(0.3) ? `${sinceBranch}.${BRANCH_BUILDS[sinceBranch]}` : `${sinceBranch}`;
    const isNewest = position === sortedAges.length - 1;
    const untilBranch =
      untilStyle === 'next'
        ? BRANCHES[Math.min(BRANCHES.length - 1, branchIndex + 1)]
        : BRANCHES[branchIndex];
    // Older versions were closed when the next IDE release came; the newest may stay open.
    const untilBuild = untilStyle === 'open' && isNewest ? null : `${untilBranch}.*`;
    const version = `${major}.${minor}.${patch}`;
    versions.push(
      makeVersion(random, plan, {
        id: plan.firstVersionId + versions.length,
        version,
        channel: '',
        sinceBuild,
        untilBuild,
        createdAt: plan.daysAgo(age, random),
        approvalState: plan.pendingUpdate && isNewest ? 'pending' : 'approved',
      }),
    );
  });
  const newestAge = sortedAges.at(-1) as number;
  if (newestAge > 3 && random.chance(0.12)) {
    const branchIndex = BRANCHES.length - 1;
    const eapAge = random.int(1, newestAge - 1);
    versions.push(
      makeVersion(random, plan, {
        id: plan.firstVersionId + versions.length,
        version: `${major}.${minor + 1}.0-eap.${random.int(1, 4)}`,
        channel: 'eap',
        sinceBuild: `${BRANCHES[branchIndex]}`,
        untilBuild: null,
        createdAt: plan.daysAgo(eapAge, random),
        approvalState: 'approved',
      }),
    );
  }
  if (versions.length > 2 && random.chance(0.03)) {
    const withdrawn = versions[versions.length - 2] as DemoVersion;
    if (withdrawn.channel === '') withdrawn.hidden = true;
  }
  return versions;
}

function makeVersion(
  random: DemoRandom,
  plan: VersionPlan,
  fields: Pick<
    DemoVersion,
    'id' | 'version' | 'channel' | 'sinceBuild' | 'untilBuild' | 'createdAt' | 'approvalState'
  >,
): DemoVersion {
  const notes = random.sample(CHANGE_NOTES, random.int(1, 4));
  const packaging = random.chance(0.7) ? 'jar' : 'zip';
  return {
    ...fields,
    notes: `<ul>${notes.map((note) => `<li>${escapeHtml(note)}</li>`).join('')}</ul>`,
    dependencies: plan.dependencies,
    hidden: false,
    packaging,
    fileName: `${plan.slug}-${fields.version}.${packaging}`,
    downloads: 0,
    product: null,
  };
}

function generateDownloads(
  random: DemoRandom,
  input: {
    versions: DemoVersion[];
    baseDaily: number;
    createdAt: Date;
    today: Date;
    dayTexts: readonly string[];
  },
): DemoPlugin['dailyDownloads'] {
  const { versions, baseDaily, createdAt, today, dayTexts } = input;
  const result: DemoPlugin['dailyDownloads'] = { versionIds: [], days: [], counts: [] };
  const windowStart = today.getTime() - (DOWNLOAD_HISTORY_DAYS - 1) * DAY_MS;
  const stable = versions.filter(
    (version) => version.channel === '' && !version.hidden && version.approvalState === 'approved',
  );
  const eap = versions.filter((version) => version.channel !== '');
  const counted = stable.length > 0 ? stable : versions;
  const growth = random.normal(0.3, 0.5);
  const releaseTimes = counted.map((version) => version.createdAt.getTime());

  // Downloads before the history window, for items older than it: spread over the versions of that time.
  const preWindowDays = Math.max(0, Math.floor((windowStart - createdAt.getTime()) / DAY_MS));
  if (preWindowDays > 0) {
    const early = counted.filter((version) => version.createdAt.getTime() < windowStart);
    const pool = early.length > 0 ? early : [counted[0] as DemoVersion];
    const total = Math.round(baseDaily * preWindowDays * 0.6);
    const share = Math.floor(total / pool.length);
    pool.forEach((version, index) => {
      version.downloads += share + (index === 0 ? total - share * pool.length : 0);
    });
  }

  let current = 0;
  let currentEap = -1;
  const firstDayNumber = Math.floor(windowStart / DAY_MS);
  for (let day = 0; day < DOWNLOAD_HISTORY_DAYS; day++) {
    const dayStart = windowStart + day * DAY_MS;
    const dayEnd = dayStart + DAY_MS;
    if (dayEnd <= createdAt.getTime()) continue;
    while (current + 1 < counted.length && (releaseTimes[current + 1] as number) < dayEnd) current++;
    const version = counted[current] as DemoVersion;
    if (version.createdAt.getTime() >= dayEnd) continue;
    const trend = Math.max(0.15, 1 + growth * ((day - DOWNLOAD_HISTORY_DAYS) / DOWNLOAD_HISTORY_DAYS));
    // 1 January 1970 was a Thursday (day 4 of the week, Sunday being 0).
    const weekday = (firstDayNumber + day + 4) % 7;
    const weekly = weekday === 0 || weekday === 6 ? 0.62 : 1.08;
    const sinceRelease = (dayStart - (releaseTimes[current] as number)) / DAY_MS;
    const release = 1 + 1.6 * Math.exp(-Math.max(0, sinceRelease) / 4);
    const count = random.poisson(baseDaily * trend * weekly * release);
    const dayText = dayTexts[day] as string;
    if (count > 0) {
      result.versionIds.push(version.id);
      result.days.push(dayText);
      result.counts.push(count);
      version.downloads += count;
    }
    while (currentEap + 1 < eap.length && (eap[currentEap + 1] as DemoVersion).createdAt.getTime() < dayEnd) {
      currentEap++;
    }
    const eapVersion = currentEap >= 0 ? eap[currentEap] : undefined;
    if (eapVersion) {
      const eapCount = random.poisson(baseDaily * 0.06 * release);
      if (eapCount > 0) {
        result.versionIds.push(eapVersion.id);
        result.days.push(dayText);
        result.counts.push(eapCount);
        eapVersion.downloads += eapCount;
      }
    }
  }
  return result;
}

function generateReviews(
  random: DemoRandom,
  input: {
    reviewerIds: number[];
    baseDaily: number;
    ageDays: number;
    quality: number;
    firstReviewId: number;
    createdAt: Date;
    today: Date;
    replierId: number | undefined;
  },
): DemoReview[] {
  const expected = Math.min(40, Math.log1p(input.baseDaily) * 3 * Math.min(1, input.ageDays / 200));
  const count = Math.min(input.reviewerIds.length, random.poisson(expected));
  const authors = random
    .distinctIndexes(input.reviewerIds.length, count)
    .map((index) => input.reviewerIds[index] as number);
  const span = Math.max(1, input.today.getTime() - input.createdAt.getTime());
  const reviews = authors.map((authorId, index): DemoReview => {
    const rating = Math.max(1, Math.min(5, Math.round(random.normal(input.quality, 0.9)))) as
      1 | 2 | 3 | 4 | 5;
    const createdAt = new Date(input.createdAt.getTime() + Math.floor(random.next() * span));
    const categories = random.chance(0.55)
      ? random.sample(RATING_CATEGORIES, random.int(2, RATING_CATEGORIES.length)).map((category) => ({
          category,
          rating: Math.max(1, Math.min(5, rating + random.int(-1, 1))),
        }))
      : [];
    const review: DemoReview = {
      id: input.firstReviewId + index,
      authorId,
      rating,
      text: random.pick(REVIEW_TEXTS[rating]),
      createdAt,
      categories,
    };
    if (input.replierId !== undefined && random.chance(0.4)) {
      review.reply = {
        authorId: input.replierId,
        text: random.pick(REPLY_TEXTS),
        createdAt: new Date(
          Math.min(input.today.getTime(), createdAt.getTime() + random.int(1, 72) * 3_600_000),
        ),
      };
    }
    return review;
  });
  return reviews.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id);
}
