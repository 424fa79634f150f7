import type { BlockState as CoreBlockState, LifecycleState as CoreLifecycleState } from '@marketplace/core';
import type { BlockState, LifecycleState } from '../db/schema';

/**
 * The plugin state machine lives in @marketplace/core, so the admin site shows exactly the actions the server
 * allows (one function for both); it is re-exported here for the server's routes.
 */
export {
  ADMIN_ACTIONS,
  adminLifecycleActions,
  decideLifecycleAction,
  LIFECYCLE_ACTIONS,
  REPORTING_ACTIONS,
  type LifecycleAction,
  type LifecycleChange,
  type LifecycleDecision,
  type LifecycleFacts,
} from '@marketplace/core';

// Fails to compile when the database's states and core's drift apart.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const _sameStates: [Same<LifecycleState, CoreLifecycleState>, Same<BlockState, CoreBlockState>] = [
  true,
  true,
];
