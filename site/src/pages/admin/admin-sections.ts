/**
 * The administration area's sections, in the order of its navigation. Each section is a page of its own
 * under /admin (routes in router.tsx); the moderation queue is the area's first page.
 */
export const ADMIN_SECTIONS: readonly { path: string; label: string }[] = [
  { path: '/admin', label: 'Moderation' },
  { path: '/admin/reports', label: 'Reports' },
  { path: '/admin/audit', label: 'Audit log' },
  { path: '/admin/users', label: 'Users' },
  { path: '/admin/featured', label: 'Featured' },
  { path: '/admin/trust', label: 'Trust' },
  { path: '/admin/mirrors', label: 'Mirrors' },
  { path: '/admin/scheduler', label: 'Scheduler' },
  { path: '/admin/features', label: 'Feature flags' },
  { path: '/admin/performance', label: 'Performance' },
];
