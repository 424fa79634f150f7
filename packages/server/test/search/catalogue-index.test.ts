import fc from 'fast-check';
import {
  IDE_PRODUCTS,
  type IdeProductKey,
  type PricingModel,
  type ProductFamily,
  type SortOrder,
} from '@marketplace/core';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  CatalogueIndex,
  firstOf,
  type IndexedPlugin,
  type SearchRequest,
  type StemsOf,
} from '../../src/search/catalogue-index';
import { searchWords } from '../../src/search/search-text';
import type { Viewer } from '../../src/search/sql';

const DAY = 24 * 60 * 60 * 1000;
const day = (n: number) => Date.UTC(2024, 0, 1) + n * DAY;

/** English stems as PostgreSQL gives them for the words these tests type; '' for stop words. */
const STEMS = new Map([
  ['for', ''],
  ['the', ''],
  ['and', ''],
  ['tools', 'tool'],
  ['containers', 'contain'],
  ['running', 'run'],
  ['debugger', 'debugg'],
  ['languages', 'languag'],
  ['jetbrains', 'jetbrain'],
  ['formatting', 'format'],
  ['testing', 'test'],
  ['compose', 'compos'],
  ['kubernetes', 'kubernet'],
]);
const stemsOf: StemsOf = (word) => STEMS.get(word) ?? word;

const VISITOR = undefined;
const ADMIN: Viewer = { userId: 1, isAdmin: true };
const OWNER: Viewer = { userId: 42, isAdmin: false };
const DEVELOPER: Viewer = { userId: 43, isAdmin: false };
const STRANGER: Viewer = { userId: 99, isAdmin: false };

interface Draft {
  id: number;
  name: string;
  /** The tsvector text: name words A, xmlId/vendor/tags B, description C. */
  vector: string;
  xmlId?: string;
  vendor?: string;
  tags?: string[];
  family?: ProductFamily;
  pricingModel?: PricingModel;
  listed?: boolean;
  deleted?: boolean;
  ownerId?: number | null;
  developerIds?: number[];
  products?: IdeProductKey[];
  programs?: string[];
  downloads?: number;
  ratingMean?: number;
  ratingCount?: number;
  updateDate?: number;
  publishedAt?: number | null;
}

/** An indexed plugin as `toIndexedPlugin` builds it from a row, with defaults for what a test leaves out. */
function plugin(draft: Draft): IndexedPlugin {
  const {
    id,
    name,
    vector,
    xmlId = `com.example.plugin${id}`,
    vendor = 'Acme',
    tags = [],
    family = 'intellij',
    pricingModel = 'FREE',
    listed = true,
    deleted = false,
    ownerId = null,
    developerIds = [],
    products = [],
    programs = [],
    downloads = 100,
    ratingMean = 4,
    ratingCount = 10,
    updateDate = day(100),
    publishedAt = day(10),
  } = draft;
  return {
    id,
    summary: {
      id,
      xmlId,
      name,
      link: `/plugin/${id}`,
      family,
      preview: '',
      icon: '',
      downloads,
      rating: ratingMean,
      pricingModel,
      vendor: { name: vendor, url: '' },
      tags,
      isTheme: false,
      cdate: publishedAt ?? day(0),
      updateDate,
    },
    nameKey: name.toLowerCase(),
    nameWordCount: searchWords(name).length,
    family,
    pricingModel,
    listed,
    deleted,
    ownerId,
    developerIds,
    products,
    programs,
    downloads,
    ratingMean,
    ratingCount,
    updateDate,
    publishedAt,
    searchVector: vector,
  };
}

const DOCKER = 1;
const CONTAINER_TOOLS = 2;
const PYTHON = 3;
const PYTHON_TEST_RUNNER = 4;
const KOTLIN = 5;
const GIT_TOOLBOX = 6;
const BUILD_CHAINS = 7;
const BUILD_WIDGET = 8;
const RAINBOW_PREVIEW = 9;
const LEGACY_DOCKER = 10;
const KOTLIN_SNIPPETS = 11;

/** Listed items every visitor sees. */
const LISTED = [
  DOCKER,
  CONTAINER_TOOLS,
  PYTHON,
  PYTHON_TEST_RUNNER,
  KOTLIN,
  GIT_TOOLBOX,
  BUILD_CHAINS,
  BUILD_WIDGET,
];

