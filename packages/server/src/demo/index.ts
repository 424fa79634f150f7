export {
  DEFAULT_DEMO_PLUGIN_COUNT,
  DEFAULT_DEMO_SEED,
  DEMO_ACCOUNTS,
  DEVELOPER_OWNED_PLUGINS,
  DOWNLOAD_HISTORY_DAYS,
  demoReviewerCount,
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
export {
  DEMO_COMMISSION_PERCENT,
  DEMO_CURRENCY_CODE,
  SALES_HISTORY_DAYS,
  demoProductCode,
  demoProductDescriptors,
  generateItemCommerce,
  generateItemSales,
  generateSeller,
  generateVisitorOrders,
  type DemoBuyer,
  type DemoCommerceContext,
  type DemoCommerceInput,
  type DemoItemCommerce,
  type DemoOffer,
  type DemoOrder,
  type DemoSale,
  type DemoSeller,
} from './commerce';
export {
  DemoCommerceWriter,
  insertSaleRows,
  type DemoCommerceCounts,
  type DemoSaleRow,
} from './commerce-load';
