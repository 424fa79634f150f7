export {
  DEFAULT_DEMO_PLUGIN_COUNT,
  DEFAULT_DEMO_SEED,
  DEMO_ACCOUNTS,
  DEVELOPER_OWNED_PLUGINS,
  DOWNLOAD_HISTORY_DAYS,
  generateDemoCatalogue,
  type DemoCatalogue,
  type DemoCatalogueOptions,
  type DemoPlugin,
  type DemoVersion,
} from './generate';
export { buildPluginArchive, pluginXml } from './archive';
export {
  DemoCatalogueError,
  isCatalogueEmpty,
  loadDemoCatalogue,
  type LoadDemoCatalogueOptions,
  type LoadDemoCatalogueResult,
} from './load';