const CATALOGUE: Draft[] = [
  {
    id: DOCKER,
    name: 'Docker',
    xmlId: 'Docker',
    vendor: 'JetBrains',
    tags: ['Cloud', 'Deployment'],
    // "Manage Docker containers and images from the IDE."
    vector:
      "'docker':1A,2B 'jetbrain':3B 'cloud':4B 'deploy':5B 'manag':6C 'contain':8C 'imag':10C 'ide':13C",
    downloads: 5_000,
  },
  {
    id: CONTAINER_TOOLS,
    name: 'Container Tools',
    xmlId: 'com.example.containers',
    tags: ['Cloud'],
    // "Run Docker Compose files and Kubernetes pods."
    vector:
      "'contain':1A 'tool':2A 'com.example.containers':3B 'acm':4B 'cloud':5B 'run':6C 'docker':7C " +
      "'compos':8C 'file':9C 'kubernet':11C 'pod':12C",
    pricingModel: 'FREEMIUM',
    products: ['IDEA'],
    programs: ['OPEN_SOURCE', 'STUDENTS'],
    downloads: 90_000,
  },
  {
    id: PYTHON,
    name: 'Python',
    xmlId: 'PythonCore',
    vendor: 'JetBrains',
    tags: ['Languages'],
    // "Python language support with a debugger and test runners."
    vector:
      "'python':1A 'pythoncore':2B 'jetbrain':3B 'languag':4B 'support':7C 'debugg':10C 'test':12C 'runner':13C",
    products: ['IDEA', 'IDEA_COMMUNITY'],
    downloads: 80_000,
  },
  {
    id: PYTHON_TEST_RUNNER,
    name: 'Python Test Runner',
    xmlId: 'org.acme.pytestrunner',
    tags: ['Languages', 'Testing'],
    // "Run pytest and unittest suites from the editor."
    vector:
      "'python':1A 'test':2A,7B 'runner':3A 'org.acme.pytestrunner':4B 'acm':5B 'languag':6B 'run':8C " +
      "'pytest':9C 'unittest':11C 'suit':12C 'editor':15C",
    pricingModel: 'PAID',
    products: ['PYCHARM'],
    programs: ['STUDENTS'],
    downloads: 1_200,
  },
  {
    id: KOTLIN,
    name: 'Kotlin',
    xmlId: 'org.jetbrains.kotlin',
    vendor: 'JetBrains',
    tags: ['Languages'],
    // "Kotlin language support."
    vector: "'kotlin':1A,4C 'org.jetbrains.kotlin':2B 'jetbrain':3B 'languag':4B,5C 'support':6C",
    downloads: 100_000,
  },
  {
    id: GIT_TOOLBOX,
    name: 'Git Toolbox',
    xmlId: 'zielu.gittoolbox',
    vendor: 'Zielu',
    tags: ['VCS Integration'],
    // "Extra Git status in the project view."
    vector:
      "'git':1A,5C 'toolbox':2A 'zielu.gittoolbox':3B 'zielu':4B 'vcs':5B 'integr':6B 'extra':7C " +
      "'status':9C 'project':12C 'view':13C",
    pricingModel: 'FREEMIUM',
    downloads: 20_000,
  },
  {
    id: BUILD_CHAINS,
    name: 'Build Chains',
    family: 'teamcity',
    // "Shows the chains of a TeamCity build."
    vector: "'build':1A,9C 'chain':2A,5C 'acm':3B 'show':4C 'teamciti':8C",
    downloads: 300,
  },
  {
    id: BUILD_WIDGET,
    name: 'Build Status Widget',
    family: 'hub',
    products: ['HUB_WIDGET'],
    // "Build status on the Hub dashboard."
    vector: "'build':1A,5C 'status':2A,6C 'widget':3A 'acm':4B 'hub':9C 'dashboard':10C",
    downloads: 250,
  },
  {
    id: RAINBOW_PREVIEW,
    name: 'Rainbow Brackets Preview',
    listed: false,
    ownerId: 42,
    // "Colours brackets by depth."
    vector: "'rainbow':1A 'bracket':2A,6C 'preview':3A 'acm':4B 'colour':5C 'depth':8C",
    downloads: 10,
    publishedAt: null,
  },
  {
    id: LEGACY_DOCKER,
    name: 'Legacy Docker Support',
    listed: false,
    deleted: true,
    ownerId: 42,
    developerIds: [43],
    // "The old Docker integration."
    vector: "'legaci':1A 'docker':2A,7C 'support':3A 'acm':4B 'old':6C 'integr':8C",
    downloads: 7_000,
  },
  {
    id: KOTLIN_SNIPPETS,
    name: 'Draft Kotlin Snippets',
    listed: false,
    ownerId: 7,
    developerIds: [43],
    // "Snippets for Kotlin."
    vector: "'draft':1A 'kotlin':2A,6C 'snippet':3A,4C 'acm':5B",
    downloads: 3,
  },
];

function indexOf(drafts: Draft[]): CatalogueIndex {
  const index = new CatalogueIndex();
  for (const draft of drafts) index.upsert(plugin(draft));
  return index;
}

function draftOf(id: number): Draft {
  const draft = CATALOGUE.find((entry) => entry.id === id);
  if (!draft) throw new Error(`no plugin ${id} in the catalogue`);
  return draft;
}

