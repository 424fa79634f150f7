export { authPlugin, type AuthPluginOptions } from './plugin';
export {
  authConfigFromEnv,
  authMetaTags,
  renderAuthMetaTags,
  AuthConfigError,
  EMBEDDED_CLIENT_ID,
  SITE_CALLBACK_PATH,
  type AuthConfig,
} from './config';
export {
  GUEST_VIEWER,
  isWriteMethod,
  signedInViewer,
  type AuthRule,
  type SignedInViewer,
  type Viewer,
} from './authorization';
export type { AuthenticatedUser } from './users';
export { startLocalChannel, localChannelPath, type LocalChannel } from './local-channel';
export {
  runUsersCommand,
  runTokensCommand,
  usersCommand,
  tokensCommand,
  commandContextFromEnv,
  USERS_USAGE,
  TOKENS_USAGE,
} from './cli';
export {
  setDemoPasswords,
  describeDemoAccounts,
  DEMO_ACCOUNT_LOGINS,
  type DemoAccount,
} from './demo-accounts';
export { OIDC_MOUNT_PATH } from './embedded-provider';
