/**
 * The SDK's version. Registration compares it with the version that already defined an element, so a page
 * that loads two copies of the same SDK stays quiet while two different SDKs on one page get a warning.
 */
export const SDK_VERSION = '0.1.0';