describe('CatalogueIndex', () => {
  let index: CatalogueIndex;

  beforeEach(() => {
    index = indexOf(CATALOGUE);
  });

  /** The ids a search finds, in order (every match: 100 is more than the catalogue). */
  function find(request: Partial<SearchRequest>, viewer: Viewer | undefined = VISITOR): number[] {
    return index.search({ max: 100, offset: 0, ...request }, viewer, stemsOf).plugins.map((item) => item.id);
  }

  function findText(search: string, viewer: Viewer | undefined = VISITOR): number[] {
    return find({ search }, viewer);
  }

  function sortedIds(ids: number[]): number[] {
    return [...ids].sort((a, b) => a - b);
  }

  describe('relevance', () => {
    it('ranks a name match above a description-only match with many more downloads', () => {
      expect(findText('docker')).toEqual([DOCKER, CONTAINER_TOOLS]);
    });

    it('ranks the item whose name is exactly the text first', () => {
      expect(findText('python')).toEqual([PYTHON, PYTHON_TEST_RUNNER]);
      expect(findText('python')[0]).toBe(PYTHON);
    });

    it('answers the summary of each item it finds', () => {
      const result = index.search({ search: 'kotlin', max: 10, offset: 0 }, VISITOR, stemsOf);
      expect(result.plugins[0]).toMatchObject({ id: KOTLIN, name: 'Kotlin', xmlId: 'org.jetbrains.kotlin' });
      expect(result.total).toBe(1);
    });

    it('finds a word through its English stem', () => {
      expect(findText('containers')).toEqual([CONTAINER_TOOLS, DOCKER]);
      expect(sortedIds(findText('running'))).toEqual([CONTAINER_TOOLS, PYTHON_TEST_RUNNER]);
      expect(findText('kubernetes')).toEqual([CONTAINER_TOOLS]);
    });
  });

  describe('every typed word must match', () => {
    it('finds only the items holding all the words', () => {
      expect(findText('python runner')).toEqual([PYTHON_TEST_RUNNER, PYTHON]);
      expect(findText('python pytest')).toEqual([PYTHON_TEST_RUNNER]);
      expect(findText('docker compose')).toEqual([CONTAINER_TOOLS]);
    });

    it('finds nothing when no item holds all the words', () => {
      const result = index.search({ search: 'python kotlin', max: 10, offset: 0 }, VISITOR, stemsOf);
      expect(result).toEqual({ plugins: [], total: 0 });
    });

    it('does not require English stop words', () => {
      expect(findText('runner for the python')).toEqual(findText('runner python'));
      expect(findText('tools for containers')).toEqual([CONTAINER_TOOLS]);
    });

    it('lets stop words add to the score without removing items that lack them', () => {
      const markdown = indexOf([
        { id: 1, name: 'Markdown Preview', vector: "'markdown':1A 'preview':2A 'render':4C", downloads: 500 },
        // "Edit Markdown with formatting."
        {
          id: 2,
          name: 'Markdown Editor',
          vector: "'markdown':1A 'editor':2A 'edit':3C 'format':6C",
          downloads: 100,
        },
      ]);
      const ids = (search: string) =>
        markdown.search({ search, max: 10, offset: 0 }, VISITOR, stemsOf).plugins.map((item) => item.id);
      expect(ids('markdown')).toEqual([1, 2]);
      // "for" is left out by English but begins "format": the editor now ranks first, the preview stays.
      expect(ids('markdown for')).toEqual([2, 1]);
    });

    it('searches stop words when the text holds nothing else', () => {
      // Every word is a stop word: they are all required, so "the" finds the items with a word beginning so.
      const themes = indexOf([
        { id: 1, name: 'Dark Theme', vector: "'dark':1A 'theme':2A" },
        { id: 2, name: 'Docker', vector: "'docker':1A" },
      ]);
      const result = themes.search({ search: 'the', max: 10, offset: 0 }, VISITOR, stemsOf);
      expect(result.plugins.map((item) => item.id)).toEqual([1]);
    });
  });

  describe('prefixes', () => {
    it('finds longer words from a prefix of two letters or more', () => {
      expect(sortedIds(findText('pyth'))).toEqual([PYTHON, PYTHON_TEST_RUNNER]);
      expect(findText('ko')).toEqual([KOTLIN]);
      expect(findText('kubern')).toEqual([CONTAINER_TOOLS]);
    });

    it('does not treat a single letter as a prefix', () => {
      expect(findText('k')).toEqual([]);
    });

    it('finds words of every field by prefix', () => {
      // "run" is a word of the container tools' description and begins "runner" in Python's.
      expect(sortedIds(findText('run'))).toEqual([CONTAINER_TOOLS, PYTHON, PYTHON_TEST_RUNNER]);
      expect(findText('zie')).toEqual([GIT_TOOLBOX]);
    });

    it('does not find a word inside a longer word, only at its start', () => {
      // "pytest" holds "test" but does not begin with it: Python is found by "test" in its description.
      expect(findText('test')).toEqual([PYTHON_TEST_RUNNER, PYTHON]);
      expect(findText('toolbox')).toEqual([GIT_TOOLBOX]);
      expect(findText('tainer')).toEqual([]);
      expect(findText('box')).toEqual([]);
    });

    it('ranks an exact word above a word it only begins, in the same field', () => {
      const runners = indexOf([
        { id: 1, name: 'Run Configurations', vector: "'run':1A 'configur':2A", downloads: 10 },
        { id: 2, name: 'Runner Tools', vector: "'runner':1A 'tool':2A", downloads: 10_000 },
      ]);
      const result = runners.search({ search: 'run', max: 10, offset: 0 }, VISITOR, stemsOf);
      expect(result.plugins.map((item) => item.id)).toEqual([1, 2]);
    });
  });

  describe('typing mistakes', () => {
    it('finds names one mistake away', () => {
      expect(findText('kotln')).toEqual([KOTLIN]);
      expect(findText('dokcer')).toEqual([DOCKER]);
      expect(findText('gti toolbox')).toEqual([GIT_TOOLBOX]);
      expect(findText('toolbx')).toEqual([GIT_TOOLBOX]);
    });

    it('does not correct a word that begins a word of some name', () => {
      const index = indexOf([
        { id: 1, name: 'Gradle', vector: "'gradl':1A", downloads: 10 },
        { id: 2, name: 'Gradel Runner', vector: "'gradel':1A 'runner':2A", downloads: 100_000 },
      ]);
      const ids = index.search({ search: 'gradel', max: 10, offset: 0 }, VISITOR, stemsOf).plugins;
      expect(ids.map((item) => item.id)).toEqual([2]);
    });

    it('corrects a word when the only name beginning with it is one the viewer cannot see', () => {
      const index = indexOf([
        { id: 1, name: 'Gradle', vector: "'gradl':1A", downloads: 10 },
        { id: 2, name: 'Gradel Runner', vector: "'gradel':1A 'runner':2A", listed: false },
        { id: 3, name: 'Gradex', vector: "'gradex':1A" },
      ]);
      const ids = () =>
        index
          .search({ search: 'gradel', max: 10, offset: 0 }, VISITOR, stemsOf)
          .plugins.map((item) => item.id)
          .sort((a, b) => a - b);
      expect(ids()).toEqual([1, 3]);
      index.remove(2);
      expect(ids()).toEqual([1, 3]);
    });

    it('ranks the item named exactly as typed first when English shortens the word', () => {
      const index = indexOf([
        { id: 1, name: 'Tools', vector: "'tool':1A", downloads: 10 },
        { id: 2, name: 'Database Tools', vector: "'databas':1A 'tool':2A", downloads: 5000 },
        { id: 3, name: 'Toolbox', vector: "'toolbox':1A", downloads: 9000 },
      ]);
      const found = index.search({ search: 'tools', max: 10, offset: 0 }, VISITOR, stemsOf);
      expect(found.plugins.map((item) => item.id)).toEqual([1, 2]);
    });

    it('finds a name two mistakes away for a word of 8 letters or more', () => {
      expect(findText('kontainr')).toEqual([CONTAINER_TOOLS]);
      expect(findText('kontanr')).toEqual([]);
    });

    it('does not correct words of the description, or words under 3 letters', () => {
      expect(findText('kubernetz')).toEqual([]);
      expect(findText('gt')).toEqual([]);
    });

    it('does not find names two mistakes away from a short word', () => {
      expect(findText('ktln')).toEqual([]);
    });

    it('shows typo matches only to those who may see the item', () => {
      expect(findText('dokcer', ADMIN)).toEqual([DOCKER, LEGACY_DOCKER]);
      expect(findText('dokcer', OWNER)).toEqual([DOCKER]);
    });
  });

  describe('xmlId', () => {
    it('finds the item by its exact xmlId, in any case, first', () => {
      expect(findText('zielu.gittoolbox')).toEqual([GIT_TOOLBOX]);
      expect(findText('ORG.JetBrains.Kotlin')[0]).toBe(KOTLIN);
      expect(findText('Docker')[0]).toBe(DOCKER);
    });

    it('finds the item by its xmlId even when the words of the xmlId are not in its text', () => {
      const index = indexOf([
        { id: 1, name: 'Rainbow', xmlId: 'izhangzhihao.rainbow.brackets', vector: "'rainbow':1A" },
        { id: 2, name: 'Brackets', vector: "'bracket':1A" },
      ]);
      const result = index.search(
        { search: 'izhangzhihao.rainbow.brackets', max: 10, offset: 0 },
        VISITOR,
        stemsOf,
      );
      expect(result.plugins.map((item) => item.id)).toEqual([1]);
      expect(result.total).toBe(1);
    });

    it('does not show an unlisted item to a visitor through its xmlId', () => {
      const index = indexOf([
        { id: 1, name: 'Hidden', xmlId: 'com.example.hidden', vector: "'hidden':1A", listed: false },
      ]);
      const result = index.search({ search: 'com.example.hidden', max: 10, offset: 0 }, VISITOR, stemsOf);
      expect(result.total).toBe(0);
    });
  });

  describe('who sees what', () => {
    it('shows visitors only listed items', () => {
      expect(sortedIds(find({}))).toEqual(LISTED);
      expect(index.search({ max: 0, offset: 0 }, VISITOR, stemsOf).total).toBe(LISTED.length);
    });

    it('shows owners their own unlisted items, but not their deleted ones', () => {
      expect(sortedIds(find({}, OWNER))).toEqual(sortedIds([...LISTED, RAINBOW_PREVIEW]));
      expect(findText('docker', OWNER)).toEqual([DOCKER, CONTAINER_TOOLS]);
    });

    it('shows developers the unlisted items they develop, but not deleted ones', () => {
      expect(sortedIds(find({}, DEVELOPER))).toEqual(sortedIds([...LISTED, KOTLIN_SNIPPETS]));
      expect(findText('kotlin', DEVELOPER)).toEqual([KOTLIN, KOTLIN_SNIPPETS]);
    });

    it('shows other signed-in users only listed items', () => {
      expect(sortedIds(find({}, STRANGER))).toEqual(LISTED);
      expect(findText('rainbow', STRANGER)).toEqual([]);
    });

    it('shows administrators everything, deleted items included', () => {
      expect(sortedIds(find({}, ADMIN))).toEqual(CATALOGUE.map((draft) => draft.id));
      expect(findText('docker', ADMIN)).toEqual([DOCKER, LEGACY_DOCKER, CONTAINER_TOOLS]);
    });
  });

  describe('filters', () => {
    it('keeps one family', () => {
      expect(find({ family: 'teamcity' })).toEqual([BUILD_CHAINS]);
      expect(find({ family: 'hub' })).toEqual([BUILD_WIDGET]);
      expect(find({ family: 'fleet' })).toEqual([]);
      expect(find({ search: 'build', family: 'hub' })).toEqual([BUILD_WIDGET]);
    });

    it('keeps free items for payment "free"', () => {
      expect(sortedIds(find({ payment: 'free' }))).toEqual([
        DOCKER,
        PYTHON,
        KOTLIN,
        BUILD_CHAINS,
        BUILD_WIDGET,
      ]);
    });

    it('keeps paid and freemium items for payment "paid"', () => {
      expect(sortedIds(find({ payment: 'paid' }))).toEqual([
        CONTAINER_TOOLS,
        PYTHON_TEST_RUNNER,
        GIT_TOOLBOX,
      ]);
      expect(find({ payment: 'paid', search: 'python' })).toEqual([PYTHON_TEST_RUNNER]);
    });

    it('keeps items offering any of the community programs asked for', () => {
      expect(sortedIds(find({ communityPrograms: ['STUDENTS'] }))).toEqual([
        CONTAINER_TOOLS,
        PYTHON_TEST_RUNNER,
      ]);
      expect(find({ communityPrograms: ['OPEN_SOURCE'] })).toEqual([CONTAINER_TOOLS]);
      expect(sortedIds(find({ communityPrograms: ['OPEN_SOURCE', 'STUDENTS'] }))).toEqual([
        CONTAINER_TOOLS,
        PYTHON_TEST_RUNNER,
      ]);
      expect(find({ communityPrograms: ['STARTUPS'] })).toEqual([]);
      expect(find({ communityPrograms: ['STUDENTS'], search: 'python' })).toEqual([PYTHON_TEST_RUNNER]);
    });

    it('keeps everything for payment "all"', () => {
      expect(sortedIds(find({ payment: 'all' }))).toEqual(LISTED);
    });

    it('keeps items carrying every tag asked for, whatever its case', () => {
      expect(sortedIds(find({ tags: ['Languages'] }))).toEqual([PYTHON, PYTHON_TEST_RUNNER, KOTLIN]);
      expect(sortedIds(find({ tags: ['languages'] }))).toEqual([PYTHON, PYTHON_TEST_RUNNER, KOTLIN]);
      expect(find({ tags: ['LANGUAGES', 'testing'] })).toEqual([PYTHON_TEST_RUNNER]);
      expect(find({ tags: ['Languages', 'Cloud'] })).toEqual([]);
      expect(find({ tags: ['No Such Tag'] })).toEqual([]);
    });

    it('keeps items running on any of the products: named, or naming none in the product family', () => {
      expect(sortedIds(find({ products: ['PYCHARM'] }))).toEqual([
        DOCKER,
        PYTHON_TEST_RUNNER,
        KOTLIN,
        GIT_TOOLBOX,
      ]);
      expect(sortedIds(find({ products: ['PYCHARM', 'IDEA'] }))).toEqual([
        DOCKER,
        CONTAINER_TOOLS,
        PYTHON,
        PYTHON_TEST_RUNNER,
        KOTLIN,
        GIT_TOOLBOX,
      ]);
      expect(find({ products: ['TEAMCITY'] })).toEqual([BUILD_CHAINS]);
      expect(find({ products: ['HUB_WIDGET'] })).toEqual([BUILD_WIDGET]);
      // Same family as the widget (hub), but the widget names only HUB_WIDGET.
      expect(IDE_PRODUCTS.YOUTRACK_WIDGET.family).toBe('hub');
      expect(find({ products: ['YOUTRACK_WIDGET'] })).toEqual([]);
      expect(find({ products: ['FLEET'] })).toEqual([]);
    });

    it('combines the filters with each other and with the text', () => {
      expect(find({ search: 'python', products: ['IDEA_COMMUNITY'] })).toEqual([PYTHON]);
      expect(find({ search: 'docker', products: ['WEBSTORM'] })).toEqual([DOCKER]);
      expect(find({ family: 'intellij', payment: 'paid', tags: ['cloud'] })).toEqual([CONTAINER_TOOLS]);
      expect(
        index.search({ search: 'python', products: ['PYCHARM'], max: 10, offset: 0 }, VISITOR, stemsOf),
      ).toEqual({ plugins: [expect.objectContaining({ id: PYTHON_TEST_RUNNER })], total: 1 });
    });
  });

  describe('sort orders', () => {
    /**
     * Ties on purpose: 1 and 2 share downloads and update date, 2 and 3 share a name apart from case, 1 and
     * 4 share a publish date, 1 and 2 share rating and count; 3 is unpublished (administrators see it).
     */
    const ORDERED: Draft[] = [
      {
        id: 1,
        name: 'beta',
        vector: "'beta':1A 'widget':3C",
        downloads: 100,
        updateDate: day(3),
        publishedAt: day(2),
        ratingMean: 4.5,
        ratingCount: 20,
      },
      {
        id: 2,
        name: 'Alpha',
        vector: "'alpha':1A 'widget':3C",
        downloads: 100,
        updateDate: day(3),
        publishedAt: day(1),
        ratingMean: 4.5,
        ratingCount: 20,
      },
      {
        id: 3,
        name: 'alpha',
        vector: "'alpha':1A 'widget':3C",
        downloads: 50,
        updateDate: day(5),
        publishedAt: null,
        ratingMean: 4.8,
        ratingCount: 1,
      },
      {
        id: 4,
        name: 'Gamma',
        vector: "'gamma':1A 'widget':3C",
        downloads: 300,
        updateDate: day(1),
        publishedAt: day(2),
        ratingMean: 4.5,
        ratingCount: 30,
      },
    ];
    const EXPECTED: Record<SortOrder, number[]> = {
      // Without text, relevance is the downloads order.
      relevance: [4, 2, 1, 3],
      downloads: [4, 2, 1, 3],
      downloads_asc: [3, 1, 2, 4],
      'update date': [3, 2, 1, 4],
      'publish date': [3, 4, 1, 2],
      name: [2, 3, 1, 4],
      rating: [3, 4, 2, 1],
      rating_asc: [1, 2, 4, 3],
    };
    const orderedIndex = () => indexOf(ORDERED);
    const idsIn = (catalogue: CatalogueIndex, request: Partial<SearchRequest>) =>
      catalogue.search({ max: 100, offset: 0, ...request }, ADMIN, stemsOf).plugins.map((item) => item.id);

    it.each(Object.entries(EXPECTED))('orders by %s, ties broken by the comparator', (orderBy, expected) => {
      expect(idsIn(orderedIndex(), { orderBy: orderBy as SortOrder })).toEqual(expected);
    });

    it.each(Object.entries(EXPECTED).filter(([order]) => order !== 'relevance'))(
      'orders text matches by %s the same way',
      (orderBy, expected) => {
        expect(idsIn(orderedIndex(), { orderBy: orderBy as SortOrder, search: 'widget' })).toEqual(expected);
      },
    );

    it('orders text matches of equal score by downloads, then the newest id', () => {
      // All four match "widget" in the description only: the score differs by downloads alone.
      expect(idsIn(orderedIndex(), { search: 'widget' })).toEqual([4, 2, 1, 3]);
    });

    it('walks the _asc orders as the exact reverse', () => {
      const catalogue = orderedIndex();
      expect(idsIn(catalogue, { orderBy: 'downloads_asc' })).toEqual(
        idsIn(catalogue, { orderBy: 'downloads' }).reverse(),
      );
      expect(idsIn(catalogue, { orderBy: 'rating_asc' })).toEqual(
        idsIn(catalogue, { orderBy: 'rating' }).reverse(),
      );
    });

    it('orders the catalogue a visitor sees without the items hidden from them', () => {
      expect(find({ orderBy: 'downloads' })).toEqual([
        KOTLIN,
        CONTAINER_TOOLS,
        PYTHON,
        GIT_TOOLBOX,
        DOCKER,
        PYTHON_TEST_RUNNER,
        BUILD_CHAINS,
        BUILD_WIDGET,
      ]);
      expect(find({ orderBy: 'name', family: 'intellij' })).toEqual([
        CONTAINER_TOOLS,
        DOCKER,
        GIT_TOOLBOX,
        KOTLIN,
        PYTHON,
        PYTHON_TEST_RUNNER,
      ]);
    });

    it('orders text matches by the order asked for, not by relevance', () => {
      expect(findText('docker')).toEqual([DOCKER, CONTAINER_TOOLS]);
      expect(find({ search: 'docker', orderBy: 'downloads' })).toEqual([CONTAINER_TOOLS, DOCKER]);
      expect(find({ search: 'docker', orderBy: 'downloads_asc' })).toEqual([DOCKER, CONTAINER_TOOLS]);
    });
  });

  describe('paging', () => {
    it('gives max items from offset, and the total of every match', () => {
      const page = index.search({ orderBy: 'downloads', max: 3, offset: 2 }, VISITOR, stemsOf);
      expect(page.plugins.map((item) => item.id)).toEqual([PYTHON, GIT_TOOLBOX, DOCKER]);
      expect(page.total).toBe(LISTED.length);
    });

    it('gives the last items when the page runs past the end', () => {
      const page = index.search({ orderBy: 'downloads', max: 5, offset: 6 }, VISITOR, stemsOf);
      expect(page.plugins.map((item) => item.id)).toEqual([BUILD_CHAINS, BUILD_WIDGET]);
      expect(page.total).toBe(LISTED.length);
    });

    it('gives no items past the end, still with the total', () => {
      expect(index.search({ max: 5, offset: 50 }, VISITOR, stemsOf)).toEqual({
        plugins: [],
        total: LISTED.length,
      });
    });

    it('gives only the total for max 0', () => {
      expect(index.search({ search: 'python', max: 0, offset: 0 }, VISITOR, stemsOf)).toEqual({
        plugins: [],
        total: 2,
      });
    });

    it('pages text matches in relevance order', () => {
      const all = findText('build');
      expect(all).toHaveLength(2);
      const second = index.search({ search: 'build', max: 1, offset: 1 }, VISITOR, stemsOf);
      expect(second.plugins.map((item) => item.id)).toEqual([all[1]]);
      expect(second.total).toBe(2);
    });

    it('pages long result lists consistently: the pages put together are the whole list', () => {
      const many = indexOf(
        Array.from({ length: 150 }, (_, position) => ({
          id: position + 1,
          name: `Widget ${position + 1}`,
          vector: `'widget':1A '${position + 1}':2A`,
          downloads: (position * 37) % 101,
        })),
      );
      for (const orderBy of ['relevance', 'downloads', 'name', 'downloads_asc'] as const) {
        for (const search of [undefined, 'widget']) {
          const whole = many
            .search({ search, orderBy, max: 150, offset: 0 }, VISITOR, stemsOf)
            .plugins.map((item) => item.id);
          expect(whole).toHaveLength(150);
          const paged: number[] = [];
          for (let offset = 0; offset < 150; offset += 7) {
            const page = many.search({ search, orderBy, max: 7, offset }, VISITOR, stemsOf);
            expect(page.total).toBe(150);
            paged.push(...page.plugins.map((item) => item.id));
          }
          expect(paged).toEqual(whole);
        }
      }
    });
  });

  describe('changes', () => {
    it('finds a renamed item under its new name, and no longer under its old one', () => {
      expect(findText('toolbox')).toEqual([GIT_TOOLBOX]);
      index.upsert(
        plugin({
          ...draftOf(GIT_TOOLBOX),
          name: 'Branch Buddy',
          vector:
            "'branch':1A 'buddi':2A 'zielu.gittoolbox':3B 'zielu':4B 'vcs':5B 'integr':6B 'extra':7C " +
            "'status':9C 'project':12C 'view':13C",
        }),
      );
      expect(findText('branch buddy')).toEqual([GIT_TOOLBOX]);
      expect(findText('budy')).toEqual([GIT_TOOLBOX]);
      expect(findText('toolbox')).toEqual([]);
      expect(findText('gti toolbox')).toEqual([]);
      expect(findText('toolbx')).toEqual([]);
      expect(find({ orderBy: 'name', family: 'intellij' })).toEqual([
        GIT_TOOLBOX,
        CONTAINER_TOOLS,
        DOCKER,
        KOTLIN,
        PYTHON,
        PYTHON_TEST_RUNNER,
      ]);
      const result = index.search({ search: 'branch', max: 10, offset: 0 }, VISITOR, stemsOf);
      expect(result.plugins[0]?.name).toBe('Branch Buddy');
      expect(index.size).toBe(CATALOGUE.length);
    });

    it('reorders the downloads order when only the downloads change', () => {
      // The sorted lists are built by these searches; the upsert must not leave them stale.
      expect(find({ orderBy: 'downloads', family: 'intellij' })[0]).toBe(KOTLIN);
      expect(find({ orderBy: 'downloads_asc', family: 'intellij' }).at(-1)).toBe(KOTLIN);
      expect(find({ orderBy: 'name', family: 'intellij' })[0]).toBe(CONTAINER_TOOLS);
      index.upsert(plugin({ ...draftOf(DOCKER), downloads: 500_000 }));
      expect(find({ orderBy: 'downloads', family: 'intellij' })).toEqual([
        DOCKER,
        KOTLIN,
        CONTAINER_TOOLS,
        PYTHON,
        GIT_TOOLBOX,
        PYTHON_TEST_RUNNER,
      ]);
      expect(find({ orderBy: 'downloads_asc', family: 'intellij' }).at(-1)).toBe(DOCKER);
      expect(find({ orderBy: 'relevance' })[0]).toBe(DOCKER);
      expect(find({ search: 'docker', orderBy: 'downloads' })).toEqual([DOCKER, CONTAINER_TOOLS]);
      expect(find({ orderBy: 'name', family: 'intellij' })[0]).toBe(CONTAINER_TOOLS);
      expect(
        index.search({ search: 'docker', max: 1, offset: 0 }, VISITOR, stemsOf).plugins[0]?.downloads,
      ).toBe(500_000);
    });

    it('follows a change of listing without a change of text', () => {
      expect(findText('kotlin')).toEqual([KOTLIN]);
      index.upsert(plugin({ ...draftOf(KOTLIN_SNIPPETS), listed: true }));
      expect(findText('kotlin')).toEqual([KOTLIN, KOTLIN_SNIPPETS]);
      index.upsert(plugin({ ...draftOf(KOTLIN), listed: false }));
      expect(findText('kotlin')).toEqual([KOTLIN_SNIPPETS]);
      expect(index.countByProduct({ search: 'kotlin' }, VISITOR, stemsOf).total).toBe(1);
    });

    it('follows a change of tags, products and pricing', () => {
      index.upsert(
        plugin({
          ...draftOf(KOTLIN),
          tags: ['Languages', 'Testing'],
          products: ['IDEA'],
          pricingModel: 'PAID',
          vector:
            "'kotlin':1A,4C 'org.jetbrains.kotlin':2B 'jetbrain':3B 'languag':4B,5C 'test':5B 'support':6C",
        }),
      );
      expect(sortedIds(find({ tags: ['testing'] }))).toEqual([PYTHON_TEST_RUNNER, KOTLIN]);
      expect(find({ products: ['PYCHARM'], search: 'kotlin' })).toEqual([]);
      expect(find({ products: ['IDEA'], search: 'kotlin' })).toEqual([KOTLIN]);
      expect(find({ payment: 'free', search: 'kotlin' })).toEqual([]);
      expect(find({ payment: 'paid', search: 'kotlin' })).toEqual([KOTLIN]);
    });

    it('drops a removed item from results and counts', () => {
      const before = index.countByProduct({}, VISITOR, stemsOf);
      index.remove(DOCKER);
      expect(findText('docker')).toEqual([CONTAINER_TOOLS]);
      expect(findText('dokcer')).toEqual([]);
      expect(find({})).not.toContain(DOCKER);
      expect(find({ orderBy: 'name' })).not.toContain(DOCKER);
      const after = index.countByProduct({}, VISITOR, stemsOf);
      expect(after.total).toBe(before.total - 1);
      expect(after.aggregations.WEBSTORM).toBe(before.aggregations.WEBSTORM! - 1);
      expect(index.countByProduct({ search: 'docker' }, VISITOR, stemsOf)).toEqual({
        aggregations: { IDEA: 1 },
        total: 1,
      });
      expect(index.size).toBe(CATALOGUE.length - 1);
    });

    it('drops a removed item even for administrators and through its xmlId', () => {
      index.remove(LEGACY_DOCKER);
      index.remove(DOCKER);
      expect(findText('docker', ADMIN)).toEqual([CONTAINER_TOOLS]);
      expect(findText('Docker', ADMIN)).toEqual([CONTAINER_TOOLS]);
    });

    it('ignores removing an id it does not hold', () => {
      index.remove(12345);
      expect(sortedIds(find({}))).toEqual(LISTED);
    });

    it('finds an item again after it was removed and added back', () => {
      index.remove(KOTLIN);
      index.upsert(plugin(draftOf(KOTLIN)));
      expect(findText('kotln')).toEqual([KOTLIN]);
      expect(find({ orderBy: 'downloads' })[0]).toBe(KOTLIN);
    });
  });

  describe('countByProduct', () => {
    it('counts the items running on each product, and their total', () => {
      const { aggregations, total } = index.countByProduct({}, VISITOR, stemsOf);
      expect(total).toBe(LISTED.length);
      // Docker, Kotlin and Git Toolbox name no products: they run on every IntelliJ-family product.
      expect(aggregations).toMatchObject({
        IDEA: 5,
        IDEA_COMMUNITY: 4,
        PYCHARM: 4,
        WEBSTORM: 3,
        GOLAND: 3,
        TEAMCITY: 1,
        HUB_WIDGET: 1,
      });
      // Products nothing runs on are left out.
      expect(aggregations).not.toHaveProperty('FLEET');
      expect(aggregations).not.toHaveProperty('YOUTRACK_WIDGET');
      expect(aggregations).not.toHaveProperty('RESHARPER');
      const intellijProducts = Object.values(IDE_PRODUCTS).filter((product) => product.family === 'intellij');
      for (const product of intellijProducts) expect(aggregations[product.key]).toBeGreaterThanOrEqual(3);
    });

    it('counts only text matches when there is text', () => {
      expect(index.countByProduct({ search: 'python' }, VISITOR, stemsOf)).toEqual({
        aggregations: { IDEA: 1, IDEA_COMMUNITY: 1, PYCHARM: 1 },
        total: 2,
      });
    });

    it('ignores the products filter but keeps the others', () => {
      const withProducts = index.countByProduct({ products: ['TEAMCITY'] }, VISITOR, stemsOf);
      expect(withProducts).toEqual(index.countByProduct({}, VISITOR, stemsOf));
      expect(index.countByProduct({ family: 'teamcity' }, VISITOR, stemsOf)).toEqual({
        aggregations: { TEAMCITY: 1 },
        total: 1,
      });
      expect(index.countByProduct({ payment: 'paid', tags: ['Languages'] }, VISITOR, stemsOf)).toEqual({
        aggregations: { PYCHARM: 1 },
        total: 1,
      });
    });

    it('counts what the viewer may see', () => {
      expect(index.countByProduct({ search: 'docker' }, ADMIN, stemsOf).total).toBe(3);
      expect(index.countByProduct({ search: 'docker' }, OWNER, stemsOf).total).toBe(2);
      expect(index.countByProduct({}, OWNER, stemsOf).total).toBe(LISTED.length + 1);
      expect(index.countByProduct({}, DEVELOPER, stemsOf).aggregations.IDEA).toBe(6);
    });

    it('agrees with the totals of searches filtered by each product', () => {
      for (const search of [undefined, 'docker', 'build', 'py']) {
        const { aggregations, total } = index.countByProduct({ search }, VISITOR, stemsOf);
        expect(index.search({ search, max: 0, offset: 0 }, VISITOR, stemsOf).total).toBe(total);
        for (const product of Object.keys(IDE_PRODUCTS) as IdeProductKey[]) {
          const found = index.search(
            { search, products: [product], max: 0, offset: 0 },
            VISITOR,
            stemsOf,
          ).total;
          expect(aggregations[product] ?? 0).toBe(found);
        }
      }
    });

    it('counts products it does not know that items name', () => {
      const index = indexOf([
        { id: 1, name: 'Odd', vector: "'odd':1A", products: ['SOME_NEW_IDE' as IdeProductKey] },
      ]);
      expect(index.countByProduct({}, VISITOR, stemsOf)).toEqual({
        aggregations: { SOME_NEW_IDE: 1 },
        total: 1,
      });
    });
  });
});

describe('firstOf', () => {
  /** A total order on numbers: descending remainder by 7, ties by value. */
  const compare = (a: number, b: number) => (b % 7) - (a % 7) || a - b;

  it('gives the first items in order, for short and long lists alike', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -1000, max: 1000 }), { maxLength: 300 }),
        fc.integer({ min: -2, max: 40 }),
        (items, count) => {
          const expected = [...items].sort(compare).slice(0, Math.max(0, count));
          expect(firstOf([...items], count, compare)).toEqual(expected);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('uses the bounded heap on a long list and still gives the exact order', () => {
    const items = Array.from({ length: 1000 }, (_, position) => (position * 7919) % 1009);
    expect(firstOf([...items], 5, (a, b) => a - b)).toEqual([0, 1, 2, 3, 4]);
    expect(firstOf([...items], 3, (a, b) => b - a)).toEqual([1008, 1007, 1006]);
  });

  it('gives nothing for a count of 0 or less', () => {
    expect(firstOf([3, 1, 2], 0, (a, b) => a - b)).toEqual([]);
    expect(firstOf([3, 1, 2], -1, (a, b) => a - b)).toEqual([]);
  });
});
