/**
 * The administration area's sections, in the order of its navigation. Each section is a page of its own
 * under /admin (routes in router.tsx); the moderation queue is the area's first page.
 */
export const ADMIN_SECTIONS: readonly { path: string; label: string }[] = [
  { path: '/admin', label: 'Moderation' },
];
