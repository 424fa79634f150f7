/**
 * Every message of the protocol carries this namespace, so a host page that also receives messages from
 * other frames (analytics, video players, other widgets) can tell ours apart without guessing from `type`.
 */
export const MESSAGE_NAMESPACE = 'plugin-marketplace';
export type MessageNamespace = typeof MESSAGE_NAMESPACE;
